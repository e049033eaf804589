import { realpathSync } from "node:fs";
import { lstat, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { globSync } from "tinyglobby";
import { DEFAULT_CONTRACT_GLOBS, kindOf } from "../formats/kinds/index.js";
import { openspecContractPath, openspecPlace } from "../formats/kinds/openspec.js";
import { kiroSpecOf } from "../formats/kiro/index.js";
import { type DirListing, dirListing } from "../fs/dir-listing.js";
import { contractPaths, EXCLUDED_DIRS, globMatcher } from "./contract-path.js";

export interface DiscoverOptions {
  /** Repository root: every contract path is reported relative to it. */
  root: string;
  /** Globs relative to the root (or to a directory argument). */
  globs?: readonly string[];
  /** Explicit files or directories, absolute or relative to `cwd`. Empty: the whole root. */
  paths?: readonly string[];
  cwd?: string;
  /** The run's directory reads, shared with the discovery audit. */
  listing?: DirListing;
}

/** A path argument the user must fix; reported as a usage error (exit 2). */
export class UsageError extends Error {}

/**
 * The contract files to read, root-relative with forward slashes, sorted and
 * unique. Explicit files are taken whatever their name (kind by extension);
 * directories are searched with the globs relative to that directory and,
 * for a subdirectory, with the root's globs under it; a directory named
 * on purpose that holds no contract is a usage error.
 */
export async function discoverContracts(opts: DiscoverOptions): Promise<string[]> {
  const root = resolve(opts.root);
  const globs = opts.globs?.length ? opts.globs : DEFAULT_CONTRACT_GLOBS;
  const cwd = opts.cwd ?? process.cwd();
  const listing = opts.listing ?? dirListing();
  const found = new Set<string>();
  const targets = opts.paths?.length ? opts.paths : [root];
  for (const target of targets) {
    const abs = isAbsolute(target) ? target : resolve(cwd, target);
    const rel = toRepoPath(root, abs);
    if (rel === undefined) throw new UsageError(`${target} is outside the repository root ${root}`);
    // lstat: a symlinked contract named on the command line reaches the loader, which
    // refuses it. A symlinked directory is still listed: the loader refuses what lies under it.
    let info = await lstat(abs).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      const followed = await stat(abs).catch(() => undefined);
      if (followed?.isDirectory()) info = followed;
    }
    if (!info) throw new UsageError(`${target} does not exist`);
    if (info.isDirectory()) {
      const under = (await listMatching(abs, globs, listing)).map((f) =>
        rel === "." ? f : `${rel}/${f}`,
      );
      if (rel !== ".") {
        // `validate .planning` means the contracts under .planning as the root's
        // globs find them, too (not only `.planning/.planning/phase-*`).
        for (const f of await listMatching(root, globs, listing))
          if (f.startsWith(`${rel}/`)) under.push(f);
      }
      // A directory named on purpose that holds no contract is a mistake, not
      // a pass: "no contracts" would end the run green with nothing checked.
      if (under.length === 0 && opts.paths?.length) {
        throw new UsageError(
          `${target} holds no contract: nothing under it matches ${globs.join(", ")} (relative to the root or to ${target}); name the files, or pass --contracts GLOB`,
        );
      }
      for (const f of under) found.add(f);
    } else {
      const place = openspecPlace(rel);
      if (place.kind === "archived" || place.kind === "spec-tree") {
        throw new UsageError(
          place.kind === "archived"
            ? `${target} belongs to an archived OpenSpec change (openspec/changes/archive/): the gate reads active changes only`
            : `${target} lies in an OpenSpec main spec's folder but is not its spec.md: the gate reads openspec/specs/<capability>/spec.md`,
        );
      }
      if (kindOf(rel) === undefined) {
        throw new UsageError(
          `${target} is neither a .json plan contract nor a .md oracle contract`,
        );
      }
      // A Kiro spec is one contract: its design.md or tasks.md named alone is read with it.
      found.add(kindOf(rel) === "kiro-spec" ? (kiroSpecOf(rel) ?? rel) : rel);
    }
  }
  return withoutSpecTasks(found);
}

/**
 * A `tasks.md` beside a discovered `spec.md` is read with the spec (its
 * stories resolve the tasks' `[USn]`), not as a second contract; one with
 * no spec beside it is a contract of its own. Any file of an OpenSpec change
 * is the change, named by its `proposal.md`.
 */
function withoutSpecTasks(listed: ReadonlySet<string>): string[] {
  const found = new Set([...listed].map(openspecContractPath));
  return [...found]
    .filter((p) => {
      if (kindOf(p) !== "speckit-tasks") return true;
      return !found.has(`${p.slice(0, p.lastIndexOf("/") + 1)}spec.md`);
    })
    .sort();
}

/**
 * Files under `dir` that are contracts by `contractPaths` (the globs, never
 * under an excluded directory, a known kind); dot-directories included.
 * Symlinks that match are listed too, though never followed:
 * a contract replaced by a symlink must reach the loader, which refuses it
 * by name, rather than silently drop out of the gate.
 */
export async function listMatching(
  dir: string,
  globs: readonly string[],
  listing: DirListing = dirListing(),
): Promise<string[]> {
  const files = globSync([...globs], {
    cwd: dir,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: EXCLUDED_DIRS.map((d) => `**/${d}/**`),
    expandDirectories: false,
    fs: listing.globFs,
  });
  const { isContract } = contractPaths(globs);
  return [...files, ...listSymlinks(dir, globs, listing)].filter(isContract);
}

const SKIPPED = new Set(EXCLUDED_DIRS);

/**
 * Symlinks under `dir` matching any glob, found by walking from each glob's
 * base without following links. A linked directory (the base itself, such as
 * `.planning` linked elsewhere, or one found on the way) has its direct
 * entries listed, never walked: what lies under a link is refused by the
 * loader, and a walk could leave the repository.
 */
function listSymlinks(dir: string, globs: readonly string[], listing: DirListing): string[] {
  const entriesOf = (abs: string) => listing.entries(abs);
  const matches = globMatcher(globs);
  const found = new Set<string>();
  const seen = new Set<string>();
  let realDir: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    return [];
  }
  const add = (path: string) => {
    if (matches(path)) found.add(path);
  };
  for (const base of new Set(positiveBases(globs))) {
    const abs = base === "" ? dir : join(dir, base);
    let real: string | undefined;
    try {
      real = realpathSync(abs);
    } catch {
      continue; // absent or unreadable: nothing to list
    }
    if (real !== (base === "" ? realDir : join(realDir, base))) {
      for (const entry of entriesOf(abs)) add(`${base}/${entry.name}`);
      continue;
    }
    const stack = [base];
    while (stack.length > 0) {
      const rel = stack.pop()!;
      if (seen.has(rel)) continue;
      seen.add(rel);
      for (const entry of entriesOf(rel === "" ? dir : join(dir, rel))) {
        const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
        if (entry.isSymbolicLink()) {
          add(path);
          // A linked directory is not walked, but what it holds directly is listed
          // (names only), so its contracts are refused rather than never seen.
          for (const inner of entriesOf(join(dir, path))) add(`${path}/${inner.name}`);
        } else if (entry.isDirectory() && !SKIPPED.has(entry.name)) stack.push(path);
      }
    }
  }
  return [...found];
}

/** Where each positive glob's walk starts (a negated glob names what to leave out, no place to look). */
function positiveBases(globs: readonly string[]): string[] {
  return globs.filter((g) => !g.startsWith("!")).map((g) => picomatch.scan(g).base);
}

/** `abs` relative to `root` with forward slashes, or undefined when outside it. */
export function toRepoPath(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
