/**
 * Open `[NEEDS CLARIFICATION: <question>]` markers, read as rendered text.
 * spec-kit writes them into a spec for every question the request left open;
 * only an open question counts. Real specs hold the marker in other forms
 * that are not questions, and none of them may block:
 * - in a code span (`` `[NEEDS CLARIFICATION: …]` `` quoted in prose);
 * - in a checklist item (`- [x] No [NEEDS CLARIFICATION] markers remain`);
 * - without a colon, naming the marker rather than asking (`No [NEEDS CLARIFICATION] markers`);
 * - the template's own placeholder wording (`Mark with [NEEDS CLARIFICATION: specific question]`);
 * - an answer that there is none (`[NEEDS CLARIFICATION: none]`, `(none in this spec)`).
 */

const OPEN = "[NEEDS CLARIFICATION:";
const CHECKLIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[[ xX]\]/;
/** The template's instruction and answers that say nothing is open. */
const PLACEHOLDER = /^(?:specific question|question|\.\.\.|…|none\b.*|n\/a|tbd|\[.*\])$/i;
const INSTRUCTION =
  /\bmark (?:it |them )?with\b|\buse \[NEEDS CLARIFICATION|\bexample of marking\b/i;
/** Longer lines are not searched for code spans: every marker on them counts (fail closed). */
const SPAN_SCAN_LIMIT = 4_000;

export interface OpenMarker {
  question: string;
  /** 1-based column of the `[`. */
  column: number;
}

/** The open markers on one shown line (hidden parts already cut out). */
export function openMarkers(line: string): OpenMarker[] {
  if (line.indexOf(OPEN) === -1) return [];
  if (CHECKLIST_ITEM.test(line) || INSTRUCTION.test(line)) return [];
  const text = line.length <= SPAN_SCAN_LIMIT ? blankCodeSpans(line) : line;
  const out: OpenMarker[] = [];
  for (let p = text.indexOf(OPEN); p !== -1; p = text.indexOf(OPEN, p + OPEN.length)) {
    const close = text.indexOf("]", p + OPEN.length);
    const question = text.slice(p + OPEN.length, close === -1 ? text.length : close).trim();
    if (PLACEHOLDER.test(question) || question === "") continue;
    out.push({ question, column: p + 1 });
  }
  return out;
}

/** A bare `NEEDS CLARIFICATION` (plan.md's Technical Context writes it without brackets). */
export function bareMarker(line: string): number {
  if (CHECKLIST_ITEM.test(line)) return -1;
  const text = line.length <= SPAN_SCAN_LIMIT ? blankCodeSpans(line) : line;
  const at = text.indexOf("NEEDS CLARIFICATION");
  return at === -1 || INSTRUCTION.test(text) ? -1 : at;
}

/** The line with every code span's content replaced by spaces (positions kept). */
function blankCodeSpans(line: string): string {
  if (line.indexOf("`") === -1) return line;
  let out = "";
  let p = 0;
  while (p < line.length) {
    const open = line.indexOf("`", p);
    if (open === -1) break;
    let end = open;
    while (line[end] === "`") end++;
    const run = line.slice(open, end);
    let close = line.indexOf(run, end);
    while (close !== -1 && (line[close + run.length] === "`" || line[close - 1] === "`")) {
      let q = close;
      while (line[q] === "`") q++;
      close = line.indexOf(run, q);
    }
    if (close === -1) {
      out += line.slice(p, end);
      p = end;
      continue;
    }
    out += line.slice(p, end) + " ".repeat(close - end) + run;
    p = close + run.length;
  }
  return out + line.slice(p);
}
