import { envHint } from "../process/env-hints.js";
import type { ProcessOutcome } from "../process/run-process.js";
import type { CheckResult, RunSettings } from "./types.js";

/** A check that could not run: never a pass, never a verdict on the code either. */
export function executionError(reason: string, durationMs = 0): CheckResult {
  return { result: "partial", failureReason: "verification-execution-error", reason, durationMs };
}

/**
 * Result builders for a process check that ran: every result carries the run's
 * duration, output tail, `detail` and exit code (when it exited normally). A
 * result that is not a pass carries the environment's hint (a withheld
 * variable its output names, a network failure with the network off).
 */
export function processResults(
  run: ProcessOutcome,
  detail: string,
  settings?: Pick<RunSettings, "envHints">,
) {
  const exitCode = run.kind === "exited" && run.exitCode !== null ? run.exitCode : undefined;
  const base = {
    durationMs: run.durationMs,
    outputTail: run.combinedTail,
    detail,
    ...(exitCode !== undefined && { exitCode }),
  };
  const hint = settings?.envHints && envHint(run.combinedTail, settings.envHints);
  const hinted = (reason: string) => (hint === undefined ? reason : `${reason}; ${hint}`);
  return {
    exitCode,
    pass: (reason: string): CheckResult => ({ ...base, result: "pass", reason }),
    partial: (reason: string): CheckResult => ({
      ...executionError(hinted(reason)),
      ...base,
    }),
    unmet: (reason: string): CheckResult => ({
      ...base,
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason: hinted(reason),
    }),
  };
}
