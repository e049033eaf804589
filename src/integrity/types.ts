import { CONTRACT_KINDS, type ContractKind } from "../model/contract.js";
import { FINDING_CODES, type FindingCode } from "./finding-codes.js";

/**
 * Every kind is compared with the base; which changes are findings depends on
 * the kind (see `compareContracts`). `undefined` for a path of no known kind.
 */
export function comparedKind(kind: string | undefined): ContractKind | undefined {
  return CONTRACT_KINDS.find((k) => k === kind);
}

/**
 * One change a pull request makes to a contract, judged against the
 * contract's version at the merge base. `path`/`line` is where to point:
 * the head file, or line 1 of the base path when the file is gone.
 */
export interface Finding {
  code: FindingCode;
  blocking: boolean;
  /** The contract as the PR leaves it (its base path when it is gone). */
  contract: string;
  /** `pull-request` for a finding about the PR itself (`shared-head-other-base`), not one contract. */
  kind: ContractKind | "pull-request";
  path: string;
  line: number;
  /** What changed, e.g. `criterion 2` or `T1 check 2 (grep-match) expect`. */
  subject: string;
  message: string;
  /** The base text and the head text; `undefined` when that side has none. */
  before?: string;
  after?: string;
}

export function finding(f: Omit<Finding, "blocking">): Finding {
  return { ...f, blocking: FINDING_CODES[f.code].blocking };
}

/** Who acknowledged the blocking findings: an approving review on the current head. */
export interface Approval {
  login: string;
  reviewUrl: string;
}

/**
 * The comparison with the PR's base: `applies: false` (no PR base: push,
 * dispatch without a PR) says why; otherwise the merge base and findings.
 */
export type IntegrityReport =
  | { applies: false; reason: string }
  | {
      applies: true;
      /** The merge base the contracts were compared with. */
      base: string;
      findings: Finding[];
      /** Set when an approving review acknowledges the blocking findings. */
      approval?: Approval;
      /** Why no approval counted (shown beside unacknowledged blocking findings). */
      approvalNote?: string;
    };

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Blocking first, then by contract, line and code: the order of every surface (locale-free). */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      Number(b.blocking) - Number(a.blocking) ||
      byCodePoint(a.contract, b.contract) ||
      a.line - b.line ||
      byCodePoint(a.code, b.code),
  );
}

/**
 * Whether another open PR shares the head commit with another base
 * (`shared-head-other-base`): no approval unblocks that, so no surface says one would.
 */
export function sharesHead(report: IntegrityReport | undefined): boolean {
  return (
    report?.applies === true && report.findings.some((f) => f.code === "shared-head-other-base")
  );
}
