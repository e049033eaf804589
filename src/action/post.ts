import type { GitHubApi, RepoRef } from "../github/types.js";
import { readRunnerEnv } from "./event.js";
import { checkRunNotCompleted } from "./stuck-check-run.js";

/** What the post step needs from the runner. */
export interface PostIO {
  getInput(name: string): string;
  getState(name: string): string;
  info(message: string): void;
  warning(message: string): void;
}

/**
 * The post step (action.yml `post`, which runs even when the job is cancelled
 * or the main step crashed): a check run the main step started but never
 * completed would stay "in progress" forever and, as a required check, leave
 * the PR in limbo. Complete it as cancelled instead — never as a pass.
 */
export async function runPost(
  io: PostIO,
  env: NodeJS.ProcessEnv,
  github: (token: string, repo: RepoRef, baseUrl: string) => GitHubApi,
): Promise<void> {
  const id = Number(io.getState("check-run-id"));
  if (!id || io.getState("check-run-completed") === "true") return;
  const runner = readRunnerEnv(env);
  const [owner = "", repo = ""] = runner.repository.split("/");
  try {
    await github(io.getInput("github-token"), { owner, repo }, runner.apiUrl).completeCheckRun(id, {
      conclusion: "cancelled",
      output: {
        title: "The gate did not finish",
        summary:
          "The job was cancelled or the gate stopped before it could decide. Nothing was approved: " +
          "re-run the workflow (or use workflow_dispatch with `pr-number`).",
        annotations: [],
      },
    });
    io.info(`contract-gate: check run ${id} was left in progress; completed it as cancelled.`);
  } catch (e) {
    // One plain sentence, the same the main step logs: the PR's check is stuck, re-run the job.
    const url = io.getState("check-run-url") || `(id ${id})`;
    io.warning(`contract-gate: ${checkRunNotCompleted(url, (e as Error).message)}`);
  }
}
