import type { Location, Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
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
  for (const part of rendered.parts) {
    if (!HEADING.test(asRead(part.text)) || part.by.kind === "raw-html") continue;
    const at = locate(doc, part.index, part.column);
    if (problems.full("hidden-structure", at)) continue;
    problems.push(
      problem(
        "hidden-structure",
        at,
        `a heading is hidden inside ${part.by.kind === "definition" ? "a link reference definition" : "an HTML comment"} opened on line ${part.by.line + 1}: GitHub does not show it, so the gate does not read it (OpenSpec would)`,
        { hint: "take the heading out of the comment, or delete it" },
      ),
    );
  }
  return { doc, problems };
}

/** The shown text of line `i`, or undefined for a fenced or hidden line. */
export function shown(doc: Doc, i: number): string | undefined {
  return doc.hidden[i] ? undefined : doc.visible[i];
}

export function at(doc: Doc, i: number, column = 1): Location {
  return locate(doc, i, column);
}
