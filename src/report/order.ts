import type { ContractOutcome, CriterionOutcome, CriterionStatus } from "../verdict.js";
import { CRITERION_STATUSES } from "../verdict.js";

const RANK = new Map<CriterionStatus, number>(CRITERION_STATUSES.map((s, i) => [s, i]));

/** Blocking rows first (worst status first), then the rest; stable within a status. */
export function orderCriteria(criteria: readonly CriterionOutcome[]): CriterionOutcome[] {
  return criteria
    .map((k, i) => ({ k, i }))
    .sort(
      (a, b) =>
        Number(b.k.blocking) - Number(a.k.blocking) ||
        RANK.get(a.k.status)! - RANK.get(b.k.status)! ||
        a.i - b.i,
    )
    .map(({ k }) => k);
}

/** `PASS`, `NEUTRAL`, `FAIL`, `ABANDONED(2)`, `INVALID`, `DRIFTED`, `ABORTED`. */
export function verdictLabel(c: ContractOutcome): string {
  if (c.verdict === "abandoned") {
    return `ABANDONED(${c.criteria.filter((k) => k.status === "abandoned").length})`;
  }
  return c.verdict.toUpperCase();
}

const VERDICT_RANK: Record<ContractOutcome["verdict"], number> = {
  invalid: 0,
  drifted: 1,
  fail: 2,
  abandoned: 3,
  neutral: 4,
  pass: 5,
  aborted: 6,
};

/** Contracts that block first (invalid, drifted, fail, abandoned), then passing and aborted; stable. */
export function orderContracts(contracts: readonly ContractOutcome[]): ContractOutcome[] {
  return contracts
    .map((c, i) => ({ c, i }))
    .sort((a, b) => VERDICT_RANK[a.c.verdict] - VERDICT_RANK[b.c.verdict] || a.i - b.i)
    .map(({ c }) => c);
}
