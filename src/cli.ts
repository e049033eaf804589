import { dirname } from "node:path";
import { drained } from "./cli/io.js";
import { main } from "./cli/main.js";
import { killAllRunning } from "./process/process-group.js";
import { onEndingSignals, signalExitCode } from "./process/signals.js";
import { runSandboxHost } from "./sandbox/host.js";
import { SANDBOX_HOST_ARG } from "./sandbox/protocol.js";

// The same bundle is the sandbox host when started with its argument (see src/sandbox/).
if (process.argv[2] === SANDBOX_HOST_ARG) runSandboxHost(process.argv.at(-1) ?? "");
else cli();

function cli(): void {
  // The CLI entry point: the only place that touches process.argv, signals and the exit code.
  const interrupt = new AbortController();
  const signals = onEndingSignals((signal) => {
    // Kill every running check's process tree now (sandboxed checks through the
    // abort signal, which the sandbox host obeys); `run` then settles.
    interrupt.abort(signal);
    killAllRunning();
    process.exitCode = signalExitCode(signal);
    // After a SIGHUP the terminal is gone: a failed write must not turn the exit code into a crash's.
    process.stdout.on("error", () => {});
    process.stderr.on("error", () => {});
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
    // A signal decides the exit code even when it came too late to stop anything (write-back).
    const signal = signals.received();
    process.exitCode = signal ? signalExitCode(signal) : code;
  });
}
