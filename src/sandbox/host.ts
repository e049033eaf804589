import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chownSync,
  closeSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { posix } from "node:path";
import { createInterface } from "node:readline";
import { gitConfigFiles, sanitizeGitConfig } from "./git-config.js";
import { type CgroupHost, type CheckGroup, GroupPool, openCgroups } from "./host-cgroups.js";
import { compileExecutor, LanePool } from "./host-lanes.js";
import { layoutScript, q, stageScript } from "./host-mounts.js";
import { layPrivateTree } from "./private-tree.js";
import {
  type HostConfig,
  HostConfigSchema,
  type HostEvent,
  HostRequestSchema,
} from "./protocol.js";
import { resolveCommand } from "./resolve-command.js";
import { type HostTools, hostEnv, hostTools, systemTool } from "./system-tools.js";

/**
 * The sandbox host: started once per run (as root, or through `sudo -n`)
 * as PID 1 of its own PID and mount namespaces, it builds the checks' view of
 * the file system once, compiles the lane executor, and hands each check to
 * a lane (host-lanes.ts): one executor per parallel lane, PID 1 of the
 * lane's own namespaces, each check in a per-check cgroup. Without a C
 * compiler it falls back to a fresh PID namespace per check under `setpriv`
 * (slower, same guarantees). When its stdin (the pipe from the gate)
 * closes, it kills every check and exits: a SIGKILLed gate leaves nothing
 * running.
 */
export async function runSandboxHost(rawConfig: string): Promise<void> {
  const send = (e: HostEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);
  let config: HostConfig;
  let stage: string;
  let cgroups: CgroupHost | undefined;
  let cgroupError: string | undefined;
  let tools: HostTools;
  let ip: string | undefined;
  let executor: string | undefined;
  let executorError: string | undefined;
  let viewMs = 0;
  let treeMs: number | undefined;
  try {
    config = HostConfigSchema.parse(JSON.parse(rawConfig));
    // Resolved once, from the system PATH only: nothing the host runs is looked up again.
    tools = hostTools();
    stage = mkdtempSync(posix.join(tmpdir(), "contract-gate-sandbox-"));
    // The executor compiles (in the host's private stage) while the view is built.
    const viewStart = performance.now();
    const layout = buildLayout(stage, config, tools, config.executor !== "per-check");
    const compiled = layout.compiled;
    treeMs = layout.treeMs;
    viewMs = Math.round((performance.now() - viewStart) * 10) / 10;
    const cg = openCgroups(config.memoryMb, config.pidsMax);
    if (cg.ok) cgroups = cg.host;
    else cgroupError = cg.error;
    const built = compiled && (await compiled);
    if (built?.ok) executor = built.path;
    else if (built) executorError = built.error;
    if (config.network === "none" && executor === undefined) ip = systemTool("ip");
  } catch (e) {
    send({ ev: "fatal", message: (e as Error).message.trim().split("\n").slice(-3).join(" | ") });
    process.exit(1);
  }
  const root = `${stage}/root`;
  const running = new Map<number, ChildProcess>();
  const pool = cgroups && new GroupPool(cgroups);
  const lanes =
    executor === undefined
      ? undefined
      : new LanePool(
          {
            unshare: tools.unshare,
            executor,
            root,
            uid: config.uid,
            gid: config.gid,
            cgroupParents: cgroups?.parents ?? [],
            guardProc: config.uid === 0,
            privateNetwork: config.network === "none",
          },
          pool,
          send,
        );

  const shutdown = () => {
    // SIGKILL to each `unshare` parent: its --kill-child death signal takes the
    // namespace's init, and with it every process in the namespace. (Were the
    // host killed instead, its own PID namespace would take them all.)
    for (const child of running.values()) child.kill("SIGKILL");
    lanes?.close();
    // Killed tasks leave their cgroups a moment later: retry a few times.
    let tries = 0;
    const sweep = () => {
      if (pool && !pool.sweep() && ++tries < 20) setTimeout(sweep, 50);
      else finish();
    };
    const finish = () => {
      cgroups?.close();
      try {
        // The stage is a mount point in this namespace only: detach, then remove the empty dir.
        execFileSync(tools.umount, ["-l", stage], { stdio: "ignore", env: hostEnv() });
        rmdirSync(stage);
      } catch {}
      process.exit(0);
    };
    setTimeout(sweep, 50);
  };
  process.stdin.on("end", shutdown);
  process.stdin.on("error", shutdown);
  process.stdout.on("error", shutdown);

  const run = (
    id: number,
    file: string,
    args: string[],
    cwd: string,
    env: Record<string, string>,
  ) => {
    const resolved = resolveCommand(root, cwd, file, env.PATH ?? "");
    if (!resolved.ok) {
      send({ ev: "spawn-error", id, code: resolved.code, message: `${resolved.code}: ${file}` });
      return;
    }
    if (lanes) {
      let group: CheckGroup | undefined;
      try {
        group = pool?.acquire();
      } catch (e) {
        send({
          ev: "exit",
          id,
          code: null,
          signal: null,
          limits: [],
          boundaryError: `cannot set up the check's cgroup: ${(e as Error).message}`,
        });
        return;
      }
      lanes.run({ id, file, path: resolved.path, args, cwd, env, group });
      return;
    }
    let group: CheckGroup | undefined;
    const joinFds: number[] = [];
    const closeJoinFds = () => {
      for (const fd of joinFds.splice(0)) closeSync(fd);
    };
    try {
      group = pool?.acquire();
      for (const procs of group?.procs ?? []) joinFds.push(openSync(procs, "w"));
    } catch (e) {
      closeJoinFds();
      if (group) pool?.release(group);
      send({
        ev: "exit",
        id,
        code: null,
        signal: null,
        limits: [],
        boundaryError: `cannot set up the check's cgroup: ${(e as Error).message}`,
      });
      return;
    }
    // The first process is an unshare whose child is PID 1 of a new
    // namespace; it joins the check's groups, guards /proc, and execs the
    // command through setpriv (see checkEntry).
    const argv = [
      "--pid",
      "--fork",
      "--mount-proc",
      "--kill-child",
      ...(ip !== undefined ? ["--net"] : []),
      `--root=${root}`,
      `--wd=${cwd}`,
      "--",
      ...checkEntry(joinFds.length, config.uid === 0 ? tools.mount : undefined, ip),
      tools.setpriv,
      `--reuid=${config.uid}`,
      `--regid=${config.gid}`,
      "--clear-groups",
      "--no-new-privs",
      "--bounding-set=-all",
      "--inh-caps=-all",
      "--ambient-caps=-all",
      "--",
      ...withEnv(tools.env, env, resolved.path),
      ...args,
    ];
    let child: ChildProcess;
    try {
      // detached: a session of its own. Process groups cross PID namespaces, so
      // in ours a check's `kill 0` would reach the host and the gate.
      // Every layer that runs with privilege (unshare, the entry shell, setpriv)
      // gets the host's built environment: the check's (LD_PRELOAD, say) would
      // steer them. `env -i` hands the check its own only after setpriv dropped everything.
      child = spawn(tools.unshare, argv, {
        cwd: "/",
        env: hostEnv(),
        detached: true,
        stdio: ["ignore", "pipe", "pipe", ...joinFds],
      });
    } catch (e) {
      closeJoinFds();
      if (group) pool?.release(group);
      send({
        ev: "spawn-error",
        id,
        code: (e as NodeJS.ErrnoException).code ?? "EUNKNOWN",
        message: String(e),
      });
      return;
    }
    closeJoinFds();
    running.set(id, child);
    const firstErr = new FirstBytes();
    child.stdout?.on("data", (d: Buffer) =>
      send({ ev: "out", id, fd: 1, data: d.toString("base64") }),
    );
    child.stderr?.on("data", (d: Buffer) => {
      firstErr.push(d);
      send({ ev: "out", id, fd: 2, data: d.toString("base64") });
    });
    child.on("error", (e) => {
      running.delete(id);
      if (group) pool?.release(group);
      send({
        ev: "spawn-error",
        id,
        code: (e as NodeJS.ErrnoException).code ?? "EUNKNOWN",
        message: e.message,
      });
    });
    child.on("close", (code, signal) => {
      if (!running.delete(id)) return;
      const limits = group?.limitsHit() ?? [];
      if (group) pool?.release(group);
      send({
        ev: "exit",
        id,
        code,
        signal,
        limits,
        ...(boundaryFailed(code, firstErr.text()) && {
          boundaryError: `the check's boundary could not be set up: ${firstErr.text().split("\n")[0]}`,
        }),
      });
    });
  };

  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    const parsed = HostRequestSchema.safeParse(safeJson(line));
    if (!parsed.success) return;
    const req = parsed.data;
    if (req.op === "kill") {
      running.get(req.id)?.kill("SIGKILL");
      lanes?.kill(req.id);
    } else run(req.id, req.file, req.args, req.cwd, req.env);
  });
  send({
    ev: "ready",
    cgroup: cgroups?.version ?? "none",
    ...(cgroupError !== undefined && { cgroupError }),
    executor: lanes ? "lane" : "per-check",
    ...(executorError !== undefined && { executorError }),
    viewMs,
    ...(treeMs !== undefined && { treeMs }),
  });
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

/**
 * Builds the view; with `compile`, starts compiling the lane executor into the stage meanwhile.
 * `treeMs`: how long a private tree's layer took to lay.
 */
function buildLayout(
  stage: string,
  config: HostConfig,
  tools: HostTools,
  compile: boolean,
): { compiled: ReturnType<typeof compileExecutor> | undefined; treeMs?: number } {
  const sh = (text: string) =>
    execFileSync(tools.sh, ["-c", text], { stdio: ["ignore", "ignore", "pipe"], env: hostEnv() });
  const system = (config.system ?? []).map((path) =>
    lstatSync(path).isSymbolicLink() ? { path, link: readlinkSync(path) } : { path },
  );
  sh(stageScript(stage, system, tools));
  // Root's, mode 0700, in the host's own mount namespace: no one else can reach the binary.
  const compiled = compile ? compileExecutor(`${stage}/private`) : undefined;
  const root = `${stage}/root`;
  const mountPoints = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((l) => unescapeMount(l.split(" ")[4] ?? ""))
    .filter((m) => m === root || m.startsWith(`${root}/`));
  const gitConfigs = config.gitConfigs ?? gitConfigFiles(config.root);
  for (const [i, file] of gitConfigs.entries()) {
    const text = readFileSync(file, "utf8");
    writeFileSync(`${stage}/private/git-config-${i}`, sanitizeGitConfig(text), { mode: 0o644 });
  }
  const treeStart = performance.now();
  const tree = config.privateTree !== undefined ? layPrivateTree(config, stage) : undefined;
  const treeMs =
    tree !== undefined ? Math.round((performance.now() - treeStart) * 10) / 10 : undefined;
  sh(layoutScript({ stage, config, mountPoints, gitConfigs, ...(tree && { tree }), tools }));
  if (config.home !== undefined && config.homeGitconfig !== undefined) {
    // The private home starts with the runner's git identity and settings, never its credentials.
    const copy = posix.join(root, config.home, ".gitconfig");
    writeFileSync(copy, config.homeGitconfig, { mode: 0o644 });
    chownSync(copy, config.uid, config.gid);
  }
  return { compiled, ...(treeMs !== undefined && { treeMs }) };
}

/** mountinfo escapes space, tab, newline and backslash as octal. */
function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
