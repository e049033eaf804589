import { performance } from "node:perf_hooks";
import type { Check } from "../model/contract.js";
import { confinedCwd } from "../process/cwd.js";
import { notRunReason, showRegex, TIMEOUT_REASON_PREFIX } from "../process/describe.js";
import { type ProcessOutcome, runProcess } from "../process/run-process.js";
import { executionError, processResults } from "./process-results.js";
import type { CheckResult, ExecutionContext, Executor } from "./types.js";

type OracleCheck = Extract<Check, { type: "oracle" }>;

/**
 * An oracle: `bash -c <CHECK>` (a shell by design; the contract is authored
 * in the repository) in the confined cwd, bounded by the run's oracle timeout.
 * MET needs exit 0 AND the marker in stdout/stderr, so a failing script never
 * passes on error text that happens to carry the marker.
 */
export const runOracle: Executor<OracleCheck> = async (check, ctx) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (check.expect?.kind === "literal" && check.expect.text === "") {
    return executionError("empty marker: an empty EXPECT proves nothing", elapsed());
  }
  const cwd = await confinedCwd(ctx.root, check.cwd);
  if (!cwd.ok) return executionError(cwd.reason, elapsed());
  const literal = check.expect?.kind === "literal" ? check.expect.text : undefined;
  const run = await ctx.processSlot(() =>
    (ctx.runProcess ?? runProcess)({
      file: "bash",
      args: ["-c", check.command],
      cwd: cwd.path,
      env: ctx.env,
      timeoutMs: ctx.oracleTimeoutMs,
      signal: ctx.signal,
      // A literal is found while streaming, uncapped; a regex needs the text.
      combined: check.expect?.kind === "regex",
      ...(literal !== undefined && { literalMarker: literal }),
    }),
  );
  return judge(check, run, ctx);
};

async function judge(
  check: OracleCheck,
  run: ProcessOutcome,
  ctx: ExecutionContext,
): Promise<CheckResult> {
  const { exitCode, pass, partial, unmet } = processResults(
    run,
    run.combinedTail === "" ? "(no output)" : run.combinedTail,
    ctx,
  );

  const notRun = notRunReason(run, "bash", `${seconds(ctx.oracleTimeoutMs)} s`, check.cwd ?? ".");
  if (run.kind === "spawn-error" && run.code === "ENOENT") {
    return partial("bash not found on PATH: oracles run with bash -c");
  }
  if (notRun !== undefined) return partial(notRun);

  const marker = await markerState(check, run, ctx);
  const status =
    exitCode === undefined
      ? `killed by ${(run.kind === "exited" && run.signal) || "a signal"}`
      : exitCode === 0
        ? "exit 0"
        : `exit ${exitCode} (nonzero)`;
  // bash's own codes for "command not found" / "not executable": the check could not run.
  if (exitCode === 127 || exitCode === 126) {
    const what = exitCode === 127 ? "command not found" : "command not executable";
    const line = run.combinedTail.trim().split("\n").pop() ?? "";
    return partial(`exit ${exitCode} (${what})${line ? `: ${line.slice(0, 200)}` : ""}`);
  }
  // A nonzero exit (or a death by signal) is NOT-MET whatever the marker says.
  if (exitCode !== 0) {
    if (check.expect === undefined) return unmet(status);
    const said = marker.ok ? (marker.found ? "present" : "absent") : "not evaluated";
    return unmet(`${status}, marker ${said}`);
  }
  if (!marker.ok) return partial(marker.error);
  if (check.expect === undefined) return pass("exit 0");
  return marker.found ? pass("exit 0, marker found") : unmet("exit 0, marker absent");
}

type MarkerState = { ok: true; found: boolean } | { ok: false; error: string };

async function markerState(
  check: OracleCheck,
  run: ProcessOutcome,
  ctx: ExecutionContext,
): Promise<MarkerState> {
  const expect = check.expect;
  // A spec's Verification command: exit 0 alone decides (seed 004).
  if (expect === undefined) return { ok: true, found: true };
  if (expect.kind === "literal") return { ok: true, found: run.markerFound };
  // A regex over truncated output could miss a match, or fake one with `$`.
  if (run.combinedExceeded) {
    return { ok: false, error: "output exceeded 1 MiB; regex marker cannot be evaluated" };
  }
  const match = await ctx.files.matchText(run.combined, expect.source, expect.flags);
  if (!match.ok) {
    const shown = showRegex(expect.source, expect.flags);
    return { ok: false, error: `regex marker ${shown} could not be evaluated: ${match.error}` };
  }
  return { ok: true, found: match.value };
}

/** 120000 → "120", 1500 → "1.5". */
function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

/**
 * The line written back over an oracle's `EVIDENCE:` slot, e.g.
 * `MET exit=0 marker-found :: all 12 assertions passed`. The snippet is the
 * last line of output, made safe for a one-line markdown field.
 */
export function evidenceLine(result: CheckResult, timeoutMs: number): string {
  const tail = ` :: ${lastLineSnippet(result.outputTail)}`;
  if (result.result === "pass") return `MET exit=0 marker-found${tail}`;
  if (result.result === "partial") {
    if (result.reason.startsWith(TIMEOUT_REASON_PREFIX))
      return `NOT-MET timeout=${seconds(timeoutMs)}s`;
    return `NOT-MET error :: ${oneLine(result.reason)}`;
  }
  if (result.exitCode === 0) return `NOT-MET exit=0 marker-absent${tail}`;
  if (result.exitCode !== undefined) return `NOT-MET exit=${result.exitCode} (nonzero)${tail}`;
  const signal = /^killed by (\S+),/.exec(result.reason)?.[1] ?? "unknown";
  return `NOT-MET signal=${signal}${tail}`;
}

const SNIPPET_MAX = 140;
const ESC = String.fromCharCode(27);
/** Terminal colour and title sequences, which would leave debris once control chars go. */
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${ESC}\\u0007]*(?:\\u0007|${ESC}\\\\)`,
  "g",
);
/** Control characters, plus bidi overrides that could disguise the line in a review. */
const UNSAFE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;

function lastLineSnippet(tail: string | undefined): string {
  const lines = (tail ?? "").split("\n").map((line) => {
    // A progress bar redraws with \r: what a terminal shows is the last segment.
    const segments = line.split("\r").filter((s) => s.trim() !== "");
    return oneLine(segments[segments.length - 1] ?? "");
  });
  const last = lines.filter((l) => l !== "").pop();
  return last ?? "(no output)";
}

/**
 * An HTML comment opener or closer in written-back output would hide (or
 * end a hiding of) the contract's next lines as GitHub renders them, so the
 * next `validate` would refuse the file the run wrote: break them apart.
 */
const COMMENT_MARK = /<!--|-->/g;

/** Single line, whitespace collapsed, control characters removed, at most 140 characters. */
function oneLine(text: string): string {
  const clean = text
    .replace(ANSI, "")
    .replace(UNSAFE, " ")
    .replace(/\s+/g, " ")
    .replace(COMMENT_MARK, (m) => (m === "<!--" ? "<! --" : "-- >"))
    .trim();
  const chars = Array.from(clean);
  return chars.length <= SNIPPET_MAX ? clean : `${chars.slice(0, SNIPPET_MAX - 1).join("")}…`;
}
