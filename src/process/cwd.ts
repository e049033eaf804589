import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";

export type CwdResolution = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Resolves a contract's repo-relative working directory and confines it: the
 * real path (symlinks followed) must lie inside the real path of the root, so
 * a symlink committed in the repository cannot point a check elsewhere.
 * `shown` is the directory as the contract wrote it, for reasons.
 */
export async function confinedCwd(root: string, cwd: string | undefined): Promise<CwdResolution> {
  const shown = cwd ?? ".";
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: `repository root is not accessible: ${root}` };
  }
  let real: string;
  try {
    real = await realpath(resolve(realRoot, shown));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, reason: `cwd does not exist: ${shown}` };
    if (code === "ENOTDIR") return { ok: false, reason: `cwd is not a directory: ${shown}` };
    return { ok: false, reason: `cwd is not accessible (${code}): ${shown}` };
  }
  const rel = relative(realRoot, real);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { ok: false, reason: `cwd escapes the repository: ${shown} (resolves to ${real})` };
  }
  try {
    if (!(await stat(real)).isDirectory()) {
      return { ok: false, reason: `cwd is not a directory: ${shown}` };
    }
  } catch {
    return { ok: false, reason: `cwd does not exist: ${shown}` };
  }
  return { ok: true, path: real };
}
