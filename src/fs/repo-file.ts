import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

/**
 * What reading one of the gate's own inputs (a contract, its plan, its
 * evidence) found. These files are never read through a symlink: a link
 * could make the gate read, hash and quote a file outside the repository,
 * or gate a different file than the one a reviewer sees in the diff.
 */
export type RepoFileRead =
  /** `size` is the real size; `bytes` stops one byte past the limit. */
  | { kind: "file"; bytes: Uint8Array; size: number }
  | { kind: "missing" }
  /** `link`: the repo-relative path that is a symlink (the file or a directory above it). */
  | { kind: "symlink"; link: string; target: string }
  /** `message` completes "<path> …": "is a directory", "is not readable (permission denied)". */
  | { kind: "error"; message: string };

/**
 * Real paths of repository roots: a run reads three files per contract under
 * one root, and resolving it each time was a tenth of `validate`'s work. The
 * checks a run executes may change files under the root, never the root's
 * own place.
 */
const realRoots = new Map<string, string>();

/**
 * Read `rel` (repo-relative, `/`-separated, inside the root) without
 * following a symlink anywhere below the root, and without ever loading more
 * than `limit + 1` bytes. Synchronous on purpose: these files are small and
 * many, and a thread-pool round trip per call costs more than the read.
 */
export function readRepoFile(root: string, rel: string, limit: number): RepoFileRead {
  let realRoot = realRoots.get(root);
  try {
    realRoot ??= realpathSync.native(root);
  } catch (e) {
    return { kind: "error", message: `could not be read: repository root ${errorCode(e)}` };
  }
  realRoots.set(root, realRoot);
  const abs = join(realRoot, rel);
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return { kind: "error", message: describe(e) };
    // A dangling link is a symlink, not a missing file.
    return firstSymlink(realRoot, rel) ?? { kind: "missing" };
  }
  // Every symlink on the way changes the real path; none does when it is the lexical one.
  if (real !== abs) {
    return (
      firstSymlink(realRoot, rel) ?? { kind: "symlink", link: rel, target: shown(realRoot, real) }
    );
  }
  let fd: number | undefined;
  try {
    // O_NOFOLLOW: a link swapped in since the check above is refused, not followed.
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: "error", message: "is not a regular file" };
    const want = Math.min(stat.size, limit + 1);
    const buf = Buffer.allocUnsafe(want);
    let filled = 0;
    while (filled < want) {
      const got = readSync(fd, buf, filled, want - filled, filled);
      if (got === 0) break;
      filled += got;
    }
    return { kind: "file", bytes: buf.subarray(0, filled), size: stat.size };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      return firstSymlink(realRoot, rel) ?? { kind: "error", message: describe(e) };
    if (code === "ENOENT") return { kind: "missing" };
    return { kind: "error", message: describe(e) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The first component of `rel` that is a symlink, with where it leads; undefined when none is. */
function firstSymlink(realRoot: string, rel: string): RepoFileRead | undefined {
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const link = parts.slice(0, i).join("/");
    const abs = join(realRoot, link);
    try {
      if (!lstatSync(abs).isSymbolicLink()) continue;
    } catch {
      return undefined;
    }
    let target: string;
    try {
      target = shown(realRoot, realpathSync.native(abs));
    } catch {
      target = `${readlinkSafe(abs)} (broken)`;
    }
    return { kind: "symlink", link, target };
  }
  return undefined;
}

/** A real path as a reader should see it: repo-relative inside the repository, else absolute. */
function shown(realRoot: string, real: string): string {
  const rel = relative(realRoot, real);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return real;
  return rel.split(sep).join("/");
}

function readlinkSafe(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return "?";
  }
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

function describe(e: unknown): string {
  const code = errorCode(e);
  return code === "EACCES"
    ? "is not readable (permission denied)"
    : code === "EISDIR"
      ? "is a directory"
      : `could not be read (${code})`;
}
