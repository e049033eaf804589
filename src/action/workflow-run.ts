import { z } from "zod";
import type { PullRequestInfo } from "../github/types.js";

/**
 * The facts of the run that triggered a `workflow_run` (stage 2 of the fork
 * setup), read from the event payload. The PR number stage 2 gates comes
 * from an artifact that stage 1 uploaded, and stage 1 is code the fork
 * controls: these facts, written by GitHub, are what bind the number.
 */
export interface TriggeringRun {
  headSha: string;
  /** The branch the run built: tells "the author pushed again" from "another PR". */
  headBranch: string | null;
  /** `owner/name`; `null` when GitHub sent none (a deleted fork). */
  headRepo: string | null;
  /** PR numbers GitHub linked to the run; empty for fork PRs (GitHub leaves them out). */
  pullNumbers: number[];
}

const WorkflowRunPayload = z.object({
  workflow_run: z.object({
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    head_branch: z.string().nullable().optional(),
    head_repository: z
      .object({ full_name: z.string().min(1) })
      .nullable()
      .optional(),
    pull_requests: z.array(z.object({ number: z.number().int().positive() })).default([]),
  }),
});

/** The triggering run, or an error message naming what the payload lacks. */
export function readTriggeringRun(payload: unknown): TriggeringRun {
  const parsed = WorkflowRunPayload.safeParse(payload);
  if (!parsed.success) {
    const at = parsed.error.issues[0]?.path.join(".") ?? "workflow_run";
    throw new Error(
      `The workflow_run event payload has no usable ${at}: the gate cannot bind pr-number to the run that triggered it.`,
    );
  }
  const run = parsed.data.workflow_run;
  return {
    headSha: run.head_sha,
    headBranch: run.head_branch ?? null,
    headRepo: run.head_repository?.full_name ?? null,
    pullNumbers: run.pull_requests.map((p) => p.number),
  };
}

/** Whether the PR named by `pr-number` is the one the triggering run built. */
export type Binding =
  | { kind: "bound" }
  /** Only the head moved on: a newer stage-1 run gates the new head. */
  | { kind: "stand-down"; message: string }
  | { kind: "mismatch"; message: string };

/**
 * Bind pr-number to the triggering run: the PR must be open, its head
 * repository and current head sha must be the run's, and when GitHub linked
 * PRs to the run the number must be among them. Pure.
 */
export function bindToTriggeringRun(run: TriggeringRun, pr: PullRequestInfo): Binding {
  const n = `pull request #${pr.number}`;
  if (run.pullNumbers.length > 0 && !run.pullNumbers.includes(pr.number)) {
    return {
      kind: "mismatch",
      message: `pr-number ${pr.number} is not among the pull requests of the triggering run (${run.pullNumbers.map((x) => `#${x}`).join(", ")}): the artifact names another PR than the one the run built. Nothing was posted.`,
    };
  }
  if (pr.state !== "open") {
    return {
      kind: "mismatch",
      message: `${n} is ${pr.state}, not open: a closed pull request is not gated. Nothing was posted.`,
    };
  }
  // GitHub's owner and repository names are case-insensitive.
  if (
    run.headRepo === null ||
    pr.headRepo === null ||
    run.headRepo.toLowerCase() !== pr.headRepo.toLowerCase()
  ) {
    return {
      kind: "mismatch",
      message: `The head repository of ${n} (${pr.headRepo ?? "deleted"}) is not the triggering run's (${run.headRepo ?? "none"}): the artifact names a PR the run did not build. Nothing was posted.`,
    };
  }
  if (run.headSha !== pr.headSha && run.headBranch !== pr.headRef) {
    return {
      kind: "mismatch",
      message: `The head of ${n} (${pr.headRef} at ${pr.headSha}) is not what the triggering run built (${run.headBranch ?? "no branch"} at ${run.headSha}): the artifact names a PR the run did not build. Nothing was posted.`,
    };
  }
  if (run.headSha !== pr.headSha) {
    return {
      kind: "stand-down",
      message: `The head of ${n} moved on (${pr.headSha}) since the triggering run built ${run.headSha}: the run for the new head gates it. Nothing was posted.`,
    };
  }
  return { kind: "bound" };
}
