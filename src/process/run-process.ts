import { type ChildProcess, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { type CapturedOutput, OutputCollector } from "./collector.js";
import { registerGroup, signalGroup, unregisterGroup } from "./process-group.js";

export { killAllRunning } from "./process-group.js";

export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;
/** Between SIGTERM and SIGKILL: long enough to flush, short enough not to stall a gate. */
export const KILL_GRACE_MS = 500;
/**
 * After the leader exits (or after the final kill), how long to wait for the
 * pipes to close. A grandchild that left the process group can hold them open
 * forever; the run settles anyway and the streams are destroyed.
 */
export const DRAIN_DEADLINE_MS = 1000;
/** setTimeout fires at once for larger delays; clamp instead. */
export const MAX_TIMER_MS = 2_147_483_647;

export interface ProcessOptions {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Keep at most this many bytes of stdout (and of `combined`). Default 1 MiB. */
  stdoutLimitBytes?: number;
  /** Also capture stdout and stderr together, in arrival order. */
  combined?: boolean;
  /** Search stdout and stderr for this literal while streaming: no cap applies. */
  literalMarker?: string;
  /** How many last lines the tails keep. Default 20. */
  tailLines?: number;
}

export type ProcessEnd =
  | { kind: "exited"; exitCode: number | null; signal: NodeJS.Signals | null }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "spawn-error"; code: string; message: string }
  | { kind: "bad-cwd"; message: string }
  /** The sandbox could not run it, or a cap stopped it: `reason` says which and why. */
  | { kind: "boundary"; reason: string };

/** Runs one process for a check: plain (`runProcess`) or inside the sandbox. */
export type ProcessRunner = (opts: ProcessOptions) => Promise<ProcessOutcome>;

export type ProcessOutcome = ProcessEnd & CapturedOutput & { durationMs: number };

/**
 * Runs one program without a shell, in its own process group, and settles
 * with how it ended and what it printed. Never throws. On timeout or abort the
 * whole group is killed; after a normal exit the group is SIGKILLed too, so a
 * check never leaves background processes behind on the runner.
 */
export function runProcess(opts: ProcessOptions): Promise<ProcessOutcome> {
  return runCollected(opts, supervise);
}

/** Spawns and supervises one child, feeding its output to the collector. */
export type Supervisor = (opts: ProcessOptions, collector: OutputCollector) => Promise<ProcessEnd>;

/**
 * What every runner shares: output collection, the cwd check, the duration,
 * and "never throws". The supervisor decides where the process runs.
 */
export async function runCollected(
  opts: ProcessOptions,
  supervisor: Supervisor,
): Promise<ProcessOutcome> {
  const started = performance.now();
  const collector = new OutputCollector({
    limitBytes: opts.stdoutLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
    combined: opts.combined ?? false,
    ...(opts.literalMarker !== undefined && { literalMarker: opts.literalMarker }),
    tailLines: opts.tailLines ?? 20,
  });
  const finish = (end: ProcessEnd): ProcessOutcome => ({
    ...end,
    ...collector.snapshot(),
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const cwdProblem = await checkCwd(opts.cwd);
    if (cwdProblem !== undefined) return finish({ kind: "bad-cwd", message: cwdProblem });
    if (opts.signal?.aborted) return finish({ kind: "aborted" });
    return finish(await supervisor(opts, collector));
  } catch (e) {
    return finish(spawnError(e));
  }
}

async function checkCwd(cwd: string): Promise<string | undefined> {
  try {
    return (await stat(cwd)).isDirectory() ? undefined : "not a directory";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `not accessible (${code})`;
  }
}

export function spawnError(e: unknown): ProcessEnd {
  const err = e as NodeJS.ErrnoException;
  return { kind: "spawn-error", code: err?.code ?? "EUNKNOWN", message: String(err?.message ?? e) };
}

/** Spawns the child and resolves once it has ended and its output is collected. */
function supervise(opts: ProcessOptions, collector: OutputCollector): Promise<ProcessEnd> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(opts.file, [...opts.args], {
        cwd: opts.cwd,
        env: opts.env,
        detached: true,
        shell: false,
        stdio: ["ignore", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (e) {
      resolve(spawnError(e));
      return;
    }
    const pid = child.pid;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void) => timers.add(setTimeout(fn, ms));
    /** Why we killed it, if we did; decides the outcome even if it then "exits". */
    let killedFor: "timeout" | "aborted" | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const settle = (end: ProcessEnd): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) unregisterGroup(pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(end);
    };
    const ended = (): ProcessEnd =>
      killedFor !== undefined
        ? { kind: killedFor }
        : { kind: "exited", exitCode: exit?.code ?? null, signal: exit?.signal ?? null };

    const kill = (why: "timeout" | "aborted", first: NodeJS.Signals): void => {
      if (pid === undefined || exit !== undefined || killedFor !== undefined) return;
      killedFor = why;
      signalGroup(pid, first);
      if (first !== "SIGKILL") later(KILL_GRACE_MS, () => signalGroup(pid, "SIGKILL"));
      // A leader stuck in the kernel may never report its exit: settle anyway.
      later(KILL_GRACE_MS + DRAIN_DEADLINE_MS, () => settle(ended()));
    };
    const onAbort = () => kill("aborted", "SIGTERM");

    child.on("error", (e) => {
      // Only spawn failures (ENOENT, EACCES) reach here: we never use child.kill().
      if (exit === undefined) settle(spawnError(e));
    });
    if (pid === undefined) return; // the 'error' event follows
    registerGroup(pid, () => kill("aborted", "SIGKILL"));

    child.stdout?.on("data", (c: Buffer) => collector.stdout(c));
    child.stderr?.on("data", (c: Buffer) => collector.stderr(c));
    child.stdout?.on("error", () => {});
    child.stderr?.on("error", () => {});

    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Reap what the check left running in its group: background servers,
      // watchers, `cmd &`. They would outlive the gate and could hold the pipes.
      signalGroup(pid, "SIGKILL");
      later(DRAIN_DEADLINE_MS, () => settle(ended()));
    });
    child.on("close", () => settle(ended()));

    later(Math.min(Math.max(1, opts.timeoutMs), MAX_TIMER_MS), () => kill("timeout", "SIGTERM"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
