import { type CheckRunRef, type GitHubApi, GitHubApiError } from "../github/types.js";
import type { ApiStops } from "./api-stops.js";
import type { RunnerEnv } from "./event.js";
import type { ActionIO } from "./io.js";

/** The post step's state key for a check run being created: name, head sha and external id (JSON). */
export const PENDING_CHECK_RUN = "check-run-pending";

/**
 * Stage 5: the check run, in progress on `headSha` while the checks run. A
 * failure is a warning (or an API stop), never the end of the run: the
 * verdict still reaches the job summary and the step's status.
 */
export async function startCheckRun(args: {
  api: GitHubApi;
  io: ActionIO;
  runner: RunnerEnv;
  checkName: string;
  headSha: string;
  stops: ApiStops;
}): Promise<CheckRunRef | undefined> {
  const { api, io, runner, checkName, headSha, stops } = args;
  const externalId = `${runner.runId}-${runner.runAttempt}-${checkName}`;
  // Before the request: a cancellation while it is in flight ends the step before
  // the id is known, and the post step then finds the run by these (post.ts).
  io.saveState(PENDING_CHECK_RUN, JSON.stringify({ name: checkName, headSha, externalId }));
  try {
    const checkRun = await api.startCheckRun({
      name: checkName,
      headSha,
      externalId,
      detailsUrl: `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}`,
    });
    // If the job is cancelled or crashes from here on, the post step completes the run.
    io.saveState("check-run-id", String(checkRun.id));
    io.saveState("check-run-url", checkRun.htmlUrl);
    return checkRun;
  } catch (e) {
    // A refusal (4xx: a read-only fork token, a missing permission) created nothing:
    // the post step has nothing to look for. After 5xx or lost answers the create may
    // still have gone through unseen (the adapter's lookup can lag or fail), so the
    // post step keeps the intent and looks once more.
    if (
      e instanceof GitHubApiError &&
      e.status !== undefined &&
      e.status >= 400 &&
      e.status < 500
    ) {
      io.saveState(PENDING_CHECK_RUN, "");
    }
    if (!stops.record(e, "create the check run")) {
      io.warning(`contract-gate: could not create the check run: ${(e as Error).message}`);
    }
    return undefined;
  }
}
