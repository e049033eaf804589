/**
 * CommonMark fenced code blocks. Contracts quote commands, templates and other
 * contracts inside fences; nothing inside one may count as a criterion, an
 * attribute, an ABANDON or a heading, or a quoted example would become a
 * live gate. Containers (lists, block quotes) are not modelled: a fence is
 * recognised only with 0-3 spaces of indentation and runs until its own
 * closing fence, which is how contracts are written in practice.
 */

export interface OpenFence {
  char: "`" | "~";
  length: number;
}

// Up to 3 spaces of indentation (a tab or a 4th space makes an indented code
// block, not a fence), then a run of 3+ backticks or tildes. Both patterns
// are anchored and each quantifier gives back at most one run: linear.
const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** The fence a line opens, if it opens one. */
export function openingFence(line: string): OpenFence | undefined {
  const m = OPENING.exec(line);
  if (!m) return undefined;
  const run = m[1]!;
  const char = run[0] as "`" | "~";
  // A backtick in a backtick fence's info string makes the line an inline
  // code span in CommonMark, not a fence.
  if (char === "`" && m[2]!.includes("`")) return undefined;
  return { char, length: run.length };
}

/** Whether a line closes the open fence: same character, at least as long, no info. */
export function closesFence(line: string, open: OpenFence): boolean {
  const m = CLOSING.exec(line);
  if (!m) return false;
  const run = m[1]!;
  return run[0] === open.char && run.length >= open.length;
}
