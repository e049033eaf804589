import { z } from "zod";
import { list } from "./bounded-list.js";

/**
 * The plan-contract v1 schema (docs/plan-contract.md). Objects are strict so a
 * typo like `must_contian` is an error instead of a silently ignored key.
 *
 * Deliberately NOT here, because each has its own problem code and runs on the
 * raw JSON even when the schema fails (see rules.ts): task id format, empty
 * `verification`/`success_criteria`, the `action` length cap, path safety,
 * regex validity and command safety.
 */

export const SCHEMA_VERSION = 1;

/** `data` is accepted but deprecated by locked decision 1 (warning, see rules). */
export const PERSONAS = [
  "security",
  "architect",
  "ux",
  "frontend",
  "backend",
  "data",
  "performance",
  "none",
] as const;

export const CHECK_TYPES = ["file-exists", "grep-match", "command-exit", "behavioral"] as const;

export const GENERATORS = ["planner", "compile-plan", "manual"] as const;

export const DEFAULT_TIMEOUT_MS = 30_000;
/** One hour: real contracts use up to five minutes; a day-long timeout would hold a runner hostage. */
export const MAX_TIMEOUT_MS = 3_600_000;

/** Prose a human must have written: blank or whitespace-only is refused. */
const prose = z.string().refine((s) => s.trim() !== "", { message: "must not be empty" });
/** Regexes and substrings: an empty one would match everything, i.e. assert nothing. */
const needle = z.string().min(1);
const positiveInt = z.int().positive();
/** Paths are only type-checked here; their safety has its own code (`unsafe-path`). */
const path = z.string();

/** Makes an array schema: `z.array`, or `list` (bounded-list.ts) for documents with many entries. */
type ListOf = <T extends z.ZodType>(item: T) => z.ZodArray<T>;

/** The v1 schemas, with lists made by `listOf`: every rule written once, here. */
function schemas(list: ListOf) {
  const EvidenceSchema = z.strictObject({
    path,
    matcher: needle.optional(),
    description: prose,
  });

  const FileExistsSchema = z.strictObject({
    type: z.literal("file-exists"),
    path,
    must_contain: needle.optional(),
  });

  const GrepMatchSchema = z.strictObject({
    type: z.literal("grep-match"),
    path,
    pattern: needle,
    expect: z.enum(["present", "absent"]),
  });

  const CommandExitSchema = z.strictObject({
    type: z.literal("command-exit"),
    command: z.string().min(1),
    args: list(z.string()),
    cwd: path.optional(),
    expected_exit: z.int().min(0).max(255),
    timeout_ms: z.int().min(1).max(MAX_TIMEOUT_MS).optional(),
    expect_stdout_match: needle.optional(),
  });

  const BehavioralSchema = z.strictObject({
    type: z.literal("behavioral"),
    description: prose,
    // A behavioral check without evidence would be exactly the "vibes-based pass"
    // the format exists to block, so at least one citation is required.
    evidence_required: list(EvidenceSchema).min(1),
  });

  const CheckSchema = z.discriminatedUnion("type", [
    FileExistsSchema,
    GrepMatchSchema,
    CommandExitSchema,
    BehavioralSchema,
  ]);

  const TaskSchema = z.strictObject({
    id: z.string(),
    title: prose,
    wave: positiveInt,
    depends_on: list(z.string()),
    persona: z.enum(PERSONAS).optional(),
    files_modify: list(path),
    files_create: list(path),
    files_delete: list(path),
    acceptance_criteria: list(prose),
    action: prose,
    context_files: list(path),
    verification: list(CheckSchema),
  });

  const PlanContractSchema = z.strictObject({
    // Any other number is reported once as `unsupported-version` before this
    // schema runs; here it only catches a missing or non-numeric version.
    version: z.literal(SCHEMA_VERSION),
    phase: positiveInt,
    goal: prose,
    why: prose,
    generated_at: z.iso.datetime(),
    generated_by: z.enum(GENERATORS),
    // Optional: the format's drift table treats a missing hash as "legacy or
    // manual", a warning raised by the drift module, not a schema error.
    source_plan_hash: z.string().optional(),
    tasks: list(TaskSchema),
    success_criteria: list(prose),
  });
  return {
    EvidenceSchema,
    FileExistsSchema,
    GrepMatchSchema,
    CommandExitSchema,
    BehavioralSchema,
    CheckSchema,
    TaskSchema,
    PlanContractSchema,
  };
}

export const {
  EvidenceSchema,
  FileExistsSchema,
  GrepMatchSchema,
  CommandExitSchema,
  BehavioralSchema,
  CheckSchema,
  TaskSchema,
  PlanContractSchema,
} = schemas((item) => z.array(item));

/**
 * The same rules with lists that stop after 1,000 issues: zod spreads a
 * child's issues into its parent, which overflows the stack past ~120,000,
 * and a list of 500,000 broken entries costs seconds in issue objects. Only
 * documents with many list entries need it (it is slower per list).
 */
const BoundedPlanContractSchema = schemas(list).PlanContractSchema;

/** Most list entries a document can have and still be read by the plain schema (≤ 13 issues each). */
const PLAIN_SCHEMA_ITEMS = 4000;

/** The schema for a document with `items` list entries in all. */
export function planContractSchemaFor(items: number): typeof PlanContractSchema {
  return items <= PLAIN_SCHEMA_ITEMS ? PlanContractSchema : BoundedPlanContractSchema;
}

export type CheckV1 = z.infer<typeof CheckSchema>;
export type TaskV1 = z.infer<typeof TaskSchema>;
export type PlanContractV1 = z.infer<typeof PlanContractSchema>;

/** Keys each object kind allows, for "did you mean" hints. */
export const KEYS = {
  root: Object.keys(PlanContractSchema.shape),
  task: Object.keys(TaskSchema.shape),
  evidence: Object.keys(EvidenceSchema.shape),
  check: {
    "file-exists": Object.keys(FileExistsSchema.shape),
    "grep-match": Object.keys(GrepMatchSchema.shape),
    "command-exit": Object.keys(CommandExitSchema.shape),
    behavioral: Object.keys(BehavioralSchema.shape),
  } satisfies Record<(typeof CHECK_TYPES)[number], string[]>,
};
