import { isAscii, isUtf8 } from "node:buffer";
import { z } from "zod";
import type { Problem } from "../model.js";
import { RunReportSchema, type ShardBlock, ShardBlockSchema } from "../report/run-json.js";
import type { SandboxInfo } from "../sandbox/index.js";
import type { CheckOutcome, ContractOutcome, CriterionOutcome } from "../verdict.js";
import type { ShardSpec } from "./assign.js";

/**
 * A shard's report: the `run --json` report with its `shard` block required.
 * It is data from another job, so it is validated whole before any of it is used.
 */
export const ShardReportSchema = RunReportSchema.extend({ shard: ShardBlockSchema });

export type ShardReport = z.infer<typeof ShardReportSchema>;

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
  return { ok: true, report: parsed.data };
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

/** The shard's outcomes, as the engine returned them (the fields the JSON report keeps). */
export function outcomesOf(report: ShardReport): ContractOutcome[] {
  return report.contracts.map((c) => ({
    path: c.path,
    kind: c.kind,
    verdict: c.verdict,
    problems: c.problems.map((p) => {
      const { path, line, column, code, severity, message, hint } = p;
      return {
        code,
        severity,
        message,
        path,
        line,
        column,
        ...(hint !== undefined && { hint }),
      } as Problem;
    }),
    criteria: c.criteria.map(
      (k): CriterionOutcome => ({
        id: k.id,
        title: k.title,
        ...(k.group !== null && { group: k.group }),
        location: k.location,
        status: k.status as CriterionOutcome["status"],
        blocking: k.blocking,
        reason: k.reason,
        checks: k.checks.map(
          (x): CheckOutcome => ({
            type: x.type,
            result: x.result,
            ...(x.failureReason !== null && { failureReason: x.failureReason }),
            reason: x.reason,
            ...(x.detail !== null && { detail: x.detail }),
            durationMs: x.durationMs,
            ...(x.exitCode !== undefined && { exitCode: x.exitCode }),
            ...(x.expected !== undefined && { expected: x.expected }),
          }),
        ),
      }),
    ),
  }));
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
