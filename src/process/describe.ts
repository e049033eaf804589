import type { ProcessOutcome } from "./run-process.js";

/** Every timeout reason starts with this (the write-back line keys on it). */
export const TIMEOUT_REASON_PREFIX = "timed out after ";

/**
 * The one-line reason for a run that did not get to an exit status (an
 * execution error, never a verdict on the criterion), or `undefined` when the
 * process exited or died of a signal on its own. `timeoutText` reads like
 * "30000 ms"; `cwdShown` is the working directory as the contract wrote it.
 */
export function notRunReason(
  run: ProcessOutcome,
  command: string,
  timeoutText: string,
  cwdShown: string,
): string | undefined {
  switch (run.kind) {
    case "exited":
      return undefined;
    case "timeout":
      return `${TIMEOUT_REASON_PREFIX}${timeoutText} (process tree killed)`;
    case "aborted":
      return "aborted: the run was interrupted (process tree killed)";
    case "boundary":
      return run.reason;
    case "bad-cwd":
      return `cwd ${run.message}: ${cwdShown}`;
    case "spawn-error":
      if (run.code === "ENOENT") return `command not found: ${command}`;
      if (run.code === "EACCES") return `command not executable: ${command}`;
      return `could not start ${command}: ${run.message}`;
  }
}

/** Last lines of stdout and of stderr, labelled, for a result's `detail`. */
export function tailDetail(run: ProcessOutcome): string {
  const parts: string[] = [];
  if (run.stdoutTail !== "") parts.push(`stdout (last lines):\n${run.stdoutTail}`);
  if (run.stderrTail !== "") parts.push(`stderr (last lines):\n${run.stderrTail}`);
  return parts.length > 0 ? parts.join("\n") : "(no output)";
}

/** How a regex from a contract is shown in reasons: `/source/flags`, on one line. */
export function showRegex(source: string, flags = ""): string {
  return `/${source.replace(/\r/g, "\\r").replace(/\n/g, "\\n")}/${flags}`;
}
