import { execFileSync } from "node:child_process";
import {
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { posix } from "node:path";
import { createInterface } from "node:readline";
import { type CheckUser, fallbackCheckUser, hostCheckUser } from "./check-user.js";
import { gitConfigFiles, sanitizeGitConfig } from "./git-config.js";
import { type CgroupHost, type CheckGroup, GroupPool, openCgroups } from "./host-cgroups.js";
import { compileExecutor, LanePool } from "./host-lanes.js";
import { type IdmappedSources, layoutScript, stageScript } from "./host-mounts.js";
import { closeFds, PerCheckSpawner } from "./host-per-check.js";
import { layPrivateTree } from "./private-tree.js";
import {
  type HostConfig,
  HostConfigSchema,
  type HostEvent,
  type HostRequest,
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
 * (host-per-check.ts: slower, same guarantees). When its stdin (the pipe
 * from the gate) closes, it kills every check and exits: a SIGKILLed gate
 * leaves nothing running.
 */
export async function runSandboxHost(rawConfig: string): Promise<void> {
  const started = performance.now();
  const send = (e: HostEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);
  let host: HostSetup;
  try {
    host = await setUpHost(rawConfig);
  } catch (e) {
    send({ ev: "fatal", message: (e as Error).message.trim().split("\n").slice(-3).join(" | ") });
    process.exit(1);
  }
  const checks = new HostChecks(host, send);
  const shutdown = () => checks.shutdown();
  process.stdin.on("end", shutdown);
  process.stdin.on("error", shutdown);
  process.stdout.on("error", shutdown);
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    const parsed = HostRequestSchema.safeParse(safeJson(line));
    if (parsed.success) checks.handle(parsed.data);
  });
  send({
    ev: "ready",
    cgroup: host.cgroups?.version ?? "none",
    ...(host.cgroupError !== undefined && { cgroupError: host.cgroupError }),
    executor: checks.lanes ? "lane" : "per-check",
    ...(host.executorError !== undefined && { executorError: host.executorError }),
    viewMs: host.viewMs,
    ...(host.treeMs !== undefined && { treeMs: host.treeMs }),
    uid: host.user.uid,
    ...(host.uidError !== undefined && { uidError: host.uidError }),
    startMs: Math.round((performance.now() - started) * 10) / 10,
  });
}

/** What the host built before its first check: the view, the caps, the executor. */
interface HostSetup {
  config: HostConfig;
  tools: HostTools;
  /** The host's private stage; the checks' view is `stage/root`. */
  stage: string;
  cgroups: CgroupHost | undefined;
  cgroupError?: string;
  /** The compiled lane executor; absent without `cc` (or when asked for per-check). */
  executor?: string;
  executorError?: string;
  /** check-network: none without an executor: the `ip` each check brings its loopback up with. */
  ip?: string;
  viewMs: number;
  treeMs?: number;
  /** Who checks run as: the config's user, unless sudo or a missing idmap changed it. */
  user: CheckUser;
  /** Why checks do not run as the dedicated user the gate asked for. */
  uidError?: string;
}

async function setUpHost(rawConfig: string): Promise<HostSetup> {
  const config = HostConfigSchema.parse(JSON.parse(rawConfig));
  // Resolved once, from the system PATH only: nothing the host runs is looked up again.
  const tools = hostTools();
  const stage = mkdtempSync(posix.join(tmpdir(), "contract-gate-sandbox-"));
  // The executor compiles (in the host's private stage) while the view is built.
  const viewStart = performance.now();
  const asked = hostCheckUser(
    { uid: config.uid, gid: config.gid, idmap: config.idmap ?? false },
    process.env,
  );
  // The idmapped tree needs the compiled program even when lanes are not wanted.
  const layout = await buildLayout(stage, config, tools, asked);
  const viewMs = Math.round((performance.now() - viewStart) * 10) / 10;
  const cg = openCgroups(config.memoryMb, config.pidsMax);
  const built = layout.compiled && (await layout.compiled);
  const executor = built?.ok && config.executor !== "per-check" ? built.path : undefined;
  return {
    config,
    tools,
    stage,
    cgroups: cg.ok ? cg.host : undefined,
    ...(!cg.ok && { cgroupError: cg.error }),
    ...(executor !== undefined && { executor }),
    ...(built && !built.ok && { executorError: built.error }),
    ...(config.network === "none" && executor === undefined && { ip: systemTool("ip") }),
    viewMs,
    ...(layout.treeMs !== undefined && { treeMs: layout.treeMs }),
    user: layout.user,
    ...(layout.uidError !== undefined && { uidError: layout.uidError }),
  };
}

/**
 * The host's checks: each resolved in the view, given its cgroup, and
 * handed to a lane, or (without an executor) spawned in namespaces of its own.
 */
class HostChecks {
  private readonly pool: GroupPool | undefined;
  readonly lanes: LanePool | undefined;
  private readonly perCheck: PerCheckSpawner | undefined;
  private readonly root: string;

  constructor(
    private readonly host: HostSetup,
    private readonly send: (e: HostEvent) => void,
  ) {
    const { config, tools, cgroups, executor, user } = host;
    this.root = `${host.stage}/root`;
    this.pool = cgroups && new GroupPool(cgroups);
    const ids = { root: this.root, uid: user.uid, gid: user.gid };
    if (executor !== undefined)
      this.lanes = new LanePool(
        {
          ...ids,
          unshare: tools.unshare,
          executor,
          cgroupParents: cgroups?.parents ?? [],
          guardProc: user.uid === 0,
          privateNetwork: config.network === "none",
        },
        this.pool,
        send,
      );
    else this.perCheck = new PerCheckSpawner({ ...ids, tools, ip: host.ip }, this.pool, send);
  }

  handle(req: HostRequest): void {
    if (req.op === "kill") {
      this.perCheck?.kill(req.id);
      this.lanes?.kill(req.id);
      return;
    }
    const { id, file, args, cwd, env } = req;
    const resolved = resolveCommand(this.root, cwd, file, env.PATH ?? "");
    if (!resolved.ok) {
      this.send({
        ev: "spawn-error",
        id,
        code: resolved.code,
        message: `${resolved.code}: ${file}`,
      });
      return;
    }
    // A lane's executor joins the check's groups itself (through the parents' fds it holds);
    // a per-check namespace joins them through `cgroup.procs` fds the host opens for it.
    const joined = this.joinGroup(id, this.perCheck !== undefined);
    if (joined === undefined) return;
    const { group, joinFds } = joined;
    if (this.lanes) this.lanes.run({ id, file, path: resolved.path, args, cwd, env, group });
    else this.perCheck?.run({ id, path: resolved.path, args, cwd, env, group, joinFds });
  }

  /**
   * The check's cgroup (none without cgroups) and, with `openProcs`, its
   * `cgroup.procs` files opened for writing. When either fails, the check
   * ends here as a boundary error and `undefined` is returned.
   */
  private joinGroup(
    id: number,
    openProcs: boolean,
  ): { group: CheckGroup | undefined; joinFds: number[] } | undefined {
    let group: CheckGroup | undefined;
    const joinFds: number[] = [];
    try {
      group = this.pool?.acquire();
      if (openProcs) for (const procs of group?.procs ?? []) joinFds.push(openSync(procs, "w"));
      return { group, joinFds };
    } catch (e) {
      closeFds(joinFds);
      if (group) this.pool?.release(group);
      this.send({
        ev: "exit",
        id,
        code: null,
        signal: null,
        limits: [],
        boundaryError: `cannot set up the check's cgroup: ${(e as Error).message}`,
      });
      return undefined;
    }
  }

  /** Kills every check, removes the cgroups and the stage, and exits. */
  shutdown(): void {
    this.perCheck?.close();
    this.lanes?.close();
    const { cgroups, tools, stage } = this.host;
    // Killed tasks leave their cgroups a moment later: retry a few times.
    let tries = 0;
    const sweep = () => {
      if (this.pool && !this.pool.sweep() && ++tries < 20) setTimeout(sweep, 50);
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
  }
}

/**
 * Builds the view, compiling the lane executor into the stage meanwhile
 * (also the program that makes idmapped mounts). `treeMs`: how long a
 * private tree's layer took to lay. `user`: who checks run as, once the
 * tree's idmapped mounts were made (or could not be).
 */
async function buildLayout(
  stage: string,
  config: HostConfig,
  tools: HostTools,
  asked: CheckUser,
): Promise<{
  compiled: ReturnType<typeof compileExecutor> | undefined;
  treeMs?: number;
  user: CheckUser;
  uidError?: string;
}> {
  const sh = (text: string) =>
    execFileSync(tools.sh, ["-c", text], { stdio: ["ignore", "ignore", "pipe"], env: hostEnv() });
  const system = (config.system ?? []).map((path) =>
    lstatSync(path).isSymbolicLink() ? { path, link: readlinkSync(path) } : { path },
  );
  sh(stageScript(stage, system, tools));
  // Root's, mode 0700, in the host's own mount namespace: no one else can reach the binary.
  const compile = config.executor !== "per-check" || asked.idmap;
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
  const mapped = asked.idmap
    ? await idmapSources(stage, config, asked, compiled)
    : { user: asked, sources: undefined };
  const { user } = mapped;
  const owned = { ...config, uid: user.uid, gid: user.gid };
  const treeStart = performance.now();
  const tree =
    config.privateTree !== undefined
      ? layPrivateTree(owned, stage, mapped.sources?.get(config.root))
      : undefined;
  const treeMs =
    tree !== undefined ? Math.round((performance.now() - treeStart) * 10) / 10 : undefined;
  sh(
    layoutScript({
      stage,
      config: owned,
      mountPoints,
      gitConfigs,
      ...(tree && { tree }),
      ...(mapped.sources && { idmapped: mapped.sources }),
      tools,
    }),
  );
  if (config.home !== undefined && config.homeGitconfig !== undefined) {
    // The private home starts with the runner's git identity and settings, never its credentials.
    const copy = posix.join(root, config.home, ".gitconfig");
    writeFileSync(copy, config.homeGitconfig, { mode: 0o644 });
    chownSync(copy, user.uid, user.gid);
  }
  return {
    compiled,
    ...(treeMs !== undefined && { treeMs }),
    user,
    ...("error" in mapped && { uidError: mapped.error }),
  };
}

/**
 * The tree, its git metadata and the writable directories, each as an
 * idmapped mount in the host's private stage (its owner shown as the check
 * user), for the layout to bind from. When the kernel, the file system or the
 * missing compiler refuse, none is used and checks run as the tree's owner.
 */
async function idmapSources(
  stage: string,
  config: HostConfig,
  asked: CheckUser,
  compiled: ReturnType<typeof compileExecutor> | undefined,
): Promise<{ user: CheckUser; sources?: IdmappedSources; error?: string }> {
  const owner = statSync(config.root);
  const fallback = (error: string) => ({
    user: fallbackCheckUser({ uid: owner.uid, gid: owner.gid }),
    error,
  });
  if (owner.uid === asked.uid && owner.gid === asked.gid) return { user: asked };
  const built = compiled && (await compiled);
  if (!built?.ok)
    return fallback(`no idmapped mount without the executor (${built?.error ?? "not compiled"})`);
  // What the maintainer granted by name (`sandbox-read`) and the tree's own repository (its
  // git top level: git refuses a repository its user does not own) are shown as the check's
  // own, read-only. Toolchains, the tool cache and the system directories stay as they are on
  // disk: nobody granted their root files to a check.
  const paths = [
    config.root,
    ...(config.gitDirs ?? []),
    ...(config.gitFiles ?? []),
    ...(config.writable ?? []),
    ...(config.binds ?? []).filter((b) => b.owned).map((b) => b.source),
  ];
  const sources = new Map<string, string>();
  const args: string[] = [];
  for (const [i, path] of paths.entries()) {
    if (sources.has(path)) continue;
    let dir: boolean;
    try {
      dir = statSync(path).isDirectory();
    } catch {
      continue; // the layout skips what does not exist
    }
    const at = `${stage}/private/idmap-${i}`;
    if (dir) mkdirSync(at);
    else writeFileSync(at, "", { mode: 0o600 });
    sources.set(path, at);
    args.push(path, at);
  }
  try {
    execFileSync(built.path, ["idmap", String(asked.uid), String(asked.gid), ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: hostEnv(),
    });
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? "").trim();
    return fallback(`cannot idmap the working tree: ${stderr || (e as Error).message}`);
  }
  return { user: asked, sources };
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
