import { type ChildProcess, spawn } from "node:child_process";
import { closeSync } from "node:fs";
import type { CheckGroup, GroupPool } from "./host-cgroups.js";
import { q } from "./host-mounts.js";
import type { HostEvent } from "./protocol.js";
import { type HostTools, hostEnv } from "./system-tools.js";

/**
 * The host's fallback without a C compiler (no lane executor): each check
 * starts in a fresh PID namespace of its own, through `unshare` and
 * `setpriv`. Slower than a lane (privilege and namespaces paid per check),
 * same guarantees.
 */

export interface PerCheckSetup {
  tools: HostTools;
  /** The view's root (`stage/root`). */
  root: string;
  uid: number;
  gid: number;
  /** check-network: none: the host's `ip`, to bring up each check's loopback. */
  ip: string | undefined;
}

export interface PerCheckRun {
  id: number;
  /** Where the command resolved to in the view. */
  path: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  group: CheckGroup | undefined;
  /** The group's `cgroup.procs` files, opened for writing: the check joins them as fds 3 and up. */
  joinFds: number[];
}

type Send = (e: HostEvent) => void;

/** The checks the host started itself, by id. */
export class PerCheckSpawner {
  private readonly running = new Map<number, ChildProcess>();

  constructor(
    private readonly setup: PerCheckSetup,
    private readonly pool: GroupPool | undefined,
    private readonly send: Send,
  ) {}

  run(r: PerCheckRun): void {
    let child: ChildProcess;
    try {
      // detached: a session of its own. Process groups cross PID namespaces, so
      // in ours a check's `kill 0` would reach the host and the gate.
      // Every layer that runs with privilege (unshare, the entry shell, setpriv)
      // gets the host's built environment: the check's (LD_PRELOAD, say) would
      // steer them. `env -i` hands the check its own only after setpriv dropped everything.
      child = spawn(this.setup.tools.unshare, perCheckArgv(this.setup, r), {
        cwd: "/",
        env: hostEnv(),
        detached: true,
        stdio: ["ignore", "pipe", "pipe", ...r.joinFds],
      });
    } catch (e) {
      closeFds(r.joinFds);
      this.spawnError(r, e as NodeJS.ErrnoException, String(e));
      return;
    }
    closeFds(r.joinFds);
    this.running.set(r.id, child);
    const firstErr = new FirstBytes();
    child.stdout?.on("data", (d: Buffer) =>
      this.send({ ev: "out", id: r.id, fd: 1, data: d.toString("base64") }),
    );
    child.stderr?.on("data", (d: Buffer) => {
      firstErr.push(d);
      this.send({ ev: "out", id: r.id, fd: 2, data: d.toString("base64") });
    });
    child.on("error", (e) => {
      this.running.delete(r.id);
      this.spawnError(r, e, e.message);
    });
    child.on("close", (code, signal) => {
      if (!this.running.delete(r.id)) return;
      const limits = r.group?.limitsHit() ?? [];
      if (r.group) this.pool?.release(r.group);
      this.send({
        ev: "exit",
        id: r.id,
        code,
        signal,
        limits,
        ...(boundaryFailed(code, firstErr.text()) && {
          boundaryError: `the check's boundary could not be set up: ${firstErr.text().split("\n")[0]}`,
        }),
      });
    });
  }

  kill(id: number): void {
    this.running.get(id)?.kill("SIGKILL");
  }

  /**
   * SIGKILL to each `unshare` parent: its --kill-child death signal takes the
   * namespace's init, and with it every process in the namespace. (Were the
   * host killed instead, its own PID namespace would take them all.)
   */
  close(): void {
    for (const child of this.running.values()) child.kill("SIGKILL");
  }

  private spawnError(r: PerCheckRun, e: NodeJS.ErrnoException, message: string): void {
    if (r.group) this.pool?.release(r.group);
    this.send({ ev: "spawn-error", id: r.id, code: e.code ?? "EUNKNOWN", message });
  }
}

/**
 * `unshare`'s arguments for one check: its child is PID 1 of a new
 * namespace; it joins the check's groups, guards /proc, and execs the
 * command through setpriv (see checkEntry).
 */
function perCheckArgv(setup: PerCheckSetup, r: PerCheckRun): string[] {
  const { tools, uid, gid, ip } = setup;
  return [
    "--pid",
    "--fork",
    "--mount-proc",
    "--kill-child",
    ...(ip !== undefined ? ["--net"] : []),
    `--root=${setup.root}`,
    `--wd=${r.cwd}`,
    "--",
    ...checkEntry(r.joinFds.length, uid === 0 ? tools.mount : undefined, ip),
    tools.setpriv,
    `--reuid=${uid}`,
    `--regid=${gid}`,
    "--clear-groups",
    "--no-new-privs",
    "--bounding-set=-all",
    "--inh-caps=-all",
    "--ambient-caps=-all",
    "--",
    ...withEnv(tools.env, r.env, r.path),
    ...r.args,
  ];
}

export function closeFds(fds: number[]): void {
  for (const fd of fds.splice(0)) closeSync(fd);
}

const SELF = "contract-gate-sandbox";

/**
 * What PID 1 of a check's namespace runs before setpriv: one small shell, or
 * nothing when there is nothing to do.
 *
 * It joins the check's groups first, through the `cgroup.procs` files the
 * host opened as fds 3 and up, so the command and everything it starts are
 * inside them (a fork bomb cannot start outside). The host never moves
 * itself: moving a process between cgroups waits on the kernel, and spawns
 * from the single-threaded host would queue behind it. The fds are closed
 * before the command runs.
 *
 * When checks run as root (the gate does), the fresh /proc is theirs to
 * write: a capability-less root still owns /proc/sys (kernel.core_pattern
 * runs a program as root on the machine) and /proc/sysrq-trigger. So, as
 * root inside the new namespaces and before setpriv drops everything, both
 * are bound read-only. Other uids cannot write them at all, and skip this.
 * `mount` is the host's absolute path to it: this shell still holds every
 * capability and runs with the check's PATH, whose entries may point into the
 * writable tree (`node_modules/.bin`, `.`), so a bare name would run the PR's own.
 */
export function checkEntry(groupFds: number, mount?: string, ip?: string): string[] {
  if (groupFds === 0 && mount === undefined && ip === undefined) return [];
  const lines: string[] = [];
  const fds = Array.from({ length: groupFds }, (_, i) => i + 3);
  for (const fd of fds) {
    // The write's own error is silenced: stderr must start with our prefix (boundaryFailed).
    lines.push(`{ echo 0 >&${fd}; } 2>/dev/null || ${fail("cannot join the check's cgroup")}`);
  }
  if (fds.length > 0) lines.push(`exec ${fds.map((fd) => `${fd}>&-`).join(" ")}`);
  if (mount !== undefined) {
    // -n: no utab to update (the checks' /run is read-only anyway).
    const protect = (path: string) =>
      `${q(mount)} -n --bind -o ro ${path} ${path} 2>/dev/null || ${fail(`cannot protect ${path}`)}`;
    lines.push(protect("/proc/sys"));
    lines.push(`if [ -e /proc/sysrq-trigger ]; then ${protect("/proc/sysrq-trigger")}; fi`);
  }
  if (ip !== undefined) {
    // check-network: none: a fresh network namespace has only `lo`, and it is down.
    lines.push(
      `${q(ip)} link set lo up 2>/dev/null || ${fail("cannot bring up the loopback interface")}`,
    );
  }
  lines.push('exec "$@"');
  return ["/bin/sh", "-c", lines.join("\n"), "sh"];
}

/**
 * The check's command as `env -i NAME=VALUE… command`: the one environment
 * the command gets, applied after every privileged layer. A command whose
 * path holds `=` would read as an assignment: a shell then execs it.
 */
export function withEnv(envTool: string, env: Record<string, string>, command: string): string[] {
  const assignments = Object.entries(env)
    .filter(([k]) => k !== "" && !k.includes("="))
    .map(([k, v]) => `${k}=${v}`);
  const exec = command.includes("=") ? ["/bin/sh", "-c", 'exec "$0" "$@"', command] : [command];
  return [envTool, "-i", "--", ...assignments, ...exec];
}

function fail(message: string): string {
  return `{ echo ${q(`${SELF}: ${message}`)} >&2; exit 125; }`;
}

/**
 * Whether the layers before the command failed. Each of them (unshare, the
 * /proc guard, setpriv) reports on stderr under its own name and exits 1,
 * 125, 126 or 127 before the command runs, so its message is the first thing
 * on stderr. A command that imitates this only turns its own check into an
 * execution error; a boundary failure can never read as the command's exit.
 */
export function boundaryFailed(code: number | null, stderrStart: string): boolean {
  return (
    code !== null &&
    [1, 125, 126, 127].includes(code) &&
    new RegExp(`^(unshare|setpriv|${SELF}): `).test(stderrStart)
  );
}

/** The first bytes of a stream, enough to read a tool's error prefix. */
class FirstBytes {
  private buf = Buffer.alloc(0);
  push(chunk: Buffer): void {
    if (this.buf.length < 256) this.buf = Buffer.concat([this.buf, chunk]).subarray(0, 256);
  }
  text(): string {
    return this.buf.toString("utf8");
  }
}
