import type { ContractKind } from "../model.js";
import { jsonKindOf, PLANNER_GLOBS, WORKPHASE_GLOBS } from "./json-kinds.js";

/** Requirement specs (seed 004, spec-kit): `specs/<NNN>-<slug>/spec.md` and the `tasks.md` beside it. */
export const SPEC_GLOBS: readonly string[] = ["specs/*/spec.md", "specs/*/tasks.md"];

/** Default discovery globs, relative to the repository root (docs/contracts.md and the README's "Your first contract"). */
export const DEFAULT_CONTRACT_GLOBS: readonly string[] = [
  ".planning/phase-*-contract.json",
  ".claude/tasks/contracts/**/*.md",
  ...PLANNER_GLOBS,
  ...WORKPHASE_GLOBS,
  ...SPEC_GLOBS,
];

/**
 * The kind of a contract file, decided by its name (and, for `.workphase/`,
 * its place) so that contracts found through custom globs parse the same way
 * as discovered ones. Each parser then confirms the kind by the file's shape.
 */
export function kindOf(path: string): ContractKind | undefined {
  if (path.endsWith(".json")) return jsonKindOf(path);
  if (path.endsWith(".md")) return specKindOf(path) ?? "oracle-contract";
  return undefined;
}

/**
 * `spec.md` and `tasks.md` are requirement specs wherever the globs find them
 * (the `specs/` root is configurable), except among the markdown contracts'
 * own ledger. The spec parser tells the two layouts apart by the first heading.
 */
function specKindOf(path: string): ContractKind | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name !== "spec.md" && name !== "tasks.md") return undefined;
  if (path.startsWith(".claude/tasks/contracts/") || path.includes("/.claude/tasks/contracts/")) {
    return undefined;
  }
  return name === "spec.md" ? "spec" : "speckit-tasks";
}
