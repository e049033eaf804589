import {
  type CHECK_TYPES,
  GENERATORS,
  MAX_TIMEOUT_MS,
  PERSONAS,
  PlanContractSchema,
  type PlanContractV1,
  SCHEMA_VERSION,
} from "./schema.js";

/**
 * A quick yes to "does this value pass the v1 schema?", for the common case
 * of a valid contract. It never says yes where zod would say no: every test
 * here is as strict as the schema's or stricter (the tests check this on
 * every fixture and on generated and mutated contracts, and that each
 * object's keys and optional keys are exactly the schema's). When it says
 * no, zod runs and words the problems, so nothing is lost.
 *
 * Why not just zod: a CLI run validates each contract once, so zod's cost
 * there is mostly its own warm-up (a generated validator per object shape,
 * run interpreted until V8 optimises it); these few small functions are
 * cheap from the first call.
 */
export function conformsToSchema(
  value: unknown,
  counted?: { keys: number },
): value is PlanContractV1 {
  // for-in below would also list enumerable keys inherited from a polluted
  // Object.prototype: then say nothing, and let zod decide.
  for (const _ in EMPTY) return false;
  keysSeen = 0;
  const conforms = matches(value, ROOT);
  // Every object was walked key by key: the count the duplicate-key test needs comes free.
  if (counted !== undefined) counted.keys = conforms ? keysSeen : -1;
  return conforms;
}

/** Keys of all objects matched so far by the current `conformsToSchema` call. */
let keysSeen = 0;
const EMPTY = {};

type Test = (value: unknown) => boolean;

/** Each key an object allows, with its test; `optional` keys may be absent. */
export interface ObjectRule {
  required: Readonly<Record<string, Test>>;
  optional: Readonly<Record<string, Test>>;
  /** Both, by key, with whether the key is required. */
  keys: ReadonlyMap<string, { test: Test; required: boolean }>;
  requiredCount: number;
}

function strict(
  required: Readonly<Record<string, Test>>,
  optional: Readonly<Record<string, Test>> = {},
): ObjectRule {
  const keys = new Map<string, { test: Test; required: boolean }>();
  for (const [key, test] of Object.entries(required)) keys.set(key, { test, required: true });
  for (const [key, test] of Object.entries(optional)) keys.set(key, { test, required: false });
  return { required, optional, keys, requiredCount: Object.keys(required).length };
}

const isString: Test = (v) => typeof v === "string";
/** `prose`: not blank. */
const isProse: Test = (v) => typeof v === "string" && v.trim() !== "";
/** `needle` and `.min(1)` strings: not empty. */
const isNonEmpty: Test = (v) => typeof v === "string" && v.length > 0;
/** `z.int().positive()`. */
const isPositiveInt: Test = (v) => Number.isSafeInteger(v) && (v as number) > 0;
/** `z.int().min(0).max(255)`; -0 is left to zod. */
const isExitCode: Test = (v) =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 255 && !Object.is(v, -0);

function arrayOf(test: Test): Test {
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!test(v[i])) return false;
    return true;
  };
}

function oneOf(values: readonly string[]): Test {
  return (v) => typeof v === "string" && values.includes(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A strict object: only known keys, every required one present, every value passing. */
function matches(value: unknown, rule: ObjectRule): boolean {
  if (!isPlainObject(value)) return false;
  let required = 0;
  // for-in lists own keys only: Object.prototype was seen to have no enumerable key.
  for (const key in value) {
    keysSeen++;
    const known = rule.keys.get(key);
    if (known === undefined || !known.test(value[key])) return false;
    if (known.required) required++;
  }
  return required === rule.requiredCount;
}

function object(rule: ObjectRule): Test {
  return (v) => matches(v, rule);
}

/** The timestamp format is the schema's own test: it is the one rule with subtleties (leap days). */
const generatedAt = PlanContractSchema.shape.generated_at;
const isTimestamp: Test = (v) => typeof v === "string" && generatedAt.safeParse(v).success;

export const EVIDENCE = strict({ path: isString, description: isProse }, { matcher: isNonEmpty });

const isEvidenceList = arrayOf(object(EVIDENCE));

export const CHECKS: Readonly<Record<(typeof CHECK_TYPES)[number], ObjectRule>> = {
  "file-exists": strict(
    { type: (v) => v === "file-exists", path: isString },
    { must_contain: isNonEmpty },
  ),
  "grep-match": strict({
    type: (v) => v === "grep-match",
    path: isString,
    pattern: isNonEmpty,
    expect: oneOf(["present", "absent"]),
  }),
  "command-exit": strict(
    {
      type: (v) => v === "command-exit",
      command: isNonEmpty,
      args: arrayOf(isString),
      expected_exit: isExitCode,
    },
    {
      cwd: isString,
      timeout_ms: (v) => isPositiveInt(v) && (v as number) <= MAX_TIMEOUT_MS,
      expect_stdout_match: isNonEmpty,
    },
  ),
  behavioral: strict({
    type: (v) => v === "behavioral",
    description: isProse,
    evidence_required: (v) => Array.isArray(v) && v.length > 0 && isEvidenceList(v),
  }),
};

const isCheck: Test = (v) => {
  if (!isPlainObject(v)) return false;
  const type = Object.hasOwn(v, "type") ? v.type : undefined;
  return (
    typeof type === "string" &&
    Object.hasOwn(CHECKS, type) &&
    matches(v, CHECKS[type as keyof typeof CHECKS])
  );
};

const isPathList = arrayOf(isString);

export const TASK = strict(
  {
    id: isString,
    title: isProse,
    wave: isPositiveInt,
    depends_on: arrayOf(isString),
    files_modify: isPathList,
    files_create: isPathList,
    files_delete: isPathList,
    acceptance_criteria: arrayOf(isProse),
    action: isProse,
    context_files: isPathList,
    verification: arrayOf(isCheck),
  },
  { persona: oneOf(PERSONAS) },
);

export const ROOT = strict(
  {
    version: (v) => v === SCHEMA_VERSION,
    phase: isPositiveInt,
    goal: isProse,
    why: isProse,
    generated_at: isTimestamp,
    generated_by: oneOf(GENERATORS),
    tasks: arrayOf(object(TASK)),
    success_criteria: arrayOf(isProse),
  },
  { source_plan_hash: isString },
);
