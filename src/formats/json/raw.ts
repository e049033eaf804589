import type { JsonPath } from "./path.js";

/**
 * Defensive access to the raw parsed JSON. The rules run on this rather than on
 * zod's output so that a contract with a schema error in one task still gets
 * every rule checked on the parts that are well-typed: one pass, all problems.
 * Only own properties are read, so keys like `constructor` or `__proto__`
 * never reach into prototypes.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function field(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** A value found in the raw JSON, with the path that locates it. */
export interface Located<T> {
  value: T;
  path: JsonPath;
}

/** The object entries of an array field, of its first `limit` entries. */
export function objectEntries(
  obj: JsonObject,
  key: string,
  base: JsonPath,
  limit = Number.POSITIVE_INFINITY,
): Located<JsonObject>[] {
  const list = field(obj, key);
  if (!Array.isArray(list)) return [];
  // Plain loop and exact-size paths: tasks and checks are listed for every document.
  const out: Located<JsonObject>[] = [];
  const end = Math.min(list.length, limit);
  for (let i = 0; i < end; i++) {
    const value: unknown = list[i];
    if (isObject(value)) out.push({ value, path: childPath(base, key, i) });
  }
  return out;
}

/** `[...base, key, index]`, allocated at its final size. */
function childPath(base: JsonPath, key: string, index: number): JsonPath {
  if (base.length === 0) return [key, index];
  if (base.length === 2) return [base[0]!, base[1]!, key, index];
  return [...base, key, index];
}

/** A string field with its path, or undefined when absent or not a string. */
export function stringField(
  obj: JsonObject,
  key: string,
  base: JsonPath,
): Located<string> | undefined {
  const value = field(obj, key);
  return typeof value === "string" ? { value, path: [...base, key] } : undefined;
}

/**
 * The tasks and each task's checks, listed once per document: the header,
 * the rules and the criteria all walk them, and only read these lists.
 */
export interface RawParts {
  tasks: readonly Located<JsonObject>[];
  /** `checks[i]` are the checks of `tasks[i]`. */
  checks: readonly (readonly Located<JsonObject>[])[];
}

/**
 * `unchecked`: entries at the end of lists that the schema did not check
 * (see `uncheckedCounts`), which are left out here too.
 */
export function rawParts(
  root: unknown,
  unchecked: ReadonlyMap<string, number> = new Map(),
): RawParts {
  if (!isObject(root)) return { tasks: [], checks: [] };
  const limit = (key: string, list: unknown) =>
    Array.isArray(list) ? list.length - (unchecked.get(key) ?? 0) : 0;
  const tasks = objectEntries(root, "tasks", [], limit("tasks", field(root, "tasks")));
  const checks = tasks.map((task) => {
    const key = `tasks/${task.path[1]}/verification`;
    const max = unchecked.size === 0 ? undefined : limit(key, field(task.value, "verification"));
    return objectEntries(task.value, "verification", task.path, max);
  });
  return { tasks, checks };
}

/** The check's `type` when it is one of the strings we know how to read. */
export function checkType(check: JsonObject): string | undefined {
  const type = field(check, "type");
  return typeof type === "string" ? type : undefined;
}
