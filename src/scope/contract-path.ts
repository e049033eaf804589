import picomatch from "picomatch";
import { kindOf } from "../formats/kinds/index.js";
import type { ContractKind } from "../model/contract.js";

/**
 * Directories never searched for contracts: git's own, and installed
 * dependencies (a package's files are not the repository's contracts).
 */
export const EXCLUDED_DIRS: readonly string[] = [".git", "node_modules"];

/** Why a path is not a contract, when it is not one. */
export type NotAContract =
  | { why: "globs" }
  | { why: "excluded-dir"; dir: string }
  | { why: "kind" };

/**
 * The one decision "this path names a contract" for given globs: discovery,
 * the PR's selection, the base pairing, `--changed-since` and every surface
 * ask it, so no two of them can disagree about a file (a contract renamed
 * into `node_modules/` matched the globs of one and not the other). The
 * path is root-relative with `/`; whether the file there is a regular file
 * is for the reader of each side to say (the loader, the tree at a commit).
 */
export interface ContractPaths {
  /** The kind when `path` names a contract, else why it does not. */
  classify(path: string): { kind: ContractKind } | NotAContract;
  isContract(path: string): boolean;
}

export function contractPaths(globs: readonly string[]): ContractPaths {
  const matches = picomatch([...globs], { dot: true });
  const classify = (path: string): { kind: ContractKind } | NotAContract => {
    if (!matches(path)) return { why: "globs" };
    const dir = path
      .split("/")
      .slice(0, -1)
      .find((part) => EXCLUDED_DIRS.includes(part));
    if (dir !== undefined) return { why: "excluded-dir", dir };
    const kind = kindOf(path);
    return kind === undefined ? { why: "kind" } : { kind };
  };
  return { classify, isContract: (path) => "kind" in classify(path) };
}

/** The end of "… is not a contract at head: …" for a reason from `classify`. */
export function notAContractReason(path: string, why: NotAContract): string {
  switch (why.why) {
    case "globs":
      return `${path} is outside the contract globs`;
    case "excluded-dir":
      return `${path} lies under \`${why.dir}/\`, a directory the gate never searches for contracts`;
    case "kind":
      return `${path} has no contract kind (a contract is a \`.md\` or \`.json\` file)`;
  }
}
