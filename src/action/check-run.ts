import type { CheckRunRef, GitHubApi } from "../github/types.js";
import type { ApiStops } from "./api-stops.js";
import type { RunnerEnv } from "./event.js";
import type { ActionIO } from "./io.js";

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
  try {
    const checkRun = await api.startCheckRun({
      name: checkName,
      headSha,
      externalId: `${runner.runId}-${runner.runAttempt}-${checkName}`,
      detailsUrl: `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}`,
    });
    // If the job is cancelled or crashes from here on, the post step completes the run.
    io.saveState("check-run-id", String(checkRun.id));
    io.saveState("check-run-url", checkRun.htmlUrl);
    return checkRun;
  } catch (e) {
    if (!stops.record(e, "create the check run")) {
      io.warning(`contract-gate: could not create the check run: ${(e as Error).message}`);
    }
    return undefined;
  }
}
