import { discoverContracts, UsageError } from "../discover.js";
import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds.js";
import { compareWithBase } from "./collect.js";
import { BaseUnreadableError, changedSinceCommit, findMergeBase } from "./git-base.js";
import { touchedContracts } from "./pairs.js";
import type { IntegrityReport } from "./types.js";

/**
 * `--base <rev>`: compare every contract changed between the merge base of
 * `rev` and HEAD and the working tree with its base version. Throws
 * `BaseUnreadableError` (with the fix) when the base cannot be read.
 */
export async function integrityAgainst(
  root: string,
  rev: string,
  globs: readonly string[],
): Promise<IntegrityReport> {
  const base = await findMergeBase(root, rev, "HEAD");
  const changed = await changedSinceCommit(root, base);
  const touched = touchedContracts(changed, globs, "");
  const discovered = await discoverContracts({ root, globs });
  const findings = await compareWithBase({ root, mergeBase: base, touched, discovered });
  return { applies: true, base, findings };
}

/** `--base` for the CLI: the report, or a usage error (exit 2) naming the fix when the base cannot be read. */
export async function cliIntegrity(
  root: string,
  rev: string | undefined,
  extraGlobs: readonly string[] | undefined,
): Promise<IntegrityReport | undefined> {
  if (rev === undefined) return undefined;
  try {
    return await integrityAgainst(root, rev, [...DEFAULT_CONTRACT_GLOBS, ...(extraGlobs ?? [])]);
  } catch (e) {
    if (e instanceof BaseUnreadableError) throw new UsageError(`--base ${rev}: ${e.message}`);
    throw e;
  }
}
