import { readFileSync, realpathSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { lexists } from "../fs/lexists.js";
import { sanitizeGitConfig } from "./git-config.js";
import { type GitLayout, gitLayout } from "./git-dirs.js";

/**
 * What a check's file system holds, and nothing else: the allowlist of
 * docs/security.md ("What a check sees"). Built once per run by the gate,
 * from paths the runner's own user can see; the host mounts exactly these.
 */

/** Read-only, as they are on the machine: programs, libraries, their config. */
export const SYSTEM_DIRS = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/opt",
] as const;

/**
 * Toolchains under `$HOME`, bound read-only into the private home. Each is
 * a program tree or a package cache; none holds a credential. Deliberately
 * absent: `.docker`, `.kube`, `.ssh`, `.aws`, `.azure`, `.config` (gh,
 * gcloud), `.gnupg`, `.npmrc`, `.netrc`, `.pypirc`, `.cargo/credentials*`
 * and `.cargo/config.toml`, `.m2/settings.xml`, `.gradle/gradle.properties`.
 */
export const HOME_TOOLCHAINS: readonly { path: string; what: string }[] = [
  { path: ".cargo/bin", what: "cargo, rustup proxies" },
  { path: ".cargo/registry", what: "cargo's crate cache" },
  { path: ".cargo/git", what: "cargo's git dependencies" },
  { path: ".rustup", what: "Rust toolchains" },
  { path: "go", what: "GOPATH: binaries and the module cache" },
  { path: ".nvm", what: "Node versions (nvm)" },
  { path: ".volta", what: "Node versions (Volta)" },
  { path: ".bun", what: "Bun" },
  { path: ".deno", what: "Deno" },
  { path: ".pyenv", what: "Python versions (pyenv)" },
  { path: ".rbenv", what: "Ruby versions (rbenv)" },
  { path: ".local/bin", what: "pip/pipx user programs" },
  { path: ".local/lib", what: "pip user packages" },
  { path: ".dotnet", what: ".NET SDKs and tools" },
  { path: ".sdkman", what: "JVM SDKs (SDKMAN)" },
  { path: ".m2/repository", what: "Maven's artifact cache" },
  { path: ".gradle/caches", what: "Gradle's caches" },
  { path: ".gradle/wrapper", what: "Gradle wrapper distributions" },
  { path: ".ghcup", what: "Haskell toolchains" },
];

/** Where the runner keeps `setup-*` toolchains (GitHub-hosted: under /opt already). */
const TOOL_CACHE_VARS = ["RUNNER_TOOL_CACHE", "AGENT_TOOLSDIRECTORY"] as const;

/** A path mounted read-only at `target`, from `source` (its real path). */
export interface Bind {
  source: string;
  target: string;
  /**
   * Granted by name (`sandbox-read`) or the tree's own repository (its git
   * top level): a root gate shows it with its owner as the check user, as the
   * tree. Toolchains and the tool cache are ambient: their root files stay root's.
   */
  owned?: boolean;
}

export interface ViewPlan {
  /** Top-level system paths that exist here: directories, or symlinks recreated as they are. */
  system: string[];
  /** The private, empty home (`$HOME`), when there is one. */
  home?: string;
  /** Toolchains found under the real home, as `~/…` (for the report). */
  toolchains: string[];
  /** Everything bound read-only besides the system: toolchains, tool cache, extra reads. */
  binds: Bind[];
  /** `sandbox-read`, real paths. */
  extraReads: string[];
  /** The runner's `~/.gitconfig`, sanitized: the private home starts with it. */
  homeGitconfig?: string;
  git: GitLayout;
}

export interface ViewInput {
  /** The working tree, a real path. */
  root: string;
  env: NodeJS.ProcessEnv;
  /** `sandbox-read`, already resolved by `resolveExtraReads`. */
  extraReads: readonly string[];
}

export function planView({ root, env, extraReads }: ViewInput): ViewPlan {
  const system = SYSTEM_DIRS.filter(lexists);
  const visible = (p: string) => system.some((s) => p === s || p.startsWith(`${s}/`));
  const binds: Bind[] = [];
  const bind = (source: string, target = source, owned = false) => {
    const known = binds.find((b) => b.target === target);
    // A toolchain the maintainer also grants by name (a root-only tool cache) is granted.
    if (known !== undefined) {
      if (owned) known.owned = true;
    } else binds.push({ source, target, ...(owned && { owned }) });
  };
  const home = realOrUndefined(env.HOME);
  const toolchains: string[] = [];
  if (home !== undefined && home !== "/") {
    for (const t of HOME_TOOLCHAINS) {
      const target = join(home, t.path);
      const source = realOrUndefined(target);
      if (source === undefined || !statSync(source).isDirectory()) continue;
      toolchains.push(`~/${t.path}`);
      bind(source, target);
    }
  }
  for (const v of TOOL_CACHE_VARS) {
    const cache = realOrUndefined(env[v]);
    if (cache !== undefined && !visible(cache)) bind(cache);
  }
  // /etc/resolv.conf may be a symlink into /run (systemd-resolved): that one file comes along.
  const resolver = realOrUndefined("/etc/resolv.conf");
  if (resolver !== undefined && !visible(resolver)) bind(resolver);
  for (const p of extraReads) if (!visible(p)) bind(p, p, true);
  const git = gitLayout(root);
  if (git.topLevel !== undefined) bind(git.topLevel, git.topLevel, true);
  const gitconfig = home !== undefined ? readOrUndefined(join(home, ".gitconfig")) : undefined;
  return {
    system,
    ...(home !== undefined && home !== "/" && { home }),
    toolchains,
    binds,
    extraReads: [...extraReads],
    ...(gitconfig !== undefined && { homeGitconfig: sanitizeGitConfig(gitconfig) }),
    git,
  };
}

/**
 * `sandbox-read` entries as real paths: absolute or `~/…`, existing, and
 * neither `/` nor inside the working tree (which checks see anyway).
 */
export function resolveExtraReads(
  entries: readonly string[],
  root: string,
  home: string | undefined,
): { ok: true; paths: string[] } | { ok: false; error: string } {
  const paths: string[] = [];
  const realRoot = realOrUndefined(root) ?? root;
  for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
    const expanded =
      raw === "~" || raw.startsWith("~/")
        ? home !== undefined
          ? posix.join(home, raw.slice(1))
          : undefined
        : raw;
    if (expanded === undefined)
      return { ok: false, error: `sandbox-read: '${raw}' needs $HOME, which is not set.` };
    if (!posix.isAbsolute(expanded))
      return {
        ok: false,
        error: `sandbox-read: '${raw}' is not an absolute path. Fix: write it as /path or ~/path.`,
      };
    const real = realOrUndefined(expanded);
    if (real === undefined)
      return {
        ok: false,
        error: `sandbox-read: '${raw}' does not exist. Fix: create it in an earlier step, or remove it from sandbox-read.`,
      };
    if (real === "/")
      return {
        ok: false,
        error: `sandbox-read: '${raw}' is the whole file system. Fix: name the directories checks need.`,
      };
    if (real === realRoot || real.startsWith(`${realRoot}/`))
      return {
        ok: false,
        error: `sandbox-read: '${raw}' is inside the working tree, which checks see already. Fix: remove it.`,
      };
    if (!paths.includes(real)) paths.push(real);
  }
  return { ok: true, paths };
}

/** Splits the input/flag form: one path per line or comma. */
export function splitPathList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function realOrUndefined(p: string | undefined): string | undefined {
  if (!p) return undefined;
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function readOrUndefined(p: string): string | undefined {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
}
