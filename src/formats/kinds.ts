import type { ContractKind } from "../model.js";
import { jsonKindOf, PLANNER_GLOBS, WORKPHASE_GLOBS } from "./json-kinds.js";

/** Default discovery globs, relative to the repository root (docs/contracts.md and the README's "Your first contract"). */
export const DEFAULT_CONTRACT_GLOBS: readonly string[] = [
  ".planning/phase-*-contract.json",
  ".claude/tasks/contracts/**/*.md",
  ...PLANNER_GLOBS,
  ...WORKPHASE_GLOBS,
];

/**
 * The kind of a contract file, decided by its name (and, for `.workphase/`,
 * its place) so that contracts found through custom globs parse the same way
 * as discovered ones. Each parser then confirms the kind by the file's shape.
 */
export function kindOf(path: string): ContractKind | undefined {
  if (path.endsWith(".json")) return jsonKindOf(path);
  if (path.endsWith(".md")) return "oracle-contract";
  return undefined;
}
