import type { Section } from "../model/contract.js";
import { type Finding, finding } from "./types.js";

/** The doctrine's marker for an entry a person approved at a human gate. */
export const GATED = /\[gated \d{4}-\d{2}-\d{2}\]/;
/** A CLARIFICATIONS placeholder such as `(or: none — request complete)`; replacing it is an append. */
const NONE_PLACEHOLDER = /^\(?\s*(?:or:\s*)?none\b/i;

/** Where a finding points (the head file), and what it is about. */
export type At = (
  line: number,
  subject: string,
) => Pick<Finding, "contract" | "kind" | "path" | "line" | "subject">;

/**
 * Entries of an append-only section (one per non-blank line): base entries
 * must stay, in order, as the start of head's; later entries are appends.
 */
export function entryFindings(
  base: Section | undefined,
  head: Section | undefined,
  name: string,
  at: At,
  opts: { changed: "clarification-changed" | "file-scope-edited"; placeholder: boolean },
): Finding[] {
  let b = entries(base);
  const h = entries(head);
  if (opts.placeholder && b.length === 1 && NONE_PLACEHOLDER.test(b[0]!.text)) b = [];
  const out: Finding[] = [];
  let kept = 0;
  for (const [i, entry] of b.entries()) {
    const now = h[i];
    if (now?.text === entry.text) {
      kept = i + 1;
      continue;
    }
    out.push(
      finding({
        code: opts.changed,
        ...at(now?.line ?? head?.startLine ?? 1, name),
        message: now
          ? `a ${name} entry present at base (line ${entry.line}) was edited`
          : `a ${name} entry present at base (line ${entry.line}) was removed`,
        before: entry.text,
        ...(now ? { after: now.text } : {}),
      }),
    );
    // One finding for the first divergence: what follows is shifted, not changed.
    return out;
  }
  for (const entry of h.slice(kept)) {
    if (GATED.test(entry.text)) continue;
    out.push(
      finding({
        code: "ungated-append",
        ...at(entry.line, name),
        message: `a ${name} entry was added without a [gated <YYYY-MM-DD>] marker`,
        after: entry.text,
      }),
    );
  }
  return out;
}

function entries(section: Section | undefined): { text: string; line: number }[] {
  if (section === undefined) return [];
  return section.text
    .split("\n")
    .map((text, i) => ({ text: text.trim(), line: section.startLine + i }))
    .filter((e) => e.text !== "");
}
