import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { evidenceLine } from "../checks/oracle.js";
import { phaseFiles } from "../formats/kinds/phase-files.js";
import { planHash } from "../formats/plan-hash.js";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { readRepoFile } from "../fs/repo-file.js";
import type { Contract, PlanHeader } from "../model/contract.js";
import { noRedaction, type Redact, redactDeep } from "../report/redact.js";
import type { ContractOutcome } from "../verdict.js";
import { rewriteEvidence } from "./oracle-evidence.js";
import { verificationJson, verificationMarkdown } from "./plan-verification.js";

export interface WriteResultsOptions {
  /** The job's secret values out of what is written into the contracts (report/redact.ts). */
  redact?: Redact;
  /** Default oracle timeout, for the EVIDENCE text of a timed-out oracle. */
  oracleTimeoutMs: number;
  now: Date;
}

/**
 * Record outcomes like the format's reference runner: EVIDENCE lines of
 * markdown contracts, `phase-<name>-verification.{json,md}` beside plan
 * contracts. Only contracts that ran are written; an invalid contract is
 * never touched. Nothing is written that would mislead or that the next
 * `validate` would refuse: not when the contract (or its plan) changed since
 * it was read, not through or over a symlink, not past the size cap.
 * Returns one message per contract whose results were not written.
 */
export async function writeResults(
  root: string,
  contracts: readonly Contract[],
  outcomes: readonly ContractOutcome[],
  opts: WriteResultsOptions,
): Promise<string[]> {
  const failures: string[] = [];
  for (const [i, contract] of contracts.entries()) {
    // Only what the run adds is redacted (its outcomes): the contract's own text is the author's.
    const outcome = redactDeep(outcomes[i]!, opts.redact ?? noRedaction);
    if (
      outcome.verdict === "invalid" ||
      outcome.verdict === "drifted" ||
      outcome.verdict === "aborted"
    )
      continue;
    const header = contract.header;
    // The planner's and workphase files belong to the tools that write them: nothing is recorded there.
    if (header.kind !== "oracle-contract" && header.kind !== "plan-contract") continue;
    try {
      const refused =
        header.kind === "oracle-contract"
          ? await writeOracleEvidence(root, contract, outcome, opts.oracleTimeoutMs)
          : await writeVerification(root, contract, header, outcome, opts.now);
      if (refused) failures.push(`${contract.path}: ${refused}`);
    } catch (e) {
      failures.push(`could not write results for ${contract.path}: ${(e as Error).message}`);
    }
  }
  return failures;
}

/** The contract's bytes when its file is exactly as the loader read it, else why nothing may be written. */
function unchanged(root: string, contract: Contract): { bytes: Uint8Array } | { why: string } {
  const read = readRepoFile(root, contract.path, MAX_CONTRACT_BYTES);
  if (read.kind === "symlink") {
    return {
      why: `is now a symlink to ${read.target}; nothing written (write-back never replaces a symlink)`,
    };
  }
  if (read.kind !== "file") {
    return {
      why: `${read.kind === "missing" ? "no longer exists" : read.message}; nothing written`,
    };
  }
  if (read.size > MAX_CONTRACT_BYTES || planHash(read.bytes) !== contract.digest) {
    return {
      why: "changed on disk during the run (a check rewrote it?), so the outcomes may not be its own; nothing written",
    };
  }
  return { bytes: read.bytes };
}

async function writeOracleEvidence(
  root: string,
  contract: Contract,
  outcome: ContractOutcome,
  oracleTimeoutMs: number,
): Promise<string | undefined> {
  const updates = [];
  for (const [i, criterion] of contract.criteria.entries()) {
    const oracle = criterion.checks[0];
    const ran = outcome.criteria[i]?.checks[0];
    if (oracle?.type !== "oracle" || !oracle.evidence || !ran) continue;
    if (ran.reason.startsWith("not run:")) continue;
    updates.push({ line: oracle.evidence.location.line, text: evidenceLine(ran, oracleTimeoutMs) });
  }
  if (updates.length === 0) return undefined;
  const current = unchanged(root, contract);
  if ("why" in current) return current.why;
  const rewritten = rewriteEvidence(current.bytes, updates);
  if (!rewritten.ok) return `${rewritten.message}; nothing written`;
  if (rewritten.bytes.length > MAX_CONTRACT_BYTES) {
    return `writing its EVIDENCE lines would make it ${rewritten.bytes.length} bytes, over the ${MAX_CONTRACT_BYTES}-byte cap that validate enforces; nothing written`;
  }
  await writeFileAtomic(join(root, contract.path), Buffer.from(rewritten.bytes));
  return undefined;
}

async function writeVerification(
  root: string,
  contract: Contract,
  header: PlanHeader,
  outcome: ContractOutcome,
  now: Date,
): Promise<string | undefined> {
  const files = phaseFiles(contract.path);
  if (files === undefined) return undefined;
  const current = unchanged(root, contract);
  if ("why" in current) return current.why;
  // The verdict holds for the plan the contract matched when it was read.
  if (contract.drift === "match" && header.planPath !== undefined) {
    const plan = readRepoFile(root, header.planPath, Number.MAX_SAFE_INTEGER);
    if (plan.kind !== "file" || planHash(plan.bytes) !== header.sourcePlanHash) {
      return `${header.planPath} changed during the run, so the contract no longer matches its plan; no verdict recorded`;
    }
  }
  const targets = [files.verificationJson, files.verificationMarkdown];
  for (const target of targets) {
    const info = await lstat(join(root, target)).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      return `${target} is a symlink; no verdict recorded (write-back never replaces a symlink)`;
    }
  }
  const json = verificationJson(header, outcome, now);
  await writeFileAtomic(join(root, targets[0]!), `${JSON.stringify(json, null, 2)}\n`);
  await writeFileAtomic(join(root, targets[1]!), verificationMarkdown(header, outcome, now));
  return undefined;
}
