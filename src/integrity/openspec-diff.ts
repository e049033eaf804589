import type { OpenspecHeader, OpenspecRequirement } from "../model/contract.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/**
 * What the PR's delta specs say about one capability: the names they
 * remove, modify and rename. A main spec's requirement may change only as
 * a delta says (OpenSpec's archive writes the main spec from the deltas);
 * the same edit with no delta saying so is a weakening.
 */
export interface DeclaredDeltas {
  removed: ReadonlySet<string>;
  modified: ReadonlySet<string>;
  /** Old name → new name. */
  renamed: ReadonlyMap<string, string>;
}

export const NO_DELTAS: DeclaredDeltas = {
  removed: new Set(),
  modified: new Set(),
  renamed: new Map(),
};

/**
 * A main spec against its base: a requirement dropped, its SHALL/MUST
 * softened or a scenario removed, with no REMOVED/RENAMED/MODIFIED delta of
 * the PR saying so, blocks until approved. Additions and declared changes
 * are the change's content. Pure.
 */
export function openspecSpecFindings(
  base: ContractVersion,
  head: ContractVersion | undefined,
  declared: DeclaredDeltas,
): Finding[] {
  const before = requirementsOf(base);
  const after = head === undefined ? [] : requirementsOf(head);
  const now = new Map(after.map((r) => [r.name, r]));
  const where = head ?? base;
  const at = (line: number, subject: string) => ({
    contract: where.path,
    kind: "openspec-spec" as const,
    path: where.path,
    line,
    subject,
  });
  const out: Finding[] = [];
  for (const r of before) {
    const renamed = declared.renamed.get(r.name);
    const current = now.get(r.name) ?? (renamed === undefined ? undefined : now.get(renamed));
    if (current === undefined) {
      if (declared.removed.has(r.name) || renamed !== undefined) continue;
      out.push(
        finding({
          code: "openspec-requirement-dropped",
          ...at(1, r.name),
          message: `requirement "${r.name}" is gone${head === undefined ? " with its main spec" : ""}, and no delta of this PR says REMOVED for it`,
          before: r.text,
        }),
      );
      continue;
    }
    if (declared.modified.has(current.name)) continue;
    if (current.normative < r.normative) {
      out.push(
        finding({
          code: "openspec-requirement-softened",
          ...at(current.location.line, r.name),
          message: `requirement "${r.name}" says SHALL/MUST ${r.normative === 1 ? "once" : `${r.normative} times`} at base and ${current.normative === 0 ? "not at all" : `${current.normative} times`} at head, and no MODIFIED delta of this PR says so`,
          before: r.text,
          after: current.text,
        }),
      );
    }
    const kept = current.scenarios.map((s) => s.name);
    for (const s of r.scenarios) {
      const k = kept.indexOf(s.name);
      if (k !== -1) {
        kept.splice(k, 1);
        continue;
      }
      out.push(
        finding({
          code: "openspec-scenario-dropped",
          ...at(current.location.line, `${r.name} / ${s.name}`),
          message: `requirement "${r.name}" lost its scenario "${s.name}", and no MODIFIED delta of this PR says so`,
          before: s.name,
        }),
      );
    }
  }
  return out;
}

/**
 * An active change that the PR archives or deletes: open tasks left behind
 * are a finding (checked in the archived copy when it was moved, at base
 * when it was deleted). Archiving a finished change is its lifecycle. Pure.
 */
export function openspecChangeFindings(
  base: ContractVersion,
  closed: { archivedTo?: string; openTasks: { id: string; line: number; path: string }[] },
): Finding[] {
  if (closed.openTasks.length === 0) return [];
  const first = closed.openTasks[0]!;
  const ids = closed.openTasks.map((t) => t.id);
  return [
    finding({
      code: "openspec-change-closed-open",
      contract: base.path,
      kind: "openspec-change",
      path: first.path,
      line: first.line,
      subject: "tasks",
      message: `${closed.archivedTo === undefined ? `${base.path}'s change was deleted` : `the change was archived to ${closed.archivedTo}`} with ${ids.length} open task${ids.length > 1 ? "s" : ""}: ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", …" : ""}`,
    }),
  ];
}

function requirementsOf(v: ContractVersion): readonly OpenspecRequirement[] {
  const header = v.contract.header as OpenspecHeader;
  return header.spec?.requirements ?? [];
}
