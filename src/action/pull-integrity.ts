import type { Git } from "../git/index.js";
import type { ChangedFile, GitHubApi } from "../github/types.js";
import type { ProofCommand } from "../integrity/harness-diff.js";
import { changedPaths, touchedContracts } from "../integrity/pairs.js";
import type { RunContext } from "../integrity/successor-runs.js";
import type { IntegrityReport } from "../integrity/types.js";
import { compareWithBase } from "../sides/compare-with-base.js";
import { workflowChanges } from "../sides/workflow-sides.js";
import { findApproval } from "./approval.js";

export interface PullIntegrityArgs {
  api: Pick<GitHubApi, "listReviews" | "getPermission" | "getPull">;
  /** Git of the working directory the contracts are relative to. */
  git: Git;
  /** The working directory relative to the repository root ("" when the same). */
  prefix: string;
  globs: readonly string[];
  pr: { number: number; baseSha: string; headSha: string; author?: string };
  changed: readonly ChangedFile[];
  discovered: readonly string[];
  /** What decides whether a superseding contract runs: the PR's head branch, the contracts in scope. */
  run?: RunContext;
  /** The workflow running the gate (repository-relative) and the git of the repository's root. */
  workflow?: { path: string; git: Git };
  /** The requirement proof's test command (absent: the proof is off): its harness is compared too. */
  proofCommand?: ProofCommand;
}

/**
 * The PR's contract changes against the merge base of its base and head,
 * and, when some block, whether an approving review acknowledges them.
 * Throws `GitReadError` when the base cannot be read (fail closed).
 */
export async function pullIntegrity(args: PullIntegrityArgs): Promise<IntegrityReport> {
  const base = await args.git.mergeBase(args.pr.baseSha, args.pr.headSha);
  const findings = await compareWithBase({
    git: args.git,
    mergeBase: base,
    touched: touchedContracts(args.changed, args.globs, args.prefix),
    changed: changedPaths(args.changed, args.prefix),
    discovered: args.discovered,
    headCommit: args.pr.headSha,
    ...(args.run ? { run: args.run } : {}),
    ...(args.proofCommand ? { proofCommand: args.proofCommand } : {}),
  });
  if (args.workflow !== undefined)
    findings.push(
      ...(await workflowChanges(args.workflow.git, args.workflow.path, base, args.pr.headSha)),
    );
  const report: IntegrityReport = { applies: true, base, findings };
  if (!findings.some((f) => f.blocking)) return report;
  const { approval, note } = await findApproval(args.api, args.pr, args.pr.headSha);
  if (approval) report.approval = approval;
  else report.approvalNote = note;
  return report;
}

/** Events without a PR base: the comparison does not apply, and the report says so. */
export function noPullBase(event: string): IntegrityReport {
  return {
    applies: false,
    reason: `${event} has no pull request base to compare the contracts with`,
  };
}
