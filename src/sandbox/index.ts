import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type ProcessOptions,
  type ProcessOutcome,
  type ProcessRunner,
  runCollected,
  runProcess,
} from "../process/run-process.js";
import { type CredentialConfigs, credentialConfigs } from "./credential-configs.js";
import { HostConnection } from "./host-client.js";
import type { HostConfig } from "./protocol.js";
import { systemTool, untrustedReason } from "./system-tools.js";
import { openUnsandboxed } from "./unsandboxed.js";
import { planView, resolveExtraReads, type ViewPlan } from "./view.js";

/** `auto`: the boundary when one is available; `required`: no command runs without it; `off`. */
export type SandboxMode = "auto" | "required" | "off";
export const SANDBOX_MODES = ["auto", "required", "off"] as const;

/** Default per-check memory cap: generous for builds, small enough that a bomb cannot starve the runner. */
export const DEFAULT_CHECK_MEMORY_MB = 4096;
/** Per-check process (task) cap: room for parallel test runners and their threads. */
export const DEFAULT_CHECK_PIDS = 4096;

/** `host`: the runner's network (service containers on localhost); `none`: loopback only. */
export type CheckNetwork = "host" | "none";
export const CHECK_NETWORKS = ["host", "none"] as const;
/** Network by grant: a check gets loopback only unless the maintainer sets `check-network: host`. */
export const DEFAULT_CHECK_NETWORK: CheckNetwork = "none";

/** What a check's view holds, as the report names it (docs/security.md). */
export interface SandboxView {
  /** The working tree, read-write. */
  tree: string;
  /** System directories, read-only. */
  system: string[];
  /** Toolchains bound read-only into the private home, as `~/…`. */
  toolchains: string[];
  /** `sandbox-read`, read-only. */
  extraReads: string[];
  /** Git directories mounted read-only. */
  gitDirs: number;
  /** Credential files hidden (`gha-creds-*.json`, tools' credential-bearing configs). */
  hiddenCredentials: number;
  network: CheckNetwork;
  /** The uid checks ran as (0: the gate is root, and so are its checks, without capabilities). */
  uid?: number;
}

/** What the run used, for the log, the JSON report and the check run. */
export interface SandboxInfo {
  mode: SandboxMode;
  /** `namespaces (root)`, `namespaces (sudo -n)`, or `none`. */
  mechanism: "namespaces (root)" | "namespaces (sudo -n)" | "none";
  /**
   * How each check is started (docs/security.md, "One executor per lane"):
   * `lane executor` (one small executor per parallel lane, PID 1 of the
   * lane's namespaces), `per-check namespaces` (a fresh namespace chain per
   * check: no C compiler on the machine); without a boundary `unsandboxed
   * executor` (the same program, forking each check as its own process
   * group) or `gate` (spawned by the gate itself: no C compiler).
   */
  executor?: SandboxExecutor;
  /** Where the caps come from; `none` without a boundary or without cgroups. */
  cgroup: "v1" | "v2" | "none";
  memoryMb: number;
  /** What checks saw, when there was a boundary. */
  view?: SandboxView;
  /** Why there is no boundary (or no caps): shown with the warning. */
  warning?: string;
  /** The boundary was asked for something it cannot give (a `sandbox-read` path missing): no command ran. */
  error?: string;
  /** The environment's names (never values): what `check-env` granted, what checks did not get. */
  checkEnv?: CheckEnvNames;
}

export interface CheckEnvNames {
  granted: string[];
  withheld: string[];
}

export type SandboxExecutor =
  | "lane executor"
  | "per-check namespaces"
  | "unsandboxed executor"
  | "gate";

export interface SandboxOptions {
  mode: SandboxMode;
  /** The working tree: the one directory checks may change. */
  root: string;
  /** The gate's environment (file-command paths, RUNNER_TEMP, HOME). */
  env: NodeJS.ProcessEnv;
  /** How to start the host: `[node, entry script, SANDBOX_HOST_ARG]`. */
  hostCommand: readonly string[] | undefined;
  memoryMb: number;
  pidsMax?: number;
  /** Paths kept read-only even inside the working tree: the action's own files. */
  protect?: readonly string[];
  /** Start the host through this `sudo` (default: `sudo`, and only when not root). */
  sudo?: string;
  /** Run checks as this user rather than the gate's own (tests: the non-root path on a root machine). */
  user?: { uid: number; gid: number };
  /** `sandbox-read`: extra paths checks see read-only (absolute or `~/…`; each must exist). */
  extraReads?: readonly string[];
  /** Default `none` (DEFAULT_CHECK_NETWORK). */
  network?: CheckNetwork;
  /** `per-check`: never an executor (tests of the fallbacks). Default: executors when possible. */
  executor?: "lane" | "per-check";
  /**
   * Show the tree as a private overlay (docs/security.md, "A private tree"):
   * checks change only their own copy-on-write layer, the tree on disk is
   * never written; `layer` (a tree-layer file) is laid on top first. Only
   * where `privateTreeFits(root)`.
   */
  privateTree?: { layer?: string };
  /** Directories outside the tree checks may write (a proof's results), each existing. */
  writable?: readonly string[];
}

/**
 * Whether a tree at `root` can be a private overlay: the overlay's options
 * are one comma- and colon-separated string, so a path holding either (or a
 * double quote, a backslash, or a control character) cannot be named in it. Such trees are copied instead.
 */
export function privateTreeFits(root: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return !/[,:"\\\x00-\x1f]/.test(root);
}

export interface Sandbox {
  info: SandboxInfo;
  /** How long the host took to build the checks' view (benches); absent without a boundary. */
  viewMs?: number;
  /** Of `viewMs`, laying a private tree's layer (benches). */
  treeMs?: number;
  /** Runs every command of a check; under `required` without a boundary, refuses. */
  run: ProcessRunner;
  close(): void;
}

const FILE_COMMANDS = [
  "GITHUB_ENV",
  "GITHUB_OUTPUT",
  "GITHUB_PATH",
  "GITHUB_STATE",
  "GITHUB_STEP_SUMMARY",
];

/**
 * The one entry point: find a mechanism (root, then `sudo -n`), start the
 * sandbox host, prove the boundary with a probe, and hand back the runner
 * every command check uses. Never throws: no boundary is an `info` the
 * caller reports, and under `required` a runner that refuses every command.
 */
export async function openSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const memoryMb = opts.memoryMb;
  const unsandboxed = async (warning?: string): Promise<Sandbox> => {
    const local = opts.executor === "per-check" ? undefined : openUnsandboxed();
    return {
      info: {
        mode: opts.mode,
        mechanism: "none",
        executor: local ? await local.executor() : "gate",
        cgroup: "none",
        memoryMb,
        ...(warning && { warning }),
      },
      run: local?.run ?? runProcess,
      close: () => local?.close(),
    };
  };
  if (opts.mode === "off") return unsandboxed();
  /** No boundary, and no command may run: each refused with `reason`, the report saying why. */
  const refusing = (why: { error: string } | { warning: string }, reason: string): Sandbox => ({
    info: {
      mode: opts.mode,
      mechanism: "none",
      executor: "gate",
      cgroup: "none",
      memoryMb,
      ...why,
    },
    run: (o) => runCollected(o, async () => ({ kind: "boundary", reason })),
    close: () => {},
  });
  // A wrong sandbox-read is the workflow's mistake, not a missing boundary:
  // no mode runs a command past it.
  const extra = resolveExtraReads(opts.extraReads ?? [], opts.root, opts.env.HOME);
  if (!extra.ok) return refusing({ error: extra.error }, extra.error);
  const found = await findBoundary(opts, extra.paths);
  if (found.ok) return found.sandbox;
  if (opts.mode === "auto") return unsandboxed(found.error);
  const reason =
    `sandbox: required, but no boundary is available (${found.error}). ` +
    "Fix: run the gate as root or give the runner passwordless sudo (GitHub-hosted Linux runners have it), " +
    "or set sandbox: auto (or --sandbox auto) to run commands unsandboxed.";
  return refusing({ warning: found.error }, reason);
}

async function findBoundary(
  opts: SandboxOptions,
  extraReads: string[],
): Promise<{ ok: true; sandbox: Sandbox } | { ok: false; error: string }> {
  if (process.platform !== "linux")
    return {
      ok: false,
      error: `no supported sandbox on ${process.platform} (Linux namespaces are required)`,
    };
  if (!opts.hostCommand) return { ok: false, error: "this build cannot start a sandbox host" };
  const root = process.getuid?.() === 0 && opts.sudo === undefined;
  // By absolute paths from the system PATH, each root's and writable by no one
  // else: what the gate's PATH finds first may be the pull request's own.
  let unshare: string;
  let sudo: string | undefined;
  try {
    unshare = systemTool("unshare");
    if (!root) {
      sudo = opts.sudo ?? systemTool("sudo");
      const why = untrustedReason(sudo);
      if (why !== undefined) throw new Error(`sudo: ${why}`);
    }
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  let config: HostConfig;
  let plan: ViewPlan;
  let configs: CredentialConfigs;
  try {
    ({ config, plan, configs } = hostConfig(opts, extraReads));
  } catch (e) {
    return { ok: false, error: `cannot describe the boundary: ${(e as Error).message}` };
  }
  const launcher = sudo === undefined ? [] : [sudo, "-n", "--"];
  const mechanism = root ? "namespaces (root)" : "namespaces (sudo -n)";
  const started = await HostConnection.start(
    // The host is PID 1 of a namespace of its own: however it dies (even
    // SIGKILLed), the kernel kills every check with it; --kill-child does the
    // same if the unshare above it is killed.
    [
      ...launcher,
      unshare,
      "--mount",
      "--propagation",
      "private",
      "--pid",
      "--fork",
      "--kill-child",
      "--",
      ...opts.hostCommand,
    ],
    config,
  );
  if (!started.ok) return { ok: false, error: `${mechanism}: ${started.error}` };
  const host = started.host;
  const run: ProcessRunner = (o) => runCollected(o, host.supervise);
  const probe = await proveBoundary(run, config.root);
  if (probe !== undefined) {
    host.close();
    return { ok: false, error: `${mechanism}: the probe failed: ${probe}` };
  }
  const cgroupWarning =
    started.cgroup === "none"
      ? `no memory or process caps: ${started.cgroupError ?? "cgroups unavailable"}`
      : undefined;
  const executorNote =
    started.executor === "per-check" && started.executorError !== undefined
      ? `checks start per check, not from a lane executor (${started.executorError}): slower, same boundary`
      : undefined;
  const warning = [cgroupWarning, executorNote].filter(Boolean).join("; ");
  return {
    ok: true,
    sandbox: {
      info: {
        mode: opts.mode,
        mechanism,
        executor: started.executor === "lane" ? "lane executor" : "per-check namespaces",
        cgroup: started.cgroup,
        memoryMb: opts.memoryMb,
        view: {
          tree: config.root,
          system: plan.system,
          toolchains: plan.toolchains,
          extraReads: plan.extraReads,
          gitDirs: plan.git.dirs.length,
          // The workspace's credential files and the tools' credential-bearing configs.
          hiddenCredentials: plan.git.credentialFiles.length + configs.hidden.length,
          network: opts.network ?? DEFAULT_CHECK_NETWORK,
          uid: config.uid,
        },
        ...(warning && { warning }),
      },
      run,
      close: () => host.close(),
      ...(started.viewMs !== undefined && { viewMs: started.viewMs }),
      ...(started.treeMs !== undefined && { treeMs: started.treeMs }),
    },
  };
}

/**
 * A check inside the boundary must be PID 1 of its namespace, must not see
 * the gate's process, and must not be able to write outside the working tree.
 */
async function proveBoundary(run: ProcessRunner, root: string): Promise<string | undefined> {
  // PID 1 is the check itself (a namespace per check) or its lane's executor.
  const script = `[ $$ = 1 ] || tr '\\0' ' ' < /proc/1/cmdline | grep -q '^/proc/self/fd/[0-9]* ' || { echo "PID 1 is no sandbox init: $$"; exit 1; }
[ ! -e /proc/${process.pid} ] || [ ${process.pid} -le 2 ] || { echo "the gate's PID is visible"; exit 1; }
if (: > /.contract-gate-probe) 2>/dev/null; then echo "/ is writable"; exit 1; fi
echo boundary-ok`;
  const out: ProcessOutcome = await run({
    file: "sh",
    args: ["-c", script],
    cwd: root,
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 30_000,
  } satisfies ProcessOptions);
  if (out.kind === "exited" && out.exitCode === 0 && out.stdout.includes("boundary-ok"))
    return undefined;
  if (out.kind === "boundary") return out.reason;
  return (out.stdout + out.stderrTail).trim().slice(0, 300) || out.kind;
}

function hostConfig(
  opts: SandboxOptions,
  extraReads: string[],
): { config: HostConfig; plan: ViewPlan; configs: CredentialConfigs } {
  const env = opts.env;
  const real = (p: string | undefined) => {
    if (!p) return undefined;
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const files = FILE_COMMANDS.map((k) => real(env[k])).filter((p): p is string => p !== undefined);
  const runnerTemp = real(env.RUNNER_TEMP);
  const hiddenDirs = new Set(files.map((f) => dirname(f)));
  if (runnerTemp) hiddenDirs.add(join(runnerTemp, "_runner_file_commands"));
  // The runner's credentials and logs, not its whole directory: on self-hosted
  // runners the tool cache (setup-node, setup-go) lives beside them.
  const runner = runnerRoot(process.execPath);
  if (runner) hiddenDirs.add(join(runner, "_diag"));
  const secretFiles = runner ? RUNNER_SECRETS.map((f) => join(runner, f)) : [];
  const home = real(env.HOME);
  const root = realpathSync(opts.root);
  const plan = planView({ root, env, extraReads });
  // A protected path that holds the tree (the gate checking its own repository,
  // a local `uses: ./` action) would freeze the tree itself: there the PR's
  // code is the gate anyway, so only paths beside or inside the tree are kept.
  const protect = (opts.protect ?? [])
    .map(real)
    .filter((p): p is string => p !== undefined && p !== root && !root.startsWith(`${p}/`));
  // A private tree shows what a copy of it would hold, and a copy holds no git metadata:
  // the tree's git directories and `.git` files are empty there (git finds no repository),
  // since the checkout's index and HEAD are the head's, and at base they would list and
  // serve the pull request's files (docs/security.md, "A private tree").
  const inTree = (p: string) => p === root || p.startsWith(`${root}/`);
  const tree = opts.privateTree !== undefined;
  const git = {
    dirs: plan.git.dirs.filter((d) => !(tree && inTree(d))),
    files: plan.git.files.filter((f) => !(tree && inTree(f))),
    configs: plan.git.configs.filter((c) => !(tree && inTree(c))),
  };
  if (tree) {
    for (const d of plan.git.dirs) if (inTree(d)) hiddenDirs.add(d);
  }
  const hiddenGitFiles = tree ? plan.git.files.filter(inTree) : [];
  // Tools' global configs in the view that can hold a credential: hidden, /etc/gitconfig sanitized.
  const configs = credentialConfigs(env);
  const config: HostConfig = {
    root,
    uid: opts.user?.uid ?? process.getuid?.() ?? 0,
    gid: opts.user?.gid ?? process.getgid?.() ?? 0,
    ...(home !== undefined && plan.home !== undefined && { home }),
    // The view is an allowlist: these exist in it only where an allowed path
    // holds them (a self-hosted runner under /opt, a sandbox-read), and are then covered.
    emptyDirs: runnerTemp ? [runnerTemp] : [],
    hiddenDirs: [...hiddenDirs],
    hiddenFiles: [
      ...files,
      ...secretFiles,
      ...ROOT_SOCKETS,
      ...plan.git.credentialFiles,
      ...hiddenGitFiles,
      ...configs.hidden,
    ],
    readOnly: protect,
    ...(opts.privateTree !== undefined && { privateTree: privateTree(root, opts.privateTree) }),
    ...(opts.writable !== undefined && { writable: opts.writable.map((w) => realpathSync(w)) }),
    memoryMb: opts.memoryMb,
    pidsMax: opts.pidsMax ?? DEFAULT_CHECK_PIDS,
    system: plan.system,
    binds: plan.binds,
    gitDirs: git.dirs,
    gitFiles: git.files,
    gitConfigs: [...git.configs, ...configs.sanitized],
    ...(plan.homeGitconfig !== undefined && { homeGitconfig: plan.homeGitconfig }),
    network: opts.network ?? DEFAULT_CHECK_NETWORK,
    ...(opts.executor !== undefined && { executor: opts.executor }),
  };
  return { config, plan, configs };
}

function privateTree(root: string, asked: { layer?: string }): { layer?: string } {
  if (!privateTreeFits(root))
    throw new Error(`the tree's path cannot be an overlay's lower layer: ${JSON.stringify(root)}`);
  return asked.layer === undefined ? {} : { layer: realpathSync(asked.layer) };
}

/**
 * Sockets whose servers trust uid 0 (systemd runs units for it, Docker is
 * root): a check running as capability-less root would otherwise connect
 * and leave. Replaced by empty files, so a connect is refused.
 */
const ROOT_SOCKETS = [
  "/run/systemd/private",
  "/run/dbus/system_bus_socket",
  "/run/docker.sock",
  "/run/containerd/containerd.sock",
  "/run/podman/podman.sock",
];

/** The runner's registration and credential files, in its own directory. */
const RUNNER_SECRETS = [".credentials", ".credentials_rsaparams", ".runner", ".env"];

/**
 * The Actions runner's own directory, found from the node it gave the action
 * (`<runner>/externals/node24/bin/node`).
 */
export function runnerRoot(execPath: string): string | undefined {
  return /^(\/.+)\/externals\/node\d*\/bin\/node$/.exec(execPath)?.[1];
}
