import { kiroCompanions, kiroSpecOf } from "../kiro/index.js";
import { specCompanions } from "../spec/link.js";
import { researchPathOf } from "../workphase/link.js";
import { kindOf } from "./index.js";
import { jsonKindOf } from "./json.js";
import { openspecContractPath } from "./openspec.js";
import { phaseFiles } from "./phase-files.js";

/**
 * The files whose change puts a contract in scope, and that the gate reads
 * with it: itself, its plan, its evidence; for a workphase plan, the research
 * its citations resolve against; for a requirement spec, the tasks.md and
 * plan.md beside it; for a Kiro spec, its design.md and tasks.md; for an OpenSpec change, its
 * whole folder (a path ending in `/`: any file under it, see `withFolders`). From the path alone: PR selection, `--changed-since`
 * and `--committed` decide before (or without) parsing, and must agree.
 */
export function companionsOf(contractPath: string): string[] {
  const kind = kindOf(contractPath);
  if (kind === "spec") return specCompanions(contractPath);
  if (kind === "kiro-spec") return kiroCompanions(kiroSpecOf(contractPath) ?? contractPath);
  if (kind === "openspec-change") {
    return [contractPath, contractPath.slice(0, contractPath.lastIndexOf("/") + 1)];
  }
  if (jsonKindOf(contractPath) === "workphase-plan") {
    return [contractPath, researchPathOf(contractPath)];
  }
  const files = phaseFiles(contractPath);
  return files ? [contractPath, files.plan, files.evidence] : [contractPath];
}

/**
 * The paths with every folder that holds one (`a/b/c.md` adds `a/` and
 * `a/b/`), so a companion folder (`companionsOf`) is found by set lookup.
 */
export function withFolders(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    out.add(p);
    for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) out.add(p.slice(0, i + 1));
  }
  return out;
}

/**
 * The contract a file is read with, when it is not that contract itself: a
 * Kiro spec's design.md or tasks.md belongs to its requirements.md, any file
 * of an active OpenSpec change to the change's proposal.md (the inverse of
 * `companionsOf` for the kinds that are one contract in several files). A PR
 * that changes such a file alone has changed that contract.
 */
export function contractOfFile(path: string): string | undefined {
  const owner =
    kiroSpecOf(path) ??
    (kindOf(path) === "openspec-change" ? openspecContractPath(path) : undefined);
  return owner === path ? undefined : owner;
}
