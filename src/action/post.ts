import { z } from "zod";
import type { GitHubApi, RepoRef } from "../github/types.js";
import { PENDING_CHECK_RUN } from "./check-run.js";
import { readRunnerEnv } from "./event.js";
import { checkRunNotCompleted } from "./stuck-check-run.js";

/** What the post step needs from the runner. */
export interface PostIO {
  getInput(name: string): string;
  getState(name: string): string;
  info(message: string): void;
  warning(message: string): void;
}

/** What check-run.ts saves before it asks GitHub to create the run. */
const Pending = z.object({ name: z.string(), headSha: z.string(), externalId: z.string() });

/**
 * The post step (action.yml `post`, which runs even when the job is cancelled
 * or the main step crashed): a check run the main step started but never
 * completed would stay "in progress" forever and, as a required check, leave
 * the PR in limbo. Complete it as cancelled instead — never as a pass. When
 * the main step ended while GitHub was creating the run (so its id was never
 * saved), find it by the name, head sha and external id saved before the request.
 */
export async function runPost(
  io: PostIO,
  env: NodeJS.ProcessEnv,
  github: (token: string, repo: RepoRef, baseUrl: string) => GitHubApi,
): Promise<void> {
  if (io.getState("check-run-completed") === "true") return;
  let id = Number(io.getState("check-run-id"));
  let url = io.getState("check-run-url");
  const pending = id ? undefined : pendingRun(io.getState(PENDING_CHECK_RUN));
  if (!id && !pending) return;
  const runner = readRunnerEnv(env);
  const [owner = "", repo = ""] = runner.repository.split("/");
  const api = github(io.getInput("github-token"), { owner, repo }, runner.apiUrl);
  if (pending) {
    let found: Awaited<ReturnType<GitHubApi["findCheckRun"]>>;
    try {
      found = await api.findCheckRun(pending);
    } catch (e) {
      io.warning(
        `contract-gate: the job ended while the check run "${pending.name}" was being created, and looking for it on ${pending.headSha} failed: ${(e as Error).message} — if it shows as in progress, re-run this job`,
      );
      return;
    }
    // Never created, or completed after all: nothing is left in progress.
    if (!found || found.completed) return;
    id = found.id;
    url = found.htmlUrl;
  }
  try {
    await api.completeCheckRun(id, {
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
    io.warning(`contract-gate: ${checkRunNotCompleted(url || `(id ${id})`, (e as Error).message)}`);
  }
}

function pendingRun(saved: string): z.infer<typeof Pending> | undefined {
  if (saved === "") return undefined;
  try {
    const parsed = Pending.safeParse(JSON.parse(saved));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
