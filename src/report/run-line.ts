import type { IntegrityReport } from "../integrity/types.js";
import type { Conclusion, ContractOutcome, RunSummary } from "../verdict.js";
import { CRITERION_STATUSES, gateConclusion, unacknowledged } from "../verdict.js";
import { criteriaCount, plural } from "./problems-text.js";

/** The final verdict of a run: what every surface's last line is computed from. */
export interface FinalVerdict {
  /** The run's counts; its conclusion may already include the base comparison and `if-no-contracts`. */
  summary: RunSummary;
  outcomes: readonly ContractOutcome[];
  /** The comparison with the base (`--base`, the action on a PR): unacknowledged blocking findings fail the run. */
  integrity?: IntegrityReport | undefined;
}

/** The run's one summary line: what was counted, what blocks, then the conclusion. */
export interface RunLine {
  /** `6 criteria in 2 contracts (1 unmet, 5 met), 1 blocking` */
  lead: string;
  conclusion: Conclusion;
}

/**
 * The one summary line every surface prints last. Everything that blocks is
 * counted in it — criteria, contracts refused with no criteria to count (too
 * big, unreadable, nothing parsed), contract changes that need approval — so
 * a failure never reads "0 blocking".
 */
export function runLine({ summary, outcomes, integrity }: FinalVerdict): RunLine {
  const c = summary.counts;
  const findings = unacknowledged(integrity).length;
  const emptyRefused = (verdict: "invalid" | "drifted") =>
    outcomes.filter((o) => o.verdict === verdict && o.criteria.length === 0).length;
  const invalid = emptyRefused("invalid");
  const drifted = emptyRefused("drifted");
  const conclusion = gateConclusion(summary.conclusion, integrity);

  const counts = CRITERION_STATUSES.filter((s) => c[s] > 0).map((s) => `${c[s]} ${s}`);
  const what =
    c.contracts === 0
      ? "no contracts"
      : `${criteriaCount(c.criteria)} in ${plural(c.contracts, "contract")}${counts.length ? ` (${counts.join(", ")})` : ""}`;
  // Besides criteria, what blocks: said by name so the count adds up to the conclusion.
  const others = [
    invalid > 0 && plural(invalid, "invalid contract"),
    drifted > 0 && plural(drifted, "drifted contract"),
    findings > 0 && `${plural(findings, "contract change")} needing approval`,
  ].filter((x): x is string => typeof x === "string");
  const total = c.blocking + invalid + drifted + findings;
  const parts = [
    ...(c.blocking > 0 && others.length > 0 ? [criteriaCount(c.blocking)] : []),
    ...others,
  ];
  const blocking =
    c.contracts === 0 && total === 0
      ? ""
      : `, ${total} blocking${parts.length ? ` (${parts.join(", ")})` : ""}`;
  // A failure nothing above explains (`if-no-contracts: failure` with no contract found) says why.
  const unexplained = conclusion === "failure" && total === 0 ? " (if-no-contracts: failure)" : "";
  return { lead: `${what}${blocking}${unexplained}`, conclusion };
}

/** The summary line as plain text: `… , 1 blocking — failure`. */
export function runLineText(v: FinalVerdict): string {
  const { lead, conclusion } = runLine(v);
  return `${lead} — ${conclusion}`;
}
