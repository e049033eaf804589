import { accessSync, constants, statSync } from "node:fs";
import { delimiter, posix } from "node:path";

/**
 * execvp's lookup, done against the checks' view (`root`: the view's root on
 * the host, `/` unsandboxed) so "not found" stays a spawn error.
 */
export function resolveCommand(
  root: string,
  cwd: string,
  file: string,
  path: string,
): { ok: true; path: string } | { ok: false; code: string } {
  const candidates = file.includes("/")
    ? [posix.resolve(cwd, file)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((d) => posix.resolve(cwd, d, file));
  let denied = false;
  for (const c of candidates) {
    const real = posix.join(root, c);
    try {
      if (!statSync(real).isFile()) continue;
      accessSync(real, constants.X_OK);
      return { ok: true, path: c };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EACCES") denied = true;
    }
  }
  return { ok: false, code: denied ? "EACCES" : "ENOENT" };
}
