import { kindOf } from "../formats/kinds/index.js";
import { jsonKindOf } from "../formats/kinds/json.js";
import { phaseFiles } from "../formats/kinds/phase-files.js";
import { specCompanions } from "../formats/spec/link.js";
import { researchPathOf } from "../formats/workphase/index.js";
import { GitReadError, openGit } from "../git/index.js";

/**
 * Repo-relative paths that differ between `ref` and the working tree: tracked
 * changes (both sides of a rename) plus untracked files that are not ignored.
 * A contract is in scope when it, its plan or its evidence changed.
 */
export async function changedSince(root: string, ref: string): Promise<Set<string>> {
  const git = openGit(root);
  if ((await git.resolveCommit(ref)) === undefined) {
    throw new GitError(`--changed-since ${ref}: no such commit in ${root}`);
  }
  try {
    const files = await git.worktreeChanges(ref, { renames: false });
    return new Set(files.flatMap((f) => [f.path, ...(f.previousPath ? [f.previousPath] : [])]));
  } catch (e) {
    if (e instanceof GitReadError) throw new GitError(`--changed-since ${ref}: ${e.message}`);
    throw e;
  }
}

export class GitError extends Error {}

/**
 * The files whose change puts a contract in scope: itself, its plan, its
 * evidence; for a workphase plan, the research its citations resolve against;
 * for a requirement spec, the tasks.md and plan.md beside it; for an
 * OpenSpec change, its whole folder (a path ending in `/`: any file under
 * it, see `withFolders`).
 */
export function companionsOf(contractPath: string): string[] {
  const kind = kindOf(contractPath);
  if (kind === "spec") return specCompanions(contractPath);
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
