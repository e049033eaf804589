import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProcessOutcome, ProcessRunner } from "../../process/run-process.js";
import type { ProofRun } from "../types.js";
import { goModulePath, readGoJson } from "./go-json.js";
import { readJunit } from "./junit.js";
import { batches, readerOf, substitute, type TestCommand } from "./presets.js";
import type { ReadResult, RunResults } from "./results.js";

/** One runner invocation and what it reported, for the files it ran. */
export interface Invocation {
  run: ProofRun;
  files: readonly string[];
  /** Absent when `run.error` is set: the run decides nothing. */
  results?: RunResults;
}

export interface SideInput {
  side: "head" | "base";
  command: TestCommand;
  files: readonly string[];
  /** The tree to run in (a proof view). */
  tree: string;
  /** A fresh, empty directory outside the tree, which the run may write: its results files go there. */
  results: string;
  run: ProcessRunner;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
}

const FIX_INPUT =
  "Check the test-command input (CLI --test-command): it must run the mapped test files and write JUnit XML to {junit} (or name a preset).";

/**
 * Runs the mapped tests of one side: `sh -c` with the template substituted,
 * in the tree, bounded by the test timeout, through the runner given (the
 * sandbox). No retries. A run that cannot decide anything says why in
 * `run.error` (docs/proof.md, "Execution errors"): no results file, one that
 * is not JUnit (or go -json), zero test cases, a non-zero exit with no failing
 * test (a test can print its own PASSED lines), a timeout.
 */
export async function runSide(input: SideInput): Promise<Invocation[]> {
  const out: Invocation[] = [];
  // Outside the tree and fresh (ProofViews.results): no file the pull request committed is read as this run's.
  const resultsDir = input.results;
  let n = 0;
  for (const files of batches(input.command.preset, input.files)) {
    n++;
    const junit = join(
      resultsDir,
      `${input.side}-${n}.${input.command.preset === "go" ? "json" : "xml"}`,
    );
    const command = substitute(input.command.template, junit, files);
    const outcome = await input.run({
      file: "sh",
      args: ["-c", command],
      cwd: input.tree,
      env: input.env,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      combined: true,
      tailLines: 30,
    });
    out.push(judge(input, files, command, junit, outcome));
  }
  return out;
}

function judge(
  input: SideInput,
  files: readonly string[],
  command: string,
  junit: string,
  o: ProcessOutcome,
): Invocation {
  const run: ProofRun = {
    side: input.side,
    command,
    preset: input.command.preset,
    chosenBy: input.command.chosenBy,
    ...(o.kind === "exited" && o.exitCode !== null && { exitCode: o.exitCode }),
    durationMs: o.durationMs,
    ...(o.combinedTail.trim() !== "" && { outputTail: o.combinedTail.trimEnd() }),
  };
  const fail = (message: string, hint = FIX_INPUT): Invocation => ({
    run: { ...run, error: { message, hint } },
    files,
  });
  const seconds = Math.round(input.timeoutMs / 1000);
  switch (o.kind) {
    case "timeout":
      return fail(
        `the ${input.side} run timed out after ${seconds} s`,
        "Raise the test-timeout-seconds input, or map faster tests.",
      );
    case "aborted":
      return fail(`the ${input.side} run was cancelled`, "Run the gate again.");
    case "spawn-error":
    case "bad-cwd":
      return fail(`the ${input.side} run could not start: ${o.message}`);
    case "boundary":
      return fail(
        `the ${input.side} run could not run in the sandbox: ${o.reason}`,
        "See the sandbox section of the report.",
      );
  }
  if (o.exitCode === null)
    return fail(`the ${input.side} run was killed by ${o.signal ?? "a signal"}`);
  if (o.exitCode === 127 || o.exitCode === 126) {
    return fail(
      `the test command was not found or not executable (exit ${o.exitCode}): ${lastLine(o.combinedTail)}`,
    );
  }
  let text: string;
  try {
    text = readFileSync(junit, "utf8");
  } catch {
    const said = lastLine(o.combinedTail);
    return fail(
      `the ${input.side} run (exit ${o.exitCode}) wrote no results file${said === "" ? "" : `; its output ends: ${said}`}`,
    );
  }
  const read = readResults(input, text, files);
  if (!read.ok) return fail(`the ${input.side} run's results cannot be read: ${read.message}`);
  const { cases, loadFailed } = read.results;
  if (cases.length === 0 && loadFailed.size === 0) {
    return fail(`the ${input.side} run reported zero test cases`);
  }
  const failing =
    loadFailed.size > 0 || cases.some((c) => c.outcome === "failed" || c.outcome === "errored");
  if (o.exitCode !== 0 && !failing) {
    return fail(
      `the runner exited ${o.exitCode} while no test failed: its results cannot be trusted (a test may print its own pass lines)`,
      "Find why the runner failed in its output (a crash after the tests, a coverage threshold, a failing hook); fix that, or run only the tests in test-command.",
    );
  }
  return { run, files, results: read.results };
}

function readResults(input: SideInput, text: string, files: readonly string[]): ReadResult {
  const reader = readerOf(input.command.preset);
  if (reader.format === "junit") return readJunit(text, reader.dialect, files);
  let mod: string | undefined;
  try {
    mod = goModulePath(readFileSync(join(input.tree, "go.mod"), "utf8"));
  } catch {
    mod = undefined;
  }
  if (mod === undefined)
    return { ok: false, message: "go.mod declares no module path at the repository root" };
  return readGoJson(text, mod, files);
}

function lastLine(s: string): string {
  return (s.trim().split("\n").pop() ?? "").slice(0, 200);
}
