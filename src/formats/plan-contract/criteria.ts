import type { Check, Criterion, Location } from "../../model/contract.js";
import type { JsonDocument } from "../json/document.js";
import { field, type JsonObject, type Located, type RawParts, rawParts } from "../json/raw.js";
import { truncate } from "../json/wording.js";
import { checkProblems } from "./check-rules.js";
import {
  CheckSchema,
  type CheckV1,
  DEFAULT_TIMEOUT_MS,
  type PlanContractV1,
  type TaskV1,
} from "./schema.js";

const TITLE_LIMIT = 100;

/**
 * One criterion per verification check, id `T<n>.<k>` (k is the 1-based index
 * in `verification`, so ids do not shift when a sibling check is broken).
 * A check becomes a criterion only when it passes the schema and every
 * check-level rule: the model never carries a check that could not run
 * safely. Tasks without a string id, and repeats of an id, give none.
 */
export function buildCriteria(doc: JsonDocument, known: KnownResults = {}): Criterion[] {
  const criteria: Criterion[] = [];
  const seenIds = new Set<string>();
  const { tasks, checks } = known.parts ?? rawParts(doc.value);
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t]!;
    const taskId = field(task.value, "id");
    if (typeof taskId !== "string" || seenIds.has(taskId)) continue;
    seenIds.add(taskId);
    const taskIndex = task.path[1] as number;
    const taskChecks = checks[t]!;
    for (let k = 0; k < taskChecks.length; k++) {
      const check = taskChecks[k]!;
      const data = schemaChecked(check, known.contract?.tasks[taskIndex]);
      if (data === undefined) continue;
      const hasProblems = known.flagged
        ? known.flagged.has(check.value)
        : checkProblems(doc, check).length > 0;
      if (hasProblems) continue;
      const index = (check.path[check.path.length - 1] as number) + 1;
      const location = doc.valueAt(check.path);
      criteria.push({
        id: `${taskId}.${index}`,
        title: truncate(checkTitle(data), TITLE_LIMIT),
        location,
        checks: [toModelCheck(data, location)],
        group: taskId,
      });
    }
  }
  return criteria;
}

/** Results the caller already has for this document, so they are not computed twice. */
export interface KnownResults {
  /** The schema's output for the whole document, when it passed. */
  contract?: PlanContractV1 | undefined;
  /** The checks with check-level problems, from `ruleProblems` run on the same `parts`. */
  flagged?: ReadonlySet<JsonObject> | undefined;
  /** The document's tasks and checks, as `rawParts` lists them. */
  parts?: RawParts | undefined;
}

/**
 * The check as the schema reads it, or undefined when it fails the schema.
 * When the whole contract passed, every check did: its output is reused.
 */
function schemaChecked(check: Located<JsonObject>, task: TaskV1 | undefined): CheckV1 | undefined {
  const index = check.path[check.path.length - 1] as number;
  const known = task?.verification[index];
  if (known !== undefined) return known;
  const parsed = CheckSchema.safeParse(check.value);
  return parsed.success ? parsed.data : undefined;
}

/** A one-line human title, e.g. `grep-match signInWithPassword in src/lib/auth.ts (present)`. */
export function checkTitle(check: CheckV1): string {
  switch (check.type) {
    case "file-exists":
      return `file-exists ${check.path}`;
    case "grep-match":
      return `grep-match ${check.pattern} in ${check.path} (${check.expect})`;
    case "command-exit": {
      let title = `command-exit ${shellish(check.command)}`;
      for (let i = 0; i < check.args.length; i++) title += ` ${shellish(check.args[i]!)}`;
      return title;
    }
    case "behavioral":
      return `behavioral: ${check.description}`;
  }
}

const NEEDS_QUOTES = /[\s"'\\]/u;

/** Show an argument so word boundaries stay visible; quoting is for display only. */
function shellish(arg: string): string {
  return arg === "" || NEEDS_QUOTES.test(arg) ? JSON.stringify(arg) : arg;
}

/** snake_case JSON → the camelCase model, optional keys only when present. */
export function toModelCheck(check: CheckV1, location: Location): Check {
  switch (check.type) {
    case "file-exists": {
      const out: Check = { type: "file-exists", location, path: check.path };
      if (check.must_contain !== undefined) out.mustContain = check.must_contain;
      return out;
    }
    case "grep-match":
      return {
        type: "grep-match",
        location,
        path: check.path,
        pattern: check.pattern,
        expect: check.expect,
      };
    case "command-exit": {
      const out: Check = {
        type: "command-exit",
        location,
        command: check.command,
        args: check.args.slice(),
        expectedExit: check.expected_exit,
        timeoutMs: check.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      };
      if (check.cwd !== undefined) out.cwd = check.cwd;
      if (check.expect_stdout_match !== undefined)
        out.expectStdoutMatch = check.expect_stdout_match;
      return out;
    }
    case "behavioral":
      return {
        type: "behavioral",
        location,
        description: check.description,
        evidenceRequired: check.evidence_required.map((e) =>
          e.matcher === undefined
            ? { path: e.path, description: e.description }
            : { path: e.path, matcher: e.matcher, description: e.description },
        ),
      };
  }
}
