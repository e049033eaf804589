import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { lexists } from "../../fs/lexists.js";
import type { ProcessOutcome, ProcessRunner } from "../../process/run-process.js";
import type { ProofRun } from "../types.js";
import { undeclaredCase } from "./declared.js";
import { goModulePath, readGoJson } from "./go-json.js";
import { readJunit } from "./junit.js";
import { batches, readerOf, substitute, type TestCommand } from "./presets.js";
import type { ReadResult, RunResults } from "./results.js";
import { soloTemplate } from "./solo.js";

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
  let n = 0;
  for (const files of batches(input.command.preset, input.files)) {
    n++;
    out.push(await invoke(input, files, input.command.template, `${input.side}-${n}`));
  }
  return out;
}

/**
 * Runs one mapped test alone (the runner's file and name filters,
 * `soloTemplate`): its exit status is the verdict the proof trusts when a
 * run's results and exit disagree. `key` names its results file, fresh in
 * the side's results directory. A `custom` template has no filters: an
 * execution error saying so.
 */
export async function runSolo(
  input: SideInput,
  file: string,
  name: string,
  key: string,
): Promise<Invocation> {
  const template = soloTemplate(input.command, name);
  if (template === undefined) {
    return {
      run: {
        side: input.side,
        command: "",
        preset: input.command.preset,
        chosenBy: input.command.chosenBy,
        solo: { file, name },
        error: {
          message: `the ${input.side} run's results and its exit status disagree about ${file} > ${name}, and a test-command template cannot run one test alone`,
          hint: "Name a preset in test-command (CLI --test-command), whose filters the gate knows, or fix why the runner's exit status disagrees with its results.",
        },
        durationMs: 0,
      },
      files: [file],
    };
  }
  const one = await invoke(input, [file], template, key);
  return { ...one, run: { ...one.run, solo: { file, name } } };
}

async function invoke(
  input: SideInput,
  files: readonly string[],
  template: string,
  key: string,
): Promise<Invocation> {
  // Outside the tree and fresh (ProofViews.results): no file the pull request committed is read as this run's.
  const junit = join(input.results, `${key}.${input.command.preset === "go" ? "json" : "xml"}`);
  const command = substitute(template, junit, files);
  const existed = lexists(junit);
  const started = Date.now();
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
  return judge(input, files, command, junit, outcome, {
    existed,
    started,
    ended: Date.now(),
  });
}

function judge(
  input: SideInput,
  files: readonly string[],
  command: string,
  junit: string,
  o: ProcessOutcome,
  window: { existed: boolean; started: number; ended: number },
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
  const fresh = freshness(junit, window);
  if (fresh !== undefined) {
    return fail(
      `the ${input.side} run's results file ${fresh}: it was not written by this run's runner alone`,
      "Find what in the repository writes to the runner's results path; the gate reads only a file the run itself creates.",
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
  const forged = undeclaredCase(cases, files, (f) => {
    try {
      return readFileSync(join(input.tree, f), "utf8");
    } catch {
      return undefined;
    }
  });
  if (forged !== undefined) {
    return fail(
      `the ${input.side} run's results name "${forged.name}", a test no run file declares: the results file is forged, not the runner's`,
      "Find what in the repository writes the runner's results file (a source or test file that renames or rewrites it) and remove it.",
    );
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

// Coarse file-system clocks and the runner's own buffering: a second either side.
const CLOCK_SLACK_MS = 1000;

/**
 * Why the results file cannot be this run's, or `undefined`: it existed
 * before the run, is not one regular file (a link to elsewhere, a second
 * name), or was last written outside the run's time. Absent: `undefined`
 * (the caller says "no results file").
 */
function freshness(
  junit: string,
  window: { existed: boolean; started: number; ended: number },
): string | undefined {
  if (window.existed) return "existed before the run started";
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(junit);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return "is not a regular file (a link or a directory)";
  if (st.nlink !== 1) return `has ${st.nlink} names (a hard link)`;
  if (st.mtimeMs < window.started - CLOCK_SLACK_MS || st.mtimeMs > window.ended + CLOCK_SLACK_MS) {
    return "was last written outside the run's time";
  }
  return undefined;
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
