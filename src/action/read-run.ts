import { readFileSync } from "node:fs";
import { type RunnerEnv, readRunnerEnv, resolveTarget, type Target } from "./event.js";
import { type ActionSettings, parseInputs } from "./inputs.js";
import { type ActionIO, StopRun } from "./io.js";
import { notPullRequestRun } from "./workflow-run.js";

/** What the run is: the runner's facts, the validated inputs and the target the event names. */
export interface RunStart {
  runner: RunnerEnv;
  settings: ActionSettings;
  target: Target;
}

/**
 * Stage 1: the runner's environment, the event payload and the inputs, read
 * once. Throws StopRun for a stand-down (workflow_run after a run that was not
 * a pull request's), invalid inputs or an event the action does not gate.
 */
export function readRun(io: ActionIO, env: NodeJS.ProcessEnv): RunStart {
  const runner = readRunnerEnv(env);
  const payload = readPayload(runner.eventPath);
  // Before the inputs: after a push's run, stage 2's pr-number is rightly empty.
  const standDown = runner.eventName === "workflow_run" ? notPullRequestRun(payload) : undefined;
  if (standDown !== undefined) throw new StopRun(`contract-gate: ${standDown}`, "notice");
  const parsed = parseInputs((n) => io.getInput(n), env);
  if (!parsed.ok) {
    throw new StopRun(`contract-gate: invalid inputs:\n- ${parsed.errors.join("\n- ")}`);
  }
  const settings = parsed.settings;
  io.setSecret(settings.githubToken);
  try {
    return { runner, settings, target: resolveTarget(runner, payload, settings) };
  } catch (e) {
    throw new StopRun((e as Error).message);
  }
}

function readPayload(path: string | undefined): unknown {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
}
