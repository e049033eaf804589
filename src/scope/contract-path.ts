import picomatch from "picomatch";
import { kindOf } from "../formats/kinds/index.js";
import type { ContractKind } from "../model/contract.js";

/**
 * Directories never searched for contracts: git's own, and installed
 * dependencies (a package's files are not the repository's contracts).
 */
export const EXCLUDED_DIRS: readonly string[] = [".git", "node_modules"];

/**
 * A directory of closed work (`.planning/archive/milestone-1/`, `archived/`,
 * `_archive/`): what lies under it is history, not the change's work, so no
 * glob reaches into it unless the glob names such a directory itself
 * (`--contracts '.planning/archive/milestone-1/phase-*-contract.json'`:
 * gating history on purpose). Moving a contract there is still seen: at head it is no
 * contract, so the base comparison reports it removed.
 */
const ARCHIVE_DIR = /^[._]?archived?$/i;

/** The first archive directory on `path` (root-relative, `/`), if any. */
export function archiveDirOf(path: string): string | undefined {
  const parts = path.split("/");
  const at = parts.slice(0, -1).findIndex((part) => ARCHIVE_DIR.test(part));
  return at < 0 ? undefined : `${parts.slice(0, at + 1).join("/")}/`;
}

/**
 * Whether a list of globs matches a path: any positive glob matches and no
 * negated one (`!GATES.md`) does. picomatch given a list matches when any
 * pattern does, so a lone `!GATES.md` would match every other path.
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const positive = globs.filter((g) => !g.startsWith("!"));
  const negated = globs.filter((g) => g.startsWith("!")).map((g) => g.slice(1));
  const any = positive.length > 0 ? picomatch(positive, { dot: true }) : () => false;
  const none = negated.length > 0 ? picomatch(negated, { dot: true }) : () => false;
  return (path) => any(path) && !none(path);
}

/** Why a path is not a contract, when it is not one. */
export type NotAContract =
  | { why: "globs" }
  | { why: "excluded-dir"; dir: string }
  | { why: "archived"; dir: string }
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
  const matches = globMatcher(globs);
  // Globs that name an archive directory themselves: history gated on purpose.
  const intoArchive = globMatcher(
    globs.filter((g) => g.startsWith("!") || g.split("/").some((part) => ARCHIVE_DIR.test(part))),
  );
  const classify = (path: string): { kind: ContractKind } | NotAContract => {
    if (!matches(path)) return { why: "globs" };
    const dir = path
      .split("/")
      .slice(0, -1)
      .find((part) => EXCLUDED_DIRS.includes(part));
    if (dir !== undefined) return { why: "excluded-dir", dir };
    const archive = archiveDirOf(path);
    if (archive !== undefined && !intoArchive(path)) return { why: "archived", dir: archive };
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
    case "archived":
      return `${path} lies under \`${why.dir}\`, an archive of closed work the gate does not gate`;
    case "kind":
      return `${path} has no contract kind (a contract is a \`.md\` or \`.json\` file)`;
  }
}
