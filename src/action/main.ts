import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { discoverContracts } from "../discover.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import type { ChangedFile, GitHubApi, RepoRef } from "../github/types.js";
import { type FailureClass, GitHubApiError } from "../github/types.js";
import { noPullBase, pullIntegrity } from "../integrity/action-integrity.js";
import { integrityAnnotations, integrityMarkdown, integrityTerminal } from "../integrity/render.js";
import { type IntegrityReport, integrityTitle, withIntegrity } from "../integrity/types.js";
import { loadContract } from "../load.js";
import { credentialFreeEnv } from "../process/env.js";
import { annotationsFor } from "../report/annotations.js";
import { checkRunTitle, commentMarker } from "../report/github-text.js";
import { renderMarkdown } from "../report/markdown.js";
import { plain } from "../report/paint.js";
import { runReportJsonChunks } from "../report/run-json.js";
import { renderTerminal } from "../report/terminal.js";
import { type EngineResult, runContracts } from "../run/engine.js";
import { describeSandbox } from "../sandbox/describe.js";
import { openSandbox } from "../sandbox/index.js";
import { skippedCommands } from "../verdict.js";
import { isUntrusted, readRunnerEnv, resolveTarget, type Target } from "./event.js";
import { checkoutAdvice, gitChangedFiles, verifyCheckout } from "./git.js";
import { type ActionSettings, parseInputs } from "./inputs.js";
import { selectChanged } from "./select.js";
import { checkRunNotCompleted } from "./stuck-check-run.js";
import { commandPolicy, untrustedWarning } from "./trust.js";
import { bindToTriggeringRun, notPullRequestRun } from "./workflow-run.js";

/** What the action needs from the runner; the only implementation over @actions/core is core-io.ts. */
export interface ActionIO {
  getInput(name: string): string;
  setOutput(name: string, value: string | number): void;
  setFailed(message: string): void;
  info(message: string): void;
  /** A notice annotation; plain info where the runner has none. */
  notice?(message: string): void;
  warning(message: string): void;
  /** An error annotation through workflow commands (the fork fallback). */
  errorAt(message: string, at: { file: string; line: number; title: string }): void;
  setSecret(value: string): void;
  writeSummary(markdown: string): Promise<void>;
  /** Log text that came from contracts or command output, so it cannot start workflow commands. */
  untrusted(text: string): void;
  /** State for the post step (see post.ts). */
  saveState(name: string, value: string): void;
}

export interface ActionDeps {
  io: ActionIO;
  env: NodeJS.ProcessEnv;
  github: (token: string, repo: RepoRef, baseUrl: string) => GitHubApi;
  /** How to start the sandbox host (`[node, script, SANDBOX_HOST_ARG]`); none: no sandbox. */
  sandboxHost?: readonly string[];
  /** The action's own files: read-only for commands. */
  protect?: readonly string[];
}

/** Budgets: GitHub's check-run output limit, and a comment well under its 65,536. */
const CHECK_RUN_BUDGET = 65_535;
const COMMENT_BUDGET = 60_000;
const SUMMARY_BUDGET = 1_000_000;
/**
 * GitHub shows at most 10 error annotations per step (in print order), and a
 * failing step adds its own: the fallback leaves room for it.
 */
const STEP_ERROR_ANNOTATIONS = 10;

/**
 * The action: settings → target → contracts → engine → check run, comment,
 * job summary, outputs. The step's pass/fail follows the contracts; a
 * reporting failure is a warning, never a verdict change.
 */
export async function runAction({
  io,
  env,
  github,
  sandboxHost,
  protect,
}: ActionDeps): Promise<void> {
  const runner = readRunnerEnv(env);
  const payload = readPayload(runner.eventPath);
  // Before the inputs: after a push's run, stage 2's pr-number is rightly empty.
  const standDown = runner.eventName === "workflow_run" ? notPullRequestRun(payload) : undefined;
  if (standDown !== undefined) {
    (io.notice ?? io.info)(`contract-gate: ${standDown}`);
    return;
  }
  const parsed = parseInputs((n) => io.getInput(n), env);
  if (!parsed.ok) {
    io.setFailed(`contract-gate: invalid inputs:\n- ${parsed.errors.join("\n- ")}`);
    return;
  }
  const settings = parsed.settings;
  io.setSecret(settings.githubToken);

  let target: Target;
  try {
    target = resolveTarget(runner, payload, settings);
  } catch (e) {
    io.setFailed((e as Error).message);
    return;
  }
  const [owner = "", repo = ""] = runner.repository.split("/");
  const api = github(settings.githubToken, { owner, repo }, runner.apiUrl);

  // Facts about the pull request, from the payload or (dispatch) from the API.
  let changedFilesCount = target.kind === "pull-request" ? target.changedFiles : undefined;
  if (target.kind === "pull-request" && target.headSha === undefined) {
    try {
      const pr = await api.getPull(target.number);
      target = {
        ...target,
        headSha: pr.headSha,
        baseSha: pr.baseSha,
        headRepo: pr.headRepo,
        baseRepo: pr.baseRepo,
      };
      changedFilesCount = pr.changedFiles;
      if (target.triggeringRun) {
        const binding = bindToTriggeringRun(target.triggeringRun, pr);
        if (binding.kind === "stand-down") {
          (io.notice ?? io.info)(`contract-gate: ${binding.message}`);
          return;
        }
        if (binding.kind === "mismatch") {
          io.setFailed(`contract-gate: ${binding.message}`);
          return;
        }
      }
    } catch (e) {
      io.setFailed(
        `contract-gate: cannot read pull request #${target.number}: ${(e as Error).message}`,
      );
      return;
    }
  }
  const headSha = target.kind === "pull-request" ? target.headSha! : target.sha;

  if (target.kind === "pull-request") {
    const checkout = await verifyCheckout(settings.workingDirectory, headSha);
    if (!checkout.ok) {
      io.setFailed(checkoutAdvice(target.event, target.number, headSha, checkout.head));
      return;
    }
  }
  if (target.kind === "commit" && target.changedSince !== undefined) {
    // The queue's commit is what gets merged: contracts on disk from any other commit would gate the wrong code.
    const checkout = await verifyCheckout(settings.workingDirectory, headSha);
    if (!checkout.ok || checkout.merge) {
      io.setFailed(
        `contract-gate: the checked-out commit (${checkout.head ?? "none"}) is not the merge group's head ${headSha}. ` +
          "Use actions/checkout with its default ref on merge_group.",
      );
      return;
    }
  }

  // Which contracts are in scope.
  const root = settings.workingDirectory;
  const prefix = repoPrefix(runner.workspace ?? root, root);
  let paths: string[];
  let removed: string[] = [];
  let notFiles: string[] = [];
  let integrity: IntegrityReport;
  let noMatch: string | undefined;
  try {
    const discovered = await discoverContracts({ root, globs: settings.contracts });
    // A mistyped glob would otherwise read like a PR that touches no contract: say it first.
    if (discovered.length === 0) {
      noMatch = noMatchMessage(settings.contracts);
      io.warning(`contract-gate: ${noMatch}`);
    }
    const changed =
      target.kind === "pull-request"
        ? await changedFiles(api, target, changedFilesCount, root, io)
        : [];
    if (target.kind === "pull-request" && settings.scope === "changed") {
      ({
        selected: paths,
        removed,
        notFiles,
      } = selectChanged(discovered, changed, settings.contracts, prefix));
      io.info(
        `${paths.length} of ${discovered.length} contracts are touched by PR #${target.number}.`,
      );
      if (notFiles.length > 0) {
        io.warning(
          `contract-gate: no longer regular files at head, so nothing of them runs: ${notFiles.join(", ")}.`,
        );
      }
    } else {
      paths = discovered;
      io.info(`Gating all ${paths.length} contracts at ${headSha}.`);
    }
    if (
      target.kind === "commit" &&
      target.changedSince !== undefined &&
      settings.scope === "changed"
    ) {
      // merge_group: no PR API for a queued commit; git diff base...head (deepening a shallow clone).
      const queued = await gitChangedFiles(root, target.changedSince, headSha);
      ({
        selected: paths,
        removed,
        notFiles,
      } = selectChanged(discovered, queued, settings.contracts, prefix));
      io.info(
        `${paths.length} of ${discovered.length} contracts are changed between ${target.changedSince} and ${headSha}.`,
      );
    }
    // Every contract the PR touches, against the merge base; a base that cannot be read fails here.
    integrity =
      target.kind === "pull-request"
        ? await pullIntegrity({
            api,
            root,
            prefix,
            globs: settings.contracts,
            pr: { number: target.number, baseSha: target.baseSha!, headSha },
            changed,
            discovered,
          })
        : target.changedSince !== undefined
          ? QUEUED
          : noPullBase(target.event);
  } catch (e) {
    io.setFailed(`contract-gate: ${(e as Error).message}`);
    return;
  }
  const contracts = await Promise.all(paths.map((p) => loadContract(root, p)));

  const untrusted = isUntrusted(target);

  // A fork's token under plain pull_request is read-only (unless a private repository sends
  // write tokens to fork PRs): try, and on 403 use the fallback without a second warning.
  const forkPullRequest =
    target.kind === "pull-request" &&
    (target.event === "pull_request" || target.event === "pull_request_review") &&
    target.headRepo !== target.baseRepo;
  // The first failure after which further writes are pointless (a refused token,
  // a missing permission, a rate limit that outlasted the retries): said once, at the end.
  let apiStop: { error: GitHubApiError; doing: string } | undefined;
  const stopsApi = (e: unknown, doing: string): boolean => {
    if (!(e instanceof GitHubApiError) || !STOPPING.has(e.failure)) return false;
    apiStop ??= { error: e, doing };
    return true;
  };
  const externalId = `${runner.runId}-${runner.runAttempt}-${settings.checkName}`;
  const detailsUrl = `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}`;
  let checkRun: { id: number; htmlUrl: string } | undefined;
  try {
    checkRun = await api.startCheckRun({
      name: settings.checkName,
      headSha,
      externalId,
      detailsUrl,
    });
    // If the job is cancelled or crashes from here on, the post step completes the run.
    io.saveState("check-run-id", String(checkRun.id));
    io.saveState("check-run-url", checkRun.htmlUrl);
  } catch (e) {
    if (!stopsApi(e, "create the check run")) {
      io.warning(`contract-gate: could not create the check run: ${(e as Error).message}`);
    }
  }

  const sandbox = await openSandbox({
    mode: settings.sandbox,
    root,
    env,
    hostCommand: sandboxHost,
    memoryMb: settings.checkMemoryMb,
    ...(protect && { protect }),
  });
  const sandboxText = describeSandbox(sandbox.info);
  io.info(sandboxText.line);
  if (sandboxText.warning) io.warning(`contract-gate: ${sandboxText.warning}`);
  const commands = commandPolicy(untrusted, settings.untrustedCommands, sandbox.info);
  if (untrusted) io.warning(untrustedWarning(target.event, settings.untrustedCommands, commands));

  let lastProgress = Date.now();
  let result: EngineResult;
  try {
    result = await runContracts(contracts, {
      root,
      maxParallel: settings.maxParallel,
      requireOracles: settings.requireOracles,
      oracleTimeoutMs: settings.timeoutSeconds * 1000,
      regexTimeoutMs: 10_000,
      env: credentialFreeEnv(env),
      runProcess: sandbox.run,
      commands,
      ...(settings.untrustedCommands === "sandbox" &&
        commands === "block" && {
          commandsSetting: "untrusted-commands: sandbox, and no sandbox boundary is active",
        }),
      onProgress: (p) => {
        if (Date.now() - lastProgress < 10_000 && p.done < p.total) return;
        lastProgress = Date.now();
        io.info(
          `[${p.done}/${p.total}] checks done${p.running.length ? `; running ${p.running.length}` : ""}`,
        );
      },
    });
  } finally {
    sandbox.close();
  }
  const gated = withIntegrity(result.summary, integrity);
  // if-no-contracts: failure makes a misconfigured gate block; the default keeps it neutral (but loud).
  const summary =
    noMatch !== undefined && settings.ifNoContracts === "failure"
      ? { ...gated, conclusion: "failure" as const }
      : gated;
  const outcomes = result.contracts;
  io.untrusted(renderTerminal(summary, outcomes, plain) + integrityTerminal(integrity, plain));

  // The JSON report, for later steps.
  const reportDir = join(runner.runnerTemp ?? tmpdir(), "contract-gate");
  const reportPath = join(
    reportDir,
    `report-${runner.runId}-${runner.runAttempt}-${slug(settings.checkName)}.json`,
  );
  try {
    await mkdir(reportDir, { recursive: true });
    // Exactly schema/run-report.schema.json (no extra keys): removed contracts are in the summaries.
    await writeFileAtomic(
      reportPath,
      runReportJsonChunks(summary, outcomes, {
        sandbox: sandbox.info,
        ...(integrity && { integrity }),
      }),
    );
  } catch (e) {
    io.warning(`contract-gate: could not write the JSON report: ${(e as Error).message}`);
  }

  const counted = integrityTitle(
    checkRunTitle(summary, {
      invalid: outcomes.filter((c) => c.verdict === "invalid").length,
      drifted: outcomes.filter((c) => c.verdict === "drifted").length,
      skippedCommands: skippedCommands(outcomes),
    }),
    integrity,
  );
  const title = noMatch ?? counted;
  // First line of the check run summary, comment and job summary (the comment's marker is invisible).
  const lead = noMatch ? `**${noMatch}**\n\n` : "";
  const annotations = [
    ...integrityAnnotations(integrity, prefix),
    ...annotationsFor(outcomes, prefix),
  ];
  const rerun = `Re-run: Actions → this workflow → Run workflow with \`pr-number\`${target.kind === "pull-request" ? ` = ${target.number}` : ""}.`;

  let notCompleted: string | undefined;
  if (checkRun && !apiStop) {
    try {
      await api.completeCheckRun(checkRun.id, {
        conclusion: summary.conclusion,
        output: {
          title,
          summary:
            lead +
            renderMarkdown(summary, outcomes, {
              budget: CHECK_RUN_BUDGET - lead.length,
              part: "summary",
              title: settings.checkName,
              removed,
              notFiles,
              sandbox: sandboxText,
              preamble: integrityMarkdown(integrity, CHECK_RUN_BUDGET / 3),
            }),
          text: renderMarkdown(summary, outcomes, { budget: CHECK_RUN_BUDGET, part: "details" }),
          annotations,
        },
      });
      io.saveState("check-run-completed", "true");
    } catch (e) {
      // The run stays in progress: say so plainly, here and in the summary (the post step tries once more).
      notCompleted = checkRunNotCompleted(checkRun.htmlUrl, (e as Error).message);
      if (!stopsApi(e, "complete the check run")) io.warning(`contract-gate: ${notCompleted}`);
    }
  }

  let commentUrl = "";
  if (target.kind === "pull-request" && settings.comment !== "never" && !apiStop) {
    try {
      commentUrl = await stickyComment(api, settings, target.number, headSha, {
        blocking: summary.conclusion === "failure",
        body: () =>
          lead +
          renderMarkdown(summary, outcomes, {
            budget: COMMENT_BUDGET,
            title: settings.checkName,
            removed,
            notFiles,
            sandbox: sandboxText,
            preamble: integrityMarkdown(integrity, COMMENT_BUDGET / 3),
            footer: [checkRun ? `[Check run](${checkRun.htmlUrl}) · ${rerun}` : rerun].join("\n"),
          }),
      });
    } catch (e) {
      if (!stopsApi(e, "update the PR comment")) {
        io.warning(`contract-gate: could not update the PR comment: ${(e as Error).message}`);
      }
    }
  }

  if (apiStop) {
    const { error, doing } = apiStop;
    const checkRunPosted = checkRun !== undefined && !notCompleted;
    const failing = checkRunPosted
      ? [] // the check run carries them already
      : annotations.filter((x) => x.annotation_level === "failure");
    const stepFails = summary.conclusion === "failure" && settings.failOnBlocking;
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
      io.errorAt(a.message, {
        file: a.path,
        line: a.start_line,
        title: a.title ?? "contract-gate",
      });
    }
  }

  try {
    const stuck = notCompleted ? `> [!WARNING]\n> ${notCompleted}\n\n` : "";
    await io.writeSummary(
      lead +
        stuck +
        renderMarkdown(summary, outcomes, {
          budget: SUMMARY_BUDGET,
          title: settings.checkName,
          removed,
          notFiles,
          sandbox: sandboxText,
          preamble: integrityMarkdown(integrity, SUMMARY_BUDGET / 3),
        }),
    );
  } catch (e) {
    io.warning(`contract-gate: could not write the job summary: ${(e as Error).message}`);
  }

  const c = summary.counts;
  const outputs: Record<string, string | number> = {
    conclusion: summary.conclusion,
    blocking: c.blocking,
    met: c.met,
    unmet: c.unmet,
    errors: c.error,
    abandoned: c.abandoned,
    "evidence-missing": c["evidence-missing"],
    manual: c.manual,
    contracts: c.contracts,
    report: reportPath,
    "check-run-id": checkRun?.id ?? "",
    "check-run-url": checkRun?.htmlUrl ?? "",
    "comment-url": commentUrl,
  };
  for (const [k, v] of Object.entries(outputs)) io.setOutput(k, v);

  if (summary.conclusion === "failure" && settings.failOnBlocking) {
    io.setFailed(`contract-gate: ${title}`);
  }
}

/** The first line of every surface when the `contracts` globs match nothing at all. */
export function noMatchMessage(globs: readonly string[]): string {
  const listed = globs.map((g) => `\`${g}\``).join(", ");
  return `The globs ${listed} match no file in the repository — check the \`contracts\` input.`;
}

/**
 * merge_group: a PR enters the queue only after its own required check passed, contract-change
 * approvals included, so the queued commit re-runs the contracts' checks without a second base comparison.
 */
const QUEUED: IntegrityReport = {
  applies: false,
  reason:
    "merge_group re-runs the contracts' checks on the queued commit; the base comparison (and its approvals) was done on the pull request before it entered the queue",
};

function readPayload(path: string | undefined): unknown {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
}

/** Failures after which the gate makes no further writes: the next ones would fail the same way. */
const STOPPING = new Set<FailureClass>(["token-rejected", "forbidden", "rate-limit"]);

/** Working directory relative to the repository root, "" when they are the same. */
function repoPrefix(workspace: string, root: string): string {
  const rel = relative(workspace, root);
  return rel === "" || rel.startsWith("..") ? "" : rel.split(sep).join("/");
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "gate"
  );
}

/** The PR's changed files: the API, or git when the API's 3,000-file cap cut the list. */
async function changedFiles(
  api: GitHubApi,
  target: Extract<Target, { kind: "pull-request" }>,
  expected: number | undefined,
  root: string,
  io: ActionIO,
): Promise<ChangedFile[]> {
  let files: ChangedFile[] | undefined;
  try {
    files = await api.listPullFiles(target.number);
  } catch (e) {
    io.warning(
      `contract-gate: listing the PR's files failed (${(e as Error).message}); using git instead.`,
    );
  }
  let count = expected;
  if (count === undefined && files !== undefined) {
    count = (await api.getPull(target.number).catch(() => undefined))?.changedFiles;
  }
  if (files !== undefined && (count === undefined || files.length >= count)) return files;
  io.info(
    `The PR changes ${count ?? "an unknown number of"} files; the API listed ${files?.length ?? 0}. Using git diff.`,
  );
  return gitChangedFiles(root, target.baseSha!, target.headSha!);
}

async function stickyComment(
  api: GitHubApi,
  settings: ActionSettings,
  issueNumber: number,
  headSha: string,
  report: { blocking: boolean; body: () => string },
): Promise<string> {
  const marker = commentMarker(settings.checkName);
  if (settings.comment === "on-failure" && !report.blocking) {
    // Only touch an existing (red) comment, to say it turned green: never leave a stale red comment.
    const existing = await api.findStickyComment(issueNumber, marker);
    if (!existing) return "";
  }
  const result = await api.upsertStickyComment({
    issueNumber,
    marker,
    headSha,
    body: `${marker}\n${report.body()}`,
  });
  return result.url ?? "";
}
