import { resolve } from "node:path";
import { companionsOf, withFolders } from "../formats/kinds/companions.js";
import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds/index.js";
import { type DirListing, dirListing } from "../fs/dir-listing.js";
import { commitPaths, diskPaths, type PathSource } from "../fs/repo-paths.js";
import { type Git, GitReadError, openGit } from "../git/index.js";
import { type BaseSide, loadContract } from "../load/index.js";
import type { Contract } from "../model/contract.js";
import { changedSince, GitError } from "../scope/changed-since.js";
import { blockModified } from "../scope/committed.js";
import { discoverContracts, UsageError } from "../scope/discover.js";
import { auditDiscovery } from "../scope/discover-audit.js";
import type { ScopeReason } from "../scope/scope-reason.js";
import type { CliIO } from "./io.js";

/** Repository root: --root, else the git top-level of the current directory, else the directory. */
export async function findRoot(cwd: string, explicit: string | undefined): Promise<string> {
  if (explicit !== undefined) return resolve(cwd, explicit);
  return (await openGit(cwd).topLevel()) || cwd;
}

/**
 * Discover (default globs plus any extra) every contract, in path order.
 * Searching the whole root, the discovery is audited first
 * (`auditDiscovery`): its warnings go to `warn`, an error is a usage error.
 */
async function discoverAll(
  root: string,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  cwd: string,
  warn: (message: string) => void,
  listing: DirListing = dirListing(),
): Promise<string[]> {
  const globs = [...DEFAULT_CONTRACT_GLOBS, ...(extraGlobs ?? [])];
  const files = await discoverContracts({ root, cwd, paths, globs, listing });
  // Named paths are what the user asked for; only a search of the root can miss contracts.
  if (paths.length === 0) {
    const given = extraGlobs ?? [];
    const audit = await auditDiscovery({ root, globs, given, found: files, listing });
    for (const w of audit.warnings) warn(`contract-gate: warning: ${w}\n`);
    if (audit.closed !== undefined) warn(`contract-gate: ${audit.closed}\n`);
    if (audit.errors.length > 0) throw new UsageError(audit.errors.join("\ncontract-gate: "));
  }
  return files;
}

/** Discover and load every contract, in path order (`discoverAll`); `named` as `namedPaths`. */
export async function loadAll(
  root: string,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  cwd: string,
  warn: (message: string) => void = () => {},
  named: PathSource = diskPaths(root),
  base?: BaseSide,
): Promise<Contract[]> {
  // The loader lists a spec's directory as discovery just did: one read of each.
  const dirs = dirListing();
  const files = await discoverAll(root, paths, extraGlobs, cwd, warn, dirs);
  return Promise.all(
    files.map((f) =>
      loadContract(root, f, undefined, { paths: named, dirs, ...(base && { base }) }),
    ),
  );
}

/**
 * Where the paths a spec names (its map's test files, its done tasks' files)
 * are looked up: in HEAD's tree when the CLI runs what is committed
 * (`--committed`, and in any CI, as `committedOnly` decides), so a file a
 * step before the gate created but never committed completes no task; else
 * in the working tree, as a developer editing a spec expects.
 */
export async function namedPaths(
  git: Git,
  committed: boolean,
  env: NodeJS.ProcessEnv,
): Promise<PathSource> {
  if (!committed && !inCI(env)) return diskPaths(git.root);
  // No commit (a plain folder): `committedOnly` says so for `--committed`; the disk is all there is.
  if ((await git.resolveCommit("HEAD")) === undefined) return diskPaths(git.root);
  const atHead = commitPaths(git, "HEAD");
  return {
    open: () =>
      atHead.open().catch((e: unknown) => {
        if (e instanceof GitReadError) throw new UsageError(e.message);
        throw e;
      }),
  };
}

/**
 * The paths `run` gates, without reading the contracts (what `merge` needs to
 * recompute the shards' scope): discovered, then with `--changed-since` only
 * those changed since the commit, their plan and evidence included; with it,
 * why each is in scope (the file that changed), said on every surface.
 */
export async function scopePaths(
  git: Git,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  since: string | undefined,
  io: Pick<CliIO, "cwd" | "stderr">,
): Promise<string[]> {
  return (await scopeWithReasons(git, paths, extraGlobs, since, io)).files;
}

async function scopeWithReasons(
  git: Git,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  since: string | undefined,
  io: Pick<CliIO, "cwd" | "stderr">,
  dirs: DirListing = dirListing(),
): Promise<{ files: string[]; reasons?: Map<string, ScopeReason> }> {
  const files = await discoverAll(git.root, paths, extraGlobs, io.cwd, io.stderr, dirs);
  if (since === undefined) return { files };
  let changed: Set<string>;
  try {
    changed = await changedSince(git, since);
  } catch (e) {
    if (e instanceof GitError) throw new UsageError(e.message);
    throw e;
  }
  const reasons = new Map<string, ScopeReason>();
  const changedIn = withFolders(changed);
  for (const f of files) {
    const file = companionsOf(f).find((p) => changedIn.has(p));
    if (file !== undefined) reasons.set(f, { reason: "changed-since", ref: since, file });
  }
  return { files: files.filter((f) => reasons.has(f)), reasons };
}

/** The contracts `run` gates (`scopePaths`), loaded, with why each is in scope when the selection narrows. */
export async function loadScope(
  git: Git,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  since: string | undefined,
  io: Pick<CliIO, "cwd" | "stderr">,
  named: PathSource = diskPaths(git.root),
  base?: BaseSide,
): Promise<{ contracts: Contract[]; reasons?: Map<string, ScopeReason> }> {
  const dirs = dirListing();
  const { files, reasons } = await scopeWithReasons(git, paths, extraGlobs, since, io, dirs);
  const contracts = await Promise.all(
    files.map((f) =>
      loadContract(git.root, f, undefined, { paths: named, dirs, ...(base && { base }) }),
    ),
  );
  return { contracts, ...(reasons && { reasons }) };
}

/** Whether the environment says a CI system runs this (any CI sets `CI`). */
export function inCI(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

/**
 * Run what is committed (`--committed`, and in any CI): a contract whose
 * files in the working tree differ from HEAD runs nothing and blocks
 * (`worktree-modified`). Otherwise the working tree is what runs, as a
 * developer editing a contract expects. In CI outside a clone there is no
 * commit to compare with; `--committed` there is a usage error.
 */
export async function committedOnly(
  git: Git,
  contracts: Contract[],
  committed: boolean,
  env: NodeJS.ProcessEnv,
): Promise<Contract[]> {
  if (!committed && !inCI(env)) return contracts;
  if ((await git.resolveCommit("HEAD")) === undefined) {
    if (!committed) return contracts;
    throw new UsageError(
      `--committed: ${git.root} has no commit to compare the contracts with (not a git repository, or nothing committed yet)`,
    );
  }
  try {
    return await blockModified(git, "HEAD", contracts);
  } catch (e) {
    if (e instanceof GitReadError) throw new UsageError(`--committed: ${e.message}`);
    throw e;
  }
}

/**
 * The commit the static checks read (file-exists, grep-match, citations):
 * HEAD, resolved once, wherever the CLI runs what is committed
 * (`--committed`, and in any CI); none in a plain folder or a developer's
 * run, where the working tree is what they judge.
 */
export async function staticCommit(
  git: Git,
  committed: boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ git: Git; sha: string } | undefined> {
  if (!committed && !inCI(env)) return undefined;
  const sha = await git.resolveCommit("HEAD");
  return sha === undefined ? undefined : { git, sha };
}
