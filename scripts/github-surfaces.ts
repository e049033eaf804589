// What the action posts for the demo run: src/report/github-surfaces.ts (the
// builder src/action/publish.ts posts from) with the demo's context.
import type { CheckRunOutput } from "../src/github/types.js";
import { githubSurfaces as build, rerunHint } from "../src/report/github-surfaces.js";
import { describeSandbox } from "../src/sandbox/describe.js";
import { DEFAULT_CHECK_MEMORY_MB } from "../src/sandbox/index.js";
import type { Conclusion } from "../src/verdict.js";
import type { DemoRun } from "./example-report.js";

/** The check run's completed form, as the Checks API receives it, with its name. */
export interface CheckRunSurface {
  name: string;
  conclusion: Conclusion;
  title: string;
  summary: string;
  text: string;
}

export interface GitHubSurfaces {
  checkRun: CheckRunSurface;
  annotations: CheckRunOutput["annotations"];
  /** The sticky comment's body, hidden marker included. */
  comment: string;
}

/**
 * The demo as pull request #42 would see it on a GitHub-hosted runner, with
 * `scope: all` and a PR that changes code but no contract: every contract runs
 * and there are no contract changes to report (no "Contract changes" section,
 * no approval in the title).
 */
export function githubSurfaces(run: DemoRun, checkName = "Contract Gate"): GitHubSurfaces {
  const { summary, contracts } = run;
  const { checkRun, comment } = build({
    summary,
    outcomes: contracts,
    integrity: undefined,
    // A GitHub-hosted runner: passwordless sudo for the namespaces, cgroup v2 for the caps.
    sandbox: describeSandbox({
      mode: "auto",
      mechanism: "namespaces (sudo -n)",
      cgroup: "v2",
      memoryMb: DEFAULT_CHECK_MEMORY_MB,
    }),
    checkName,
    checkRunUrl: "https://github.com/OWNER/REPO/runs/1",
    rerun: rerunHint(42),
  });
  const { title, text, annotations } = checkRun;
  return {
    checkRun: {
      name: checkName,
      conclusion: summary.conclusion,
      title,
      summary: checkRun.summary,
      text,
    },
    annotations,
    comment,
  };
}
