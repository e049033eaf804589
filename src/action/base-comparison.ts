import type { GitHubApi } from "../github/types.js";
import { noPullBase, pullIntegrity } from "../integrity/action-integrity.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { Scope } from "./collect.js";
import type { Gated } from "./head.js";
import { StopRun } from "./io.js";

/**
 * merge_group: a PR enters the queue only after its own required check passed, contract-change
 * approvals included, so the queued commit re-runs the contracts' checks without a second base comparison.
 */
const QUEUED: IntegrityReport = {
  applies: false,
  reason:
    "merge_group re-runs the contracts' checks on the queued commit; the base comparison (and its approvals) was done on the pull request before it entered the queue",
};

/**
 * Stage 4: every contract the PR touches against the merge base (src/integrity/).
 * Events without a PR say why there is no comparison. Throws StopRun when the
 * base cannot be read: fail closed.
 */
export async function baseComparison(
  api: GitHubApi,
  globs: readonly string[],
  { target, headSha }: Gated,
  scope: Scope,
): Promise<IntegrityReport> {
  if (target.kind !== "pull-request") {
    return target.changedSince !== undefined ? QUEUED : noPullBase(target.event);
  }
  try {
    return await pullIntegrity({
      api,
      root: scope.root,
      prefix: scope.prefix,
      globs,
      pr: { number: target.number, baseSha: target.baseSha!, headSha },
      changed: scope.changed,
      discovered: scope.discovered,
    });
  } catch (e) {
    throw new StopRun(`contract-gate: ${(e as Error).message}`);
  }
}
