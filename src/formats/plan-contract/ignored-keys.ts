import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import type { JsonDocument } from "../json/document.js";
import { formatPath, type JsonPath } from "../json/path.js";
import { checkType, field, isObject, type JsonObject } from "../json/raw.js";
import { CHECK_TYPES, DEFAULT_TIMEOUT_MS, KEYS } from "./schema.js";

/**
 * The upstream generator writes every check with the keys of every check
 * type, the foreign ones left empty or at their default: a `file-exists`
 * check carrying `"pattern": ""` and `"expect": "present"`. Its runner
 * ignores them, and so do we, with a warning (`ignored-key`). A foreign key
 * with any other value stays an `unknown-key` error: `"expect": "absent"` on
 * a `file-exists` check reads as an assertion the check would not make.
 */

/** Values the generator leaves in a foreign key, besides "" and []. */
const DEFAULTS: Readonly<Record<string, unknown>> = {
  expect: "present",
  expected_exit: 0,
  timeout_ms: DEFAULT_TIMEOUT_MS,
};

/** The values a foreign `key` is ignored at (for the JSON Schema export). */
export function ignorableValues(key: string): unknown[] {
  return ["", [], ...(Object.hasOwn(DEFAULTS, key) ? [DEFAULTS[key]] : [])];
}

/** Each check key with the check types that define it. */
const OWNERS = new Map<string, string[]>();
for (const type of CHECK_TYPES) {
  for (const key of KEYS.check[type]) OWNERS.set(key, [...(OWNERS.get(key) ?? []), type]);
}

/** The check types that define `key`; undefined when none does. */
export function checkKeyOwners(key: string): readonly string[] | undefined {
  return OWNERS.get(key);
}

/** Whether `key` with `value` on a check of `type` is a foreign key at its empty or default value. */
function isIgnorable(type: string, key: string, value: unknown): boolean {
  const owners = OWNERS.get(key);
  if (owners === undefined || owners.includes(type)) return false;
  if (value === "" || (Array.isArray(value) && value.length === 0)) return true;
  return Object.hasOwn(DEFAULTS, key) && DEFAULTS[key] === value;
}

/** A key left out of the schema's view, where it was. */
interface IgnoredKey {
  /** Path of the key itself (the check's path plus the key). */
  path: JsonPath;
  type: string;
}

/**
 * The contract as the schema and the rules should read it: `root` with the
 * ignorable keys removed from every check, copying only the objects and
 * lists on the way to a check that has one (usually none: `root` itself).
 */
export function withoutIgnoredKeys(root: unknown): { value: unknown; ignored: IgnoredKey[] } {
  const ignored: IgnoredKey[] = [];
  if (!isObject(root)) return { value: root, ignored };
  const tasks = field(root, "tasks");
  if (!Array.isArray(tasks)) return { value: root, ignored };
  let newTasks: unknown[] | undefined;
  for (let t = 0; t < tasks.length; t++) {
    const task: unknown = tasks[t];
    if (!isObject(task)) continue;
    const checks = field(task, "verification");
    if (!Array.isArray(checks)) continue;
    let newChecks: unknown[] | undefined;
    for (let k = 0; k < checks.length; k++) {
      const check: unknown = checks[k];
      if (!isObject(check)) continue;
      const cleaned = withoutForeignKeys(check, ["tasks", t, "verification", k], ignored);
      if (cleaned === check) continue;
      newChecks ??= checks.slice();
      newChecks[k] = cleaned;
    }
    if (newChecks === undefined) continue;
    newTasks ??= tasks.slice();
    newTasks[t] = { ...task, verification: newChecks };
  }
  return { value: newTasks ? { ...root, tasks: newTasks } : root, ignored };
}

function withoutForeignKeys(check: JsonObject, path: JsonPath, ignored: IgnoredKey[]): JsonObject {
  const type = checkType(check);
  if (type === undefined || !Object.hasOwn(KEYS.check, type)) return check;
  let copy: JsonObject | undefined;
  for (const key of Object.keys(check)) {
    if (!isIgnorable(type, key, check[key])) continue;
    copy ??= { ...check };
    delete copy[key];
    ignored.push({ path: [...path, key], type });
  }
  return copy ?? check;
}

/** One `ignored-key` warning per removed key, at the key. */
export function ignoredKeyProblems(doc: JsonDocument, ignored: readonly IgnoredKey[]): Problem[] {
  return ignored.map(({ path, type }) => {
    const key = String(path[path.length - 1]);
    const owners = OWNERS.get(key)!.join(" and ");
    return problem(
      "ignored-key",
      doc.keyAt(path),
      `${formatPath(path.slice(0, -1))}: ${JSON.stringify(key)} belongs to ${owners} checks; on a ${type} check it is ignored`,
      {
        hint: "remove it: generators leave it at its empty or default value on every check; any other value there is an error (unknown-key)",
      },
    );
  });
}
