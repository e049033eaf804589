import { z } from "zod";
import { FINDING_CODES, type FindingCode } from "../integrity/finding-codes.js";
import { type IntegrityReport, orderFindings } from "../integrity/types.js";
import { CONTRACT_KINDS } from "../model/contract.js";

const findingCodes = Object.keys(FINDING_CODES) as [FindingCode, ...FindingCode[]];

/** `integrity` in the `run --json` report (additive within schemaVersion 1). */
export const IntegrityJsonSchema = z.object({
  /** False when there is no PR base to compare with (`reason` says why). */
  applies: z.boolean(),
  reason: z.string().nullable(),
  /** The merge base the contracts were compared with. */
  base: z.string().nullable(),
  /** Blocking findings no approval acknowledges: each fails the gate. */
  blocking: z.number().int(),
  approvedBy: z.object({ login: z.string(), reviewUrl: z.string() }).nullable(),
  findings: z.array(
    z.object({
      code: z.enum(findingCodes),
      blocking: z.boolean(),
      contract: z.string(),
      kind: z.enum([...CONTRACT_KINDS, "pull-request"]),
      path: z.string(),
      line: z.number().int(),
      subject: z.string(),
      message: z.string(),
      before: z.string().nullable(),
      after: z.string().nullable(),
    }),
  ),
});

export type IntegrityJson = z.infer<typeof IntegrityJsonSchema>;

export function integrityJson(report: IntegrityReport): IntegrityJson {
  if (!report.applies) {
    return {
      applies: false,
      reason: report.reason,
      base: null,
      blocking: 0,
      approvedBy: null,
      findings: [],
    };
  }
  const findings = orderFindings(report.findings);
  return {
    applies: true,
    reason: null,
    base: report.base,
    blocking: report.approval ? 0 : findings.filter((f) => f.blocking).length,
    approvedBy: report.approval ?? null,
    findings: findings.map((f) => ({
      code: f.code,
      blocking: f.blocking,
      contract: f.contract,
      kind: f.kind,
      path: f.path,
      line: f.line,
      subject: f.subject,
      message: f.message,
      before: f.before ?? null,
      after: f.after ?? null,
    })),
  };
}
