import { problem } from "../../model/problems.js";
import { type Doc, locate } from "./lines.js";
import type { ProblemSink } from "./problem-sink.js";
import type { HiddenPart, Hider } from "./rendered.js";

/** How a kind's hidden-grammar errors end: what its grammar is called, who would still read it. */
export interface HiddenWording {
  /** "spec", "contract": raw HTML is shown "as plain text, not as <structure> structure". */
  structure: string;
  /** After "so the gate does not read it": a reader that reads the raw file, e.g. ", but OpenSpec would". */
  rawReader?: string;
}

/**
 * Every kind's one rule for grammar GitHub does not show as grammar: a
 * heading, task or criterion in an HTML comment or a link reference
 * definition is not on the page, and text after a block comment's `-->` is
 * shown as raw HTML text; either way the gate refuses to read it (an error
 * at its place, capped) so it never reads a different file from the one
 * reviewers read. `what` names the grammar a part holds (undefined: prose).
 */
export function reportHiddenGrammar(
  doc: Doc,
  parts: readonly HiddenPart[],
  problems: ProblemSink,
  what: (part: HiddenPart) => string | undefined,
  wording: HiddenWording,
): void {
  for (const part of parts) {
    const found = what(part);
    if (found === undefined) continue;
    const at = locate(doc, part.index, part.column);
    if (problems.full("hidden-structure", at)) continue;
    problems.push(
      part.by.kind === "raw-html"
        ? problem(
            "hidden-structure",
            at,
            `${found} follows an HTML comment on the same line, which makes it raw HTML: GitHub shows it as plain text, not as ${wording.structure} structure`,
            { hint: "put the comment on its own line, or remove it" },
          )
        : problem(
            "hidden-structure",
            at,
            `${found} is hidden inside ${hider(part.by)}: GitHub does not show it, so the gate does not read it${wording.rawReader ?? ""}`,
            {
              hint: "remove it, or take it out of the comment or definition so reviewers see what the gate reads",
            },
          ),
    );
  }
}

function hider(by: Hider): string {
  return by.kind === "definition"
    ? `the link reference definition on line ${by.line + 1}`
    : `the HTML comment opened on line ${by.line + 1}`;
}
