import { type Approval, type Finding, finding, type IntegrityReport } from "../integrity/types.js";
import type { SpecProof } from "./types.js";

/**
 * The proof's diff findings as contract-integrity findings, so they block
 * the same way and an approving review acknowledges them the same way
 * (docs/integrity.md, "Approval"): tamper findings are the PR's, once
 * whatever the number of specs; guardrail findings are their spec's. Each
 * points at the file and line that breaks the rule (a removed test: its
 * line in the base version).
 */
export function proofFindings(
  tamper: SpecProof["tamper"],
  specs: readonly SpecProof[],
  kindOf: (contract: string) => "spec" | "speckit-spec" = () => "spec",
): Finding[] {
  const out: Finding[] = tamper.map((t) =>
    finding({
      code: t.code,
      contract: t.file,
      kind: "pull-request",
      path: t.file,
      line: t.line,
      subject: "tests",
      message: t.message,
    }),
  );
  for (const spec of specs) {
    for (const g of spec.guardrails) {
      out.push(
        finding({
          code: g.code,
          contract: spec.contract,
          kind: kindOf(spec.contract),
          path: g.file,
          line: g.line ?? 1,
          subject: `guardrail at ${spec.contract}:${g.guardrail.line}`,
          message: g.message,
        }),
      );
    }
  }
  return out;
}

/** How an approval is looked up (the action: `findApproval`); the CLI has none. */
export type ApprovalLookup = () => Promise<{ approval?: Approval; note: string }>;

/**
 * The base comparison with the proof's findings added, so one approval rule
 * and one conclusion cover both. When the proof brings the first blocking
 * finding, the approval is looked up now (the comparison only looks when
 * something of its own blocks); an approval or note already decided stands.
 */
export async function withProofFindings(
  report: IntegrityReport,
  findings: readonly Finding[],
  lookup?: ApprovalLookup,
): Promise<IntegrityReport> {
  if (!report.applies || findings.length === 0) return report;
  const merged = { ...report, findings: [...report.findings, ...findings] };
  const decided = report.approval !== undefined || report.approvalNote !== undefined;
  if (decided || !findings.some((f) => f.blocking)) return merged;
  if (lookup === undefined) return merged;
  const { approval, note } = await lookup();
  return approval ? { ...merged, approval } : { ...merged, approvalNote: note };
}
