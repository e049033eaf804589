import {
  emptyPlanHeader,
  type Location,
  type PlanHeader,
  type PlanTaskSummary,
} from "../../model/contract.js";
import type { JsonDocument } from "../json/document.js";
import { field, isObject, type RawParts, rawParts } from "../json/raw.js";
import { phaseFiles } from "../kinds/phase-files.js";

/**
 * The header, read defensively from the raw JSON: each field is filled in
 * when it has the right type, so an invalid contract still reports what it
 * can (the drift module needs the hash even when a task is malformed).
 */
export function buildHeader(
  doc: JsonDocument,
  path: string,
  parts: RawParts = rawParts(doc.value),
): PlanHeader {
  const header = emptyPlanHeader(path);
  header.sourcePlanHashLocation = doc.valueAt([]);
  const root = doc.value;
  if (!isObject(root)) return header;

  const version = field(root, "version");
  const phase = field(root, "phase");
  const goal = field(root, "goal");
  const generatedBy = field(root, "generated_by");
  const hash = field(root, "source_plan_hash");
  if (typeof version === "number") header.version = version;
  if (typeof phase === "number") header.phase = phase;
  if (typeof goal === "string") header.goal = goal;
  if (typeof generatedBy === "string") header.generatedBy = generatedBy;
  if (typeof hash === "string") {
    header.sourcePlanHash = hash;
    header.sourcePlanHashLocation = doc.valueAt(["source_plan_hash"]);
  }

  // Paired by file name only (see file-name.ts); a contract of another name has no plan.
  const plan = phaseFiles(path)?.plan;
  if (plan !== undefined) header.planPath = plan;

  const tasks: PlanTaskSummary[] = [];
  // Indexed loops here and in the rules: they run for every task of every
  // contract, mostly before the JIT has optimised them, when for-of pays for
  // an iterator and a result object per step.
  for (let t = 0; t < parts.tasks.length; t++) {
    const task = parts.tasks[t]!;
    const id = field(task.value, "id");
    const title = field(task.value, "title");
    const wave = field(task.value, "wave");
    if (typeof id !== "string" || typeof title !== "string" || typeof wave !== "number") continue;
    const location: Location = doc.valueAt(task.path);
    const dependsOn = strings(field(task.value, "depends_on"));
    tasks.push({ id, title, wave, dependsOn, location });
  }
  header.tasks = tasks;
  header.successCriteria = strings(field(root, "success_criteria"));
  return header;
}

/** The string entries of a list (none when it is not a list). */
function strings(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  let all = true;
  for (let i = 0; i < list.length && all; i++) all = typeof list[i] === "string";
  // Usually every entry is a string: copy at the exact size instead of growing by push.
  if (all) return list.slice() as string[];
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const value: unknown = list[i];
    if (typeof value === "string") out.push(value);
  }
  return out;
}
