import { performance } from "node:perf_hooks";
import type { CheckResult, FailureReason } from "../types.js";

/** Builds the results of one file check, timed from when the check started. */
export function resultsFrom(started = performance.now()) {
  const make = (
    result: CheckResult["result"],
    failureReason: FailureReason | undefined,
    reason: string,
    detail?: string,
  ): CheckResult => {
    const out: CheckResult = {
      result,
      reason,
      durationMs: Math.round(performance.now() - started),
    };
    if (failureReason) out.failureReason = failureReason;
    if (detail) out.detail = detail;
    return out;
  };
  return {
    pass: (reason: string, detail?: string) => make("pass", undefined, reason, detail),
    unmet: (reason: string, detail?: string) =>
      make("fail", "verification-criteria-unmet", reason, detail),
    evidenceMissing: (reason: string, detail?: string) =>
      make("fail", "verification-evidence-missing", reason, detail),
    /** Could not run: never a pass, never a verdict on the code either. */
    executionError: (reason: string, detail?: string) =>
      make("partial", "verification-execution-error", reason, detail),
  };
}
