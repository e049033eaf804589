import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { glob } from "tinyglobby";
import { DEFAULT_CONTRACT_GLOBS, kindOf } from "./formats/kinds.js";

export interface DiscoverOptions {
  /** Repository root: every contract path is reported relative to it. */
  root: string;
  /** Globs relative to the root (or to a directory argument). */
  globs?: readonly string[];
  /** Explicit files or directories, absolute or relative to `cwd`. Empty: the whole root. */
  paths?: readonly string[];
  cwd?: string;
}

/** A path argument the user must fix; reported as a usage error (exit 2). */
export class UsageError extends Error {}

/**
 * The contract files to read, root-relative with forward slashes, sorted and
 * unique. Explicit files are taken whatever their name (kind by extension);
 * directories are searched with the globs relative to that directory.
 */
export async function discoverContracts(opts: DiscoverOptions): Promise<string[]> {
  const root = resolve(opts.root);
  const globs = opts.globs?.length ? opts.globs : DEFAULT_CONTRACT_GLOBS;
  const cwd = opts.cwd ?? process.cwd();
  const found = new Set<string>();
  const targets = opts.paths?.length ? opts.paths : [root];
  for (const target of targets) {
    const abs = isAbsolute(target) ? target : resolve(cwd, target);
    const rel = toRepoPath(root, abs);
    if (rel === undefined) throw new UsageError(`${target} is outside the repository root ${root}`);
    const info = await stat(abs).catch(() => undefined);
    if (!info) throw new UsageError(`${target} does not exist`);
    if (info.isDirectory()) {
      for (const f of await listMatching(abs, globs)) found.add(rel === "." ? f : `${rel}/${f}`);
    } else {
      if (kindOf(rel) === undefined) {
        throw new UsageError(
          `${target} is neither a .json plan contract nor a .md oracle contract`,
        );
      }
      found.add(rel);
    }
  }
  return [...found].sort();
}

/** Files under `dir` matching any glob; dot-directories included, never .git or node_modules. */
export function listMatching(dir: string, globs: readonly string[]): Promise<string[]> {
  return glob([...globs], {
    cwd: dir,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: ["**/.git/**", "**/node_modules/**"],
    expandDirectories: false,
  });
}

/** `abs` relative to `root` with forward slashes, or undefined when outside it. */
export function toRepoPath(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
