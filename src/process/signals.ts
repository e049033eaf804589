/**
 * How the gate ends on a signal (the CLI and the action alike). SIGINT (Ctrl-C), SIGTERM (CI runners,
 * `timeout`, `kill`) and SIGHUP (a closed terminal) all end the run the same
 * way: every check's process tree is killed, and the exit code is the shell's
 * 128 + signal number — whatever the run was doing when it arrived,
 * write-back included (each file is replaced atomically, so it is either
 * untouched or completely rewritten).
 */
import { constants } from "node:os";

export const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type EndingSignal = (typeof ENDING_SIGNALS)[number];

/** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
export function signalExitCode(signal: EndingSignal): number {
  return 128 + constants.signals[signal];
}

export interface SignalState {
  /** The first ending signal received, if any. */
  received(): EndingSignal | undefined;
}

/**
 * Listen for the ending signals. The first one calls `onFirst` (abort the run,
 * kill the checks); a second one, or a run that fails to settle within
 * `graceMs`, ends the process with the first signal's exit code.
 */
export function onEndingSignals(
  onFirst: (signal: EndingSignal) => void,
  graceMs = 5000,
  proc: Pick<NodeJS.Process, "on" | "exit"> = process,
): SignalState {
  let first: EndingSignal | undefined;
  for (const signal of ENDING_SIGNALS) {
    proc.on(signal, () => {
      if (first !== undefined) return proc.exit(signalExitCode(first));
      first = signal;
      onFirst(signal);
      setTimeout(() => proc.exit(signalExitCode(signal)), graceMs).unref();
    });
  }
  return { received: () => first };
}
