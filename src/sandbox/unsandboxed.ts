import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { posix } from "node:path";
import type { OutputCollector } from "../process/collector.js";
import { registerGroup, unregisterGroup } from "../process/process-group.js";
import {
  DRAIN_DEADLINE_MS,
  KILL_GRACE_MS,
  MAX_TIMER_MS,
  type ProcessEnd,
  type ProcessOptions,
  type ProcessRunner,
  runCollected,
  runProcess,
} from "../process/run-process.js";
import { encodeFrame, FrameReader } from "./executor-frames.js";
import { compileExecutor } from "./host-lanes.js";
import { resolveCommand } from "./resolve-command.js";
import { hostEnv } from "./system-tools.js";

/**
 * Without a boundary, checks are still not spawned from the gate's own
 * large heap (docs/security.md, "One executor per lane"): the lane
 * executor's group mode, one small process per lane, forks each check as
 * the leader of a session of its own, kills that process group when the
 * leader exits, on a timeout (SIGTERM, then SIGKILL after the grace) or on
 * an abort, exactly as `runProcess` does. No namespace, no privilege change.
 * Without a C compiler, or off Linux, `runProcess` itself.
 */
export interface Unsandboxed {
  run: ProcessRunner;
  /** `unsandboxed executor` once compiled, else `gate`. */
  executor(): Promise<"unsandboxed executor" | "gate">;
  close(): void;
}

let compiled: ReturnType<typeof compileExecutor> | undefined;

/** Compiled once per gate process, into a private temporary directory removed at exit. */
function executorBinary(): ReturnType<typeof compileExecutor> {
  if (compiled === undefined) {
    if (process.platform !== "linux") {
      compiled = Promise.resolve({ ok: false, error: "not Linux" });
    } else {
      const dir = mkdtempSync(posix.join(tmpdir(), "contract-gate-exec-"));
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      compiled = compileExecutor(dir);
    }
  }
  return compiled;
}

export function openUnsandboxed(): Unsandboxed {
  const binary = executorBinary();
  const idle: LocalLane[] = [];
  const all = new Set<LocalLane>();
  const supervise = async (opts: ProcessOptions, collector: OutputCollector) => {
    const built = await binary;
    if (!built.ok) throw new Error(built.error);
    let lane = idle.pop();
    while (lane !== undefined && !lane.usable) lane = idle.pop();
    lane ??= new LocalLane(built.path);
    all.add(lane);
    const end = await lane.run(opts, collector);
    if (lane.usable) idle.push(lane);
    else all.delete(lane);
    return end;
  };
  return {
    run: async (o) => ((await binary).ok ? runCollected(o, supervise) : runProcess(o)),
    executor: async () => ((await binary).ok ? "unsandboxed executor" : "gate"),
    close: () => {
      for (const lane of all) lane.close();
      all.clear();
      idle.length = 0;
    },
  };
}

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]),
);

let nextKey = -1;

class LocalLane {
  private readonly child: ChildProcess;
  private readonly frames = new FrameReader((type, data) => this.onFrame?.(type, data));
  private onFrame: ((type: string, data: Buffer) => void) | undefined;
  private ready: Promise<string | undefined>;
  usable = true;

  constructor(path: string) {
    this.child = spawn(path, ["0", "0", "0", "g"], {
      // A session of its own: a terminal's Ctrl-C reaches the gate, which ends the checks itself.
      detached: true,
      env: hostEnv(),
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.child.unref();
    for (const s of [this.child.stdin, this.child.stdout]) {
      (s as unknown as { unref?: () => void } | null)?.unref?.();
    }
    this.child.stdin?.on("error", () => {});
    this.ready = new Promise((resolve) => {
      this.onFrame = (type, data) =>
        resolve(type === "Y" ? undefined : `${type} ${data.toString("utf8")}`);
      this.child.on("error", (e) => resolve(e.message));
    });
    this.child.stdout?.on("data", (d: Buffer) => this.frames.push(d));
    this.child.on("close", (code, signal) => {
      this.usable = false;
      this.onFrame?.("D", Buffer.from(`the executor exited (${code ?? signal})`));
    });
  }

  async run(opts: ProcessOptions, collector: OutputCollector): Promise<ProcessEnd> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.env)) {
      if (v !== undefined && k !== "" && !k.includes("=")) env[k] = v;
    }
    const resolved = resolveCommand("/", opts.cwd, opts.file, env.PATH ?? "/usr/bin:/bin");
    if (!resolved.ok)
      return {
        kind: "spawn-error",
        code: resolved.code,
        message: `spawn ${opts.file} ${resolved.code}`,
      };
    const fields = [opts.cwd, resolved.path, opts.file, ...opts.args, ...Object.values(env)];
    if (fields.some((f) => f.includes("\0")))
      return {
        kind: "spawn-error",
        code: "ERR_INVALID_ARG_VALUE",
        message: "arguments must not contain null bytes",
      };
    const pipe = this.child.stdout as unknown as { ref?: () => void; unref?: () => void };
    // The gate waits for this check: the pipe keeps it alive until the check settles.
    pipe.ref?.();
    const notReady = await this.ready;
    if (notReady !== undefined) {
      pipe.unref?.();
      this.close();
      return { kind: "boundary", reason: `the gate's executor did not start: ${notReady}` };
    }
    return new Promise<ProcessEnd>((resolve) => {
      const key = nextKey--;
      const timers = new Set<NodeJS.Timeout>();
      const later = (ms: number, fn: () => void) => timers.add(setTimeout(fn, ms));
      let killedFor: "timeout" | "aborted" | undefined;
      let settled = false;
      const settle = (end: ProcessEnd) => {
        if (settled) return;
        settled = true;
        for (const t of timers) clearTimeout(t);
        opts.signal?.removeEventListener("abort", onAbort);
        unregisterGroup(key);
        pipe.unref?.();
        this.onFrame = undefined;
        resolve(killedFor !== undefined && end.kind === "exited" ? { kind: killedFor } : end);
      };
      const kill = (why: "timeout" | "aborted", first: "T" | "K") => {
        if (killedFor !== undefined || settled) return;
        killedFor = why;
        this.send(first);
        if (first === "T") later(KILL_GRACE_MS, () => this.send("K"));
        // A leader stuck in the kernel may never report its exit: settle, and retire the lane.
        later(KILL_GRACE_MS + DRAIN_DEADLINE_MS + 1000, () => {
          this.close();
          settle({ kind: why });
        });
      };
      const onAbort = () => kill("aborted", "T");
      this.onFrame = (type, data) => {
        if (type === "O") collector.stdout(Buffer.from(data));
        else if (type === "E") collector.stderr(Buffer.from(data));
        else if (type === "X") {
          const [code, signal] = data.toString("utf8").split(" ").map(Number);
          settle({
            kind: "exited",
            exitCode: code !== undefined && code >= 0 ? code : null,
            signal: signal !== undefined && signal >= 0 ? (SIGNAL_NAMES.get(signal) ?? null) : null,
          });
        } else if (type === "S") {
          const code = data.toString("utf8");
          settle({ kind: "spawn-error", code, message: `spawn ${opts.file} ${code}` });
        } else {
          // 'B', 'F', a death: the check's fate is unknown, never a pass.
          this.close();
          settle({
            kind: "boundary",
            reason: `the gate's executor failed: ${data.toString("utf8")}`,
          });
        }
      };
      registerGroup(key, () => kill("aborted", "K"));
      later(Math.min(Math.max(1, opts.timeoutMs), MAX_TIMER_MS), () => kill("timeout", "T"));
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.child.stdin?.write(
        encodeFrame("R", [
          opts.cwd,
          resolved.path,
          "0",
          String(opts.args.length + 1),
          opts.file,
          ...opts.args,
          String(Object.keys(env).length),
          ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
        ]),
      );
    });
  }

  close(): void {
    this.usable = false;
    this.child.stdin?.end();
  }

  private send(op: "K" | "T"): void {
    this.child.stdin?.write(encodeFrame(op));
  }
}
