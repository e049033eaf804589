import { companionsOf, withFolders } from "../formats/kinds/companions.js";
import type { ChangedFile } from "../github/types.js";
import { contractPaths } from "../scope/contract-path.js";

/**
 * Which discovered contracts a PR touches: the contract itself, its
 * `phase-N-plan.md` or its `phase-N-evidence.json` changed. Contracts the PR
 * deletes (or renames away) are listed as removed: nothing of them runs (their
 * deletion is an integrity finding, see src/integrity/).
 * Contract paths the PR changes that are not regular files at head (a
 * submodule, any other type change; a symlink is discovered and refused by
 * the loader) are listed as `notFiles`: nothing of them runs, and the
 * integrity rules treat them as deleted.
 * `changed` paths are relative to the repository root, contract paths to the
 * working directory `prefix` ("" when it is the root). `by` names, for each
 * selected contract, the changed file that selected it (itself first).
 */
export function selectChanged(
  discovered: readonly string[],
  changed: readonly ChangedFile[],
  globs: readonly string[],
  prefix: string,
): { selected: string[]; removed: string[]; notFiles: string[]; by: Map<string, string> } {
  const local = (p: string) =>
    prefix === "" ? p : p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : undefined;
  const present = new Set<string>();
  const gone = new Set<string>();
  for (const f of changed) {
    const path = local(f.path);
    if (path !== undefined) (f.status === "removed" ? gone : present).add(path);
    if (f.previousPath !== undefined && f.status === "renamed") {
      const before = local(f.previousPath);
      if (before !== undefined) gone.add(before);
    }
  }
  const { isContract } = contractPaths(globs);
  // A deleted companion selects its contract too: a plan whose research was deleted still cites it.
  const by = new Map<string, string>();
  // A companion folder (an OpenSpec change's) is touched by any file under it.
  const presentIn = withFolders(present);
  const goneIn = withFolders(gone);
  for (const c of discovered) {
    const file = companionsOf(c).find((p, i) => presentIn.has(p) || (i > 0 && goneIn.has(p)));
    if (file !== undefined) by.set(c, file);
  }
  const selected = discovered.filter((c) => by.has(c));
  const removed = [...gone].filter((p) => isContract(p) && !present.has(p)).sort();
  // A tasks.md read with the spec beside it is a file at head, not a contract of its own.
  const found = new Set([...discovered, ...discovered.flatMap((c) => companionsOf(c))]);
  const notFiles = [...present].filter((p) => isContract(p) && !found.has(p)).sort();
  return { selected, removed, notFiles, by };
}
