import { GITHUB_LIMITS, utf8Bytes } from "../github/limits.js";
import type { CheckRunOutput } from "../github/types.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { SpecProof } from "../proof/types.js";
import { type ContractOutcome, type RunSummary, skippedCommands } from "../verdict.js";
import { annotationsFor } from "./annotations.js";
import { checkRunTitle, commentMarker, integrityTitle } from "./github-text.js";
import { integrityAnnotations, integrityMarkdown } from "./integrity.js";
import { type MarkdownOptions, renderMarkdown } from "./markdown.js";

import { proofMarkdown } from "./proof.js";
import { runLineText } from "./run-line.js";

/** The check run's `summary` and `text` each: all GitHub takes. */
export const CHECK_RUN_BUDGET = GITHUB_LIMITS.checkRunOutput;
/** The sticky comment's, well under GitHub's limit: the markers and the lead line go around it. */
export const COMMENT_BUDGET = 60_000;
/** The job summary's, under GitHub's 1 MiB for a step (the lead line and a warning go above it). */
export const JOB_SUMMARY_BUDGET = 1_000_000;

/** A run's verdict and the context every surface on GitHub shows with it. */
export interface SurfaceInput {
  summary: RunSummary;
  outcomes: readonly ContractOutcome[];
  /** The comparison with the PR's base (undefined: not compared, as in the CLI). */
  integrity: IntegrityReport | undefined;
  /** The `contracts` globs matched no file: this sentence leads every surface and is the title. */
  noMatch?: string | undefined;
  /** Where commands ran (`describeSandbox`); undefined when no contract ran, so none was started. */
  sandbox: MarkdownOptions["sandbox"];
  /** The check run's name: the reports' heading and the sticky comment's marker. */
  checkName: string;
  /** Contracts the change deletes. */
  removed?: readonly string[];
  /** Contract paths the change made something other than a regular file. */
  notFiles?: readonly string[];
  /** The working directory relative to the repository root, for annotation paths ("" when the same). */
  prefix?: string;
  /** The check run's page, linked from the comment; undefined when there is no check run. */
  checkRunUrl?: string | undefined;
  /** How to run the gate again (`rerunHint`), the comment's last line. */
  rerun: string;
  /** The requirement proof of each spec contract in scope (its own section, after the contract changes). */
  proof?: readonly SpecProof[];
}

/** The completed check run's output, as the Checks API receives it (always with a text). */
export type CheckRunSurface = CheckRunOutput & { text: string };

/** Everything the action posts for a run, built from the verdict alone (no I/O). */
export interface GitHubSurfaces {
  checkRun: CheckRunSurface;
  /** The sticky comment's body, its hidden marker first. */
  comment: string;
  jobSummary: string;
}

export function githubSurfaces(input: SurfaceInput): GitHubSurfaces {
  return {
    checkRun: checkRunOutput(input),
    comment: commentBody(input),
    jobSummary: jobSummary(input),
  };
}

/**
 * The check run's title (and the failing step's message): the no-match
 * sentence, or the counts led by the contract changes that block.
 */
export function gateTitle(input: SurfaceInput): string {
  const { summary, outcomes, integrity, noMatch } = input;
  if (noMatch !== undefined) return noMatch;
  const counted = checkRunTitle(summary, {
    invalid: outcomes.filter((c) => c.verdict === "invalid").length,
    drifted: outcomes.filter((c) => c.verdict === "drifted").length,
    skippedCommands: skippedCommands(outcomes),
  });
  return integrityTitle(counted, integrity);
}

/** The summary (heading, counts, tables) and the text (details); the annotations, contract changes first. */
export function checkRunOutput(input: SurfaceInput): CheckRunSurface {
  const { summary, outcomes, integrity, prefix } = input;
  const lead = leadLine(input);
  return {
    title: gateTitle(input),
    summary:
      lead +
      renderMarkdown(summary, outcomes, {
        ...markdown(input, CHECK_RUN_BUDGET),
        // The budget counts bytes: globs in another script take more bytes than characters.
        budget: CHECK_RUN_BUDGET - utf8Bytes(lead),
        part: "summary",
        // GitHub shows the text below the summary: the summary line ends the text.
        verdictLine: undefined,
      }),
    text: renderMarkdown(summary, outcomes, {
      budget: CHECK_RUN_BUDGET,
      part: "details",
      verdictLine: verdictLine(input),
    }),
    annotations: [...integrityAnnotations(integrity, prefix), ...annotationsFor(outcomes, prefix)],
  };
}

/** The sticky comment: marker, the whole report, then the check run's link and the rerun hint. */
export function commentBody(input: SurfaceInput): string {
  const { summary, outcomes, checkRunUrl, rerun } = input;
  const body = renderMarkdown(summary, outcomes, {
    ...markdown(input, COMMENT_BUDGET),
    footer: checkRunUrl !== undefined ? `[Check run](${checkRunUrl}) · ${rerun}` : rerun,
  });
  return `${commentMarker(input.checkName)}\n${leadLine(input)}${body}`;
}

/**
 * The job summary: the whole report, under a warning when the check run was
 * left in progress (`notCompleted` says so), since the summary is then where
 * the verdict is.
 */
export function jobSummary(input: SurfaceInput, notCompleted?: string): string {
  const stuck = notCompleted ? `> [!WARNING]\n> ${notCompleted}\n\n` : "";
  return (
    leadLine(input) +
    stuck +
    renderMarkdown(input.summary, input.outcomes, markdown(input, JOB_SUMMARY_BUDGET))
  );
}

/** How to run the gate again from the Actions tab; with the PR's number when there is one. */
export function rerunHint(prNumber?: number): string {
  const value = prNumber === undefined ? "" : ` = ${prNumber}`;
  return `Re-run: Actions → this workflow → Run workflow with \`pr-number\`${value}.`;
}

/** The no-match sentence in bold, first on every surface; "" when contracts matched. */
function leadLine({ noMatch }: SurfaceInput): string {
  return noMatch ? `**${noMatch}**\n\n` : "";
}

/** The options every full markdown surface shares (check run summary, comment, job summary). */
function markdown(input: SurfaceInput, budget: number): MarkdownOptions {
  return {
    budget,
    title: input.checkName,
    ...(input.removed && { removed: input.removed }),
    ...(input.notFiles && { notFiles: input.notFiles }),
    sandbox: input.sandbox,
    // The "Contract changes" section gets at most a third of the budget: the rest is the verdict's.
    preamble: [
      integrityMarkdown(input.integrity, budget / 3),
      proofMarkdown(input.proof, budget / 4),
    ]
      .filter((s) => s !== "")
      .join("\n"),
    verdictLine: verdictLine(input),
  };
}

/** The run's summary line, the same on every surface (`runLine`). */
export function verdictLine(input: SurfaceInput): string {
  return runLineText({
    summary: input.summary,
    outcomes: input.outcomes,
    integrity: input.integrity,
  });
}
