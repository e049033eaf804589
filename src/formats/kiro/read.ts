import type { Problem } from "../../model/contract.js";
import { reportHiddenGrammar } from "../markdown/hidden.js";
import { type Doc, locate } from "../markdown/lines.js";
import { asRead } from "../markdown/normalize.js";
import { openDoc } from "../markdown/open-doc.js";
import type { CappedProblems } from "../markdown/problem-sink.js";
import { decodeContract, isProblem } from "../text.js";

/** A Kiro file read as GitHub renders it (the shared markdown reader). */
export interface KiroDoc {
  doc: Doc;
  problems: CappedProblems;
}

/**
 * What in a hidden piece of text would be Kiro grammar on the page: a
 * requirement or property heading, a task line, a numbered acceptance
 * criterion, a `_Requirements:_` or `Validates:` line. Grammar a reviewer
 * cannot see is an error, never read.
 */
const HIDDEN_GRAMMAR: readonly [RegExp, string][] = [
  [/^[ \t]*#{2,4}[ \t]+(?:Requirement|Property|要件)/i, "a requirement or property heading"],
  [/^[ \t]*[-*+][ \t]*\[[ xX~-]\]/, "a task"],
  [/(?:_|\*\*)Requirements?(?:\*\*)?[ \t]*:/i, "a requirement reference"],
  [/Validates[ \t]*:/i, "a Validates line"],
  [/^\d+\.[ \t].*\bSHALL\b/, "an acceptance criterion"],
];

function grammarIn(text: string): string | undefined {
  const read = asRead(text);
  return HIDDEN_GRAMMAR.find(([re]) => re.test(read))?.[1];
}

/** Decode and render a Kiro file; one that cannot be decoded is one problem. */
export function readKiroDoc(path: string, bytes: Uint8Array): KiroDoc | Problem {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return decoded;
  const { doc, rendered, problems } = openDoc(path, decoded.lines);
  reportHiddenGrammar(doc, rendered.parts, problems, (part) => grammarIn(part.text), {
    structure: "spec",
  });
  return { doc, problems };
}

/** The ATX heading level of a shown line (0: not a heading). */
export function headingLevel(line: string): number {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 35) n++;
  if (n === 0 || n > 6) return 0;
  const after = line[n];
  return after === undefined || after === " " || after === "\t" ? n : 0;
}

export { locate };
