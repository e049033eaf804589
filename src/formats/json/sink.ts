import type { Location, Problem, Severity } from "../../model/contract.js";
import type { ProblemCode } from "../../model/problem-codes.js";
import { problem } from "../../model/problems.js";
import { MAX_LISTED_ISSUES } from "./bounded-list.js";
import type { JsonDocument } from "./document.js";
import { formatPath, type JsonPath } from "./path.js";
import { typeHint } from "./zod-problems.js";

export type JsonObject = Record<string, unknown>;

/** A value found in the parsed JSON, with the path that locates it. */
export interface At<T> {
  value: T;
  path: JsonPath;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own properties only: keys such as `__proto__` never reach into prototypes. */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Typed reads of a parsed JSON document that report, at the exact key or
 * value, whatever does not have the expected type. Every read is one look at
 * one value, so a walk over a document stays linear in its size; positions
 * are resolved only for values that have a problem (or become criteria).
 */
export class JsonSink {
  readonly problems: Problem[] = [];
  constructor(readonly doc: JsonDocument) {}

  at(path: JsonPath): Location {
    return this.doc.valueAt(path);
  }

  /** A problem at the value (`key: false`) or the key (`key: true`) at `path`. */
  report(
    code: ProblemCode,
    path: JsonPath,
    message: string,
    opts: { hint?: string; severity?: Severity; key?: boolean } = {},
  ): void {
    const where = opts.key ? this.doc.keyAt(path) : this.doc.valueAt(path);
    const extra: { hint?: string; severity?: Severity } = {};
    if (opts.hint !== undefined) extra.hint = opts.hint;
    if (opts.severity !== undefined) extra.severity = opts.severity;
    this.problems.push(problem(code, where, message, extra));
  }

  /** `obj[key]` when present; a `missing-key` problem (at the object) when required and absent. */
  private present(obj: JsonObject, key: string, base: JsonPath, required: boolean) {
    if (Object.hasOwn(obj, key)) return { found: true as const, value: obj[key] };
    if (required) {
      this.report("missing-key", base, `${where(base)} has no \`${key}\``, {
        hint: `add "${key}"`,
      });
    }
    return { found: false as const };
  }

  private wrongType(path: JsonPath, expected: string, value: unknown): void {
    this.report(
      "wrong-type",
      path,
      `${formatPath(path)} must be ${expected}, got ${typeName(value)}`,
      { hint: typeHint(expected, value) },
    );
  }

  /** A string field; `null` is accepted (and read as absent) when `nullable`. */
  string(
    obj: JsonObject,
    key: string,
    base: JsonPath,
    opts: { required?: boolean; nullable?: boolean } = {},
  ): At<string> | undefined {
    const got = this.present(obj, key, base, opts.required ?? true);
    if (!got.found) return undefined;
    const path = [...base, key];
    if (typeof got.value === "string") return { value: got.value, path };
    if (got.value === null && opts.nullable) return undefined;
    this.wrongType(path, opts.nullable ? "a string or null" : "a string", got.value);
    return undefined;
  }

  /**
   * `string` for a field whose value nothing else reads: the type is checked
   * and a path built only for a problem (most fields of a valid file are
   * prose no rule looks at, and a walk over them should allocate nothing).
   */
  text(
    obj: JsonObject,
    key: string,
    base: JsonPath,
    opts: { required?: boolean; nullable?: boolean } = {},
  ): void {
    const value = obj[key];
    if (typeof value === "string" && Object.hasOwn(obj, key)) return;
    this.string(obj, key, base, opts);
  }

  /** `strings` for a list nothing else reads: entries checked, nothing allocated when all are strings. */
  textList(obj: JsonObject, key: string, base: JsonPath, required = true): void {
    const value = obj[key];
    if (
      Array.isArray(value) &&
      Object.hasOwn(obj, key) &&
      value.every((v) => typeof v === "string")
    ) {
      return;
    }
    this.strings(obj, key, base, required);
  }

  /** An array field's entries (absent: none, and `missing-key` when required). */
  array(obj: JsonObject, key: string, base: JsonPath, required = true): At<unknown>[] {
    const got = this.present(obj, key, base, required);
    if (!got.found) return [];
    const path = [...base, key];
    if (!Array.isArray(got.value)) {
      this.wrongType(path, "an array", got.value);
      return [];
    }
    const out: At<unknown>[] = new Array(got.value.length);
    for (let i = 0; i < got.value.length; i++) out[i] = { value: got.value[i], path: [...path, i] };
    return out;
  }

  /** An array of strings; entries of another type are reported and left out. */
  strings(obj: JsonObject, key: string, base: JsonPath, required = true): At<string>[] {
    const out: At<string>[] = [];
    for (const item of this.array(obj, key, base, required)) {
      if (typeof item.value === "string") out.push(item as At<string>);
      else this.wrongType(item.path, "a string", item.value);
    }
    return out;
  }

  /** An array of objects; entries of another type are reported and left out. */
  objects(obj: JsonObject, key: string, base: JsonPath, required = true): At<JsonObject>[] {
    const out: At<JsonObject>[] = [];
    for (const item of this.array(obj, key, base, required)) {
      if (isObject(item.value)) out.push(item as At<JsonObject>);
      else this.wrongType(item.path, "an object", item.value);
    }
    return out;
  }

  /** The object at `path`, or a `wrong-type` problem. */
  object(value: unknown, path: JsonPath): JsonObject | undefined {
    if (isObject(value)) return value;
    this.wrongType(path, "an object", value);
    return undefined;
  }

  /**
   * Keys of `obj` outside `allowed`, each reported at its key: the first
   * MAX_LISTED_ISSUES one by one, the rest counted in one more problem at the
   * object, as the contract schema's unknown keys are (a 1 MiB object can
   * hold 10^5 keys; a list that long helps nobody, and costs).
   */
  unknownKeys(
    obj: JsonObject,
    allowed: ReadonlySet<string>,
    base: JsonPath,
    code: ProblemCode,
    what: string,
  ): void {
    let unknown = 0;
    let hint: string | undefined;
    const report = (key: string) => {
      hint ??= `known keys: ${[...allowed].join(", ")}`;
      this.report(
        code,
        [...base, key],
        `${where(base)} has the key "${key}", which ${what} does not define`,
        { key: true, hint },
      );
    };
    // A large object's keys come from the document's tape: `Object.keys` of
    // a parsed 10^5-key object is most of the cost of reporting it.
    const other =
      valueAt(this.doc.value, base) === obj
        ? this.doc.otherKeys(base, [...allowed], MAX_LISTED_ISSUES)
        : undefined;
    if (other !== undefined) {
      unknown = other.count;
      for (const key of other.listed) report(key);
    } else {
      for (const key of Object.keys(obj)) {
        if (allowed.has(key) || ++unknown > MAX_LISTED_ISSUES) continue;
        report(key);
      }
    }
    if (unknown <= MAX_LISTED_ISSUES) return;
    this.report(
      code,
      base,
      `${where(base)} has ${unknown - MAX_LISTED_ISSUES} more keys that ${what} does not define, not listed one by one`,
      { hint },
    );
  }
}

/** The value at `path` in a parsed JSON value (own properties only); undefined when absent. */
function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof segment === "number" ? !Array.isArray(current) : !isObject(current))
      return undefined;
    current = own(current as JsonObject, String(segment));
  }
  return current;
}

function where(path: JsonPath): string {
  return path.length === 0 ? "the top level" : formatPath(path);
}

/** The JSON type of a value, with an article, for messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  return `a ${typeof value}`;
}

/** A set of allowed keys, for `unknownKeys`. */
export function keys(...names: string[]): ReadonlySet<string> {
  return new Set(names);
}
