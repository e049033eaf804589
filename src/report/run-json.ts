import { z } from "zod";
import { CONTRACT_KINDS } from "../model.js";
import { PROBLEM_CODES, type ProblemCode } from "../problem-codes.js";
import { type ContractOutcome, CRITERION_STATUSES, type RunSummary } from "../verdict.js";

const problemCodes = Object.keys(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]];

const ProblemSchema = z.object({
  code: z.enum(problemCodes),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  hint: z.string().optional(),
});

const CheckSchema = z.object({
  type: z.enum(["file-exists", "grep-match", "command-exit", "behavioral", "oracle"]),
  result: z.enum(["pass", "fail", "partial"]),
  failureReason: z
    .enum([
      "verification-criteria-unmet",
      "verification-evidence-missing",
      "verification-execution-error",
    ])
    .nullable(),
  reason: z.string(),
  detail: z.string().nullable(),
  durationMs: z.number(),
  exitCode: z.number().int().optional(),
});

const CriterionSchema = z.object({
  id: z.string(),
  title: z.string(),
  group: z.string().nullable(),
  status: z.enum(CRITERION_STATUSES as [string, ...string[]]),
  blocking: z.boolean(),
  reason: z.string(),
  location: z.object({ path: z.string(), line: z.number().int() }),
  checks: z.array(CheckSchema),
});

const countFields = Object.fromEntries(
  [...CRITERION_STATUSES, "criteria", "blocking", "contracts"].map((k) => [k, z.number().int()]),
);

/** The `run --json` report, `schemaVersion: 1`. Additive changes only within a version. */
export const RunReportSchema = z.object({
  schemaVersion: z.literal(1),
  conclusion: z.enum(["success", "failure", "neutral"]),
  counts: z.object(countFields),
  contracts: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(CONTRACT_KINDS),
      verdict: z.enum(["pass", "fail", "abandoned", "invalid", "drifted", "aborted"]),
      problems: z.array(ProblemSchema),
      criteria: z.array(CriterionSchema),
    }),
  ),
});

export type RunReportJson = z.infer<typeof RunReportSchema>;

/** Build the JSON report from the engine's outcomes. */
export function runReportJson(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
): RunReportJson {
  return {
    schemaVersion: 1,
    conclusion: summary.conclusion,
    counts: summary.counts,
    contracts: contracts.map((c) => ({
      path: c.path,
      kind: c.kind,
      verdict: c.verdict,
      problems: c.problems,
      criteria: c.criteria.map((k) => ({
        id: k.id,
        title: k.title,
        group: k.group ?? null,
        status: k.status,
        blocking: k.blocking,
        reason: k.reason,
        location: k.location,
        checks: k.checks.map((r) => ({
          type: r.type,
          result: r.result,
          failureReason: r.failureReason ?? null,
          reason: r.reason,
          detail: r.detail ?? null,
          durationMs: Math.round(r.durationMs),
          ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
        })),
      })),
    })),
  };
}

/** JSON Schema (draft 2020-12) of the report, committed as schema/run-report.schema.json. */
export function runReportJsonSchema(): unknown {
  return z.toJSONSchema(RunReportSchema, { target: "draft-2020-12" });
}
