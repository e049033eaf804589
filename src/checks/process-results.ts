import type { ProcessOutcome } from "../process/run-process.js";
import type { CheckResult } from "./types.js";

/** A check that could not run: never a pass, never a verdict on the code either. */
export function executionError(reason: string, durationMs = 0): CheckResult {
  return { result: "partial", failureReason: "verification-execution-error", reason, durationMs };
}

/**
 * Result builders for a process check that ran: every result carries the run's
 * duration, output tail, `detail` and exit code (when it exited normally).
 */
export function processResults(run: ProcessOutcome, detail: string) {
  const exitCode = run.kind === "exited" && run.exitCode !== null ? run.exitCode : undefined;
  const base = {
    durationMs: run.durationMs,
    outputTail: run.combinedTail,
    detail,
    ...(exitCode !== undefined && { exitCode }),
  };
  return {
    exitCode,
    pass: (reason: string): CheckResult => ({ ...base, result: "pass", reason }),
    partial: (reason: string): CheckResult => ({ ...executionError(reason), ...base }),
    unmet: (reason: string): CheckResult => ({
      ...base,
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason,
    }),
  };
}
