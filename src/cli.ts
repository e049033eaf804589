import { main } from "./cli/main.js";
import { killAllRunning } from "./process/process-group.js";

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
  stderr: (s) => process.stderr.write(s),
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  signal: interrupt.signal,
}).then((code) => {
  process.exitCode = code;
});
