import { z } from "zod";
import type { IntegrityReport } from "../integrity/types.js";
import { CONTRACT_KINDS } from "../model/contract.js";
import { PROBLEM_CODES, type ProblemCode } from "../model/problem-codes.js";
import type { SpecProof } from "../proof/types.js";
import type { SandboxInfo } from "../sandbox/index.js";
import { SCOPE_REASONS, scopeText } from "../scope/scope-reason.js";
import {
  type ContractOutcome,
  CRITERION_STATUSES,
  gateConclusion,
  type RunSummary,
} from "../verdict.js";
import { IntegrityJsonSchema, integrityJson } from "./integrity-json.js";
import { SpecProofJsonSchema, specProofJson } from "./proof-json.js";

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
  /** What the check required (`expectation`): the terminal report's "expected". */
  expected: z.string().optional(),
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

const SandboxSchema = z.object({
  mode: z.enum(["auto", "required", "off"]),
  mechanism: z.enum(["namespaces (root)", "namespaces (sudo -n)", "none"]),
  /** How each check was started (docs/security.md, "One executor per lane"). */
  executor: z
    .enum(["lane executor", "per-check namespaces", "unsandboxed executor", "gate"])
    .optional(),
  cgroup: z.enum(["v1", "v2", "none"]),
  memoryMb: z.number().int(),
  /** What checks saw (docs/security.md): absent without a boundary. */
  view: z
    .object({
      tree: z.string(),
      system: z.array(z.string()),
      toolchains: z.array(z.string()),
      extraReads: z.array(z.string()),
      gitDirs: z.number().int(),
      hiddenCredentials: z.number().int(),
      network: z.enum(["host", "none"]),
      /** The uid checks ran as. */
      uid: z.number().int().optional(),
    })
    .optional(),
  warning: z.string().optional(),
  error: z.string().optional(),
  /** The checks' environment by name (docs/security.md): granted by check-env, withheld. Never values. */
  checkEnv: z.object({ granted: z.array(z.string()), withheld: z.array(z.string()) }).optional(),
  /** Where each contract's commands ran (issue 32): a private tree, a private copy, or the folder itself. */
  trees: z.string().optional(),
});

/**
 * A shard's place in a matrix (docs/sharding.md): the merge requires every
 * field to agree with its own run and the other shards before it uses one result.
 */
export const ShardBlockSchema = z.object({
  index: z.number().int().min(1).max(256),
  total: z.number().int().min(1).max(256),
  /** `sha256:` of the whole ordered scope the shard computed. */
  scopeDigest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  headSha: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/),
  /** `GITHUB_RUN_ID`/`GITHUB_RUN_ATTEMPT`; null outside Actions. */
  runId: z.string().max(40).nullable(),
  runAttempt: z.number().int().min(1).nullable(),
  gateVersion: z.string().max(100),
});

export type ShardBlock = z.infer<typeof ShardBlockSchema>;

/** The `run --json` report, `schemaVersion: 1`. Additive changes only within a version. */
export const RunReportSchema = z.object({
  schemaVersion: z.literal(1),
  conclusion: z.enum(["success", "failure", "neutral"]),
  /** Where commands ran (absent from reports written before the sandbox existed). */
  sandbox: SandboxSchema.optional(),
  counts: z.object(countFields),
  contracts: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(CONTRACT_KINDS),
      verdict: z.enum(["pass", "neutral", "fail", "abandoned", "invalid", "drifted", "aborted"]),
      problems: z.array(ProblemSchema),
      criteria: z.array(CriterionSchema),
      /** Requirement specs: the requirement proof (docs/proof.md). */
      proof: SpecProofJsonSchema.optional(),
      /** Why the run gates it: changed by the PR, bound to its head branch, every contract, … */
      inScope: z.object({ reason: z.enum(SCOPE_REASONS), text: z.string() }).optional(),
    }),
  ),
  /** Changes to contracts against the PR's base (`run --base`, the action on pull requests). */
  integrity: IntegrityJsonSchema.optional(),
  /** Set by a shard (`run --shard i/n`, the action's `shard`): which leg of the matrix wrote it. */
  shard: ShardBlockSchema.optional(),
});

export type RunReportJson = z.infer<typeof RunReportSchema>;

/**
 * Build the JSON report from the engine's outcomes. With `integrity`, the
 * conclusion is the gate's: unacknowledged blocking contract changes fail it.
 */
export function runReportJson(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  extras: ReportExtras = {},
): RunReportJson {
  const proofs = proofByPath(extras);
  return {
    ...reportHead(summary, extras),
    contracts: contracts.map((c) => contractJson(c, proofs)),
  };
}

/** What a report carries besides the engine's outcomes. */
export interface ReportExtras {
  sandbox?: SandboxInfo;
  integrity?: IntegrityReport;
  /** The requirement proof of each spec contract in scope. */
  proof?: readonly SpecProof[];
  shard?: ShardBlock;
}

function proofByPath(extras: ReportExtras): Map<string, SpecProof> {
  return new Map((extras.proof ?? []).map((p) => [p.contract, p]));
}

/**
 * The report as `JSON.stringify(report, null, 2)` would print it, a contract
 * at a time: at 30,000 criteria one string (and one mapped copy of every
 * outcome) would be tens of megabytes held at once, at the run's peak.
 */
export function* runReportJsonChunks(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  extras: ReportExtras = {},
  { compact = false }: { compact?: boolean } = {},
): Generator<string> {
  if (compact) {
    yield* compactChunks(summary, contracts, extras);
    return;
  }
  const head = JSON.stringify({ ...reportHead(summary, extras), contracts: [] }, null, 2);
  // `contracts` is the last key: the head ends `"contracts": []\n}`.
  if (contracts.length === 0) {
    yield `${head}\n`;
    return;
  }
  yield head.slice(0, -"]\n}".length);
  const proofs = proofByPath(extras);
  for (const [i, c] of contracts.entries()) {
    // Two levels deep (report, then `contracts`): JSON strings hold no raw newlines.
    const body = JSON.stringify(contractJson(c, proofs), null, 2).replaceAll("\n", "\n    ");
    yield `${i === 0 ? "" : ","}\n    ${body}`;
  }
  yield "\n  ]\n}\n";
}

/**
 * The same report on one line, as `JSON.stringify(report)` prints it: what a
 * shard writes for the merge job, which reads tens of megabytes of it where
 * the indentation alone is about 40% of the bytes to decode and parse.
 */
function* compactChunks(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  extras: ReportExtras,
): Generator<string> {
  const head = JSON.stringify({ ...reportHead(summary, extras), contracts: [] });
  // `contracts` is the last key: the head ends `"contracts":[]}`.
  yield head.slice(0, -"]}".length);
  const proofs = proofByPath(extras);
  for (const [i, c] of contracts.entries()) {
    yield `${i === 0 ? "" : ","}${JSON.stringify(contractJson(c, proofs))}`;
  }
  yield "]}\n";
}

/**
 * Everything but `contracts`, which stays the last key so the report can be
 * streamed. With `integrity`, the conclusion is the gate's: unacknowledged
 * blocking contract changes fail it.
 */
function reportHead(
  summary: RunSummary,
  { sandbox, integrity, shard }: ReportExtras,
): Omit<RunReportJson, "contracts"> {
  return {
    schemaVersion: 1,
    conclusion: gateConclusion(summary.conclusion, integrity),
    ...(sandbox && { sandbox }),
    counts: summary.counts,
    ...(integrity ? { integrity: integrityJson(integrity) } : {}),
    ...(shard && { shard }),
  };
}

function contractJson(
  c: ContractOutcome,
  proofs: ReadonlyMap<string, SpecProof>,
): RunReportJson["contracts"][number] {
  const proof = proofs.get(c.path);
  return {
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
        ...(r.expected !== undefined ? { expected: r.expected } : {}),
      })),
    })),
    ...(proof && { proof: specProofJson(proof) }),
    ...(c.inScope && {
      inScope: { reason: c.inScope.reason, text: scopeText(c.path, c.inScope) },
    }),
  };
}

/** JSON Schema (draft 2020-12) of the report, committed as schema/run-report.schema.json. */
export function runReportJsonSchema(): unknown {
  return z.toJSONSchema(RunReportSchema, { target: "draft-2020-12" });
}
