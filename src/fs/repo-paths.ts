import { lstatSync } from "node:fs";
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
  const paths: RepoPaths = {
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
    listing ??= git.pathsAt(commit).then((all) => ({
      exists: (path: string) =>
        unsafePathReason(path) === undefined && all.has(normalizeRepoPath(path)),
    }));
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
