import { resolve } from "node:path";
import { discoverContracts } from "../discover.js";
import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds.js";
import { openGit } from "../git/index.js";
import { loadContract } from "../load.js";
import type { Contract } from "../model.js";

/** Repository root: --root, else the git top-level of the current directory, else the directory. */
export async function findRoot(cwd: string, explicit: string | undefined): Promise<string> {
  if (explicit !== undefined) return resolve(cwd, explicit);
  return (await openGit(cwd).topLevel()) || cwd;
}

/** Discover (default globs plus any extra) and load every contract, in path order. */
export async function loadAll(
  root: string,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  cwd: string,
): Promise<Contract[]> {
  const files = await discoverContracts({
    root,
    cwd,
    paths,
    globs: [...DEFAULT_CONTRACT_GLOBS, ...(extraGlobs ?? [])],
  });
  return Promise.all(files.map((f) => loadContract(root, f)));
}
