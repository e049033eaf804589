import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { glob } from "tinyglobby";
import { normalizeRepoPath, unsafePathReason } from "../../formats/paths.js";
import {
  describeResolved,
  errorText,
  gitDirRule,
  inGitDir,
  isInside,
  type Resolved,
  resolveInRepo,
} from "./confine.js";

/** A file a check reads: `rel` for reports, `abs` (inside the real root) for reading. */
export interface RepoFile {
  rel: string;
  abs: string;
}

export type FileList =
  /** `note` explains an empty list when there is more to say than "no file matched". */
  { ok: true; files: RepoFile[]; glob: boolean; note?: string } | { ok: false; error: string };

/** The working tree, not git's own store (submodules keep a `.git` at any depth). */
const IGNORE = ["**/.git/**", "**/.git"];

/**
 * The regular files a `grep-match` path names, sorted by path. A path that
 * exists as a file is taken literally, so `app/[id]/page.tsx` means that file
 * and not a character class; anything else with glob syntax is a glob over
 * the working tree (dotfiles included, `.git/` excluded). Globs never follow
 * symlinks: symlinked entries are skipped, and a symlinked directory the
 * glob starts in that leads out of the repository is an error.
 */
export async function listFiles(root: string, path: string): Promise<FileList> {
  return literalOrGlob(
    path,
    (rel) => resolveInRepo(root, rel),
    (pattern) => globFiles(root, pattern),
  );
}

/**
 * What `listFiles` does in any tree: the literal file when the path names
 * one, else its glob (`glob`) when it is one, else no file and why.
 */
export async function literalOrGlob(
  path: string,
  resolve: (rel: string) => Promise<Resolved>,
  glob: (pattern: string) => Promise<FileList>,
): Promise<FileList> {
  const unsafe = unsafePathReason(path);
  if (unsafe) return { ok: false, error: `path ${JSON.stringify(path)} ${unsafe}` };
  const rel = normalizeRepoPath(path);
  const isGlob = picomatch.scan(rel).isGlob;

  const literal = await resolve(rel);
  if (literal.kind === "file") return { ok: true, glob: false, files: [literal] };
  if (literal.kind === "outside" || literal.kind === "error") {
    return { ok: false, error: describeResolved(literal) };
  }
  if (!isGlob) {
    const note =
      literal.kind === "directory"
        ? `${rel} is a directory; use ${rel}/** to search the files in it`
        : describeResolved(literal);
    return { ok: true, glob: false, files: [], note };
  }
  return glob(rel);
}

/**
 * tinyglobby would happily crawl `{..,src}/**` or `{/,src}/**` from outside
 * the root: such a glob is refused before anything is listed.
 */
export function unsafeGlob(pattern: string): boolean {
  return /(^|[/{,(|])\.\.($|[/},)|])/.test(pattern) || /[{,(|]\//.test(pattern);
}

/** Paths in code-unit order, the order every file list is searched in. */
export function sortPaths(paths: string[]): string[] {
  return paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function globFiles(root: string, pattern: string): Promise<FileList> {
  // The crawl skips .git anyway; a glob that names it is refused by name, not left to match nothing.
  if (inGitDir(pattern)) return { ok: false, error: gitDirRule(pattern) };
  if (unsafeGlob(pattern)) {
    return { ok: false, error: `glob ${pattern} could reach outside the repository` };
  }
  let realRoot: string;
  let matched: string[];
  try {
    realRoot = await realpath(root);
    matched = await glob(pattern, {
      cwd: realRoot,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      ignore: IGNORE,
    });
  } catch (e) {
    return { ok: false, error: `could not list ${pattern}: ${errorText(e)}` };
  }
  sortPaths(matched);

  // Per directory, not per file: a glob over a large tree lists thousands of
  // files in a few dozen directories. Synchronous on purpose: promise-based
  // calls cost far more in thread-pool round trips than the little they block.
  const files: RepoFile[] = [];
  const dirs = new Map<string, DirInfo>();
  for (const rel of matched) {
    const slash = rel.lastIndexOf("/");
    const relDir = slash === -1 ? "" : rel.slice(0, slash);
    let dir = dirs.get(relDir);
    if (dir === undefined) {
      dir = dirInfo(realRoot, relDir);
      dirs.set(relDir, dir);
    }
    if (dir.problem) return { ok: false, error: dir.problem(rel) };
    files.push({ rel, abs: dir.prefix + rel.slice(slash + 1) });
  }
  return { ok: true, glob: true, files };
}

/**
 * What the entries of one directory share: the prefix that makes a name
 * absolute, and whether they are confined. The crawl yields regular files
 * only (symlinks are skipped, never followed), so an entry is confined
 * exactly when its directory's real path is: a glob rooted in a symlinked
 * directory is the one way out. The file worker opens with O_NOFOLLOW, so an
 * entry swapped for a symlink after the crawl is refused rather than read.
 */
interface DirInfo {
  /** `abs` of the directory with a trailing separator. */
  prefix: string;
  /** The error for an entry `rel` of this directory, when it cannot be read safely. */
  problem?: (rel: string) => string;
}

function dirInfo(realRoot: string, relDir: string): DirInfo {
  const abs = relDir === "" ? realRoot : join(realRoot, relDir);
  const prefix = abs.endsWith(sep) ? abs : abs + sep;
  let realDir: string;
  try {
    realDir = realpathSync(abs);
  } catch (e) {
    return { prefix, problem: (rel) => `${rel}: ${errorText(e)}` };
  }
  const realRel = relative(realRoot, realDir).split(sep).join("/");
  if (isInside(realRoot, realDir) && inGitDir(realRel)) {
    return { prefix, problem: (rel) => gitDirRule(rel, `${realRel}/${basename(rel)}`) };
  }
  if (!isInside(realRoot, realDir)) {
    return {
      prefix,
      problem: (rel) =>
        `${rel} resolves outside the repository (to ${join(realDir, basename(rel))}); symlinks out of the repository are not followed`,
    };
  }
  return { prefix };
}
