import type { Contract } from "../../model.js";
import { done, readJsonKind } from "../json-kind-read.js";
import { JsonSink } from "../json-sink.js";
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
  const read = readJsonKind("planner-plan", path, bytes);
  if (read.doc === undefined) return read.contract;
  const sink = new JsonSink(read.doc);
  const root = sink.object(read.doc.value, []);
  if (root === undefined)
    return done("planner-plan", path, [], [...read.problems, ...sink.problems]);
  const parts = readPlan(sink, root);
  referenceProblems(sink, parts);
  const criteria = testCriteria(sink, parts.milestones);
  return done("planner-plan", path, criteria, [...read.problems, ...sink.problems]);
}
