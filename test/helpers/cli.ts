import { main } from "../../src/cli/main.js";

/** Run the CLI in-process and capture what it prints. */
export async function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    cwd,
    env: { NO_COLOR: "1", ...env },
    isTTY: false,
  });
  return { code, stdout, stderr };
}
