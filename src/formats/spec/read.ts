import type { Location, Problem } from "../../model/contract.js";
import type { ProblemCode } from "../../model/problem-codes.js";
import { problem } from "../../model/problems.js";
import { reportHiddenGrammar } from "../markdown/hidden.js";
import { type Doc, locate } from "../markdown/lines.js";
import { asRead, difference } from "../markdown/normalize.js";
import { openDoc } from "../markdown/open-doc.js";
import type { CappedProblems } from "../markdown/problem-sink.js";
import { decodeContract, isProblem } from "../text.js";

const ASCII = /^[\x20-\x7e\t]*$/;
/**
 * A requirement spec or task list read as GitHub renders it, with the oracle
 * kind's reader (rendered.ts): fenced code is shown but is not grammar, HTML
 * comments and link reference definitions are not shown at all, and grammar
 * found in a hidden part is an error, so the gate never reads a different
 * spec from the one reviewers read.
 */
export interface SpecDoc {
  doc: Doc;
  problems: CappedProblems;
  /** 0-based index of the first non-blank shown line after any front matter. */
  first: number;
}

/** Decode, render and check hidden parts; a file that cannot be decoded is one problem. */
export function readSpecDoc(path: string, bytes: Uint8Array): SpecDoc | Problem {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return decoded;
  const { doc, rendered, problems } = openDoc(path, decoded.lines);
  reportHiddenGrammar(doc, rendered.parts, problems, (part) => grammarIn(part.text), {
    structure: "spec",
  });
  return { doc, problems, first: firstShown(doc) };
}

/**
 * What in a hidden piece of text would be spec grammar on the page: a
 * requirement, task, scenario, acceptance or map line, a status line, an
 * open-question marker, a heading.
 */
const HIDDEN_GRAMMAR: readonly [RegExp, string][] = [
  [/^[ \t]*#{1,6}[ \t]/, "a heading"],
  [/^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?FR-\d/i, "a requirement"],
  [
    /^[ \t]*(?:[-*+][ \t]+)?\[[ xX]\][ \t]+(?:\*\*|~~)?(?:T\d|AC-\d)/i,
    "a task or acceptance criterion",
  ],
  [/^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?Scenario[ \t]*:/i, "a scenario"],
  [/SPEC[ \t]+STATUS[ \t]*:/i, "a SPEC STATUS line"],
  [/\[NEEDS[ \t]+CLARIFICATION/i, "a [NEEDS CLARIFICATION] marker"],
];

function grammarIn(text: string): string | undefined {
  const read = asRead(text);
  return HIDDEN_GRAMMAR.find(([re]) => re.test(read))?.[1];
}

/** Skip YAML front matter (`---` … `---` from line 1), then blank and hidden lines. */
function firstShown(doc: Doc): number {
  let i = 0;
  if (doc.lines[0]?.trim() === "---") {
    for (let k = 1; k < doc.lines.length; k++) {
      if (doc.lines[k]!.trim() === "---") {
        i = k + 1;
        break;
      }
    }
  }
  while (i < doc.lines.length && (doc.hidden[i] || doc.visible[i]!.trim() === "")) i++;
  return i;
}

/** Report a line written in look-alike or invisible characters that reads as grammar. */
export function nearMiss(
  sd: SpecDoc,
  index: number,
  what: string,
  hint: string,
  code: ProblemCode = "keyword-near-miss",
): void {
  const raw = sd.doc.lines[index]!;
  const at: Location = locate(sd.doc, index, raw.length - raw.trimStart().length + 1);
  if (sd.problems.full(code, at)) return;
  sd.problems.push(
    problem(
      code,
      at,
      `this line reads as ${what} but ${difference(Array.from(raw.trimStart()).slice(0, 24).join(""))}, so the gate does not read it as one`,
      { hint },
    ),
  );
}

/** Whether a line is ASCII (reads as itself). */
export function isAscii(line: string): boolean {
  return ASCII.test(line);
}

export { asRead, locate };
