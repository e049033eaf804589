import type { CheckRunRef, GitHubApi } from "../github/types.js";
import { integrityMarkdown } from "../integrity/render.js";
import { renderMarkdown } from "../report/markdown.js";
import type { ApiStops } from "./api-stops.js";
import type { Scope } from "./collect.js";
import { stickyComment } from "./comment.js";
import type { Target } from "./event.js";
import type { Gated } from "./head.js";
import type { ActionSettings } from "./inputs.js";
import type { ActionIO } from "./io.js";
import type { GateReport } from "./report.js";
import type { ChecksRun } from "./run-checks.js";
import { checkRunNotCompleted } from "./stuck-check-run.js";

/** Budgets: GitHub's check-run output limit, and a comment well under its 65,536. */
const CHECK_RUN_BUDGET = 65_535;
const COMMENT_BUDGET = 60_000;
const SUMMARY_BUDGET = 1_000_000;
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
  const notCompleted = await completeCheckRun(args);
  const commentUrl = await comment(args);
  if (stops.stop) apiStopFallback(args, notCompleted);
  try {
    const stuck = notCompleted ? `> [!WARNING]\n> ${notCompleted}\n\n` : "";
    await io.writeSummary(
      report.lead +
        stuck +
        renderMarkdown(report.summary, report.outcomes, markdown(args, SUMMARY_BUDGET)),
    );
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
    io.setFailed(`contract-gate: ${report.title}`);
  }
}

/** The options every full markdown surface shares (check run summary, comment, job summary). */
function markdown({ settings, scope, run, report }: PublishArgs, budget: number) {
  return {
    budget,
    title: settings.checkName,
    removed: scope.removed,
    notFiles: scope.notFiles,
    sandbox: run.sandboxText,
    preamble: integrityMarkdown(report.integrity, budget / 3),
  };
}

/** Completes the check run; returns the sentence for a run left in progress, if it is. */
async function completeCheckRun(args: PublishArgs): Promise<string | undefined> {
  const { api, io, report, checkRun, stops } = args;
  if (!checkRun || stops.stop) return undefined;
  try {
    await api.completeCheckRun(checkRun.id, {
      conclusion: report.summary.conclusion,
      output: {
        title: report.title,
        summary:
          report.lead +
          renderMarkdown(report.summary, report.outcomes, {
            ...markdown(args, CHECK_RUN_BUDGET),
            budget: CHECK_RUN_BUDGET - report.lead.length,
            part: "summary",
          }),
        text: renderMarkdown(report.summary, report.outcomes, {
          budget: CHECK_RUN_BUDGET,
          part: "details",
        }),
        annotations: report.annotations,
      },
    });
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
async function comment(args: PublishArgs): Promise<string> {
  const { api, io, settings, gated, report, checkRun, stops } = args;
  const { target, headSha } = gated;
  if (target.kind !== "pull-request" || settings.comment === "never" || stops.stop) return "";
  const rerun = rerunHint(target);
  try {
    return await stickyComment(api, settings, target.number, headSha, {
      blocking: report.summary.conclusion === "failure",
      body: () =>
        report.lead +
        renderMarkdown(report.summary, report.outcomes, {
          ...markdown(args, COMMENT_BUDGET),
          footer: [checkRun ? `[Check run](${checkRun.htmlUrl}) · ${rerun}` : rerun].join("\n"),
        }),
    });
  } catch (e) {
    if (!stops.record(e, "update the PR comment")) {
      io.warning(`contract-gate: could not update the PR comment: ${(e as Error).message}`);
    }
    return "";
  }
}

function rerunHint(target: Target): string {
  return `Re-run: Actions → this workflow → Run workflow with \`pr-number\`${target.kind === "pull-request" ? ` = ${target.number}` : ""}.`;
}

/**
 * After an API stop: one warning saying where the verdict is, and the
 * blocking problems as error annotations through workflow commands when the
 * check run does not carry them.
 */
function apiStopFallback(args: PublishArgs, notCompleted: string | undefined): void {
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
    : report.annotations.filter((x) => x.annotation_level === "failure");
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
