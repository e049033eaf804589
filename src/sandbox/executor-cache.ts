import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, renameSync, statSync } from "node:fs";
import { posix } from "node:path";

/**
 * The compiled lane executor, kept between runs (issue 31, "Speed"): `cc
 * -O2` is most of a sandbox host's start (≈0.5 s of a 0.6 s start on a
 * quiet machine), and its output depends only on the source and the
 * compiler. Kept where only root can write or read: a 0700 directory owned
 * by root whose ancestors no one else can write, so nothing but root can
 * have put a program there that the host would run as root. Anything else
 * (a directory someone else owns, a group-writable ancestor, no /var/cache)
 * and the host compiles afresh, as before: a cache is never needed.
 */
export const EXECUTOR_CACHE_DIR = "/var/cache/contract-gate";

/** The cached executor's name: the source's and the compiler's identity (its path, size, mtime). */
export function executorCacheKey(source: string, cc: string): string {
  const st = statSync(cc);
  return createHash("sha256")
    .update(source)
    .update(`\0${cc}\0${st.size}\0${st.mtimeMs}`)
    .digest("hex")
    .slice(0, 32);
}

/** The cached executor for `key`, when one is there and only root could have written it. */
export function cachedExecutor(key: string, dir = EXECUTOR_CACHE_DIR): string | undefined {
  if (!trustedDir(dir)) return undefined;
  const path = posix.join(dir, `lane-executor-${key}`);
  try {
    const st = lstatSync(path);
    return st.isFile() && st.uid === 0 && (st.mode & 0o077) === 0 ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a freshly compiled executor for the next run; never fails the run. */
export function keepExecutor(compiled: string, key: string, dir = EXECUTOR_CACHE_DIR): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!trustedDir(dir)) return;
    const tmp = posix.join(dir, `.lane-executor-${key}-${process.pid}`);
    copyFileSync(compiled, tmp);
    chmodSync(tmp, 0o700);
    // Atomic: a concurrent run sees the whole program or none.
    renameSync(tmp, posix.join(dir, `lane-executor-${key}`));
  } catch {}
}

/** Root's, 0700, and every ancestor root's and unwritable by group and others (no link on the way). */
function trustedDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o077) !== 0) return false;
    for (let d = posix.dirname(dir); ; d = posix.dirname(d)) {
      const up = lstatSync(d);
      if (!up.isDirectory() || up.uid !== 0 || (up.mode & 0o022) !== 0) return false;
      if (d === "/") return true;
    }
  } catch {
    return false;
  }
}
