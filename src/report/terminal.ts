import type { ContractOutcome, CriterionStatus, RunSummary } from "../verdict.js";
import { CRITERION_STATUSES } from "../verdict.js";
import { orderContracts, orderCriteria, verdictLabel } from "./order.js";
import type { Paint } from "./paint.js";
import { criteriaCount, formatProblem } from "./problems-text.js";

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

/**
 * The `run` terminal report: per contract its verdict, problems, then a row per
 * criterion (blocking rows first); a final line with counts and the conclusion.
 */
export function renderTerminal(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  paint: Paint,
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
    for (const p of c.problems) {
      const clean = { ...p, message: safe(p.message), ...(p.hint ? { hint: safe(p.hint) } : {}) };
      out.push(`  ${formatProblem(clean, paint).replace(/\n/g, "\n  ")}`);
    }
    const rows = orderCriteria(c.criteria);
    const width = Math.max(0, ...rows.map((k) => k.id.length));
    for (const k of rows) {
      const sym = paintStatus(k.status, `${SYMBOL[k.status]} ${k.status.padEnd(16)}`, paint);
      out.push(
        `  ${sym} ${safe(k.id).padEnd(width)}  ${safe(k.title)}${k.reason ? paint.dim(` — ${safe(k.reason)}`) : ""}`,
      );
    }
    out.push("");
  }
  out.push(finalLine(summary, paint));
  return `${out.join("\n")}\n`;
}

/**
 * Contract text and command output may carry escape sequences; on a terminal
 * they could rewrite the screen (or the lines above a verdict). Strip them.
 */
export function safe(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
}

export function finalLine(summary: RunSummary, paint: Paint): string {
  const c = summary.counts;
  const counts = CRITERION_STATUSES.filter((s) => c[s] > 0).map((s) => `${c[s]} ${s}`);
  const conclusion =
    summary.conclusion === "failure"
      ? paint.red(paint.bold("failure"))
      : summary.conclusion === "success"
        ? paint.green(paint.bold("success"))
        : paint.bold("neutral");
  const what =
    c.contracts === 0
      ? "no contracts"
      : `${criteriaCount(c.criteria)} in ${c.contracts} contract${c.contracts === 1 ? "" : "s"}${counts.length ? ` (${counts.join(", ")})` : ""}, ${c.blocking} blocking`;
  return `${what} — ${conclusion}`;
}
