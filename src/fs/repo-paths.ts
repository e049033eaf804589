import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { normalizeRepoPath, unsafePathReason } from "../formats/paths.js";
import type { Git } from "../git/index.js";

/**
 * Whether the repository paths a spec names (its map's test files, the
 * files its done tasks name) exist: a file, a directory or a link. Never
 * looked up outside the root.
 */
export interface RepoPaths {
  exists(path: string): boolean;
  /**
   * How many committed paths end in `/<path>` (a task written from a
   * sub-project, `src/utils/cn.ts` for `frontend/admin/src/utils/cn.ts`);
   * counted up to 2, since only a unique one resolves.
   */
  endingWith(path: string): number;
}

/** Paths by their last segment, for `endingWith`. */
function suffixIndex(all: Iterable<string>): (path: string) => number {
  const byName = new Map<string, string[]>();
  for (const p of all) {
    const name = p.slice(p.lastIndexOf("/") + 1);
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [p]);
    else if (list.length < 64) list.push(p);
  }
  return (path) => {
    const tail = `/${normalizeRepoPath(path)}`;
    const list = byName.get(tail.slice(tail.lastIndexOf("/") + 1)) ?? [];
    let n = 0;
    for (const p of list) if (p.endsWith(tail) && ++n === 2) break;
    return n;
  };
}

/** Every file under `root` (no `.git`, `node_modules`), for `endingWith` on the working tree. */
function walk(root: string, limit = 200_000): string[] {
  const out: string[] = [];
  const dirs = [""];
  while (dirs.length > 0 && out.length < limit) {
    const rel = dirs.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== ".git" && e.name !== "node_modules") dirs.push(path);
      } else out.push(path);
    }
  }
  return out;
}

/**
 * Where a run looks paths up, opened once per run and only when a spec
 * needs it (`open`). Run what was compared: where the gate judges a commit
 * (the action; the CLI with `--committed` or in CI), the commit's tree
 * decides, not what a step before the gate created or deleted on disk.
 */
export interface PathSource {
  open(): Promise<RepoPaths>;
}

/**
 * The working tree, each path looked up once per run: specs of one
 * repository name the same few paths again and again.
 */
export function diskPaths(root: string): PathSource {
  const seen = new Map<string, boolean>();
  let ending: ((path: string) => number) | undefined;
  const paths: RepoPaths = {
    endingWith(path) {
      ending ??= suffixIndex(walk(root));
      return ending(path);
    },
    exists(path) {
      let found = seen.get(path);
      if (found === undefined) {
        found = onDisk(root, path);
        seen.set(path, found);
      }
      return found;
    },
  };
  return { open: async () => paths };
}

/**
 * A commit's tree, listed once (one git process, however many specs and
 * paths) on first use. Throws `GitReadError` when the tree cannot be listed:
 * no path is then said to exist or not.
 */
export function commitPaths(git: Git, commit: string): PathSource {
  let listing: Promise<RepoPaths> | undefined;
  const open = () => {
    listing ??= git.pathsAt(commit).then((all) => {
      let ending: ((path: string) => number) | undefined;
      return {
        exists: (path: string) =>
          unsafePathReason(path) === undefined && all.has(normalizeRepoPath(path)),
        endingWith: (path: string) => {
          ending ??= suffixIndex(all);
          return ending(path);
        },
      };
    });
    return listing;
  };
  return { open };
}

function onDisk(root: string, rel: string): boolean {
  if (unsafePathReason(rel) !== undefined) return false;
  try {
    lstatSync(join(root, rel));
    return true;
  } catch {
    return false;
  }
}
