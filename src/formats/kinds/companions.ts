import { kiroCompanions, kiroSpecOf } from "../kiro/index.js";
import { specCompanions } from "../spec/link.js";
import { researchPathOf } from "../workphase/link.js";
import { kindOf } from "./index.js";
import { jsonKindOf } from "./json.js";
import { phaseFiles } from "./phase-files.js";

/**
 * The files whose change puts a contract in scope, and that the gate reads
 * with it: itself, its plan, its evidence; for a workphase plan, the research
 * its citations resolve against; for a requirement spec, the tasks.md and
 * plan.md beside it; for a Kiro spec, its design.md and tasks.md. From the path alone: PR selection, `--changed-since`
 * and `--committed` decide before (or without) parsing, and must agree.
 */
export function companionsOf(contractPath: string): string[] {
  const kind = kindOf(contractPath);
  if (kind === "spec") return specCompanions(contractPath);
  if (kind === "kiro-spec") return kiroCompanions(kiroSpecOf(contractPath) ?? contractPath);
  if (jsonKindOf(contractPath) === "workphase-plan") {
    return [contractPath, researchPathOf(contractPath)];
  }
  const files = phaseFiles(contractPath);
  return files ? [contractPath, files.plan, files.evidence] : [contractPath];
}
