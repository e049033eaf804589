import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkUser } from "./check-user.js";
import { type CredentialConfigs, credentialConfigs } from "./credential-configs.js";
import {
  DEFAULT_CHECK_NETWORK,
  DEFAULT_CHECK_PIDS,
  privateTreeFits,
  type SandboxOptions,
} from "./options.js";
import type { HostConfig } from "./protocol.js";
import { planView, type ViewPlan } from "./view.js";

/**
 * The host's configuration for one run, from the gate's side: the view
 * planned (view.ts), and what it hides — the runner's file commands,
 * credentials and logs, sockets that trust root, git metadata a private
 * tree holds none of.
 */

const FILE_COMMANDS = [
  "GITHUB_ENV",
  "GITHUB_OUTPUT",
  "GITHUB_PATH",
  "GITHUB_STATE",
  "GITHUB_STEP_SUMMARY",
];

export function hostConfig(
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
  // Never root: a root gate asks for the dedicated check user (check-user.ts).
  const user = checkUser({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }, opts.user);
  const config: HostConfig = {
    root,
    uid: user.uid,
    gid: user.gid,
    ...(user.idmap && { idmap: true }),
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
