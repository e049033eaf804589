import type { Location, Problem, Severity } from "./contract.js";
import { defaultHint, PROBLEM_CODES, type ProblemCode } from "./problem-codes.js";

/** Build a problem at a location; severity and hint default to the code's registered ones. */
export function problem(
  code: ProblemCode,
  at: Location,
  message: string,
  opts: { severity?: Severity; hint?: string } = {},
): Problem {
  const p: Problem = {
    code,
    severity: opts.severity ?? PROBLEM_CODES[code].severity,
    message,
    path: at.path,
    line: at.line,
    column: at.column,
  };
  // Every problem ends in a fix: the finder's own, else the code's record.
  p.hint = opts.hint ?? defaultHint(code);
  return p;
}

/**
 * Deterministic order: path, line, column, code, then message. Users read
 * problems top to bottom while fixing a file, and tests compare whole lists.
 */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      cmp(a.path, b.path) ||
      a.line - b.line ||
      a.column - b.column ||
      cmp(a.code, b.code) ||
      cmp(a.message, b.message),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
