import { performance } from "node:perf_hooks";
import type { Check } from "../model/contract.js";
import { confinedCwd } from "../process/cwd.js";
import { notRunReason, showRegex, tailDetail } from "../process/describe.js";
import { type ProcessOutcome, runProcess } from "../process/run-process.js";
import { executionError, processResults } from "./process-results.js";
import type { CheckResult, ExecutionContext, Executor } from "./types.js";

type CommandExitCheck = Extract<Check, { type: "command-exit" }>;

/**
 * `command-exit`: execFile semantics (no shell; `command` looked up on PATH,
 * `args` passed verbatim) in the check's confined cwd, with the run's
 * credential-free environment. Could not run → partial; ran and missed the
 * expected exit code or stdout pattern → fail.
 */
export const runCommandExit: Executor<CommandExitCheck> = async (check, ctx) => {
  const started = performance.now();
  const cwd = await confinedCwd(ctx.root, check.cwd);
  if (!cwd.ok) return executionError(cwd.reason, Math.round(performance.now() - started));
  const run = await ctx.processSlot(() =>
    (ctx.runProcess ?? runProcess)({
      file: check.command,
      args: check.args,
      cwd: cwd.path,
      env: ctx.env,
      timeoutMs: check.timeoutMs,
      signal: ctx.signal,
    }),
  );
  return judge(check, run, ctx);
};

async function judge(
  check: CommandExitCheck,
  run: ProcessOutcome,
  ctx: ExecutionContext,
): Promise<CheckResult> {
  const { exitCode, pass, partial, unmet } = processResults(run, tailDetail(run), ctx);

  const notRun = notRunReason(run, check.command, `${check.timeoutMs} ms`, check.cwd ?? ".");
  if (notRun !== undefined) return partial(notRun);
  if (exitCode === undefined) {
    const signal = run.kind === "exited" ? run.signal : null;
    return unmet(`killed by ${signal ?? "a signal"}, expected exit ${check.expectedExit}`);
  }
  if (exitCode !== check.expectedExit)
    return unmet(`exit ${exitCode}, expected ${check.expectedExit}`);

  const pattern = check.expectStdoutMatch;
  if (pattern === undefined) return pass(`exit ${exitCode}`);
  const shown = showRegex(pattern);
  // Matching a truncated stdout could miss (or, with anchors, fake) a match: refuse.
  if (run.stdoutExceeded) {
    return partial("output exceeded 1 MiB; expect_stdout_match cannot be evaluated");
  }
  // Multiline: `^` and `$` anchor at line boundaries, so `^ok$` matches a line
  // of output (stdout nearly always ends with a newline), as grep users expect.
  const match = await ctx.files.matchText(run.stdout, pattern, "m");
  if (!match.ok)
    return partial(`expect_stdout_match ${shown} could not be evaluated: ${match.error}`);
  if (!match.value) return unmet(`stdout does not match ${shown}`);
  return pass(`exit ${exitCode}, stdout matches ${shown}`);
}
