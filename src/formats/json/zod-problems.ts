import { closest, distance } from "fastest-levenshtein";
import type { z } from "zod";
import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { MAX_LISTED_ISSUES } from "./bounded-list.js";
import type { JsonDocument } from "./document.js";
import { formatPath, type JsonPath } from "./path.js";
import { field, isObject } from "./raw.js";
import { describeFound, jsonType, listValues, preview, withArticle } from "./wording.js";

/**
 * zod issues → problems placed at the offending key or value, worded for
 * JSON authors. One mapping for every JSON file the gate reads (plan
 * contracts, evidence files); what differs between them is their `Dialect`.
 */

export type Issue = z.core.$ZodIssue;

/** What one kind of JSON file adds to the shared wording. */
export interface Dialect {
  /** How a message names the whole file: "the contract". */
  rootName: string;
  /** The keys the object at `path` allows (for hints); none when unknown. */
  allowedKeys(path: JsonPath, obj: unknown): readonly string[];
  /** A better hint for an unknown key of the object at `path`, when there is one. */
  keyHint?(path: JsonPath, obj: unknown, key: string, plain: string): string;
  /** Problems for an issue at `path` that the file words its own way; undefined for the usual. */
  special?(doc: JsonDocument, path: JsonPath, value: unknown): Problem[] | undefined;
  /** A discriminated union's name and options, for "is x, not a check type". */
  union: { noun: string; options: readonly string[] };
}

/** The problems of zod's issues on `doc.value`. */
export function zodProblems(
  doc: JsonDocument,
  issues: readonly Issue[],
  dialect: Dialect,
): Problem[] {
  return issues.flatMap((issue) => issueProblems(doc, issue, dialect));
}

function issueProblems(doc: JsonDocument, issue: Issue, dialect: Dialect): Problem[] {
  const path: JsonPath = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s));
  const value = valueAt(doc.value, path);
  const where = formatPath(path);
  const special = dialect.special?.(doc, path, value);
  if (special !== undefined) return special;

  switch (issue.code) {
    case "unrecognized_keys":
      return unknownKeys(doc, path, issue.keys, dialect);

    case "invalid_type":
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      // zod reports 1.5 for an int, or 1e400 (Infinity), as a type error; to a
      // JSON author both are numbers with a bad value.
      if (typeof value === "number" && (issue.expected === "int" || issue.expected === "number")) {
        const what = issue.expected === "int" ? "an integer" : "a finite number";
        return [invalid(doc, path, `${where} must be ${what}, got ${preview(value)}`)];
      }
      return [wrongType(doc, path, withArticle(expectedName(issue.expected)), value, dialect)];

    case "invalid_value": {
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      // A literal or enum of strings given a number is a type error, not a bad value.
      if (!issue.values.some((v) => typeof v === typeof value)) {
        return [wrongType(doc, path, withArticle(jsonType(issue.values[0])), value, dialect)];
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
      const options = ("options" in issue ? issue.options : undefined) ?? dialect.union.options;
      if (typeof value !== "string") return [wrongType(doc, path, "a string", value, dialect)];
      return [
        invalid(
          doc,
          path,
          `${where} is ${preview(value)}, not ${dialect.union.noun}; expected one of ${listValues(options)}`,
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

function wrongType(
  doc: JsonDocument,
  path: JsonPath,
  expected: string,
  value: unknown,
  dialect: Dialect,
): Problem {
  const subject = path.length === 0 ? dialect.rootName : formatPath(path);
  return problem(
    "wrong-type",
    doc.valueAt(path),
    `${subject} must be ${expected}, ${describeFound(value)}`,
    { hint: typeHint(expected, value) },
  );
}

/** How to turn the value found into the type required: the usual slips first. */
export function typeHint(expected: string, value: unknown): string {
  if (/number|integer/.test(expected) && typeof value === "string")
    return "write the number without quotes";
  if (/boolean/.test(expected) && typeof value === "string")
    return "write true or false without quotes";
  if (/array|list/.test(expected) && (typeof value === "string" || isObject(value)))
    return "wrap the value in a list: [ … ]";
  if (/string/.test(expected) && value !== null && typeof value !== "object")
    return "put the value in double quotes";
  return `replace the value with ${expected}`;
}

function missingKey(doc: JsonDocument, path: JsonPath): Problem {
  const parent = path.slice(0, -1);
  const key = String(path[path.length - 1]);
  const subject = parent.length === 0 ? "" : `${formatPath(parent)}: `;
  return problem(
    "missing-key",
    doc.valueAt(parent),
    `${subject}missing required key ${JSON.stringify(key)}`,
    {
      hint: `add ${JSON.stringify(key)} to ${parent.length === 0 ? "the top-level object" : formatPath(parent)} (docs/contracts.md gives its type)`,
    },
  );
}

/** One problem per unknown key; the object's facts are gathered once (it may have 10^5 keys). */
function unknownKeys(
  doc: JsonDocument,
  objectPath: JsonPath,
  keys: readonly string[],
  dialect: Dialect,
): Problem[] {
  const obj = valueAt(doc.value, objectPath);
  const allowed = dialect.allowedKeys(objectPath, obj);
  const present = new Set(allowed.filter((k) => isObject(obj) && Object.hasOwn(obj, k)));
  const better = dialect.keyHint;
  const hint = (key: string) => {
    const plain = keyHint(key, allowed, present);
    return better ? better(objectPath, obj, key, plain) : plain;
  };
  return unknownKeyProblems(doc, objectPath, keys, allowed, hint);
}

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
  hint: (key: string) => string,
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
export function isTypoOf(key: string, candidate: string): boolean {
  const budget = key.length <= 3 ? 1 : Math.max(2, Math.floor(key.length / 3));
  return distance(key, candidate) <= budget;
}

/** The value at `path` in a parsed JSON value; undefined when absent. */
export function valueAt(root: unknown, path: JsonPath): unknown {
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
