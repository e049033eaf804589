import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import type { JsonDocument } from "../json/document.js";
import { field, isObject, type JsonObject, type RawParts, rawParts } from "../json/raw.js";
import { checkProblems } from "./check-rules.js";
import { SCHEMA_VERSION } from "./schema.js";
import { dependencyProblems } from "./task-graph.js";
import { taskIdProblems, taskProblems } from "./task-rules.js";

/**
 * A `version` we do not read, as one problem. Another version's shape may
 * differ anywhere, so judging it by v1 would only bury this message under
 * noise; when this returns a problem nothing else is validated.
 */
export function unsupportedVersion(doc: JsonDocument): Problem | undefined {
  if (!isObject(doc.value)) return undefined;
  const version = field(doc.value, "version");
  if (typeof version !== "number" || version === SCHEMA_VERSION) return undefined;
  return problem(
    "unsupported-version",
    doc.valueAt(["version"]),
    `version ${version} is not supported; contract-gate reads version ${SCHEMA_VERSION}`,
    {
      hint: "regenerate the contract as version 1, or use a contract-gate that reads this version",
    },
  );
}

/**
 * The checks (of `parts`) that have check-level problems: every other check
 * of `parts` was looked at and has none. Usually empty, so it costs nothing.
 */
export type FlaggedChecks = Set<JsonObject>;

/**
 * Every rule of the format, run on the raw JSON so schema errors elsewhere
 * hide nothing. `flagged`, when given, collects the checks that had
 * problems, so the criteria builder need not run the check rules again;
 * `parts` are the document's tasks and checks when the caller has listed
 * them already.
 */
export function ruleProblems(
  doc: JsonDocument,
  phaseDigits: string | undefined,
  flagged?: FlaggedChecks,
  parts: RawParts = rawParts(doc.value),
): Problem[] {
  const root = doc.value;
  if (!isObject(root)) return [];
  const tasks = parts.tasks;
  const problems: Problem[] = [...taskIdProblems(doc, tasks), ...dependencyProblems(doc, tasks)];
  for (let t = 0; t < tasks.length; t++) {
    // Loops, not push(...spread): one task can yield more problems than a call has arguments.
    append(problems, taskProblems(doc, tasks[t]!));
    const checks = parts.checks[t]!;
    for (let k = 0; k < checks.length; k++) {
      const found = checkProblems(doc, checks[k]!);
      if (found.length > 0) flagged?.add(checks[k]!.value);
      append(problems, found);
    }
  }

  // A contract with nothing to check would pass while asserting nothing.
  const taskList = field(root, "tasks");
  if (Array.isArray(taskList)) {
    let checkCount = 0;
    for (let t = 0; t < parts.checks.length; t++) checkCount += parts.checks[t]!.length;
    if (checkCount === 0) {
      problems.push(
        problem(
          "no-criteria",
          doc.valueAt(["tasks"]),
          taskList.length === 0
            ? "tasks is empty; a phase contract with no tasks checks nothing and would always pass"
            : "no task has a verification check; this contract checks nothing and would always pass",
          { hint: "add tasks with at least one check each" },
        ),
      );
    }
  }

  // Rule 9: a phase with no user-facing truth has nothing to be done against.
  const successCriteria = field(root, "success_criteria");
  if (Array.isArray(successCriteria) && successCriteria.length === 0) {
    problems.push(
      problem(
        "no-success-criteria",
        doc.valueAt(["success_criteria"]),
        "success_criteria is empty; a phase needs at least one success criterion",
        { hint: "list what is true for users when this phase is done" },
      ),
    );
  }

  const phase = field(root, "phase");
  // A phase that is not a positive integer is already a schema error.
  const validPhase = Number.isSafeInteger(phase) && (phase as number) > 0;
  if (phaseDigits !== undefined && validPhase && phase !== Number(phaseDigits)) {
    problems.push(
      problem(
        "phase-mismatch",
        doc.valueAt(["phase"]),
        `phase is ${phase} but the file is named phase-${phaseDigits}-contract.json`,
        { hint: "rename the file or correct phase, so tools find the right plan" },
      ),
    );
  }
  return problems;
}

/** `to.push(...from)` without the argument limit (and without an iterator). */
function append(to: Problem[], from: readonly Problem[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]!);
}
