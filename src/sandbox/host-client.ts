import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { OutputCollector } from "../process/collector.js";
import { MAX_TIMER_MS, type ProcessEnd, type Supervisor } from "../process/run-process.js";
import {
  type HostConfig,
  type HostEvent,
  HostEventSchema,
  type HostRequest,
  type Limit,
} from "./protocol.js";
import { hostEnv } from "./system-tools.js";

const START_TIMEOUT_MS = 60_000;

interface Pending {
  collector: OutputCollector;
  settle: (end: ProcessEnd) => void;
}

export type HostStart =
  | {
      ok: true;
      host: HostConnection;
      cgroup: "v1" | "v2" | "none";
      cgroupError?: string;
      executor: "lane" | "per-check";
      executorError?: string;
      viewMs?: number;
      treeMs?: number;
      /** The uid checks run as, as the host decided (check-user.ts). */
      uid?: number;
      uidError?: string;
      /** The host's own time from its start to ready; `spawnMs`: from the gate's spawn. */
      startMs?: number;
      spawnMs?: number;
    }
  | { ok: false; error: string };

/**
 * The gate's end of the pipe to its sandbox host. Runs are multiplexed by id;
 * if the host dies, every pending run settles as a boundary error (never a
 * pass), and so does every later one.
 */
export class HostConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private dead: string | undefined;

  /** Settles once the host has exited: its pid namespace, every check's process in it, ended with it. */
  readonly ended: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly memoryMb: number,
    private readonly pidsMax: number,
  ) {
    this.ended = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
  }

  /** Starts `argv` (the launcher, unshare and the host entry) and waits for it to be ready. */
  static start(argv: readonly string[], config: HostConfig): Promise<HostStart> {
    return new Promise((settle) => {
      let deadline: NodeJS.Timeout | undefined;
      const resolve = (r: HostStart) => {
        clearTimeout(deadline);
        settle(r);
      };
      const spawned = performance.now();
      let child: ChildProcess;
      try {
        child = spawn(argv[0]!, [...argv.slice(1), JSON.stringify(config)], {
          stdio: ["pipe", "pipe", "pipe"],
          // Built, never inherited: the gate's PATH may start in the tree (node_modules/.bin).
          env: hostEnv(),
        });
      } catch (e) {
        resolve({ ok: false, error: (e as Error).message });
        return;
      }
      const conn = new HostConnection(child, config.memoryMb, config.pidsMax);
      let stderr = "";
      let started = false;
      // A host that never reports (a mount stuck on a dead network file system)
      // must not hang the gate: give up, and the run goes on without it.
      deadline = setTimeout(() => {
        if (started) return;
        // Under sudo the host is root's: closing its pipe is what it obeys.
        child.stdin?.end();
        child.kill("SIGKILL");
        resolve({
          ok: false,
          error: `the sandbox host did not start within ${START_TIMEOUT_MS / 1000} s`,
        });
      }, START_TIMEOUT_MS);
      child.stderr?.on("data", (d: Buffer) => {
        if (stderr.length < 4000) stderr += d.toString("utf8");
      });
      child.stdin?.on("error", () => {});
      child.on("error", (e) => {
        if (!started) resolve({ ok: false, error: e.message });
      });
      child.on("close", (code, signal) => {
        const why = `the sandbox host exited (${code ?? signal})${stderr.trim() ? `: ${stderr.trim().split("\n").slice(-2).join(" | ")}` : ""}`;
        conn.fail(why);
        if (!started) resolve({ ok: false, error: why });
      });
      const lines = createInterface({ input: child.stdout! });
      lines.on("line", (line) => {
        let event: HostEvent;
        try {
          event = HostEventSchema.parse(JSON.parse(line));
        } catch {
          return;
        }
        if (event.ev === "ready") {
          started = true;
          // The host must not keep a finished gate alive (a pending run's timer
          // does); the pipe still tells the host when the gate goes.
          for (const s of [child.stdin, child.stdout, child.stderr]) {
            (s as unknown as { unref?: () => void } | null)?.unref?.();
          }
          resolve({
            ok: true,
            host: conn,
            cgroup: event.cgroup,
            ...(event.cgroupError !== undefined && { cgroupError: event.cgroupError }),
            executor: event.executor ?? "per-check",
            ...(event.executorError !== undefined && { executorError: event.executorError }),
            ...(event.viewMs !== undefined && { viewMs: event.viewMs }),
            ...(event.treeMs !== undefined && { treeMs: event.treeMs }),
            ...(event.uid !== undefined && { uid: event.uid }),
            ...(event.uidError !== undefined && { uidError: event.uidError }),
            ...(event.startMs !== undefined && { startMs: event.startMs }),
            spawnMs: Math.round((performance.now() - spawned) * 10) / 10,
          });
        } else if (event.ev === "fatal") {
          if (!started) resolve({ ok: false, error: event.message });
        } else {
          conn.onEvent(event);
        }
      });
      child.unref();
    });
  }

  /** A supervisor that runs the process inside the host's boundary. */
  readonly supervise: Supervisor = (opts, collector) =>
    new Promise<ProcessEnd>((resolve) => {
      if (this.dead !== undefined) {
        resolve({ kind: "boundary", reason: this.dead });
        return;
      }
      const id = this.nextId++;
      let killedFor: "timeout" | "aborted" | undefined;
      const timer = setTimeout(
        () => kill("timeout"),
        Math.min(Math.max(1, opts.timeoutMs), MAX_TIMER_MS),
      );
      const onAbort = () => kill("aborted");
      const kill = (why: "timeout" | "aborted") => {
        if (killedFor !== undefined || !this.pending.has(id)) return;
        killedFor = why;
        // One SIGKILL ends the check's PID namespace: nothing in it can linger or trap it.
        this.send({ op: "kill", id });
      };
      this.pending.set(id, {
        collector,
        settle: (end) => {
          clearTimeout(timer);
          opts.signal?.removeEventListener("abort", onAbort);
          this.pending.delete(id);
          if (this.pending.size === 0) this.refPipe(false);
          resolve(killedFor !== undefined && end.kind === "exited" ? { kind: killedFor } : end);
        },
      });
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.refPipe(true);
      this.send({
        op: "run",
        id,
        file: opts.file,
        args: [...opts.args],
        cwd: opts.cwd,
        env: stringEnv(opts.env),
      });
    });

  /** Closes the pipe: the host kills whatever still runs and exits. */
  close(): void {
    this.child.stdin?.end();
  }

  private onEvent(event: Exclude<HostEvent, { ev: "ready" | "fatal" }>): void {
    const run = this.pending.get(event.id);
    if (!run) return;
    if (event.ev === "out") {
      const chunk = Buffer.from(event.data, "base64");
      if (event.fd === 1) run.collector.stdout(chunk);
      else run.collector.stderr(chunk);
    } else if (event.ev === "spawn-error") {
      run.settle({ kind: "spawn-error", code: event.code, message: event.message });
    } else if (event.limits.length > 0) {
      // First: a cap can also take down a layer of the boundary (the OOM killer picks any task).
      run.settle({ kind: "boundary", reason: this.limitReason(event.limits) });
    } else if (event.boundaryError !== undefined) {
      run.settle({ kind: "boundary", reason: `sandbox: ${event.boundaryError}` });
    } else {
      run.settle({
        kind: "exited",
        exitCode: event.code,
        signal: event.signal as NodeJS.Signals | null,
      });
    }
  }

  private limitReason(limits: readonly Limit[]): string {
    const parts = limits.map((l) =>
      l === "memory"
        ? `memory cap of ${this.memoryMb} MiB reached (the OOM killer ended a process; raise check-memory-mb if the check needs more)`
        : `process cap of ${this.pidsMax} processes reached (a fork failed)`,
    );
    return `sandbox: ${parts.join("; ")}`;
  }

  private fail(why: string): void {
    this.dead ??= why;
    for (const run of [...this.pending.values()]) run.settle({ kind: "boundary", reason: why });
  }

  /** A killed check's last events arrive after its timer fired: keep the loop alive until they do. */
  private refPipe(on: boolean): void {
    const pipe = this.child.stdout as unknown as { ref?: () => void; unref?: () => void } | null;
    if (on) pipe?.ref?.();
    else pipe?.unref?.();
  }

  private send(req: HostRequest): void {
    this.child.stdin?.write(`${JSON.stringify(req)}\n`);
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
