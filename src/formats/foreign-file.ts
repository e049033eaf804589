import type { Problem } from "../model/contract.js";
import { problem } from "../model/problems.js";
import { atxText } from "./markdown/lines.js";

/**
 * One error for a file that sits at a kind's path but holds none of that
 * kind's identifying keys or headings: another tool's file, an older format,
 * a README. Listing every key or section such a file lacks would bury the
 * one fact that matters, so the file is named once, at line 1, with what it
 * looks like and how to stop the gate from reading it as a contract. It still
 * blocks: a file at a contract's path that is not a contract is never a pass.
 *
 * Shared by every kind: JSON kinds describe a file by its top-level keys
 * (`describeJsonTop`), markdown kinds by its first heading (`describeMarkdown`).
 */
export function foreignFile(path: string, expected: string, looksLike: string): Problem {
  return problem(
    "foreign-file",
    { path, line: 1, column: 1 },
    `${path} is at the path of ${expected} but has none of its identifying keys or headings (${looksLike}); it is not read as a contract`,
    {
      hint: "move or rename the file if it is not a contract, or leave it out of the contract globs; if it is one, write it in the format docs/contracts.md describes for this kind",
    },
  );
}

const KEY_PREVIEW = 8;

/** What a JSON document's top level looks like, for `foreignFile`. */
export function describeJsonTop(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `its top level is ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return "its top level is an empty object";
  const shown = keys.slice(0, KEY_PREVIEW).join(", ");
  const more = keys.length > KEY_PREVIEW ? `, … (${keys.length} in all)` : "";
  return `its top-level keys are ${shown}${more}`;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const SHOWN_CHARS = 60;

/** What a markdown file looks like, for `foreignFile`: its first ATX heading, if any. */
export function describeMarkdown(lines: readonly string[]): string {
  for (const line of lines) {
    const m = HEADING.exec(line);
    if (!m) continue;
    const full = atxText(line.trimStart());
    const text = full.length > SHOWN_CHARS ? `${full.slice(0, SHOWN_CHARS - 1)}…` : full;
    return `its first heading is "${m[1]} ${text}"`;
  }
  return "it has no heading";
}
