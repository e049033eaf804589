import type { CheckResult } from "./checks/types.js";
import type { Finding, IntegrityReport } from "./integrity/types.js";
import type { CheckType, Contract, ContractKind, Criterion, Problem } from "./model/contract.js";
import type { ScopeReason } from "./scope/scope-reason.js";

export { refusal } from "./model/refusal.js";

/** What the gate decided for one criterion. */
export type CriterionStatus =
  | "met"
  | "unmet"
  | "evidence-missing"
  | "error"
  | "abandoned"
  | "manual"
  | "not-run"
  /** A requirement mapped to a test no proof has run yet: shown, never green, not blocking. */
  | "awaiting-proof";

export const CRITERION_STATUSES: readonly CriterionStatus[] = [
  "unmet",
  "evidence-missing",
  "error",
  "abandoned",
  "not-run",
  "awaiting-proof",
  "manual",
  "met",
];

/** `neutral`: nothing blocks, but commands the trust policy did not run leave it undecided. */
export type ContractVerdict =
  | "pass"
  | "neutral"
  | "fail"
  | "abandoned"
  | "invalid"
  | "drifted"
  | "aborted";
export type Conclusion = "success" | "failure" | "neutral";

export interface CheckOutcome extends CheckResult {
  type: CheckType;
  /** What the check required (`expectation`), for the reports: marker, exit code, pattern, path. */
  expected?: string;
}

export interface CriterionOutcome {
  id: string;
  title: string;
  /** Plan contracts: the task id. */
  group?: string;
  location: { path: string; line: number };
  status: CriterionStatus;
  blocking: boolean;
  reason: string;
  checks: CheckOutcome[];
}

export interface ContractOutcome {
  path: string;
  kind: ContractKind;
  verdict: ContractVerdict;
  problems: Problem[];
  criteria: CriterionOutcome[];
  /** Why the run gates this contract (set by the front end that chose the scope). */
  inScope?: ScopeReason;
}

export interface VerdictOptions {
  /** Manual (oracle-free) criteria block too (`--require-oracles`). */
  requireOracles: boolean;
}

/** Decide one criterion from its checks' results (in check order). */
export function decideCriterion(
  criterion: Criterion,
  results: readonly CheckResult[],
  opts: VerdictOptions,
): Pick<CriterionOutcome, "status" | "blocking" | "reason"> {
  if (criterion.abandon) {
    // An abandoned criterion blocks even when its check passes; the result is shown as information.
    // A check the policy refused to execute did not run: do not say it did.
    const executed = results.filter((r) => !r.reason.startsWith("not run:"));
    const ran = executed.length ? ` (check ran for information: ${summarise(executed)})` : "";
    return {
      status: "abandoned",
      blocking: true,
      reason: `ABANDON: ${criterion.abandon.reason}${ran}`,
    };
  }
  // What the contract records decides (a quality-review item, a decision left to a person).
  if (criterion.settled) {
    const { status, reason } = criterion.settled;
    const blocking = criterion.settled.blocking || (status === "manual" && opts.requireOracles);
    return { status, blocking, reason };
  }
  if (criterion.checks.length === 0) {
    return {
      status: "manual",
      blocking: opts.requireOracles,
      reason: opts.requireOracles
        ? "no oracle, and oracles are required (--require-oracles)"
        : "no oracle: a reviewer decides",
    };
  }
  if (results.length < criterion.checks.length) {
    // Fail closed: a check without a result is a check that did not run.
    return { status: "error", blocking: true, reason: "check did not run" };
  }
  const partial = results.find((r) => r.result === "partial");
  if (partial) return { status: "error", blocking: true, reason: partial.reason };
  const missing = results.find((r) => r.failureReason === "verification-evidence-missing");
  if (missing) return { status: "evidence-missing", blocking: true, reason: missing.reason };
  const failed = results.find((r) => r.result === "fail");
  if (failed) return { status: "unmet", blocking: true, reason: failed.reason };
  return { status: "met", blocking: false, reason: results.map((r) => r.reason).join("; ") };
}

function summarise(results: readonly CheckResult[]): string {
  return results.map((r) => (r.result === "pass" ? `met, ${r.reason}` : r.reason)).join("; ");
}

/** Outcome of a contract that was refused before anything ran. */
export function refusedOutcome(
  contract: Contract,
  why: "invalid" | "drifted" | "aborted",
): ContractOutcome {
  const errors = contract.problems.filter((p) => p.severity === "error").length;
  const reason =
    why === "aborted"
      ? "not run: the contract's status is aborted"
      : why === "drifted"
        ? "not run: the contract drifted from its plan"
        : `not run: the contract is invalid (${errors} error${errors === 1 ? "" : "s"})`;
  return {
    path: contract.path,
    kind: contract.kind,
    verdict: why,
    problems: contract.problems,
    criteria: contract.criteria.map((c) => ({
      ...criterionBase(c),
      status: "not-run",
      blocking: why !== "aborted",
      reason,
      checks: [],
    })),
  };
}

export function criterionBase(
  c: Criterion,
): Pick<CriterionOutcome, "id" | "title" | "group" | "location"> {
  const base: Pick<CriterionOutcome, "id" | "title" | "group" | "location"> = {
    id: c.id,
    title: c.title,
    location: { path: c.location.path, line: c.location.line },
  };
  if (c.group !== undefined) base.group = c.group;
  return base;
}

/**
 * Contract verdict from its criteria: `fail` when a criterion blocks for a
 * reason other than abandonment (that needs a dev loop), else `abandoned` when
 * any criterion is abandoned (that needs a human), else `neutral` when a
 * command was not run (skipped is never green) or a requirement awaits its
 * proof, else `pass`.
 */
export function contractVerdict(criteria: readonly CriterionOutcome[]): ContractVerdict {
  if (criteria.some((c) => c.blocking && c.status !== "abandoned")) return "fail";
  if (criteria.some((c) => c.status === "abandoned")) return "abandoned";
  // A requirement awaiting its proof is not met: the contract is never green for it.
  if (criteria.some((c) => c.status === "not-run" || c.status === "awaiting-proof"))
    return "neutral";
  return "pass";
}

/**
 * Commands the trust policy did not run (`untrusted-commands: skip`): the
 * checks of not-run criteria in contracts that otherwise ran. Refused
 * contracts (invalid, drifted, aborted) ran nothing for their own reasons.
 */
export function skippedCommands(contracts: readonly ContractOutcome[]): number {
  let n = 0;
  for (const c of contracts) {
    if (c.verdict !== "neutral") continue;
    for (const k of c.criteria) {
      if (k.status !== "not-run") continue;
      n += k.checks.filter((x) => x.type === "command-exit" || x.type === "oracle").length;
    }
  }
  return n;
}

export type StatusCounts = Record<CriterionStatus, number>;

export interface RunSummary {
  conclusion: Conclusion;
  counts: StatusCounts & { criteria: number; blocking: number; contracts: number };
}

/**
 * Overall conclusion: failure if anything blocks; neutral when nothing ran
 * (no contracts, or every one aborted: success needs something that ran and
 * was met) or when a contract is neutral (a command was not run); else
 * success. An aborted contract beside others that ran leaves their
 * conclusion alone.
 */
export function summariseRun(contracts: readonly ContractOutcome[]): RunSummary {
  const counts = Object.fromEntries(CRITERION_STATUSES.map((s) => [s, 0])) as StatusCounts;
  let blocking = 0;
  let criteria = 0;
  for (const c of contracts) {
    for (const k of c.criteria) {
      counts[k.status]++;
      criteria++;
      if (k.blocking) blocking++;
    }
  }
  // A contract can block with no criteria at all (e.g. unreadable, or no criteria parsed).
  const contractBlocks = contracts.some(
    (c) => (c.verdict === "invalid" || c.verdict === "drifted") && c.criteria.length === 0,
  );
  const conclusion: Conclusion =
    blocking > 0 || contractBlocks
      ? "failure"
      : contracts.every((c) => c.verdict === "aborted") ||
          contracts.some((c) => c.verdict === "neutral")
        ? "neutral"
        : "success";
  return { conclusion, counts: { ...counts, criteria, blocking, contracts: contracts.length } };
}

/** Blocking findings that no approval acknowledges: they fail the gate. */
export function unacknowledged(report: IntegrityReport | undefined): Finding[] {
  if (!report?.applies || report.approval) return [];
  return report.findings.filter((f) => f.blocking);
}

/** The gate's conclusion: the run's, turned to failure by unacknowledged blocking findings. */
export function gateConclusion<C extends string>(
  conclusion: C,
  report: IntegrityReport | undefined,
): C | "failure" {
  return unacknowledged(report).length > 0 ? "failure" : conclusion;
}

/** The run summary with the gate's conclusion (see `gateConclusion`). */
export function withIntegrity<S extends { conclusion: string }>(
  summary: S,
  report: IntegrityReport | undefined,
): S {
  return unacknowledged(report).length > 0 ? { ...summary, conclusion: "failure" } : summary;
}
