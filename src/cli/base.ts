import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds/index.js";
import { type Git, GitReadError } from "../git/index.js";
import { changedPaths, touchedContracts } from "../integrity/pairs.js";
import type { IntegrityReport } from "../integrity/types.js";
import { discoverContracts, UsageError } from "../scope/discover.js";
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
  });
  return { applies: true, base, findings };
}

/** `--base` for the CLI: the report, or a usage error (exit 2) naming the fix when the base cannot be read. */
export async function cliIntegrity(
  git: Git,
  rev: string | undefined,
  extraGlobs: readonly string[] | undefined,
): Promise<IntegrityReport | undefined> {
  if (rev === undefined) return undefined;
  try {
    return await integrityAgainst(git, rev, [...DEFAULT_CONTRACT_GLOBS, ...(extraGlobs ?? [])]);
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
