import type { ContractKind } from "../model.js";

/** Default discovery globs, one per contract kind, relative to the repository root. */
export const DEFAULT_CONTRACT_GLOBS: readonly string[] = [
  ".planning/phase-*-contract.json",
  ".claude/tasks/contracts/**/*.md",
];

/**
 * The kind of a contract file, decided by its extension so that contracts
 * found through custom globs parse the same way as discovered ones.
 */
export function kindOf(path: string): ContractKind | undefined {
  if (path.endsWith(".json")) return "plan-contract";
  if (path.endsWith(".md")) return "oracle-contract";
  return undefined;
}
