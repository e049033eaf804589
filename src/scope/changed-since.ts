import { type Git, GitReadError } from "../git/index.js";

/**
 * Repo-relative paths that differ between `ref` and the working tree: tracked
 * changes (both sides of a rename) plus untracked files that are not ignored.
 * A contract is in scope when it or one of its companions changed (`companionsOf`).
 */
export async function changedSince(git: Git, ref: string): Promise<Set<string>> {
  if ((await git.resolveCommit(ref)) === undefined) {
    throw new GitError(`--changed-since ${ref}: no such commit in ${git.root}`);
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
