import type { Contract } from "./contract.js";

/** Errors that mean "the plan moved", as opposed to "the contract is malformed". */
const DRIFT_CODES = new Set(["plan-drift", "plan-missing", "invalid-plan-hash"]);

/**
 * Why a contract must not run at all, or undefined when it may. Invalid wins
 * over aborted: a malformed file cannot be trusted to say it was aborted.
 * Here in the model, not in verdict.ts, because integrity asks it too: a
 * successor that is refused keeps none of the criteria it supersedes.
 */
export function refusal(contract: Contract): "invalid" | "drifted" | "aborted" | undefined {
  const errors = contract.problems.filter((p) => p.severity === "error");
  if (errors.length > 0)
    return errors.every((p) => DRIFT_CODES.has(p.code)) ? "drifted" : "invalid";
  if (
    contract.header.kind === "oracle-contract" &&
    contract.header.status?.toLowerCase() === "aborted"
  ) {
    return "aborted";
  }
  return undefined;
}
