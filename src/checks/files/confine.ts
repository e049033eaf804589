import { lstat, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { normalizeRepoPath, unsafePathReason } from "../../formats/paths.js";

/** What a repo-relative path turned out to be, after following symlinks inside the repo. */
export type Resolved =
  /** `abs` is the real path, inside the repository. */
  | { kind: "file"; rel: string; abs: string }
  | { kind: "directory"; rel: string; abs: string }
  /** A FIFO, socket or device: never opened, since reading one could block forever. */
  | { kind: "other"; rel: string; abs: string }
  | { kind: "missing"; rel: string; brokenLink: boolean }
  /** A symlink (here or in a parent directory) leading out of the repository. */
  | { kind: "outside"; rel: string; target: string }
  /** The path could not be examined (permissions, a symlink loop) or is unsafe. */
  | { kind: "error"; rel: string; message: string };

/**
 * Resolve a contract path against the repository root. Every symlink is
 * resolved with `realpath`, and a path whose real location is outside the
 * root's real location is reported, never followed: a contract must not be
 * able to make the gate read (and quote) files from elsewhere on the runner.
 * Nor from `.git/`, as written or as resolved (see `inGitDir`).
 */
export async function resolveInRepo(root: string, path: string): Promise<Resolved> {
  const unsafe = unsafePathReason(path);
  if (unsafe)
    return { kind: "error", rel: path, message: `path ${JSON.stringify(path)} ${unsafe}` };
  const rel = normalizeRepoPath(path);
  if (inGitDir(rel)) return { kind: "error", rel, message: gitDirRule(rel) };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (e) {
    return { kind: "error", rel, message: `repository root ${root}: ${errorText(e)}` };
  }
  let real: string;
  try {
    real = await realpath(join(realRoot, rel));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { kind: "missing", rel, brokenLink: await isSymlink(join(realRoot, rel)) };
    }
    return { kind: "error", rel, message: `${rel}: ${errorText(e)}` };
  }
  if (!isInside(realRoot, real)) return { kind: "outside", rel, target: real };
  const realRel = relative(realRoot, real).split(sep).join("/");
  if (inGitDir(realRel)) return { kind: "error", rel, message: gitDirRule(rel, realRel) };
  try {
    const info = await stat(real);
    if (info.isFile()) return { kind: "file", rel, abs: real };
    if (info.isDirectory()) return { kind: "directory", rel, abs: real };
    return { kind: "other", rel, abs: real };
  } catch (e) {
    return { kind: "error", rel, message: `${rel}: ${errorText(e)}` };
  }
}

/**
 * Whether a repo-relative path (`/`-separated) is git's own store or inside
 * it, at any depth (a submodule has its own `.git`). `actions/checkout`
 * leaves the job's token in `.git/config`; a file check that could read it
 * would leak it through pass/fail outcomes and quoted lines, one bit per check.
 */
export function inGitDir(rel: string): boolean {
  return rel.split("/").includes(".git");
}

/** The execution error for a path that is, or resolves into, `.git`. */
export function gitDirRule(rel: string, realRel?: string): string {
  const via = realRel === undefined || realRel === rel ? "" : ` (it resolves to ${realRel})`;
  return `${rel} is inside .git${via}: file checks and citations never read git's own files, which can hold credentials`;
}

/** True when `path` is `root` or below it (both already real paths). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The one-line reason a resolved path is not a readable regular file (for `file` it is empty). */
export function describeResolved(resolved: Resolved): string {
  switch (resolved.kind) {
    case "file":
      return "";
    case "directory":
      return `${resolved.rel} is a directory, not a file`;
    case "other":
      return `${resolved.rel} is not a regular file`;
    case "missing":
      return resolved.brokenLink
        ? `${resolved.rel} does not exist (it is a broken symlink)`
        : `${resolved.rel} does not exist`;
    case "outside":
      return `${resolved.rel} resolves outside the repository (to ${resolved.target}); symlinks out of the repository are not followed`;
    case "error":
      return resolved.message;
  }
}

/** "EACCES: permission denied" without the absolute path Node appends. */
export function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/, \w+ '.*'$/s, "");
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
