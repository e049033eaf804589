import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import picomatch from "picomatch";
import { glob } from "tinyglobby";
import { normalizeRepoPath, unsafePathReason } from "../../formats/paths.js";
import { describeResolved, errorText, isInside, resolveInRepo } from "./confine.js";

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
  const unsafe = unsafePathReason(path);
  if (unsafe) return { ok: false, error: `path ${JSON.stringify(path)} ${unsafe}` };
  const rel = normalizeRepoPath(path);
  const isGlob = picomatch.scan(rel).isGlob;

  const literal = await resolveInRepo(root, rel);
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
  return globFiles(root, rel);
}

async function globFiles(root: string, pattern: string): Promise<FileList> {
  // tinyglobby would happily crawl `{..,src}/**` or `{/,src}/**` from outside
  // the root; refuse before crawling anything.
  if (/(^|[/{,(|])\.\.($|[/},)|])/.test(pattern) || /[{,(|]\//.test(pattern)) {
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
  matched.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  // Synchronous on purpose: thousands of promise-based calls cost far more in
  // thread-pool round trips than the few milliseconds they block.
  const files: RepoFile[] = [];
  const dirs = new Map<string, DirInfo>();
  for (const rel of matched) {
    const entry = checkEntry(realRoot, rel, dirs);
    if (typeof entry === "string") return { ok: false, error: entry };
    if (entry) files.push(entry);
  }
  return { ok: true, glob: true, files };
}

/**
 * What every entry of one directory shares: where the directory really is,
 * and which of its entries are regular files now (one readdir instead of an
 * lstat per file; a dirent's type is the entry's own, never a symlink's
 * target). `regular` is undefined when the directory could not be listed,
 * and each entry is then examined on its own.
 */
interface DirInfo {
  realDir: string | Error;
  regular: Set<string> | undefined;
}

function dirInfo(dir: string): DirInfo {
  let realDir: string | Error;
  try {
    realDir = realpathSync(dir);
  } catch (e) {
    realDir = e as Error;
  }
  let regular: Set<string> | undefined;
  try {
    regular = new Set();
    for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isFile()) regular.add(d.name);
  } catch {
    regular = undefined;
  }
  return { realDir, regular };
}

/**
 * A glob entry as a file to read, `undefined` to skip it (a symlink, or no
 * longer a regular file), or an error message. The entry itself is not a
 * symlink, so it is confined exactly when its directory's real path is: a
 * glob rooted in a symlinked directory is the one way out.
 */
function checkEntry(
  realRoot: string,
  rel: string,
  dirs: Map<string, DirInfo>,
): RepoFile | string | undefined {
  const abs = join(realRoot, rel);
  const dir = dirname(abs);
  let info = dirs.get(dir);
  if (info === undefined) {
    info = dirInfo(dir);
    dirs.set(dir, info);
  }
  try {
    // Deleted between the crawl and now: it is not part of the tree any more.
    if (info.regular !== undefined) {
      if (!info.regular.has(basename(abs))) return undefined;
    } else if (!lstatSync(abs, { throwIfNoEntry: false })?.isFile()) {
      return undefined;
    }
    if (info.realDir instanceof Error) throw info.realDir;
    if (!isInside(realRoot, info.realDir)) {
      return `${rel} resolves outside the repository (to ${join(info.realDir, basename(abs))}); symlinks out of the repository are not followed`;
    }
    return { rel, abs };
  } catch (e) {
    return `${rel}: ${errorText(e)}`;
  }
}
