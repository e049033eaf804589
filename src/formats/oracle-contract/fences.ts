/**
 * CommonMark fenced code blocks. Contracts quote commands, templates and other
 * contracts inside fences; nothing inside one may count as a criterion, an
 * attribute, an ABANDON or a heading, or a quoted example would become a
 * live gate.
 */

export interface FenceScan {
  /** `hidden[i]` is true when line i (0-based) is a fence line or inside a fence. */
  hidden: boolean[];
  /** 0-based index of the opening line of a fence never closed, if any. */
  unclosedAt?: number;
}

interface OpenFence {
  char: "`" | "~";
  length: number;
}

// Up to 3 spaces of indentation (a tab or a 4th space makes an indented code
// block, not a fence), then a run of 3+ backticks or tildes.
const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

function opening(line: string): OpenFence | undefined {
  const m = OPENING.exec(line);
  if (!m) return undefined;
  const run = m[1]!;
  const char = run[0] as "`" | "~";
  // A backtick in a backtick fence's info string makes the line an inline
  // code span in CommonMark, not a fence.
  if (char === "`" && m[2]!.includes("`")) return undefined;
  return { char, length: run.length };
}

function closes(line: string, open: OpenFence): boolean {
  const m = CLOSING.exec(line);
  if (!m) return false;
  const run = m[1]!;
  return run[0] === open.char && run.length >= open.length;
}

/**
 * Mark every line a fence hides. Containers (lists, block quotes) are not
 * modelled: a fence is recognised only with 0-3 spaces of indentation and runs
 * until its own closing fence, which is how contracts are written in practice.
 */
export function scanFences(lines: readonly string[]): FenceScan {
  const hidden = new Array<boolean>(lines.length).fill(false);
  let open: OpenFence | undefined;
  let openedAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (open) {
      hidden[i] = true;
      if (closes(line, open)) open = undefined;
      continue;
    }
    const o = opening(line);
    if (o) {
      open = o;
      openedAt = i;
      hidden[i] = true;
    }
  }
  // CommonMark would run an unclosed fence to the end of the document; the
  // lines stay hidden (that is what a renderer shows) and the caller reports it.
  return open ? { hidden, unclosedAt: openedAt } : { hidden };
}
