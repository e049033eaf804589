import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { posix } from "node:path";
import { cachedExecutor, executorCacheKey, keepExecutor } from "./executor-cache.js";
import { encodeFrame, FrameReader } from "./executor-frames.js";
import type { CheckGroup, GroupPool } from "./host-cgroups.js";
import { LANE_EXECUTOR_C } from "./lane-executor-source.js";
import type { HostEvent } from "./protocol.js";
import { hostEnv, systemTool } from "./system-tools.js";

/**
 * One executor per parallel lane (docs/security.md, "One executor per
 * lane"): the host starts each lane once, through `unshare`, as PID 1 of a
 * PID and mount namespace of its own inside the view, and hands it one check
 * at a time. Privilege, namespaces and the /proc guard are paid once per
 * lane; a check costs one fork and one exec, as a bare spawn does.
 *
 * Fail closed: a lane that dies, or says anything the host does not expect,
 * ends the check it ran as a boundary error and breaks the host, so every
 * later check is one too (never a pass).
 */

/**
 * Compiles the executor into `dir` with the system's `cc` (or takes the
 * one an earlier run kept: executor-cache.ts); `undefined` and why when it cannot.
 */
export function compileExecutor(
  dir: string,
): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    let cc: string;
    try {
      cc = systemTool("cc");
    } catch (e) {
      resolve({ ok: false, error: (e as Error).message });
      return;
    }
    let key: string | undefined;
    try {
      key = executorCacheKey(LANE_EXECUTOR_C, cc);
      const cached = cachedExecutor(key);
      if (cached !== undefined) {
        resolve({ ok: true, path: cached });
        return;
      }
    } catch {}
    const source = posix.join(dir, "lane-executor.c");
    const out = posix.join(dir, "lane-executor");
    writeFileSync(source, LANE_EXECUTOR_C, { mode: 0o600 });
    // The compiler's environment is built too: CPATH, LIBRARY_PATH, GCC_EXEC_PREFIX would steer it.
    const child = spawn(cc, ["-O2", "-o", out, source], {
      cwd: dir,
      env: { ...hostEnv(), TMPDIR: dir },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString("utf8");
    });
    child.on("error", (e) => resolve({ ok: false, error: `${cc}: ${e.message}` }));
    child.on("close", (code) => {
      if (code === 0 && key !== undefined) keepExecutor(out, key);
      resolve(
        code === 0
          ? { ok: true, path: out }
          : { ok: false, error: `${cc} exited ${code}: ${stderr.trim().split("\n")[0] ?? ""}` },
      );
    });
  });
}

export interface LaneSetup {
  /** The `unshare` the host resolved. */
  unshare: string;
  /** The compiled executor, opened and passed to each lane. */
  executor: string;
  /** The view's root (`stage/root`). */
  root: string;
  uid: number;
  gid: number;
  /** The run's parent cgroup directories (v2: one; v1: memory and pids), or none. */
  cgroupParents: readonly string[];
  /** Checks run as root: the executor binds /proc/sys read-only first. */
  guardProc: boolean;
  /** check-network: none: a network namespace per lane, loopback up. */
  privateNetwork: boolean;
}

export interface LaneRun {
  id: number;
  /** The command as the check named it: its argv[0]. */
  file: string;
  /** Where it resolved to in the view. */
  path: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  group: CheckGroup | undefined;
}

type Send = (e: HostEvent) => void;

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(constants.signals).map(([name, n]) => [n, name]),
);

/** The lanes of one host: started on demand, one check each at a time. */
export class LanePool {
  private readonly idle: Lane[] = [];
  private readonly all = new Set<Lane>();
  /** Why the boundary broke: every later check is a boundary error naming it. */
  broken: string | undefined;

  constructor(
    private readonly setup: LaneSetup,
    private readonly pool: GroupPool | undefined,
    private readonly send: Send,
  ) {}

  run(r: LaneRun): void {
    // A NUL would end a field early (and node's own spawn refuses it likewise).
    if ([r.file, r.path, r.cwd, ...r.args, ...Object.values(r.env)].some((f) => f.includes("\0"))) {
      this.spawnError(r, "ERR_INVALID_ARG_VALUE");
      return;
    }
    if (this.broken !== undefined) {
      this.finish(r, { boundaryError: this.broken });
      return;
    }
    let lane = this.idle.pop();
    if (lane === undefined) {
      try {
        lane = new Lane(this.setup, this);
      } catch (e) {
        this.fail(`cannot start a lane executor: ${(e as Error).message}`);
        this.finish(r, { boundaryError: this.broken! });
        return;
      }
      this.all.add(lane);
    }
    lane.start(r);
  }

  kill(id: number): void {
    for (const lane of this.all) lane.kill(id);
  }

  /** SIGKILLs every lane: each one's namespace, and every check in it, goes with its executor. */
  close(): void {
    for (const lane of this.all) lane.destroy();
  }

  /** A lane is done with `r`. */
  finish(
    r: LaneRun,
    end: { code?: number | null; signal?: string | null; boundaryError?: string },
  ): void {
    const limits = r.group?.limitsHit() ?? [];
    if (r.group) this.pool?.release(r.group);
    this.send({
      ev: "exit",
      id: r.id,
      code: end.code ?? null,
      signal: end.signal ?? null,
      limits,
      ...(end.boundaryError !== undefined && { boundaryError: end.boundaryError }),
    });
  }

  spawnError(r: LaneRun, code: string): void {
    if (r.group) this.pool?.release(r.group);
    this.send({ ev: "spawn-error", id: r.id, code, message: `${code}: ${r.path}` });
  }

  output(r: LaneRun, fd: 1 | 2, data: Buffer): void {
    this.send({ ev: "out", id: r.id, fd, data: data.toString("base64") });
  }

  release(lane: Lane): void {
    if (this.broken === undefined) this.idle.push(lane);
  }

  fail(why: string): void {
    this.broken ??= why;
  }

  signalName(n: number): string {
    return SIGNAL_NAMES.get(n) ?? `SIG${n}`;
  }
}

class Lane {
  private readonly child: ChildProcess;
  private ready = false;
  private closing = false;
  private current: LaneRun | undefined;
  private waiting: LaneRun | undefined;
  private readonly frames = new FrameReader((type, data) => this.frame(type, data));
  private stderr = "";

  constructor(
    setup: LaneSetup,
    private readonly lanes: LanePool,
  ) {
    const fds: number[] = [];
    try {
      for (const dir of setup.cgroupParents) fds.push(openSync(dir, "r"));
      fds.push(openSync(setup.executor, "r"));
      const flags = [setup.guardProc ? "p" : "", setup.privateNetwork ? "n" : ""].join("") || "-";
      this.child = spawn(
        setup.unshare,
        [
          "--pid",
          "--fork",
          "--mount-proc",
          "--kill-child",
          ...(setup.privateNetwork ? ["--net"] : []),
          `--root=${setup.root}`,
          "--wd=/",
          "--",
          // The executor is not in the view: it runs from the fd the host opened.
          `/proc/self/fd/${3 + setup.cgroupParents.length}`,
          String(setup.uid),
          String(setup.gid),
          String(setup.cgroupParents.length),
          flags,
        ],
        {
          cwd: "/",
          env: hostEnv(),
          // A session of its own, as every check's: nothing in a lane can signal the host by group.
          detached: true,
          stdio: ["pipe", "pipe", "pipe", ...fds],
        },
      );
    } finally {
      for (const fd of fds) closeSync(fd);
    }
    this.child.stdin?.on("error", () => {});
    this.child.stderr?.on("data", (d: Buffer) => {
      if (this.stderr.length < 2000) this.stderr += d.toString("utf8");
    });
    this.child.stdout?.on("data", (d: Buffer) => this.frames.push(d));
    this.child.on("error", (e) => this.died(`cannot start: ${e.message}`));
    this.child.on("close", (code, signal) => this.died(`exited (${code ?? signal})`));
  }

  start(r: LaneRun): void {
    if (!this.ready) {
      this.waiting = r;
      return;
    }
    this.current = r;
    const fields = [
      r.cwd,
      r.path,
      String(r.group?.procs.length ?? 0),
      ...(r.group?.procs.map((p, i) => posix.relative(r.group!.parents[i]!, p)) ?? []),
      String(r.args.length + 1),
      r.file,
      ...r.args,
      ...envList(r.env),
    ];
    this.child.stdin?.write(encodeFrame("R", fields));
  }

  kill(id: number): void {
    if (this.waiting?.id === id) {
      const r = this.waiting;
      this.waiting = undefined;
      this.lanes.finish(r, { signal: "SIGKILL" });
      if (this.ready) this.lanes.release(this);
    } else if (this.current?.id === id) {
      this.child.stdin?.write(encodeFrame("K"));
    }
  }

  destroy(): void {
    this.closing = true;
    this.child.kill("SIGKILL");
  }

  private frame(type: string, data: Buffer): void {
    const r = this.current;
    if (type === "Y" && !this.ready) {
      this.ready = true;
      const w = this.waiting;
      this.waiting = undefined;
      if (w) this.start(w);
      else this.lanes.release(this);
      return;
    }
    if (type === "F") {
      this.died(`failed: ${data.toString("utf8")}`);
      return;
    }
    if (r === undefined) {
      this.died(`sent '${type}' with no check running`);
      return;
    }
    if (type === "O" || type === "E") {
      this.lanes.output(r, type === "O" ? 1 : 2, Buffer.from(data));
      return;
    }
    this.current = undefined;
    if (type === "X") {
      const [code, signal] = data.toString("utf8").split(" ").map(Number);
      this.lanes.finish(r, {
        code: code !== undefined && code >= 0 ? code : null,
        signal: signal !== undefined && signal >= 0 ? this.lanes.signalName(signal) : null,
      });
    } else if (type === "S") {
      this.lanes.spawnError(r, data.toString("utf8"));
    } else if (type === "B") {
      this.lanes.finish(r, {
        boundaryError: `the check's boundary could not be set up: ${data.toString("utf8")}`,
      });
    } else {
      this.died(`sent an unknown frame '${type}'`);
      return;
    }
    this.lanes.release(this);
  }

  private died(how: string): void {
    if (this.closing) return;
    this.closing = true;
    this.child.kill("SIGKILL");
    const why = `sandbox: the lane executor ${how}${this.stderr.trim() ? `: ${this.stderr.trim().split("\n").slice(-2).join(" | ")}` : ""}`;
    this.lanes.fail(why);
    for (const r of [this.current, this.waiting]) {
      if (r !== undefined) this.lanes.finish(r, { boundaryError: why });
    }
    this.current = undefined;
    this.waiting = undefined;
  }
}

/** `NAME=VALUE` entries, counted: the one environment the check gets. */
function envList(env: Record<string, string>): string[] {
  const entries = Object.entries(env)
    .filter(([k]) => k !== "" && !k.includes("=") && !k.includes("\0"))
    .map(([k, v]) => `${k}=${v}`);
  return [String(entries.length), ...entries];
}
