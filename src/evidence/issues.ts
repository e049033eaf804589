import type { z } from "zod";
import type { JsonDocument } from "../formats/plan-contract/json-document.js";
import { formatPath, type JsonPath } from "../formats/plan-contract/json-path.js";
import { field, isObject } from "../formats/plan-contract/raw.js";
import { unknownKeyProblems } from "../formats/plan-contract/schema-problems.js";
import {
  describeFound,
  jsonType,
  listValues,
  preview,
  withArticle,
} from "../formats/plan-contract/wording.js";
import type { Problem } from "../model.js";
import { problem } from "../problems.js";
import { EVIDENCE_KEYS, EvidenceFileSchema } from "./schema.js";

type Issue = z.core.$ZodIssue;

/**
 * Schema problems of an evidence file, worded and located like a plan
 * contract's (same codes, same "did you mean" hints), so one reader serves
 * both. The evidence schema has no unions or timestamps, hence fewer cases.
 */
export function evidenceSchemaProblems(doc: JsonDocument): Problem[] {
  const result = EvidenceFileSchema.safeParse(doc.value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => issueProblems(doc, issue));
}

function issueProblems(doc: JsonDocument, issue: Issue): Problem[] {
  const path: JsonPath = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s));
  const value = valueAt(doc.value, path);
  const where = formatPath(path);
  const invalid = (message: string) => [problem("invalid-value", doc.valueAt(path), message)];

  switch (issue.code) {
    case "unrecognized_keys":
      return unknownKeys(doc, path, issue.keys);
    case "invalid_type":
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      // 1.5 for an integer is, to a JSON author, a number with a bad value.
      if (typeof value === "number") {
        const what = issue.expected === "int" ? "an integer" : "a finite number";
        return invalid(`${where} must be ${what}, got ${preview(value)}`);
      }
      return [
        wrongType(
          doc,
          path,
          withArticle(issue.expected === "int" ? "integer" : issue.expected),
          value,
        ),
      ];
    case "invalid_value":
      if (isMissing(doc.value, path)) return [missingKey(doc, path)];
      if (!issue.values.some((v) => typeof v === typeof value)) {
        return [wrongType(doc, path, withArticle(jsonType(issue.values[0])), value)];
      }
      return invalid(`${where} is ${preview(value)}; expected ${listValues(issue.values)}`);
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return invalid(`${where} must not be empty`);
      if (min === 0 && issue.inclusive === false) {
        return invalid(`${where} must be a positive integer, got ${preview(value)}`);
      }
      return invalid(`${where} must be at least ${min}, got ${preview(value)}`);
    }
    case "custom":
      return invalid(`${where} ${issue.message}`);
    default:
      return invalid(`${where}: ${issue.message}`);
  }
}

function wrongType(doc: JsonDocument, path: JsonPath, expected: string, value: unknown): Problem {
  const subject = path.length === 0 ? "the evidence file" : formatPath(path);
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

function unknownKeys(doc: JsonDocument, objectPath: JsonPath, keys: readonly string[]): Problem[] {
  const obj = valueAt(doc.value, objectPath);
  const allowed = objectPath.length === 0 ? EVIDENCE_KEYS.root : EVIDENCE_KEYS.citation;
  // Gathered once per object, not per key: an object may have 10^5 keys.
  const present = new Set(allowed.filter((k) => isObject(obj) && Object.hasOwn(obj, k)));
  return unknownKeyProblems(doc, objectPath, keys, allowed, present);
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === "number") current = current[segment];
    else if (isObject(current) && typeof segment === "string") current = field(current, segment);
    else return undefined;
  }
  return current;
}

/** JSON has no `undefined`, so an undefined value means a missing key. */
function isMissing(root: unknown, path: JsonPath): boolean {
  return path.length > 0 && valueAt(root, path) === undefined;
}
