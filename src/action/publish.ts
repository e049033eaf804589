import type { Annotation, CheckRunOutput, CheckRunRef, GitHubApi } from "../github/types.js";
import {
  checkRunOutput,
  commentBody,
  jobSummary,
  rerunHint,
  type SurfaceInput,
} from "../report/github-surfaces.js";
import type { ApiStops } from "./api-stops.js";
import type { Scope } from "./collect.js";
import { stickyComment } from "./comment.js";
import type { Gated } from "./head.js";
import type { ActionSettings } from "./inputs.js";
import type { ActionIO } from "./io.js";
import type { GateReport } from "./report.js";
import type { ChecksRun } from "./run-checks.js";
import { checkRunNotCompleted } from "./stuck-check-run.js";

/**
 * GitHub shows at most 10 error annotations per step (in print order), and a
 * failing step adds its own: the fallback leaves room for it.
 */
const STEP_ERROR_ANNOTATIONS = 10;

export interface PublishArgs {
  api: GitHubApi;
  io: ActionIO;
  settings: ActionSettings;
  gated: Gated;
  scope: Scope;
  run: ChecksRun;
  report: GateReport;
  checkRun: CheckRunRef | undefined;
  stops: ApiStops;
}

/**
 * Stage 8: the verdict on every surface — the check run completed, the sticky
 * comment, the fallback when the API stopped (a warning and error
 * annotations), the job summary, the outputs — then the step's status. A
 * reporting failure is a warning, never a verdict change.
 */
export async function publish(args: PublishArgs): Promise<void> {
  const { io, settings, report, checkRun, stops } = args;
  const surface = surfaceInput(args);
  const output = checkRunOutput(surface);
  const notCompleted = await completeCheckRun(args, output);
  const commentUrl = await comment(args, surface);
  if (stops.stop) apiStopFallback(args, output.annotations, notCompleted);
  try {
    await io.writeSummary(jobSummary(surface, notCompleted));
  } catch (e) {
    io.warning(`contract-gate: could not write the job summary: ${(e as Error).message}`);
  }

  const c = report.summary.counts;
  const outputs: Record<string, string | number> = {
    conclusion: report.summary.conclusion,
    blocking: c.blocking,
    met: c.met,
    unmet: c.unmet,
    errors: c.error,
    abandoned: c.abandoned,
    "evidence-missing": c["evidence-missing"],
    manual: c.manual,
    contracts: c.contracts,
    report: report.reportPath,
    "check-run-id": checkRun?.id ?? "",
    "check-run-url": checkRun?.htmlUrl ?? "",
    "comment-url": commentUrl,
  };
  for (const [k, v] of Object.entries(outputs)) io.setOutput(k, v);

  if (report.summary.conclusion === "failure" && settings.failOnBlocking) {
    io.setFailed(`contract-gate: ${output.title}`);
  }
}

/** The verdict and its context, as every surface shows them. */
function surfaceInput({
  settings,
  gated,
  scope,
  run,
  report,
  checkRun,
}: PublishArgs): SurfaceInput {
  const { target } = gated;
  return {
    summary: report.summary,
    outcomes: report.outcomes,
    integrity: report.integrity,
    proof: report.proof,
    noMatch: scope.noMatch,
    sandbox: run.sandboxText,
    checkName: settings.checkName,
    removed: scope.removed,
    notFiles: scope.notFiles,
    prefix: scope.prefix,
    checkRunUrl: checkRun?.htmlUrl,
    rerun: rerunHint(target.kind === "pull-request" ? target.number : undefined),
  };
}

/** Completes the check run; returns the sentence for a run left in progress, if it is. */
async function completeCheckRun(
  args: PublishArgs,
  output: CheckRunOutput,
): Promise<string | undefined> {
  const { api, io, report, checkRun, stops } = args;
  if (!checkRun || stops.stop) return undefined;
  try {
    await api.completeCheckRun(checkRun.id, { conclusion: report.summary.conclusion, output });
    io.saveState("check-run-completed", "true");
    return undefined;
  } catch (e) {
    // The run stays in progress: say so plainly, here and in the summary (the post step tries once more).
    const notCompleted = checkRunNotCompleted(checkRun.htmlUrl, (e as Error).message);
    if (!stops.record(e, "complete the check run")) io.warning(`contract-gate: ${notCompleted}`);
    return notCompleted;
  }
}

/** The sticky comment on a pull request; its URL, "" when none. */
async function comment(args: PublishArgs, surface: SurfaceInput): Promise<string> {
  const { api, io, settings, gated, report, stops } = args;
  const { target, headSha } = gated;
  if (target.kind !== "pull-request" || settings.comment === "never" || stops.stop) return "";
  try {
    return await stickyComment(api, settings, target.number, headSha, {
      blocking: report.summary.conclusion === "failure",
      body: () => commentBody(surface),
    });
  } catch (e) {
    if (!stops.record(e, "update the PR comment")) {
      io.warning(`contract-gate: could not update the PR comment: ${(e as Error).message}`);
    }
    return "";
  }
}

/**
 * After an API stop: one warning saying where the verdict is, and the
 * blocking problems as error annotations through workflow commands when the
 * check run does not carry them.
 */
function apiStopFallback(
  args: PublishArgs,
  annotations: readonly Annotation[],
  notCompleted: string | undefined,
): void {
  const { io, settings, gated, report, checkRun, stops } = args;
  const { error, doing } = stops.stop!;
  const { target } = gated;
  // A fork's token under plain pull_request is read-only (unless a private repository sends
  // write tokens to fork PRs): the 403 is expected there, and the two-stage setup is the fix.
  const forkPullRequest =
    target.kind === "pull-request" &&
    (target.event === "pull_request" || target.event === "pull_request_review") &&
    target.headRepo !== target.baseRepo;
  const checkRunPosted = checkRun !== undefined && !notCompleted;
  const failing = checkRunPosted
    ? [] // the check run carries them already
    : annotations.filter((x) => x.annotation_level === "failure");
  const stepFails = report.summary.conclusion === "failure" && settings.failOnBlocking;
  const shown = failing.slice(0, STEP_ERROR_ANNOTATIONS - (stepFails ? 1 : 0));
  const annotated =
    failing.length > shown.length
      ? `; ${shown.length} of ${failing.length} blocking problems are annotated.`
      : ".";
  io.warning(
    forkPullRequest && error.failure === "forbidden"
      ? "contract-gate: this token cannot write check runs or comments (a fork's pull_request token is read-only). " +
          `The verdict is in the job summary and this step's status${annotated}` +
          " To get the check run and comment on fork PRs, use the two-stage setup in the README (docs/forks.md): " +
          "a pull_request job saves the PR number, a workflow_run job re-runs the gate with pr-number and posts them."
      : `contract-gate: could not ${doing}: ${error.message} ` +
          (checkRunPosted
            ? `The comment was not posted; the verdict is in the check run ${checkRun!.htmlUrl}, the job summary and this step's status.`
            : `The verdict was not posted to the pull request: it is in the job summary and this step's status${annotated}`),
  );
  for (const a of shown) {
    io.errorAt(a.message, { file: a.path, line: a.start_line, title: a.title ?? "contract-gate" });
  }
}
