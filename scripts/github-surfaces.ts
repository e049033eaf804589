// What the action posts for a run, built with the action's own renderers and the
// arguments src/action/main.ts passes them (keep the two in step).
import type { Annotation } from "../src/github/types.js";
import { annotationsFor } from "../src/report/annotations.js";
import { checkRunTitle, commentMarker } from "../src/report/github-text.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { describeSandbox } from "../src/sandbox/describe.js";
import { DEFAULT_CHECK_MEMORY_MB } from "../src/sandbox/index.js";
import { type Conclusion, skippedCommands } from "../src/verdict.js";
import type { DemoRun } from "./example-report.js";

/** The check run's completed form, as the Checks API receives it. */
export interface CheckRunSurface {
  name: string;
  conclusion: Conclusion;
  title: string;
  summary: string;
  text: string;
}

export interface GitHubSurfaces {
  checkRun: CheckRunSurface;
  annotations: Annotation[];
  /** The sticky comment's body, hidden marker included. */
  comment: string;
}

/** main.ts's budgets: the Checks API's limit and the comment's (below GitHub's 65,536). */
const CHECK_RUN_BUDGET = 65_535;
const COMMENT_BUDGET = 60_000;

/**
 * The demo as pull request #42 would see it on a GitHub-hosted runner, with
 * `scope: all` and a PR that changes code but no contract: every contract runs
 * and there are no contract changes to report (no "Contract changes" section,
 * no approval in the title), so what main.ts adds for those stays empty.
 */
export function githubSurfaces(run: DemoRun, checkName = "Contract Gate"): GitHubSurfaces {
  const { summary, contracts } = run;
  // A GitHub-hosted runner: passwordless sudo for the namespaces, cgroup v2 for the caps.
  const sandbox = describeSandbox({
    mode: "auto",
    mechanism: "namespaces (sudo -n)",
    cgroup: "v2",
    memoryMb: DEFAULT_CHECK_MEMORY_MB,
  });
  const title = checkRunTitle(summary, {
    invalid: contracts.filter((c) => c.verdict === "invalid").length,
    drifted: contracts.filter((c) => c.verdict === "drifted").length,
    skippedCommands: skippedCommands(contracts),
  });
  const checkRunUrl = "https://github.com/OWNER/REPO/runs/1";
  const rerun = "Re-run: Actions → this workflow → Run workflow with `pr-number` = 42.";
  return {
    checkRun: {
      name: checkName,
      conclusion: summary.conclusion,
      title,
      summary: renderMarkdown(summary, contracts, {
        budget: CHECK_RUN_BUDGET,
        part: "summary",
        title: checkName,
        sandbox,
      }),
      text: renderMarkdown(summary, contracts, { budget: CHECK_RUN_BUDGET, part: "details" }),
    },
    annotations: annotationsFor(contracts),
    comment: `${commentMarker(checkName)}\n${renderMarkdown(summary, contracts, {
      budget: COMMENT_BUDGET,
      title: checkName,
      sandbox,
      footer: `[Check run](${checkRunUrl}) · ${rerun}`,
    })}`,
  };
}
