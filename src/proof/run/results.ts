/**
 * What one runner invocation reported, after each runner's conventions are
 * read: every test case with the mapped files it may belong to and its
 * full name in one canonical form, and the mapped files that failed to load.
 */

/** A test case's outcome as the runner reported it. */
export type CaseOutcome = "passed" | "failed" | "errored" | "skipped";

export interface ResultCase {
  /**
   * The mapped files this case may belong to: one for most runners; every
   * mapped file of its package for Go (a test name is unique per package);
   * `undefined` when the runner says nothing about files (matched by name).
   */
  files?: readonly string[];
  /** The full name, canonical (`canonicalName`). */
  name: string;
  outcome: CaseOutcome;
}

export interface RunResults {
  cases: ResultCase[];
  /** Mapped files whose module failed to load, collect or build: their tests are absent. */
  loadFailed: ReadonlySet<string>;
}

export type ReadResult = { ok: true; results: RunResults } | { ok: false; message: string };

/**
 * One spelling of a full test name for every runner, so a map line written
 * `FILE > suite > test` or `FILE::Class::test` finds the case: the levels
 * split at ` > ` (vitest, jest, Node), ` › ` (jest's own console) or `::`
 * (pytest), trimmed, joined by ` > `; runs of white space are one space.
 * Go's `TestX/sub` is one level: Go itself names subtests that way.
 */
export function canonicalName(name: string): string {
  return name
    .replace(/\s+/g, " ")
    .split(/ ?::| > | › /)
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .join(" > ");
}
