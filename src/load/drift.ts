import { HASH_FORMAT, planHash } from "../formats/plan-hash.js";
import type { DriftState, Location, PlanHeader, Problem } from "../model/contract.js";
import { problem } from "../model/problems.js";

export interface DriftResult {
  state: DriftState;
  problems: Problem[];
}

/**
 * Compare a plan contract's `source_plan_hash` with its plan's bytes (`undefined`
 * when the plan file does not exist, or when the contract's name pairs it with
 * no plan). Pure: the caller reads the plan.
 */
export function checkDrift(header: PlanHeader, planBytes: Uint8Array | undefined): DriftResult {
  const at: Location = header.sourcePlanHashLocation;
  const recorded = header.sourcePlanHash;
  const plan = header.planPath ?? "its plan";
  if (recorded === undefined || recorded === "") {
    return {
      state: "disabled",
      problems: [
        problem(
          "drift-check-disabled",
          at,
          `source_plan_hash is ${recorded === undefined ? "absent" : "empty"}: drift check disabled, so edits to ${plan} go unnoticed`,
          { hint: `run \`contract-gate refresh-hash <contract>\` to record the plan's hash` },
        ),
      ],
    };
  }
  if (!HASH_FORMAT.test(recorded)) {
    return {
      state: "invalid-hash",
      problems: [
        problem(
          "invalid-plan-hash",
          at,
          `source_plan_hash "${recorded}" is not sha256:<64 lowercase hex digits>`,
          {
            hint: "run `contract-gate refresh-hash <contract>` to write a well-formed hash",
          },
        ),
      ],
    };
  }
  if (planBytes === undefined && header.planPath === undefined) {
    return {
      state: "plan-missing",
      problems: [
        problem(
          "plan-missing",
          at,
          "source_plan_hash is set but no plan pairs with this contract: plans pair by file name, phase-<name>-contract.json with phase-<name>-plan.md",
          {
            hint: `rename the contract to phase-<name>-contract.json beside its phase-<name>-plan.md, or set source_plan_hash to "" if it has no plan`,
          },
        ),
      ],
    };
  }
  if (planBytes === undefined) {
    return {
      state: "plan-missing",
      problems: [
        problem("plan-missing", at, `source_plan_hash is set but the plan ${plan} does not exist`, {
          hint: `restore ${plan}, or set source_plan_hash to "" if this contract has no plan`,
        }),
      ],
    };
  }
  const actual = planHash(planBytes);
  if (actual === recorded) return { state: "match", problems: [] };
  return {
    state: "drifted",
    problems: [
      problem(
        "plan-drift",
        at,
        `${plan} drifted from the contract: contract records ${recorded}, plan hashes to ${actual}`,
        {
          hint: "review the plan change, update the contract to match, then run `contract-gate refresh-hash <contract>`",
        },
      ),
    ],
  };
}
