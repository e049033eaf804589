import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Git } from "../git/index.js";
import type { ChangedFile } from "../github/types.js";

/**
 * One file a PR changed: its path and text at the base and at head. Added: no
 * base path; deleted: no head path; renamed: both paths. A path given without
 * its text means the caller could not read that side.
 */
export interface FileChange {
  basePath?: string;
  headPath?: string;
  base?: string;
  head?: string;
}

/** The most bytes of one changed file the diff readings look at; a larger file is unreadable to them. */
export const DIFF_FILE_LIMIT = 1024 * 1024;
/** Lockfiles of real projects run to megabytes: "no new dependencies" reads them whole up to this. */
export const LOCKFILE_LIMIT = 64 * 1024 * 1024;
const LOCKFILE =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock|poetry\.lock|uv\.lock|Pipfile\.lock|Cargo\.lock)$/;

/** How many bytes of `path` a diff reading reads. */
export function diffLimit(path: string): number {
  return LOCKFILE.test(path) ? LOCKFILE_LIMIT : DIFF_FILE_LIMIT;
}

/**
 * One side of a PR's diff (the merge base, or the head): each path's text, or
 * `undefined` when that side has no regular text file there (missing, binary,
 * too large, a symlink, a directory). The tamper reading turns an unreadable
 * test file into a blocking finding, so "could not read" is never "nothing".
 */
export type FileSide = (paths: readonly string[]) => Promise<Map<string, string | undefined>>;

function text(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The files at a commit, in one batch (`Git.readAt`). */
export function gitSide(git: Git, commit: string): FileSide {
  return async (paths) => {
    const read = await git.readAt(
      commit,
      paths.map((path) => ({ path, limit: diffLimit(path) })),
    );
    const out = new Map<string, string | undefined>();
    for (const p of paths) {
      const r = read.get(p);
      out.set(p, r?.kind === "file" && r.bytes.length === r.size ? text(r.bytes) : undefined);
    }
    return out;
  };
}

/** The working tree (the CLI's head): regular files only, never through a symlink. */
export function diskSide(root: string): FileSide {
  return async (paths) => {
    const out = new Map<string, string | undefined>();
    for (const p of paths) {
      try {
        const at = join(root, p);
        const st = await lstat(at);
        out.set(p, st.isFile() && st.size <= diffLimit(p) ? text(await readFile(at)) : undefined);
      } catch {
        out.set(p, undefined);
      }
    }
    return out;
  };
}

/**
 * A PR's changed files with their text on both sides, in the shape the tamper
 * reading takes: added (head only), removed (base only), renamed (both paths),
 * anything else modified. Paths are relative to the root both sides read from.
 */
export async function fileChanges(
  changed: readonly ChangedFile[],
  base: FileSide,
  head: FileSide,
): Promise<FileChange[]> {
  const sides = changed
    .filter((f) => f.status !== "unchanged")
    .map((f) => {
      const basePath =
        f.status === "added" || f.status === "copied"
          ? undefined
          : f.status === "renamed"
            ? (f.previousPath ?? f.path)
            : f.path;
      const headPath = f.status === "removed" ? undefined : f.path;
      return { basePath, headPath };
    });
  const [b, h] = await Promise.all([
    base(sides.flatMap((s) => (s.basePath === undefined ? [] : [s.basePath]))),
    head(sides.flatMap((s) => (s.headPath === undefined ? [] : [s.headPath]))),
  ]);
  return sides.map(({ basePath, headPath }) => {
    const change: FileChange = {};
    if (basePath !== undefined) {
      change.basePath = basePath;
      const t = b.get(basePath);
      if (t !== undefined) change.base = t;
    }
    if (headPath !== undefined) {
      change.headPath = headPath;
      const t = h.get(headPath);
      if (t !== undefined) change.head = t;
    }
    return change;
  });
}
