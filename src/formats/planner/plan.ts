import type { Contract } from "../../model/contract.js";
import { parseJsonKind } from "../json/kind-read.js";
import { readPlan } from "./read-plan.js";
import { referenceProblems } from "./refs.js";
import { testCriteria } from "./tests.js";

/**
 * Parse and validate the planner's `plan.json` (002): its schema, tolerant
 * where real plans are (unknown keys warn), unique ids, resolving
 * cross-references, one wave per milestone; each milestone test is a
 * criterion (none at all: `nothing-to-gate`, a warning). Pure and total: never throws.
 */
export function parsePlannerPlan(path: string, bytes: Uint8Array): Contract {
  return parseJsonKind("planner-plan", path, bytes, (sink, root) => {
    const parts = readPlan(sink, root);
    referenceProblems(sink, parts);
    const criteria = testCriteria(sink, parts.milestones);
    // A plan with no milestone tests passes with nothing checked: say so, rather than a silent green.
    if (criteria.length === 0) {
      const n = parts.milestones.length;
      sink.report(
        "nothing-to-gate",
        n === 0 ? [] : ["milestones"],
        `nothing to gate in this plan: ${n === 0 ? "it has no milestone" : `none of its ${n} milestone${n === 1 ? "" : "s"} lists a test`}`,
      );
    }
    return { criteria };
  });
}
