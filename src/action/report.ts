import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { SpecProof } from "../proof/types.js";
import { integrityTerminal } from "../report/integrity.js";
import { plain } from "../report/paint.js";
import { proofTerminal } from "../report/proof.js";
import { noRedaction, type Redact, redactChunks } from "../report/redact.js";
import { runReportJsonChunks } from "../report/run-json.js";
import { renderTerminal } from "../report/terminal.js";
import { withScope } from "../scope/scope-reason.js";
import { type ContractOutcome, type RunSummary, withIntegrity } from "../verdict.js";
import type { Scope } from "./collect.js";
import type { RunnerEnv } from "./event.js";
import type { ActionSettings } from "./inputs.js";
import type { ActionIO } from "./io.js";
import type { ChecksRun } from "./run-checks.js";

/** The verdict (src/report/github-surfaces.ts turns it into what the action posts). */
export interface GateReport {
  summary: RunSummary;
  outcomes: ContractOutcome[];
  integrity: IntegrityReport;
  /** The requirement proof of each spec contract in scope. */
  proof: readonly SpecProof[];
  /** Path of the JSON report (an output). */
  reportPath: string;
}

/**
 * Stage 7: the verdict (with the base comparison and `if-no-contracts`), the
 * log, and the JSON report for later steps. A report that cannot be written is
 * a warning.
 */
export async function reportRun(args: {
  io: ActionIO;
  /** The job's secret values out of the JSON report (the io redacts the rest). */
  redact?: Redact;
  runner: RunnerEnv;
  settings: ActionSettings;
  scope: Scope;
  integrity: IntegrityReport;
  run: ChecksRun;
  proof?: readonly SpecProof[];
}): Promise<GateReport> {
  const { io, runner, settings, scope, integrity, run } = args;
  const proof = args.proof ?? [];
  const { noMatch } = scope;
  const gated = withIntegrity(run.result.summary, integrity);
  // if-no-contracts: failure makes a misconfigured gate block; the default keeps it neutral (but loud).
  const summary =
    (noMatch !== undefined && settings.ifNoContracts === "failure") ||
    scope.misconfigured !== undefined
      ? { ...gated, conclusion: "failure" as const }
      : gated;
  const outcomes = withScope(run.result.contracts, scope.reasons);
  io.untrusted(
    renderTerminal(summary, outcomes, plain, {
      integrity,
      integritySection: [integrityTerminal(integrity, plain), proofTerminal(proof, plain)]
        .filter((t) => t !== "")
        .join("\n"),
    }),
  );

  // The JSON report, for later steps.
  const reportDir = join(runner.runnerTemp ?? tmpdir(), "contract-gate");
  const reportPath = join(
    reportDir,
    `report-${runner.runId}-${runner.runAttempt}-${slug(settings.checkName)}.json`,
  );
  try {
    await mkdir(reportDir, { recursive: true });
    // Exactly schema/run-report.schema.json (no extra keys): removed contracts are in the summaries.
    await writeFileAtomic(
      reportPath,
      redactChunks(
        runReportJsonChunks(summary, outcomes, {
          ...(run.sandbox && { sandbox: run.sandbox }),
          ...(integrity && { integrity }),
          proof,
        }),
        args.redact ?? noRedaction,
      ),
    );
  } catch (e) {
    io.warning(`contract-gate: could not write the JSON report: ${(e as Error).message}`);
  }

  return {
    summary,
    outcomes,
    integrity,
    proof,
    reportPath,
  };
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "gate"
  );
}
