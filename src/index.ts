import { dirname } from "node:path";
import { coreIO, corePostIO, isPostStep, markMainStep } from "./action/core-io.js";
import { runAction } from "./action/main.js";
import { runPost } from "./action/post.js";
import { createGitHubApi } from "./github/adapter.js";
import { createOctokit } from "./github/client.js";
import { parseApiTuning } from "./github/tuning.js";
import type { RepoRef } from "./github/types.js";
import { killAllRunning } from "./process/process-group.js";
import { onEndingSignals, signalExitCode } from "./process/signals.js";
import { runSandboxHost } from "./sandbox/host.js";
import { SANDBOX_HOST_ARG } from "./sandbox/protocol.js";

// The action entry point: the main step runs the gate; the post step (which
// also runs after a cancellation) completes a check run the gate left open.
const tuning = parseApiTuning(process.env.CONTRACT_GATE_API_TUNING);
if (!tuning.ok)
  process.stdout.write(`::warning::contract-gate: ${tuning.error}; using the defaults.\n`);
const apiTuning = tuning.ok ? tuning.tuning : {};
// Retries, rate-limit waits and slow requests go to the job log as plain lines.
const apiLog = { info: (m: string) => process.stdout.write(`${m}\n`) };
const github = (token: string, repo: RepoRef, baseUrl: string) =>
  createGitHubApi(createOctokit({ token, baseUrl, ...apiTuning, log: apiLog }), repo, {
    ...(apiTuning.retryDelayMs !== undefined && { retryDelayMs: apiTuning.retryDelayMs }),
    log: apiLog.info,
  });

function step(): Promise<void> {
  if (isPostStep()) return runPost(corePostIO(), process.env, github);
  markMainStep();
  // The runner cancels a step with SIGINT, then SIGTERM 7.5 s later, then SIGKILL.
  // Kill every check's tree at the first one and end at once: sandboxed checks die
  // with the sandbox host when its pipe closes, and the post step (which runs after
  // a cancellation) completes the check run as cancelled — never as a pass.
  onEndingSignals((signal) => {
    const killed = killAllRunning();
    process.stdout.write(
      `::warning::contract-gate: ${signal}: the job was cancelled; ${killed} running check process group(s) killed and nothing was approved. The post step completes the check run as cancelled.\n`,
    );
    process.exit(signalExitCode(signal));
  });
  return runAction({
    io: coreIO(),
    env: process.env,
    github,
    sandboxHost: [process.execPath, ...process.execArgv, process.argv[1]!, SANDBOX_HOST_ARG],
    // dist/index.js → the action's root: a check must not rewrite what the post step runs.
    protect: [dirname(dirname(process.argv[1]!))],
  });
}

// The same bundle is the sandbox host when started with its argument (see src/sandbox/).
if (process.argv[2] === SANDBOX_HOST_ARG) runSandboxHost(process.argv.at(-1) ?? "");
else runStep();

function runStep(): void {
  step().catch((e: unknown) => {
    process.exitCode = 1;
    process.stdout.write(`::error::contract-gate failed unexpectedly: ${(e as Error).message}\n`);
  });
}
