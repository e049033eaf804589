import { z } from "zod";
import type { PullRequestInfo } from "../github/types.js";

/**
 * The facts of the run that triggered a `workflow_run` (stage 2 of the fork
 * setup), read from the event payload. The PR number stage 2 gates comes
 * from an artifact that stage 1 uploaded, and stage 1 is code the fork
 * controls: these facts, written by GitHub, are what bind the number.
 */
export interface TriggeringRun {
  /** The event that started the triggering run: only a pull request's is gated. */
  event: string;
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
    event: z.string().min(1),
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
    event: run.event,
    headSha: run.head_sha,
    headBranch: run.head_branch ?? null,
    headRepo: run.head_repository?.full_name ?? null,
    pullNumbers: run.pull_requests.map((p) => p.number),
  };
}

/**
 * The triggering run's events stage 2 gates: a pull request's run, and a
 * review's (so a maintainer's approval on a fork PR reaches the check run).
 */
export const PULL_REQUEST_RUN_EVENTS = ["pull_request", "pull_request_review"] as const;

/**
 * The notice for a `workflow_run` whose triggering run was not a pull
 * request's (a push, a merge queue, a manual run of stage 1): there is no PR
 * to gate, so stage 2 stands down and posts nothing. Defence in depth for a
 * stage 2 without the job-level `if:` of docs/forks.md. `undefined`: gate
 * (or, for a payload without `workflow_run.event`, fail in readTriggeringRun).
 */
export function notPullRequestRun(payload: unknown): string | undefined {
  const event = (payload as { workflow_run?: { event?: unknown } } | null)?.workflow_run?.event;
  if (typeof event !== "string" || event === "") return undefined;
  if ((PULL_REQUEST_RUN_EVENTS as readonly string[]).includes(event)) return undefined;
  return (
    `the run that triggered this workflow_run was started by '${event}', not by a pull request: ` +
    `nothing to gate, nothing was posted. Stage 2 gates runs of ${PULL_REQUEST_RUN_EVENTS.join(" and ")}; ` +
    "give its job `if: github.event.workflow_run.event == 'pull_request' || github.event.workflow_run.event == 'pull_request_review'` (docs/forks.md) to skip the others."
  );
}

/**
 * The failure for a `workflow_run` without a usable `pr-number`: stage 2 reads
 * it from stage 1's `pr-number` artifact, so the fix is in the workflows.
 * `value`: what the input held ("" when empty).
 */
export function prNumberAdvice(value: string): string {
  // The artifact is the fork's to write: quote enough of it to recognise, not all of it.
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  const what =
    value === ""
      ? "On workflow_run the pr-number input is empty"
      : `On workflow_run the pr-number input is '${shown}', not a pull request number such as 42`;
  return (
    `${what}. Stage 2 takes it from the 'pr-number' artifact that stage 1 (the pull_request workflow) uploads. ` +
    "Fix the workflows as in docs/forks.md: in stage 1, write the PR number to pr-number.txt and upload it with " +
    "actions/upload-artifact, both steps under `if: always()` so the artifact exists when the gate fails; " +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, shown to the user
    "in stage 2, download it with run-id: ${{ github.event.workflow_run.id }} and stop with an error before this step when it is missing."
  );
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
