import { problem } from "../model/problems.js";
import type { SpecProof } from "../proof/types.js";
import type { SpecProofJson } from "../report/proof-json.js";
import type { ContractOutcome } from "../verdict.js";
import type { FoundReport, MergedRun } from "./merge.js";

/** The merged run with the legs' requirement proofs in place of the merge's own. */
export interface ProvedMerge {
  /** As `MergedRun.outcomes`, a spec whose leg proved it otherwise than this merge would replaced by a failing row. */
  outcomes: ContractOutcome[];
  /** Rows saying what is wrong with the shards (theirs and these), all first in `outcomes`. */
  failures: number;
  /** The merge's own proof of each spec (the diff readings), with the test runs of the leg that ran it. */
  proof: SpecProof[];
}

/**
 * The requirement proof of a sharded run (docs/sharding.md): each leg runs
 * the mapped tests of its own specs against the merge base, as an unsharded
 * run does, so its rows are already decided; the merge reads the diff itself
 * (tamper, guardrails: `own`) and takes from the leg only the test runs. A
 * leg that proved a spec against another base than this merge's, with the
 * proof on where this merge has it off (or the reverse), or not at all, is
 * a failing row in place of that spec's results: a sharded run is never
 * weaker than an unsharded one. Pure.
 */
export function withShardProofs(
  merged: Pick<MergedRun, "outcomes" | "failures" | "used">,
  found: readonly FoundReport[],
  own: readonly SpecProof[],
): ProvedMerge {
  // Where each contract's outcome came from: the report chosen for its shard.
  const byFile = new Map(found.map((f) => [f.file, f.read]));
  const legProof = new Map<string, { where: string; proof: SpecProofJson | undefined }>();
  for (const u of merged.used) {
    const read = byFile.get(u.file);
    if (!read?.ok) continue;
    const where = `shard ${read.report.shard.index} of ${read.report.shard.total} (${u.file})`;
    for (const c of read.report.outcomes)
      legProof.set(c.path, { where, proof: read.report.proofs.get(c.path) });
  }
  const ownRows = new Map(
    merged.outcomes.slice(merged.failures).map((o, k) => [o.path, k + merged.failures]),
  );

  const wrong = new Map<string, string>();
  const proof = own.map((spec): SpecProof => {
    const leg = legProof.get(spec.contract);
    // No shard's results for it: a failing row already says which shard and why.
    if (leg === undefined || !ownRows.has(spec.contract)) return spec;
    const why = disagreement(spec, leg.proof);
    if (why !== undefined) {
      wrong.set(spec.contract, `${leg.where} ${why}`);
      return spec;
    }
    const p = leg.proof!;
    const { unproved: _own, ...rest } = spec;
    return {
      ...rest,
      runs: p.runs.map((r) => ({ ...r })),
      tests: p.tests.map((t) => ({ ...t, mapLocation: { ...t.mapLocation, column: 1 } })),
      ...(p.unproved !== undefined && { unproved: p.unproved }),
    };
  });

  if (wrong.size === 0) return { outcomes: [...merged.outcomes], failures: merged.failures, proof };
  const rows: ContractOutcome[] = [];
  for (const [path, message] of wrong) {
    const outcome = merged.outcomes[ownRows.get(path)!]!;
    rows.push({
      path,
      kind: outcome.kind,
      verdict: "invalid",
      problems: [
        problem("shard-report-mismatch", { path, line: 1, column: 1 }, `${path}: ${message}`),
      ],
      criteria: [],
    });
  }
  const kept = merged.outcomes.slice(merged.failures).filter((o) => !wrong.has(o.path));
  return {
    outcomes: [...merged.outcomes.slice(0, merged.failures), ...rows, ...kept],
    failures: merged.failures + rows.length,
    proof,
  };
}

/** What in a leg's proof of a spec disagrees with the merge's own, as the rest of a sentence. */
function disagreement(own: SpecProof, leg: SpecProofJson | undefined): string | undefined {
  if (leg === undefined) {
    return "reports this requirement spec without its requirement proof: every leg must run the same gate version with the same requirement-proof input";
  }
  if (leg.enabled !== own.enabled) {
    return `ran with requirement-proof ${leg.enabled ? "on" : "off"}, but this merge has it ${own.enabled ? "on" : "off"}: give every leg and the merge the same requirement-proof input`;
  }
  if (leg.base !== own.base) {
    const said = (b: string | undefined) => (b === undefined ? "no base" : b.slice(0, 12));
    return `proved its mapped tests against ${said(leg.base)}, but this merge compares with ${said(own.base)}: every leg must prove against the merge base this merge uses (the same pull request, or the same --base)`;
  }
  return undefined;
}
