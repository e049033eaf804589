import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { posix } from "node:path";

/**
 * The only PATH the gate's privileged side ever looks programs up in. The
 * gate's own PATH may start inside the pull request's tree (`npm run` and
 * `npx` prepend `node_modules/.bin`, an earlier step's `GITHUB_PATH` adds
 * anything), and whatever it finds there would run as root, outside the
 * boundary (docs/security.md, "The gate's own tools").
 */
export const SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

/** Every program the launcher and the host run, looked up once per run. */
export const HOST_TOOL_NAMES = [
  "sh",
  "mount",
  "umount",
  "mkdir",
  "chown",
  "chmod",
  "ln",
  "rm",
  "xargs",
  "setpriv",
  "unshare",
  "env",
] as const;
export type HostToolName = (typeof HOST_TOOL_NAMES)[number];
export type HostTools = Record<HostToolName, string>;

/**
 * Why `path` may not run with privilege, or `undefined` when it may: it must
 * be an executable regular file owned by root that neither its group nor
 * others can write (so no one but root can have replaced it).
 */
export function untrustedReason(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    const st = statSync(real);
    if (!st.isFile()) return `${real} is not a regular file`;
    if (st.uid !== 0) return `${real} is owned by uid ${st.uid}, not root`;
    if ((st.mode & 0o022) !== 0)
      return `${real} is writable by ${st.mode & 0o002 ? "others" : "its group"}`;
    accessSync(real, constants.X_OK);
    return undefined;
  } catch (e) {
    return `${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
}

/**
 * `name`'s absolute real path in `SYSTEM_PATH`, checked by `untrustedReason`;
 * throws with what was wrong in each directory when none qualifies.
 */
export function systemTool(name: string, searchPath = SYSTEM_PATH): string {
  const rejected: string[] = [];
  for (const dir of searchPath.split(":")) {
    const candidate = posix.join(dir, name);
    try {
      accessSync(candidate, constants.F_OK);
    } catch {
      continue;
    }
    const why = untrustedReason(candidate);
    if (why === undefined) return realpathSync(candidate);
    rejected.push(why);
  }
  throw new Error(
    rejected.length > 0
      ? `${name}: no trusted copy in ${searchPath} (${rejected.join("; ")})`
      : `${name} not found in ${searchPath} (util-linux, coreutils and a POSIX sh are required)`,
  );
}

/** Every host tool, resolved once: the host runs nothing by bare name. */
export function hostTools(): HostTools {
  const out = {} as HostTools;
  for (const name of HOST_TOOL_NAMES) out[name] = systemTool(name);
  return out;
}

/** The environment every privileged process of the gate gets: built, never inherited. */
export function hostEnv(): Record<string, string> {
  return { PATH: SYSTEM_PATH, LANG: "C.UTF-8" };
}
