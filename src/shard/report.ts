import { isAscii, isUtf8 } from "node:buffer";
import { z } from "zod";
import type { Problem } from "../model/contract.js";
import { RunReportSchema, type ShardBlock, ShardBlockSchema } from "../report/run-json.js";
import type { SandboxInfo } from "../sandbox/index.js";
import type { CheckOutcome, ContractOutcome, CriterionOutcome } from "../verdict.js";
import type { ShardSpec } from "./assign.js";

/**
 * A shard's report: the `run --json` report with its `shard` block required.
 * It is data from another job, so it is validated whole before any of it is used.
 */
export const ShardReportSchema = RunReportSchema.extend({ shard: ShardBlockSchema });

/** A shard report as written (and validated). */
export type ShardReportJson = z.infer<typeof ShardReportSchema>;

/**
 * What the merge keeps of a valid report: everything but its contracts, which
 * are kept only as the engine's outcomes, so a merge of 30,000 criteria does
 * not hold every report twice (validated JSON and outcomes) at its peak.
 */
export type ShardReport = Omit<ShardReportJson, "contracts"> & {
  outcomes: ContractOutcome[];
  /** Each requirement spec's proof as the leg ran it, by contract path (src/shard/proof.ts checks it). */
  proofs: ReadonlyMap<string, NonNullable<ContractJson["proof"]>>;
};

let compiledSchema: typeof ShardReportSchema | undefined;

/**
 * The schema with zod's compiled fast path, built on first use (only a merge
 * reads shard reports): a merge validates 30,000 criteria, where the runtime
 * parser's per-node dispatch is most of its time. A report that fails the
 * fast path is parsed again by the runtime parser, so what is accepted and
 * every issue reported are the runtime's.
 */
function shardReportSchema(): typeof ShardReportSchema {
  compiledSchema ??= z.compile(ShardReportSchema);
  return compiledSchema;
}

/**
 * The largest shard report read, bytes: 30,000 criteria with bounded output
 * tails are about 20 MB; a file past this is a failed shard, never read.
 */
export const MAX_SHARD_REPORT_BYTES = 128 * 1024 * 1024;

/** Each leg's own name, so `merge-multiple` downloads never overwrite each other. */
export function shardFileName({ index, total }: ShardSpec): string {
  return `contract-gate-shard-${index}-of-${total}.json`;
}

/** What a shard report file's name says, or undefined when it is not one. */
export function shardOfFileName(name: string): ShardSpec | undefined {
  const m = /^contract-gate-shard-([1-9]\d{0,2})-of-([1-9]\d{0,2})\.json$/.exec(name);
  return m ? { index: Number(m[1]), total: Number(m[2]) } : undefined;
}

export type ShardReportRead = { ok: true; report: ShardReport } | { ok: false; why: string };

/**
 * A shard report's bytes → the report, or why it is not one (pure). Whatever
 * is wrong — truncated, oversized, not JSON, not the schema, a name that
 * disagrees with its own `shard` block — is a reason, never an exception.
 */
export function parseShardReport(name: string, bytes: Uint8Array): ShardReportRead {
  if (bytes.length > MAX_SHARD_REPORT_BYTES) {
    return { ok: false, why: `it is over ${MAX_SHARD_REPORT_BYTES / 1024 / 1024} MiB` };
  }
  const text = utf8Text(bytes);
  if (text === undefined) return { ok: false, why: "it is not UTF-8 text" };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const truncated = text.trim() === "" || !text.trimEnd().endsWith("}");
    return {
      ok: false,
      why: truncated
        ? "it is not complete JSON (empty or truncated: the upload or the write was cut short)"
        : `it is not JSON (${(e as Error).message})`,
    };
  }
  const parsed = shardReportSchema().safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length ? issue.path.join(".") : "the top level";
    return { ok: false, why: `it is not a shard report: ${at}: ${issue.message}` };
  }
  const named = shardOfFileName(name);
  const { index, total } = parsed.data.shard;
  if (named && (named.index !== index || named.total !== total)) {
    return {
      ok: false,
      why: `its name says shard ${named.index} of ${named.total} but it reports shard ${index} of ${total}`,
    };
  }
  const { contracts, ...head } = parsed.data;
  const proofs = new Map<string, NonNullable<ContractJson["proof"]>>();
  for (const c of contracts) if (c.proof !== undefined) proofs.set(c.path, c.proof);
  return { ok: true, report: { ...head, outcomes: outcomesOf(contracts), proofs } };
}

/**
 * Strict UTF-8 → text, a leading BOM dropped: what `TextDecoder("utf-8",
 * { fatal: true })` returns, or undefined where it throws. A report is mostly
 * ASCII, which becomes a string as a plain copy; `TextDecoder` transcodes
 * megabytes in the merge's hottest step.
 */
function utf8Text(bytes: Uint8Array): string | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buf)) return buf.toString("latin1");
  if (!isUtf8(buf)) return undefined;
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString("utf8", bom);
}

/**
 * The shard's outcomes, as the engine returned them (the fields the JSON
 * report keeps). Optional fields are set one by one, in the engine's key
 * order, rather than spread from conditional objects: at 30,000 criteria the
 * spreads were most of the merge's conversion time.
 */
export function outcomesOf(contracts: ShardReportJson["contracts"]): ContractOutcome[] {
  return contracts.map((c) => ({
    path: c.path,
    kind: c.kind,
    verdict: c.verdict,
    problems: c.problems.map(problemOf),
    criteria: c.criteria.map(criterionOf),
  }));
}

type ContractJson = ShardReportJson["contracts"][number];

function problemOf(p: ContractJson["problems"][number]): Problem {
  const problem: Problem = {
    code: p.code,
    severity: p.severity,
    message: p.message,
    path: p.path,
    line: p.line,
    column: p.column,
  };
  if (p.hint !== undefined) problem.hint = p.hint;
  return problem;
}

function criterionOf(k: ContractJson["criteria"][number]): CriterionOutcome {
  const criterion: CriterionOutcome = { id: k.id, title: k.title } as CriterionOutcome;
  if (k.group !== null) criterion.group = k.group;
  criterion.location = k.location;
  criterion.status = k.status as CriterionOutcome["status"];
  criterion.blocking = k.blocking;
  criterion.reason = k.reason;
  criterion.checks = k.checks.map(checkOf);
  return criterion;
}

function checkOf(x: ContractJson["criteria"][number]["checks"][number]): CheckOutcome {
  const check = { type: x.type, result: x.result } as CheckOutcome;
  if (x.failureReason !== null) check.failureReason = x.failureReason;
  check.reason = x.reason;
  if (x.detail !== null) check.detail = x.detail;
  check.durationMs = x.durationMs;
  if (x.exitCode !== undefined) check.exitCode = x.exitCode;
  if (x.expected !== undefined) check.expected = x.expected;
  return check;
}

/** Where the shard's commands ran, as the engine's sandbox said. */
export function sandboxOf(report: ShardReport): SandboxInfo | undefined {
  return report.sandbox as SandboxInfo | undefined;
}

/** The `shard` block a leg writes. */
export function shardBlock(args: {
  shard: ShardSpec;
  scopeDigest: string;
  headSha: string;
  env: NodeJS.ProcessEnv;
  gateVersion: string;
}): ShardBlock {
  const { shard, scopeDigest, headSha, env, gateVersion } = args;
  return {
    index: shard.index,
    total: shard.total,
    scopeDigest,
    headSha,
    ...runOf(env),
    gateVersion,
  };
}

/** `GITHUB_RUN_ID` and `GITHUB_RUN_ATTEMPT` when set (and well formed); null outside Actions. */
export function runOf(env: NodeJS.ProcessEnv): Pick<ShardBlock, "runId" | "runAttempt"> {
  const id = env.GITHUB_RUN_ID?.trim();
  const attempt = env.GITHUB_RUN_ATTEMPT?.trim();
  return {
    runId: id && /^\d{1,40}$/.test(id) ? id : null,
    runAttempt: attempt && /^[1-9]\d{0,8}$/.test(attempt) ? Number(attempt) : null,
  };
}
