import { closest, distance } from "fastest-levenshtein";
import type { z } from "zod";
import type { Problem } from "../../model.js";
import { problem } from "../../problems.js";
import { MAX_LISTED_ISSUES } from "./bounded-list.js";
import { checkKeyOwners } from "./ignored-keys.js";
import type { JsonDocument } from "./json-document.js";
import { formatPath, type JsonPath } from "./json-path.js";
import { field, isObject, type JsonObject } from "./raw.js";
import {
  CHECK_TYPES,
  KEYS,
  MAX_TIMEOUT_MS,
  PlanContractSchema,
  type PlanContractV1,
} from "./schema.js";
import { describeFound, jsonType, listValues, preview, withArticle } from "./wording.js";

type Issue = z.core.$ZodIssue;

/** The schema's verdict on a document: zod's, or a conformance test's yes with the same data. */
export type SchemaResult =
  | { success: true; data: PlanContractV1 }
  | { success: false; error: { issues: Issue[] } };

/**
 * Validate the parsed JSON against schema v1 and turn zod's issues into
 * problems that point at the offending key or value in the file. `result`
 * is the schema's verdict on `doc.value` when the caller already has it.
 */
export function schemaProblems(
  doc: JsonDocument,
  result: SchemaResult = PlanContractSchema.safeParse(doc.value),
): Problem[] {
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => issueProblems(doc, issue));
}

function issueProblems(doc: JsonDocument, issue: Issue): Problem[] {
  const path: JsonPath = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s));
  const value = valueAt(doc.value, path);
  const where = formatPath(path);

  if (path[path.length - 1] === "timeout_ms" && value !== undefined) {
    // One message for every way to get it wrong, naming the range.
    return [
      problem(
        typeof value === "number" ? "invalid-value" : "wrong-type",
        doc.valueAt(path),
        `${where} must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds; one hour at most), ${describeFound(value)}`,
      ),
    ];
  }

  switch (issue.code) {
    case "unrecognized_keys":
      return unknownKeys(doc, path, issue.keys);

    case "invalid_type":
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      // zod reports 1.5 for an int, or 1e400 (Infinity), as a type error; to a
      // JSON author both are numbers with a bad value.
      if (typeof value === "number" && (issue.expected === "int" || issue.expected === "number")) {
        const what = issue.expected === "int" ? "an integer" : "a finite number";
        return [invalid(doc, path, `${where} must be ${what}, got ${preview(value)}`)];
      }
      return [wrongType(doc, path, withArticle(expectedName(issue.expected)), value)];

    case "invalid_value": {
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      // A literal or enum of strings given a number is a type error, not a bad value.
      if (!issue.values.some((v) => typeof v === typeof value)) {
        return [wrongType(doc, path, withArticle(jsonType(issue.values[0])), value)];
      }
      const expected =
        issue.values.length === 1 ? listValues(issue.values) : `one of ${listValues(issue.values)}`;
      return [invalid(doc, path, `${where} is ${preview(value)}; expected ${expected}`)];
    }

    case "invalid_union": {
      if (issue.discriminator === undefined) {
        return [invalid(doc, path, `${where}: ${issue.message}`)];
      }
      // The discriminated check union: zod points at the `type` key itself.
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      const options = ("options" in issue ? issue.options : undefined) ?? CHECK_TYPES;
      if (typeof value !== "string") return [wrongType(doc, path, "a string", value)];
      return [
        invalid(
          doc,
          path,
          `${where} is ${preview(value)}, not a check type; expected one of ${listValues(options)}`,
        ),
      ];
    }

    case "too_small":
      return [invalid(doc, path, `${where} ${tooSmall(issue, value)}`)];

    case "too_big":
      return [
        invalid(doc, path, `${where} must be at most ${issue.maximum}, got ${preview(value)}`),
      ];

    case "invalid_format":
      if (issue.format === "datetime") {
        return [
          invalid(doc, path, `${where} is ${preview(value)}, not an ISO 8601 UTC timestamp`, {
            hint: 'write it like "2026-04-28T14:32:00Z" (UTC, with seconds and a trailing Z)',
          }),
        ];
      }
      return [invalid(doc, path, `${where}: ${issue.message}`)];

    case "custom":
      return [invalid(doc, path, `${where} ${issue.message}`)];

    default:
      return [invalid(doc, path, `${where}: ${issue.message}`)];
  }
}

function tooSmall(issue: Extract<Issue, { code: "too_small" }>, value: unknown): string {
  const min = Number(issue.minimum);
  if (issue.origin === "string") return "must not be empty";
  if (issue.origin === "array") {
    return `must have at least ${min} ${min === 1 ? "entry" : "entries"}`;
  }
  if (min === 0 && issue.inclusive === false) {
    return `must be a positive integer, got ${preview(value)}`;
  }
  return `must be at least ${min}, got ${preview(value)}`;
}

function expectedName(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

function invalid(doc: JsonDocument, path: JsonPath, message: string, opts: { hint?: string } = {}) {
  return problem("invalid-value", doc.valueAt(path), message, opts);
}

function wrongType(doc: JsonDocument, path: JsonPath, expected: string, value: unknown): Problem {
  const subject = path.length === 0 ? "the contract" : formatPath(path);
  return problem(
    "wrong-type",
    doc.valueAt(path),
    `${subject} must be ${expected}, ${describeFound(value)}`,
  );
}

function missingKey(doc: JsonDocument, path: JsonPath): Problem {
  const parent = path.slice(0, -1);
  const key = String(path[path.length - 1]);
  const subject = parent.length === 0 ? "" : `${formatPath(parent)}: `;
  return problem(
    "missing-key",
    doc.valueAt(parent),
    `${subject}missing required key ${JSON.stringify(key)}`,
  );
}

/** One problem per unknown key; the object's facts are gathered once (it may have 10^5 keys). */
function unknownKeys(doc: JsonDocument, objectPath: JsonPath, keys: readonly string[]): Problem[] {
  const obj = valueAt(doc.value, objectPath);
  const allowed = allowedKeys(objectPath, obj);
  const present = new Set(allowed.filter((k) => isObject(obj) && Object.hasOwn(obj, k)));
  const type = checkTypeAt(objectPath, obj);
  const hint =
    type === undefined
      ? undefined
      : (key: string) => {
          const own = keyHint(key, allowed, present);
          return own.startsWith("did you mean") ? own : (foreignKeyHint(type, key) ?? own);
        };
  return unknownKeyProblems(doc, objectPath, keys, allowed, present, hint);
}

/** The type of the check at `path`, when `path` names a check of a known type. */
function checkTypeAt(path: JsonPath, obj: unknown): string | undefined {
  const isCheck =
    path.length === 4 && path[0] === "tasks" && path[2] === "verification" && isObject(obj);
  const type = isCheck ? field(obj as JsonObject, "type") : undefined;
  return typeof type === "string" && Object.hasOwn(KEYS.check, type) ? type : undefined;
}

/**
 * For a key on a check that belongs to (or is a typo of a key of) another
 * check type: say so, since the fix differs from a plain typo's.
 */
function foreignKeyHint(type: string, key: string): string | undefined {
  const owners = checkKeyOwners(key);
  if (owners !== undefined) {
    return `${JSON.stringify(key)} belongs to ${owners.join(" and ")} checks; a ${type} check does not read it (it is only ignored when empty or at its default): remove it, or fix "type"`;
  }
  const foreign = CHECK_KEYS.filter((k) => !checkKeyOwners(k)!.includes(type));
  const best = foreign.length > 0 ? closest(key, foreign) : undefined;
  if (best === undefined || !isTypoOf(key, best)) return undefined;
  return `did you mean ${JSON.stringify(best)}? That key belongs to ${checkKeyOwners(best)!.join(" and ")} checks, not ${type} checks`;
}

const CHECK_KEYS = [...new Set(Object.values(KEYS.check).flat())];

/**
 * `unknown-key` problems for `keys` of the object at `objectPath`: the
 * first MAX_LISTED_ISSUES one by one, the rest counted in one more (a 1 MiB
 * object can hold 10^5 keys; a list that long helps nobody, and costs).
 */
export function unknownKeyProblems(
  doc: JsonDocument,
  objectPath: JsonPath,
  keys: readonly string[],
  allowed: readonly string[],
  present: ReadonlySet<string>,
  hint: (key: string) => string = (key) => keyHint(key, allowed, present),
): Problem[] {
  const subject = objectPath.length === 0 ? "" : `${formatPath(objectPath)}: `;
  const shown = Math.min(keys.length, MAX_LISTED_ISSUES);
  const problems: Problem[] = [];
  for (let i = 0; i < shown; i++) {
    const key = keys[i]!;
    problems.push(
      problem(
        "unknown-key",
        doc.keyAt([...objectPath, key]),
        `${subject}unknown key ${JSON.stringify(key)}`,
        { hint: hint(key) },
      ),
    );
  }
  if (keys.length > shown) {
    problems.push(
      problem(
        "unknown-key",
        doc.valueAt(objectPath),
        `${subject}${keys.length - shown} more unknown keys, not listed one by one`,
        { hint: allowed.length > 0 ? `allowed keys: ${allowed.join(", ")}` : "remove them" },
      ),
    );
  }
  return problems;
}

/**
 * Suggest the closest allowed key that is not already present, when it is
 * close enough to be a typo (`must_contian` → `must_contain`); otherwise list
 * what the object allows.
 */
export function keyHint(key: string, allowed: readonly string[], present: ReadonlySet<string>) {
  const candidates = allowed.filter((k) => !present.has(k));
  if (candidates.length > 0) {
    const best = closest(key, candidates);
    if (isTypoOf(key, best)) return `did you mean ${JSON.stringify(best)}?`;
  }
  return allowed.length > 0 ? `allowed keys: ${allowed.join(", ")}` : "remove this key";
}

/** Whether `key` is close enough to `candidate` to be a misspelling of it. */
function isTypoOf(key: string, candidate: string): boolean {
  const budget = key.length <= 3 ? 1 : Math.max(2, Math.floor(key.length / 3));
  return distance(key, candidate) <= budget;
}

/** Which object of the v1 shape a path names, and so which keys it allows. */
function allowedKeys(path: JsonPath, obj: unknown): readonly string[] {
  const shape = path.map((s) => (typeof s === "number" ? "#" : s)).join("/");
  if (shape === "") return KEYS.root;
  if (shape === "tasks/#") return KEYS.task;
  if (shape === "tasks/#/verification/#/evidence_required/#") return KEYS.evidence;
  if (shape === "tasks/#/verification/#" && isObject(obj)) {
    const type = field(obj, "type");
    if (typeof type === "string" && Object.hasOwn(KEYS.check, type)) {
      return KEYS.check[type as keyof typeof KEYS.check];
    }
  }
  return [];
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === "number") current = current[segment];
    else if (isObject(current) && typeof segment === "string") current = field(current, segment);
    else return undefined;
  }
  return current;
}

/** Absent (JSON has no `undefined`, so an undefined value means a missing key). */
function isMissing(root: unknown, path: JsonPath): boolean {
  return path.length > 0 && valueAt(root, path) === undefined;
}
