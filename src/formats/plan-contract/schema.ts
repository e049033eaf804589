import { z } from "zod";
import { type ListOf, list, plainList } from "../json/bounded-list.js";
import { strictObject } from "../json/strict-object.js";

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

/** Not blank: `\S` is exactly what `trim()` removes, so the JSON Schema export states the same rule. */
const NON_BLANK = /\S/;
/** Prose a human must have written: blank or whitespace-only is refused. */
const prose = z
  .string()
  .refine((s) => NON_BLANK.test(s), { message: "must not be empty" })
  .meta({ pattern: NON_BLANK.source });
/** Regexes and substrings: an empty one would match everything, i.e. assert nothing. */
const needle = z.string().min(1);
const positiveInt = z.int().positive();
/** Paths are only type-checked here; their safety has its own code (`unsafe-path`). */
const path = z.string();
const PATH_DOC = "Repository-relative path with `/` separators (`unsafe-path` otherwise).";

// `.describe()` texts are the field documentation of docs/contracts.md and the
// JSON Schemas (scripts/contracts-reference.ts); they change no validation.

/** The v1 schemas, with lists made by `listOf`: every rule written once, here. */
function schemas(list: ListOf) {
  const EvidenceSchema = strictObject({
    path: path.describe(
      "File the verifier must cite (repository-relative, `/` separators; rule 11, `invalid-evidence`).",
    ),
    matcher: needle
      .optional()
      .describe(
        "ECMAScript regex the cited line must match (rule 11: must compile). Absent: any line of the file, if the snippet is on it.",
      ),
    description: prose.describe("What this citation proves."),
  });

  const FileExistsSchema = strictObject({
    type: z.literal("file-exists").describe("A regular file exists at `path` at the PR head."),
    path: path.describe(`The file. ${PATH_DOC}`),
    must_contain: needle
      .optional()
      .describe("Literal substring the file must contain. Absent: existing is enough."),
  });

  const GrepMatchSchema = strictObject({
    type: z
      .literal("grep-match")
      .describe("A regex is present in, or absent from, a file or the files a glob matches."),
    path: path.describe(
      `A file or a glob (\`src/**/*.js\`). ${PATH_DOC} \`absent\` over a glob that matches no file is an error.`,
    ),
    pattern: needle.describe(
      "ECMAScript regex, matched line by line (`invalid-regex` if it does not compile).",
    ),
    expect: z
      .enum(["present", "absent"])
      .describe("`present`: some line matches. `absent`: no line matches."),
  });

  const CommandExitSchema = strictObject({
    type: z
      .literal("command-exit")
      .describe("A program runs without a shell and exits with `expected_exit`."),
    command: z
      .string()
      .min(1)
      .describe(
        "The program: one word, no whitespace or shell metacharacters (rule 8, `unsafe-command`); arguments go in `args`.",
      ),
    args: list(z.string()).describe("Arguments, passed verbatim (no shell, no globbing)."),
    cwd: path.optional().describe(`Working directory. ${PATH_DOC} Absent: the repository root.`),
    expected_exit: z.int().min(0).max(255).describe("The exit code that means success."),
    timeout_ms: z
      .int()
      .min(1)
      .max(MAX_TIMEOUT_MS)
      .optional()
      .meta({ default: DEFAULT_TIMEOUT_MS })
      .describe("Time limit in milliseconds; the process group is killed when it runs out."),
    expect_stdout_match: needle
      .optional()
      .describe("ECMAScript regex stdout must also match. Absent: the exit code alone decides."),
  });

  const BehavioralSchema = strictObject({
    type: z
      .literal("behavioral")
      .describe(
        "A claim no command can decide, passed only by citations in `phase-N-evidence.json` that re-read true.",
      ),
    description: prose.describe("The behavior to verify."),
    // A behavioral check without evidence would be exactly the "vibes-based pass"
    // the format exists to block, so at least one citation is required.
    evidence_required: list(EvidenceSchema, 1).describe(
      "What must be cited; each entry needs its own citation in the evidence file.",
    ),
  });

  const CheckSchema = z.discriminatedUnion("type", [
    FileExistsSchema,
    GrepMatchSchema,
    CommandExitSchema,
    BehavioralSchema,
  ]);

  const TaskSchema = strictObject({
    id: z.string().describe("`T` followed by digits (rule 2, `invalid-task-id`), unique (rule 1)."),
    title: prose.describe("Short name of the task."),
    wave: positiveInt.describe(
      "Execution wave: greater than the wave of every task it depends on (rule 5).",
    ),
    depends_on: list(z.string()).describe(
      "Ids of tasks that must finish first: existing (rule 3), without cycles (rule 4).",
    ),
    persona: z
      .enum(PERSONAS)
      .optional()
      .describe("Who builds it. `data` is deprecated (`persona-deprecated`): use `backend`."),
    files_modify: list(path).describe(
      "Files the task changes. A file is in at most one of the three file lists (rule 7).",
    ),
    files_create: list(path).describe("Files the task creates."),
    files_delete: list(path).describe("Files the task deletes."),
    acceptance_criteria: list(prose).describe("What done means, in prose (not run)."),
    action: prose.describe("What to do, at most 500 characters (rule 10, `action-too-long`)."),
    context_files: list(path).describe(
      "Files to read first; advisory, no check reads them (`advisory-path` warns on unsafe ones).",
    ),
    verification: list(CheckSchema).describe(
      "The checks, at least one (rule 6); each is one criterion, id `T<n>.<k>`.",
    ),
  });

  const PlanContractSchema = strictObject({
    // Any other number is reported once as `unsupported-version` before this
    // schema runs; here it only catches a missing or non-numeric version.
    version: z
      .literal(SCHEMA_VERSION)
      .describe("Schema version; 1 is the only one (`unsupported-version`)."),
    phase: positiveInt.describe(
      "Phase number; equals N of `phase-N-contract.json` when the name is a number (`phase-mismatch`).",
    ),
    goal: prose.describe("What the phase achieves."),
    why: prose.describe("Why the phase exists."),
    generated_at: z.iso
      .datetime()
      .describe("When the contract was generated: ISO 8601 UTC, e.g. `2026-11-29T12:00:00Z`."),
    generated_by: z
      .enum(GENERATORS)
      .describe(
        "Who wrote the contract. Contract integrity reads it at the PR base; a PR that changes it is a finding of its own.",
      ),
    // Optional: the format's drift table treats a missing hash as "legacy or
    // manual", a warning raised by the drift module, not a schema error.
    source_plan_hash: z
      .string()
      .optional()
      .describe(
        "`sha256:` + 64 lowercase hex digits of `phase-N-plan.md` beside the contract (`plan-drift`, `invalid-plan-hash`). Empty or absent: drift is not checked (`drift-check-disabled`).",
      ),
    tasks: list(TaskSchema).describe("The tasks, at least one with a check (`no-criteria`)."),
    success_criteria: list(prose).describe("Phase-level outcomes in prose, at least one (rule 9)."),
    // Editors find the JSON Schema through it; the gate reads nothing from it.
    $schema: z
      .string()
      .optional()
      .describe("URL or path of the JSON Schema, for editors; the gate ignores it."),
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
} = schemas(plainList);

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
  // `$schema` is for editors: a hint names the keys a contract is made of.
  root: Object.keys(PlanContractSchema.shape).filter((k) => k !== "$schema"),
  task: Object.keys(TaskSchema.shape),
  evidence: Object.keys(EvidenceSchema.shape),
  check: {
    "file-exists": Object.keys(FileExistsSchema.shape),
    "grep-match": Object.keys(GrepMatchSchema.shape),
    "command-exit": Object.keys(CommandExitSchema.shape),
    behavioral: Object.keys(BehavioralSchema.shape),
  } satisfies Record<(typeof CHECK_TYPES)[number], string[]>,
};
