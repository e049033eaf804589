import type { Git } from "../git/index.js";
import type { GitHubApi } from "../github/types.js";
import { checkoutAdvice, verifyCheckout } from "./checkout.js";
import type { Target } from "./event.js";
import { StopRun } from "./io.js";
import { bindToTriggeringRun } from "./workflow-run.js";

/** The target with every fact the later stages read, and the commit the check run goes on. */
export interface Gated {
  /** A pull request's head and base shas and repositories are known. */
  target: Target;
  headSha: string;
}

/**
 * Stage 2: the commit to gate. `workflow_dispatch` and `workflow_run` learn
 * the PR's head and base from the API, and `workflow_run` binds pr-number to
 * the run that triggered it; then the checkout must be that commit. Throws
 * StopRun when the PR cannot be read, is not the triggering run's (a
 * stand-down when only its head moved on), or the checkout is another commit.
 */
export async function resolveHead(api: GitHubApi, from: Target, git: Git): Promise<Gated> {
  let target = from;
  if (target.kind === "pull-request" && target.headSha === undefined) {
    let pr: Awaited<ReturnType<GitHubApi["getPull"]>>;
    try {
      pr = await api.getPull(target.number);
    } catch (e) {
      throw new StopRun(
        `contract-gate: cannot read pull request #${target.number}: ${(e as Error).message}`,
      );
    }
    target = {
      ...target,
      headSha: pr.headSha,
      baseSha: pr.baseSha,
      headRepo: pr.headRepo,
      headRef: pr.headRef,
      baseRepo: pr.baseRepo,
      changedFiles: pr.changedFiles,
    };
    if (target.triggeringRun) {
      const binding = bindToTriggeringRun(target.triggeringRun, pr);
      if (binding.kind !== "bound") {
        throw new StopRun(
          `contract-gate: ${binding.message}`,
          binding.kind === "stand-down" ? "notice" : "failure",
        );
      }
    }
  }
  const headSha = target.kind === "pull-request" ? target.headSha! : target.sha;

  if (target.kind === "pull-request") {
    const checkout = await verifyCheckout(git, headSha);
    if (!checkout.ok)
      throw new StopRun(checkoutAdvice(target.event, target.number, headSha, checkout.head));
  }
  if (target.kind === "commit" && target.changedSince !== undefined) {
    // The queue's commit is what gets merged: contracts on disk from any other commit would gate the wrong code.
    const checkout = await verifyCheckout(git, headSha);
    if (!checkout.ok || checkout.merge) {
      throw new StopRun(
        `contract-gate: the checked-out commit (${checkout.head ?? "none"}) is not the merge group's head ${headSha}. ` +
          "Use actions/checkout with its default ref on merge_group.",
      );
    }
  }
  return { target, headSha };
}
