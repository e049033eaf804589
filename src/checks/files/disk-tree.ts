import type { RepoTree } from "../types.js";
import { resolveInRepo } from "./confine.js";
import { listFiles } from "./glob.js";

/** The working tree under `root`, read from disk (a plain folder, or the CLI outside `--committed`/CI). */
export function diskTree(root: string): RepoTree {
  return {
    source: { kind: "working-tree" },
    resolve: (path) => resolveInRepo(root, path),
    list: (path) => listFiles(root, path),
  };
}
