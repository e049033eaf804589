import { relative, sep } from "node:path";
import { kindOf, parseContract } from "../formats/index.js";
import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds/index.js";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import { dirListing } from "../fs/dir-listing.js";
import type { Git } from "../git/index.js";
import type { ChangedFile, GitHubApi } from "../github/types.js";
import { contractPaths } from "../scope/contract-path.js";
import { discoverContracts } from "../scope/discover.js";
import { auditDiscovery } from "../scope/discover-audit.js";
import type { ScopeReason } from "../scope/scope-reason.js";
import type { RunnerEnv, Target } from "./event.js";
import type { Gated } from "./head.js";
import type { ActionSettings } from "./inputs.js";
import { type ActionIO, StopRun } from "./io.js";
import { selectChanged } from "./select.js";

/** Which contracts this run gates, and what the PR did to the others. */
export interface Scope {
  /** The working directory: contract paths are relative to it. */
  root: string;
  /** The working directory relative to the repository root ("" when the same). */
  prefix: string;
  /** Every contract the globs match. */
  discovered: string[];
  /** The PR's changed files (repository-relative); empty without a PR. */
  changed: ChangedFile[];
  /** The contracts to run. */
  paths: string[];
  /** Why each of `paths` is in scope, for every surface. */
  reasons: Map<string, ScopeReason>;
  /** Contracts the PR (or the queued commit) deleted or renamed away. */
  removed: string[];
  /** Contract paths that are no longer regular files at head. */
  notFiles: string[];
  /** Set when the globs match no file at all (or the configuration is wrong): the first line of every surface. */
  noMatch: string | undefined;
  /** Set when the configuration is wrong (`auditDiscovery`'s errors): the gate fails. */
  misconfigured?: string | undefined;
}

/**
 * Stage 3: discover the contracts and select those in scope — the ones the
 * PR (or the queued commit) touches under `scope: changed`, else all. Throws
 * StopRun when the changed files cannot be found.
 */
export async function collectContracts(args: {
  api: GitHubApi;
  io: ActionIO;
  runner: RunnerEnv;
  settings: ActionSettings;
  gated: Gated;
  git: Git;
}): Promise<Scope> {
  try {
    return await collect(args);
  } catch (e) {
    throw new StopRun(`contract-gate: ${(e as Error).message}`);
  }
}

async function collect({
  api,
  io,
  runner,
  settings,
  gated: { target, headSha },
  git,
}: Parameters<typeof collectContracts>[0]): Promise<Scope> {
  const root = settings.workingDirectory;
  const prefix = repoPrefix(runner.workspace ?? root, root);
  let removed: string[] = [];
  let notFiles: string[] = [];
  let noMatch: string | undefined;
  let paths: string[];
  const reasons = new Map<string, ScopeReason>();
  const changedBy = (by: ReadonlyMap<string, string>) => {
    for (const [path, file] of by) reasons.set(path, { reason: "changed", file });
  };
  // The PR's files are listed (the API) while the disk is searched; settled
  // into a value at once, so a failure waits for its turn below.
  const listing: Promise<{ files: ChangedFile[] } | { error: unknown }> =
    target.kind === "pull-request"
      ? changedFiles(api, target, git, io).then(
          (files) => ({ files }),
          (error: unknown) => ({ error }),
        )
      : Promise.resolve({ files: [] });
  const dirs = dirListing();
  const discovered = await discoverContracts({ root, globs: settings.contracts, listing: dirs });
  const isDefault = settings.contracts.join("\n") === DEFAULT_CONTRACT_GLOBS.join("\n");
  const audit = await auditDiscovery({
    root,
    globs: settings.contracts,
    given: isDefault ? [] : settings.contracts,
    found: discovered,
    listing: dirs,
  });
  // A mistyped glob would otherwise read like a PR that touches no contract: say it first.
  // Only archived contracts (closed work): one line, neutral, no warning.
  if (discovered.length === 0) {
    noMatch = audit.closed ?? noMatchMessage(settings.contracts);
    if (audit.closed !== undefined) io.info(`contract-gate: ${noMatch}`);
    else io.warning(`contract-gate: ${noMatch}`);
  }
  for (const w of audit.warnings) io.warning(`contract-gate: ${w}`);
  const errors = [...audit.errors, ...(await vanishedContracts(git, settings.contracts))];
  // A misconfiguration leads every surface, as the no-match sentence does, and fails the gate.
  const misconfigured = errors.length > 0 ? errors.join(" ") : undefined;
  if (misconfigured !== undefined) {
    io.warning(`contract-gate: ${misconfigured}`);
    noMatch = misconfigured;
  }
  const listed = await listing;
  if ("error" in listed) throw listed.error;
  const changed = listed.files;
  if (target.kind === "pull-request" && settings.scope === "changed") {
    let by: Map<string, string>;
    ({
      selected: paths,
      removed,
      notFiles,
      by,
    } = selectChanged(discovered, changed, settings.contracts, prefix));
    changedBy(by);
    io.info(
      `${paths.length} of ${discovered.length} contracts are touched by PR #${target.number}.`,
    );
    // A contract bound to the PR's branch judges it whether or not the PR touches the contract.
    // Read at the checkout's commit, the one the worktree-modified check compares with.
    const bound = (await boundToBranch(git, "HEAD", discovered, target.headRef)).filter(
      (p) => !paths.includes(p),
    );
    for (const p of bound) {
      io.info(`${p} is in scope: its header binds it to the PR's head branch ${target.headRef}.`);
      reasons.set(p, { reason: "branch", branch: target.headRef! });
    }
    paths = [...paths, ...bound].sort();
    if (notFiles.length > 0) {
      io.warning(
        `contract-gate: no longer regular files at head, so nothing of them runs: ${notFiles.join(", ")}.`,
      );
    }
  } else {
    paths = discovered;
    const by = settings.scope === "all" ? "scope: all" : `${runner.eventName}: no pull request`;
    for (const p of paths) reasons.set(p, { reason: "all", by });
    io.info(`Gating all ${paths.length} contracts at ${headSha}.`);
  }
  if (
    target.kind === "commit" &&
    target.changedSince !== undefined &&
    settings.scope === "changed"
  ) {
    // merge_group: no PR API for a queued commit; git diff base...head (deepening a shallow clone).
    const queued = await git.changedBetween(target.changedSince, headSha);
    let by: Map<string, string>;
    ({
      selected: paths,
      removed,
      notFiles,
      by,
    } = selectChanged(discovered, queued, settings.contracts, prefix));
    reasons.clear();
    changedBy(by);
    io.info(
      `${paths.length} of ${discovered.length} contracts are changed between ${target.changedSince} and ${headSha}.`,
    );
  }
  return {
    root,
    prefix,
    discovered,
    changed,
    paths,
    reasons,
    removed,
    notFiles,
    noMatch,
    misconfigured,
  };
}

/**
 * The contracts whose header names `branch` (an oracle contract's `branch:`;
 * the other kinds have no such field), read at `commit` as the comparison
 * reads them: a step before the gate that rewrites a header on disk cannot
 * unbind a contract (and one it writes, never committed, binds nothing).
 * Not-yet-known branch: none.
 */
export async function boundToBranch(
  git: Git,
  commit: string,
  discovered: readonly string[],
  branch: string | undefined,
): Promise<string[]> {
  if (branch === undefined || branch === "") return [];
  const oracles = discovered.filter((path) => kindOf(path) === "oracle-contract");
  if (oracles.length === 0) return [];
  const reads = await git.readAt(
    commit,
    oracles.map((path) => ({ path, limit: MAX_CONTRACT_BYTES })),
  );
  return oracles.filter((path) => {
    const read = reads.get(path);
    if (read?.kind !== "file" || read.size > MAX_CONTRACT_BYTES) return false;
    const header = parseContract("oracle-contract", path, read.bytes).header;
    return header.kind === "oracle-contract" && header.branch?.trim() === branch;
  });
}

/**
 * Run what was compared: discovery reads the working tree, so a contract of
 * the checkout's commit that a step before the gate deleted (or replaced by a
 * directory) would drop out of scope unseen, under `scope: all` too. Each is
 * named in one sentence that fails the gate.
 */
async function vanishedContracts(git: Git, globs: readonly string[]): Promise<string[]> {
  const { isContract } = contractPaths(globs);
  const gone = (await git.worktreeChanges("HEAD", { renames: false }))
    .filter((f) => f.status === "removed" && isContract(f.path))
    .map((f) => f.path);
  if (gone.length === 0) return [];
  const list = gone.map((p) => `\`${p}\``).join(", ");
  return [
    `${list} ${gone.length === 1 ? "is" : "are"} in the checked-out commit but gone from the working tree: a step before the gate deleted ${gone.length === 1 ? "it" : "them"} after checkout, and the gate runs only what it compared. Run no pull-request code before the gate (install with \`npm ci --ignore-scripts\`).`,
  ];
}

/** The first line of every surface when the `contracts` globs match nothing at all. */
export function noMatchMessage(globs: readonly string[]): string {
  const listed = globs.map((g) => `\`${g}\``).join(", ");
  return `The globs ${listed} match no file in the repository — check the \`contracts\` input.`;
}

/** Working directory relative to the repository root, "" when they are the same. */
function repoPrefix(workspace: string, root: string): string {
  const rel = relative(workspace, root);
  return rel === "" || rel.startsWith("..") ? "" : rel.split(sep).join("/");
}

/** The PR's changed files: the API, or git when the API's 3,000-file cap cut the list. */
async function changedFiles(
  api: GitHubApi,
  target: Extract<Target, { kind: "pull-request" }>,
  git: Git,
  io: ActionIO,
): Promise<ChangedFile[]> {
  let files: ChangedFile[] | undefined;
  try {
    files = await api.listPullFiles(target.number);
  } catch (e) {
    io.warning(
      `contract-gate: listing the PR's files failed (${(e as Error).message}); using git instead.`,
    );
  }
  let count = target.changedFiles;
  if (count === undefined && files !== undefined) {
    count = (await api.getPull(target.number).catch(() => undefined))?.changedFiles;
  }
  if (files !== undefined && (count === undefined || files.length >= count)) return files;
  io.info(
    `The PR changes ${count ?? "an unknown number of"} files; the API listed ${files?.length ?? 0}. Using git diff.`,
  );
  return git.changedBetween(target.baseSha!, target.headSha!);
}
