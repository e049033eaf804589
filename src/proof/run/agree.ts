import { answerFor, type GradedEntry, type SideAnswer } from "./grade.js";
import type { Invocation } from "./side.js";

/**
 * The measured process does not write its verdict (docs/proof.md, "The
 * verdict is the exit status"): a results file is something the tests'
 * own process tree can write, an exit status is not. A mapped test's
 * answer stands when its run's exit status agrees with it — passed in a run
 * that exited 0, failed or errored in one that did not. Where they
 * disagree (passed, yet the run exited 1: a real failure elsewhere, or a
 * forged results file with a decoy failing case), the test is run alone and
 * graded by that run's exit status.
 */

/** A mapped test's place in the answers: its file and full name. */
export const entryKey = (e: Pick<GradedEntry, "file" | "name">): string => `${e.file}\0${e.name}`;

/**
 * The mapped tests (one per file and name) whose answer in `side` its run's
 * exit status contradicts. At base a pass is never re-run: it can only make
 * a requirement unmet (passes at base) or an invariant unwarned, so a forged
 * one gains nothing, and a base run exits 1 by design while its invariants pass.
 */
export function disagreements(
  which: "head" | "base",
  entries: readonly GradedEntry[],
  side: readonly Invocation[],
  all: readonly GradedEntry[],
): GradedEntry[] {
  const out = new Map<string, GradedEntry>();
  for (const e of entries) {
    const answer = answerFor(e, side, all);
    if (answer.kind !== "outcome") continue;
    const exit = side.find((i) => i.files.includes(e.file))?.run.exitCode;
    if (exit === undefined) continue;
    const passed = answer.outcome === "passed";
    const failed = answer.outcome === "failed" || answer.outcome === "errored";
    if ((passed && exit !== 0 && which === "head") || (failed && exit === 0))
      out.set(entryKey(e), e);
  }
  return [...out.values()];
}

/** One side's answer for a mapped test, by the exit status of its run alone. */
export function soloAnswer(
  entry: GradedEntry,
  solo: Invocation,
  all: readonly GradedEntry[],
): SideAnswer {
  const answer = answerFor(entry, [solo], all);
  if (answer.kind === "error") {
    return {
      kind: "error",
      message: `its run's results and exit status disagreed, and alone: ${answer.message}`,
    };
  }
  const exit = solo.run.exitCode;
  if (exit === 0) {
    if (answer.outcome === "passed") return answer;
    return {
      kind: "error",
      message: `its run's results and exit status disagreed, and alone it exits 0 yet is reported ${answer.outcome}`,
    };
  }
  // Exit non-zero: whatever the results say, it does not pass.
  if (answer.outcome === "passed") return { kind: "outcome", outcome: "failed", loadFailed: false };
  return answer;
}
