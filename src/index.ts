import { coreIO } from "./action/core-io.js";
import { runAction } from "./action/main.js";
import { createGitHubApi } from "./github/adapter.js";
import { createOctokit } from "./github/client.js";

// The action entry point: run() and nothing else. Any unexpected error still fails the step.
runAction({
  io: coreIO(),
  env: process.env,
  github: (token, repo, baseUrl) => createGitHubApi(createOctokit({ token, baseUrl }), repo, {}),
}).catch((e: unknown) => {
  process.exitCode = 1;
  process.stdout.write(`::error::contract-gate failed unexpectedly: ${(e as Error).message}\n`);
});
