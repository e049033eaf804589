import { loadContract } from "../load.js";
import { ApiStops } from "./api-stops.js";
import { baseComparison } from "./base-comparison.js";
import { startCheckRun } from "./check-run.js";
import { collectContracts } from "./collect.js";
import { resolveHead } from "./head.js";
import { type ActionIO, type GitHubFactory, StopRun } from "./io.js";
import { publish } from "./publish.js";
import { readRun } from "./read-run.js";
import { reportRun } from "./report.js";
import { runChecks } from "./run-checks.js";

export type { ActionIO } from "./io.js";

export interface ActionDeps {
  io: ActionIO;
  env: NodeJS.ProcessEnv;
  github: GitHubFactory;
  /** How to start the sandbox host (`[node, script, SANDBOX_HOST_ARG]`); none: no sandbox. */
  sandboxHost?: readonly string[];
  /** The action's own files: read-only for commands. */
  protect?: readonly string[];
}

/**
 * The action, one stage after another: inputs and event → the commit to gate
 * → the contracts in scope → the base comparison → the check run started →
 * the checks → the report → the check run, comment, job summary and outputs.
 * A stage ends the run early by throwing StopRun (a failure, or a notice when
 * it stands down); the step's pass/fail otherwise follows the contracts, and
 * a reporting failure is a warning, never a verdict change.
 */
export async function runAction({
  io,
  env,
  github,
  sandboxHost,
  protect,
}: ActionDeps): Promise<void> {
  try {
    const { runner, settings, target } = readRun(io, env);
    const [owner = "", repo = ""] = runner.repository.split("/");
    const api = github(settings.githubToken, { owner, repo }, runner.apiUrl);
    const gated = await resolveHead(api, target, settings.workingDirectory);
    const scope = await collectContracts({ api, io, runner, settings, gated });
    const integrity = await baseComparison(api, settings.contracts, gated, scope);
    const contracts = await Promise.all(scope.paths.map((p) => loadContract(scope.root, p)));
    const stops = new ApiStops();
    const checkRun = await startCheckRun({
      api,
      io,
      runner,
      checkName: settings.checkName,
      headSha: gated.headSha,
      stops,
    });
    const run = await runChecks({
      io,
      env,
      settings,
      target: gated.target,
      contracts,
      sandboxHost,
      protect,
    });
    const report = await reportRun({ io, runner, settings, scope, integrity, run });
    await publish({ api, io, settings, gated, scope, run, report, checkRun, stops });
  } catch (e) {
    if (!(e instanceof StopRun)) throw e;
    if (e.as === "notice") (io.notice ?? io.info)(e.message);
    else io.setFailed(e.message);
  }
}
