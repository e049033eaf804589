import type { Contract } from "../../model/contract.js";
import { parseJsonKind } from "../json/kind-read.js";
import { readPlan } from "./read-plan.js";
import { referenceProblems } from "./refs.js";
import { testCriteria } from "./tests.js";

/**
 * Parse and validate the planner's `plan.json` (002): its schema, tolerant
 * where real plans are (unknown keys warn), unique ids, resolving
 * cross-references, one wave per milestone; each milestone test is a
 * criterion. Pure and total: never throws.
 */
export function parsePlannerPlan(path: string, bytes: Uint8Array): Contract {
  return parseJsonKind("planner-plan", path, bytes, (sink, root) => {
    const parts = readPlan(sink, root);
    referenceProblems(sink, parts);
    return { criteria: testCriteria(sink, parts.milestones) };
  });
}
