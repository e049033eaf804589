import type { Git } from "../git/index.js";
import type { GitHubApi } from "../github/types.js";
import type { ProofCommand } from "../integrity/harness-diff.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { Scope } from "./collect.js";
import type { Gated } from "./head.js";
import { StopRun } from "./io.js";
import { noPullBase, pullIntegrity } from "./pull-integrity.js";
import { sharedHeadFindings } from "./shared-head.js";

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
 * Stage 4: every contract the PR touches against the merge base (src/integrity/),
 * and no other open PR on the same head commit with another base (shared-head.ts).
 * Events without a PR say why there is no comparison. Throws StopRun when the
 * base or the open pull requests cannot be read: fail closed.
 */
export async function baseComparison(
  api: GitHubApi,
  git: Git,
  globs: readonly string[],
  { target, headSha }: Gated,
  scope: Scope,
  workflow?: { path: string; git: Git },
  proofCommand?: ProofCommand,
): Promise<IntegrityReport> {
  if (target.kind !== "pull-request") {
    return target.changedSince !== undefined ? QUEUED : noPullBase(target.event);
  }
  const pr = { number: target.number, baseSha: target.baseSha!, headSha };
  // The finding points at the first contract in scope: a check-run annotation needs a path.
  const anchor = scope.paths[0] ?? scope.discovered[0] ?? ".";
  const [report, shared] = await Promise.all([
    pullIntegrity({
      api,
      git,
      prefix: scope.prefix,
      globs,
      pr,
      changed: scope.changed,
      discovered: scope.discovered,
      // A successor that will not run here (another branch, outside the scope) keeps nothing.
      run: {
        scope: new Set(scope.paths),
        ...(target.headRef !== undefined ? { headBranch: target.headRef } : {}),
      },
      ...(workflow ? { workflow } : {}),
      ...(proofCommand ? { proofCommand } : {}),
    }).catch((e: unknown) => {
      throw new StopRun(`contract-gate: ${(e as Error).message}`);
    }),
    sharedHeadFindings(api, pr, anchor),
  ]);
  if (shared.length === 0 || !report.applies) return report;
  // An approval acknowledges this PR's contract changes, never a verdict standing for another PR's base.
  const { approval: _ignored, ...rest } = report;
  return {
    ...rest,
    findings: [...report.findings, ...shared],
    approvalNote:
      "No approval counts while another open pull request shares the head commit with another base (shared-head-other-base): close one of them, or push a separate commit for each.",
  };
}
