import type { IntegrityReport } from "../integrity/types.js";
import type { SpecProof } from "../proof/types.js";
import { DEFAULT_CHECK_NAME } from "../report/github-text.js";
import { integrityMarkdown, integrityTerminal } from "../report/integrity.js";
import { renderMarkdown } from "../report/markdown.js";
import { paintFor } from "../report/paint.js";
import { proofMarkdown, proofTerminal } from "../report/proof.js";
import { runReportJsonChunks, type ShardBlock } from "../report/run-json.js";
import { runLineText } from "../report/run-line.js";
import { renderTerminal } from "../report/terminal.js";
import { describeSandbox } from "../sandbox/describe.js";
import type { SandboxInfo } from "../sandbox/index.js";
import type { Conclusion, ContractOutcome, RunSummary } from "../verdict.js";
import { gateConclusion } from "../verdict.js";
import type { CliIO } from "./io.js";

/** A run's verdict, however it was reached (`run`, or `merge` of shards). */
export interface PrintedRun {
  summary: RunSummary;
  outcomes: readonly ContractOutcome[];
  integrity: IntegrityReport | undefined;
  sandbox: SandboxInfo | undefined;
  /** The requirement proof of each spec contract in scope. */
  proof?: readonly SpecProof[];
  shard?: ShardBlock;
}

/**
 * The run's report on stdout in the form asked for (`--json` streamed,
 * `--markdown`, else the terminal report); returns the gate's conclusion.
 */
export async function printRun(
  io: CliIO,
  form: { json: boolean; markdown: boolean; budget: number },
  run: PrintedRun,
): Promise<Conclusion> {
  const { summary, outcomes, integrity, sandbox, shard } = run;
  const proof = run.proof ?? [];
  const conclusion = gateConclusion(summary.conclusion, integrity);
  if (form.json) {
    const extras = {
      ...(sandbox && { sandbox }),
      ...(integrity && { integrity }),
      ...(proof.length > 0 && { proof }),
      ...(shard && { shard }),
    };
    for (const chunk of runReportJsonChunks(summary, outcomes, extras)) {
      io.stdout(chunk);
      await io.stdoutDrain?.();
    }
  } else if (form.markdown) {
    io.stdout(
      renderMarkdown({ ...summary, conclusion }, outcomes, {
        budget: form.budget,
        // The action's check-run name: the same report reads the same wherever it is rendered.
        title: DEFAULT_CHECK_NAME,
        sandbox: sandbox && describeSandbox(sandbox),
        preamble: [
          integrityMarkdown(integrity, Math.floor(form.budget / 3)),
          proofMarkdown(proof, Math.floor(form.budget / 4)),
        ]
          .filter((s) => s !== "")
          .join("\n"),
        verdictLine: runLineText({ summary, outcomes, integrity }),
      }),
    );
  } else {
    const paint = paintFor(io.isTTY, io.env);
    io.stdout(
      renderTerminal({ ...summary, conclusion }, outcomes, paint, {
        integrity,
        ...((integrity || proof.length > 0) && {
          integritySection: [
            integrity ? integrityTerminal(integrity, paint) : "",
            proofTerminal(proof, paint),
          ]
            .filter((t) => t !== "")
            .join("\n"),
        }),
      }),
    );
  }
  return conclusion;
}
