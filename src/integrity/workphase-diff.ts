import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/** A plan at head that cites `research:<id>`: its path and the ids it cites. */
export interface HeadCitations {
  plan: string;
  ids: readonly string[];
  /** The line of the first citation, where the finding points at head. */
  line: number;
}

/**
 * A research file gone from its path at head. "A plan cannot rest on a
 * finding nobody recorded" (003): when the plan beside it still cites it,
 * the deletion blocks. With no citing plan it gates nothing
 * any more and is not a finding. Pure.
 */
export function researchRemoved(
  base: ContractVersion,
  citedBy: HeadCitations | undefined,
): Finding[] {
  if (citedBy === undefined || citedBy.ids.length === 0) return [];
  const ids = [...new Set(citedBy.ids)].map((id) => `research:${id}`);
  return [
    finding({
      code: "cited-research-removed",
      contract: base.path,
      kind: base.contract.kind,
      path: citedBy.plan,
      line: citedBy.line,
      subject: "contract",
      message: `${base.path} was deleted or moved, but ${citedBy.plan} still cites ${ids.join(", ")}`,
    }),
  ];
}

/** Research findings read in the seed's legacy form (no `id` or `confidence`). */
function legacyLines(v: ContractVersion): number[] {
  return v.contract.problems.filter((p) => p.code === "legacy-research").map((p) => p.line);
}

/**
 * Research in the legacy form (findings without ids, read as `legacy-<n>`)
 * is accepted with a warning when the file is unchanged since the PR base,
 * and refused when the PR adds or changes it: old artifacts
 * stay readable, new ones are written with ids. `base` is absent when the PR
 * adds the file. Pure.
 */
export function legacyResearch(
  base: ContractVersion | undefined,
  head: ContractVersion,
): Finding[] {
  const lines = legacyLines(head);
  if (lines.length === 0) return [];
  if (base !== undefined && base.text === head.text) return [];
  const n = lines.length;
  return [
    finding({
      code: "legacy-research-changed",
      contract: head.path,
      kind: head.contract.kind,
      path: head.path,
      line: lines[0] ?? 1,
      subject: "contract",
      message: `${head.path} is ${base === undefined ? "added" : "changed"} by this PR with ${n} finding${n === 1 ? "" : "s"} in the legacy form (no id or confidence); a new or edited artifact gives every finding an id and a confidence`,
    }),
  ];
}
