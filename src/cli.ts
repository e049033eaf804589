import { dirname } from "node:path";
import { drained } from "./cli/io.js";
import { main } from "./cli/main.js";
import { killAllRunning } from "./process/process-group.js";
import { runSandboxHost } from "./sandbox/host.js";
import { SANDBOX_HOST_ARG } from "./sandbox/protocol.js";

// The same bundle is the sandbox host when started with its argument (see src/sandbox/).
if (process.argv[2] === SANDBOX_HOST_ARG) runSandboxHost(process.argv.at(-1) ?? "");
else cli();

function cli(): void {
  // The CLI entry point: the only place that touches process.argv, signals and the exit code.
  const interrupt = new AbortController();
  process.once("SIGINT", () => {
    // Kill every running check's process tree now; `run` then settles and exits 130.
    interrupt.abort();
    killAllRunning();
    process.exitCode = 130;
    // A second Ctrl-C, or a run that fails to settle, ends the process for good.
    process.once("SIGINT", () => process.exit(130));
    setTimeout(() => process.exit(130), 5000).unref();
  });

  // No top-level await: the bundler's transpile-only mode does not take it.
  void main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stdoutDrain: () => drained(process.stdout),
    stderr: (s) => process.stderr.write(s),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    signal: interrupt.signal,
    sandboxHost: [process.execPath, ...process.execArgv, process.argv[1]!, SANDBOX_HOST_ARG],
    // bin/contract-gate.js → the package root: commands must not rewrite the gate itself.
    protect: [dirname(dirname(process.argv[1]!))],
  }).then((code) => {
    process.exitCode = code;
  });
}
