import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds/index.js";
import { type Git, GitReadError } from "../git/index.js";
import type { ProofCommand } from "../integrity/harness-diff.js";
import { changedPaths, touchedContracts } from "../integrity/pairs.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { BaseSide } from "../load/index.js";
import { discoverContracts, UsageError } from "../scope/discover.js";
import { baseSide } from "../sides/base-side.js";
import { compareWithBase } from "../sides/compare-with-base.js";

/**
 * `--base <rev>`: compare every contract changed between the merge base of
 * `rev` and HEAD and the working tree with its base version. Throws
 * `GitReadError` (with the fix) when the base cannot be read.
 */
export async function integrityAgainst(
  git: Git,
  rev: string,
  globs: readonly string[],
  proofCommand?: ProofCommand,
): Promise<IntegrityReport> {
  const base = await git.mergeBase(rev, "HEAD");
  const changed = await git.worktreeChanges(base);
  const touched = touchedContracts(changed, globs, "");
  const discovered = await discoverContracts({ root: git.root, globs });
  const findings = await compareWithBase({
    git,
    mergeBase: base,
    touched,
    discovered,
    changed: changedPaths(changed, ""),
    ...(proofCommand ? { proofCommand } : {}),
  });
  return { applies: true, base, findings };
}

/** `--base` for the CLI: the report, or a usage error (exit 2) naming the fix when the base cannot be read. */
export async function cliIntegrity(
  git: Git,
  rev: string | undefined,
  extraGlobs: readonly string[] | undefined,
  proofCommand?: ProofCommand,
): Promise<IntegrityReport | undefined> {
  if (rev === undefined) return undefined;
  try {
    const globs = [...DEFAULT_CONTRACT_GLOBS, ...(extraGlobs ?? [])];
    return await integrityAgainst(git, rev, globs, proofCommand);
  } catch (e) {
    if (e instanceof GitReadError) throw new UsageError(`--base ${rev}: ${e.message}`);
    throw e;
  }
}

/**
 * `run --shard i/n --base <rev>`: the merge base alone, which the leg's
 * requirement proof runs against (the contracts are compared with it by
 * the merge, docs/sharding.md); a usage error when it cannot be read.
 */
export async function cliProofBase(
  git: Git,
  rev: string | undefined,
): Promise<IntegrityReport | undefined> {
  if (rev === undefined) return undefined;
  try {
    return { applies: true, base: await git.mergeBase(rev, "HEAD"), findings: [] };
  } catch (e) {
    if (e instanceof GitReadError) throw new UsageError(`--base ${rev}: ${e.message}`);
    throw e;
  }
}

/**
 * The side the loader judges a change against: the merge base of `rev`
 * (`--base`, else `--changed-since`) and HEAD. None given: undefined, and a
 * done task whose file is missing warns instead of blocking (nothing says
 * the change checked it off). A usage error when the base cannot be read.
 */
export async function cliBaseSide(
  git: Git,
  rev: string | undefined,
  flag = "--base",
): Promise<BaseSide | undefined> {
  if (rev === undefined) return undefined;
  // The same words as --changed-since's own check, whichever of the two reads the ref first
  // (--base keeps the merge base's own messages: the fetch to run, outside a repository).
  if (flag === "--changed-since" && (await git.resolveCommit(rev)) === undefined) {
    throw new UsageError(`${flag} ${rev}: no such commit in ${git.root}`);
  }
  try {
    return baseSide(git, await git.mergeBase(rev, "HEAD"));
  } catch (e) {
    if (e instanceof GitReadError) throw new UsageError(`${flag} ${rev}: ${e.message}`);
    throw e;
  }
}
