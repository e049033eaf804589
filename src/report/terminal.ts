import type { IntegrityReport } from "../integrity/types.js";
import { scopeText } from "../scope/scope-reason.js";
import type {
  CheckOutcome,
  ContractOutcome,
  CriterionOutcome,
  CriterionStatus,
  RunSummary,
} from "../verdict.js";
import { orderContracts, orderCriteria, verdictLabel } from "./order.js";
import type { Paint } from "./paint.js";
import { formatProblem, plural } from "./problems-text.js";
import { type FinalVerdict, runLine } from "./run-line.js";

const SYMBOL: Record<CriterionStatus, string> = {
  met: "✔",
  unmet: "✘",
  "evidence-missing": "?",
  error: "!",
  abandoned: "⊘",
  manual: "✎",
  "not-run": "-",
  "awaiting-proof": "…",
};

function paintStatus(status: CriterionStatus, s: string, paint: Paint): string {
  if (status === "met") return paint.green(s);
  if (status === "manual" || status === "not-run" || status === "awaiting-proof")
    return paint.dim(s);
  if (status === "abandoned") return paint.yellow(s);
  return paint.red(s);
}

/** What follows the contracts: the "Contract changes" section, and the comparison the last line counts. */
export interface TerminalExtras {
  integrity?: IntegrityReport | undefined;
  /** `integrityTerminal`'s text, printed after the contracts and before the summary line. */
  integritySection?: string;
}

/**
 * The `run` terminal report: per contract its verdict, problems, then a row per
 * criterion (blocking rows first); the contract changes; last the summary line
 * (`runLine`), computed from the final verdict.
 */
export function renderTerminal(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  paint: Paint,
  after: TerminalExtras = {},
): string {
  const out: string[] = [];
  for (const c of orderContracts(contracts)) {
    const label = verdictLabel(c);
    const painted =
      c.verdict === "pass"
        ? paint.green(label)
        : c.verdict === "aborted" || c.verdict === "neutral"
          ? paint.dim(label)
          : paint.red(label);
    out.push(`${paint.bold(safe(c.path))}  ${c.kind}  ${painted}`);
    if (c.inScope) out.push(`  ${paint.dim(`in scope: ${scopeText(c.path, c.inScope, safe)}`)}`);
    for (const p of c.problems) {
      const clean = { ...p, message: safe(p.message), ...(p.hint ? { hint: safe(p.hint) } : {}) };
      out.push(`  ${formatProblem(clean, paint).replace(/\n/g, "\n  ")}`);
    }
    const rows = orderCriteria(c.criteria);
    const width = Math.max(0, ...rows.map((k) => k.id.length));
    const refused = c.verdict === "invalid" || c.verdict === "drifted";
    for (const k of rows) {
      const sym = paintStatus(k.status, `${SYMBOL[k.status]} ${k.status.padEnd(16)}`, paint);
      out.push(
        `  ${sym} ${safe(k.id).padEnd(width)}  ${safe(k.title)}${k.reason ? paint.dim(` — ${safe(k.reason)}`) : ""}`,
      );
      // A refused contract's problems above, with file:line:col, are why each of its criteria blocks.
      if (k.blocking && !refused) out.push(...whyBlocked(k, paint));
    }
    out.push("");
  }
  if (after.integritySection) out.push(after.integritySection.trimEnd(), "");
  out.push(finalLine({ summary, outcomes: contracts, integrity: after.integrity }, paint));
  return `${out.join("\n")}\n`;
}

/** Lines of output shown under a blocking criterion, and the characters kept of each. */
export const OUTPUT_LINES = 10;
const OUTPUT_LINE_CHARS = 240;
/** What a process check records as its detail when the command printed nothing. */
const NO_OUTPUT = "(no output)";

/**
 * Under a blocking criterion's row: where it is, what its deciding check
 * expected, what happened, and the last lines of its output — what the
 * markdown report's details say, so the terminal alone explains a failure.
 */
function whyBlocked(k: CriterionOutcome, paint: Paint): string[] {
  const pad = "      ";
  const label = (s: string) => paint.dim(s.padEnd(9));
  const out = [`${pad}${label("at")}${safe(k.location.path)}:${k.location.line}`];
  const check = decidingCheck(k);
  if (check?.expected !== undefined) out.push(`${pad}${label("expected")}${safe(check.expected)}`);
  else if (k.status === "manual")
    out.push(`${pad}${label("expected")}a CHECK or oracle: oracles are required`);
  out.push(`${pad}${label("happened")}${safe(check?.reason ?? k.reason)}`);
  const lines = check?.detail === undefined ? [] : outputLines(check.detail);
  const noun = check?.type === "oracle" || check?.type === "command-exit" ? "output" : "detail";
  if (check?.detail === NO_OUTPUT) out.push(`${pad}${label(noun)}${paint.dim("none")}`);
  else if (lines.length > 0) {
    const total = lines.length;
    const shown = lines.slice(-OUTPUT_LINES);
    out.push(
      `${pad}${label(noun)}${paint.dim(total > shown.length ? `last ${shown.length} of ${total} lines:` : `${plural(shown.length, "line")}:`)}`,
    );
    for (const l of shown) out.push(`${pad}  ${paint.dim("│")} ${l}`);
  }
  return out;
}

/** The check that decided a blocking criterion: the one that could not run, lacked evidence or failed. */
function decidingCheck(k: CriterionOutcome): CheckOutcome | undefined {
  // An abandonment decides by itself; its check, if it ran, was information only.
  if (k.status === "abandoned") return undefined;
  return (
    k.checks.find((c) => c.result === "partial") ??
    k.checks.find((c) => c.failureReason === "verification-evidence-missing") ??
    k.checks.find((c) => c.result === "fail") ??
    k.checks[0]
  );
}

/** Terminal escape sequences (OSC titles and links, CSI colours and moves), dropped whole. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what we drop
const ESCAPE_SEQUENCES = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]/g;

/** Output as display lines: colour codes dropped, control characters stripped, long lines cut. */
export function outputLines(detail: string): string[] {
  const text = detail.replace(ESCAPE_SEQUENCES, "").replace(/\r\n?/g, "\n");
  const lines = text.replace(/\n+$/, "").split("\n");
  if (lines.length === 1 && lines[0]!.trim() === "") return [];
  return lines.map((l) => {
    const clean = safe(l);
    return clean.length > OUTPUT_LINE_CHARS ? `${clean.slice(0, OUTPUT_LINE_CHARS - 1)}…` : clean;
  });
}

/**
 * Contract text and command output may carry escape sequences; on a terminal
 * they could rewrite the screen (or the lines above a verdict). Strip them.
 */
export function safe(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
}

/** The run's summary line (`runLine`), its conclusion coloured: the last line of the terminal report. */
export function finalLine(verdict: FinalVerdict, paint: Paint): string {
  const { lead, conclusion } = runLine(verdict);
  const word =
    conclusion === "failure"
      ? paint.red(paint.bold("failure"))
      : conclusion === "success"
        ? paint.green(paint.bold("success"))
        : paint.bold("neutral");
  return `${lead} — ${word}`;
}
