import type { Location, Problem } from "../../model/contract.js";
import { reportHiddenGrammar } from "../markdown/hidden.js";
import { type Doc, locate } from "../markdown/lines.js";
import { asRead } from "../markdown/normalize.js";
import { openDoc } from "../markdown/open-doc.js";
import type { CappedProblems } from "../markdown/problem-sink.js";
import { decodeContract, isProblem } from "../text.js";

/**
 * An OpenSpec file read as GitHub renders it (the shared markdown reader):
 * fenced code is shown but is no structure, as for OpenSpec's own reader;
 * HTML comments are not shown, so a heading hidden in one is an error rather
 * than a requirement reviewers never saw.
 */
export interface OpenspecDoc {
  doc: Doc;
  problems: CappedProblems;
}

const HEADING = /^[ \t]*#{1,6}[ \t]/;

/** Decode and render; a file that cannot be decoded is one problem. */
export function readOpenspecDoc(path: string, bytes: Uint8Array): OpenspecDoc | Problem {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return decoded;
  const { doc, rendered, problems } = openDoc(path, decoded.lines);
  reportHiddenGrammar(
    doc,
    rendered.parts,
    problems,
    // After a comment's `-->` a heading is raw HTML text to GitHub and no heading to
    // OpenSpec's line reader either: both agree, nothing to refuse.
    (part) =>
      part.by.kind !== "raw-html" && HEADING.test(asRead(part.text)) ? "a heading" : undefined,
    { structure: "spec", rawReader: " (OpenSpec would)" },
  );
  return { doc, problems };
}

/** The shown text of line `i`, or undefined for a fenced or hidden line. */
export function shown(doc: Doc, i: number): string | undefined {
  return doc.hidden[i] ? undefined : doc.visible[i];
}

export function at(doc: Doc, i: number, column = 1): Location {
  return locate(doc, i, column);
}
