import { closest } from "fastest-levenshtein";
import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import type { JsonDocument } from "../json/document.js";
import { formatPath, type JsonPath } from "../json/path.js";
import { field, isObject, type JsonObject } from "../json/raw.js";
import { describeFound } from "../json/wording.js";
import { type Dialect, type Issue, isTypoOf, zodProblems } from "../json/zod-problems.js";
import { checkKeyOwners } from "./ignored-keys.js";
import {
  CHECK_TYPES,
  KEYS,
  MAX_TIMEOUT_MS,
  PlanContractSchema,
  type PlanContractV1,
} from "./schema.js";

/** The schema's verdict on a document. */
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
  return result.success ? [] : zodProblems(doc, result.error.issues, PLAN);
}

const PLAN: Dialect = {
  rootName: "the contract",
  allowedKeys,
  keyHint(path, obj, key, plain) {
    const type = checkTypeAt(path, obj);
    if (type === undefined || plain.startsWith("did you mean")) return plain;
    return foreignKeyHint(type, key) ?? plain;
  },
  special(doc, path, value) {
    if (path[path.length - 1] !== "timeout_ms" || value === undefined) return undefined;
    // One message for every way to get it wrong, naming the range.
    return [
      problem(
        typeof value === "number" ? "invalid-value" : "wrong-type",
        doc.valueAt(path),
        `${formatPath(path)} must be an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds; one hour at most), ${describeFound(value)}`,
      ),
    ];
  },
  union: { noun: "a check type", options: CHECK_TYPES },
};

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
