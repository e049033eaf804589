/** What the CLI needs from its process, passed in so tests run it in-process. */
export interface CliIO {
  stdout: (s: string) => void;
  /** Resolves once stdout takes more (a streamed report waits for a slow reader); absent: no wait. */
  stdoutDrain?: () => Promise<void>;
  stderr: (s: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stdout is a terminal (colour, progress). */
  isTTY: boolean;
  /** Whether stderr is a terminal (the live progress line). */
  stderrIsTTY?: boolean;
  /** Aborted on Ctrl-C: running checks are killed and `run` exits 130. */
  signal?: AbortSignal;
  /** How to start the sandbox host (`[node, script, SANDBOX_HOST_ARG]`); none: no sandbox. */
  sandboxHost?: readonly string[];
  /** Paths commands must not change even inside the tree (the CLI's own files). */
  protect?: readonly string[];
}

/** Exit codes: 0 fine, 1 the contracts say no, 2 the command line or configuration is wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * Resolves when `stream` has room again, or can never have it (error, close):
 * writes to a pipe are asynchronous, and without waiting a streamed report
 * would queue whole in memory behind a slow reader.
 */
export function drained(
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean },
): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const ev of ["drain", "error", "close"]) stream.off(ev, done);
      resolve();
    };
    for (const ev of ["drain", "error", "close"]) stream.on(ev, done);
  });
}
