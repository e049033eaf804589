import { contractOfFile } from "../formats/kinds/companions.js";
import type { ChangedFile } from "../model/changed-file.js";
import { contractPaths, notAContractReason } from "../scope/contract-path.js";

/**
 * The paths a change touches, both sides of a rename, relative to the
 * working directory `prefix` ("" when it is the root); others dropped.
 */
export function changedPaths(changed: readonly ChangedFile[], prefix: string): Set<string> {
  const out = new Set<string>();
  for (const f of changed) {
    for (const p of [f.path, f.previousPath]) {
      if (p === undefined) continue;
      if (prefix === "") out.add(p);
      else if (p.startsWith(`${prefix}/`)) out.add(p.slice(prefix.length + 1));
    }
  }
  return out;
}

/** A contract the PR touches: its path at base and at head (absent on the side it does not exist). */
export interface TouchedContract {
  basePath?: string;
  headPath?: string;
  /** Renamed to a path that is no contract: why, for the `contract-removed` message. */
  movedTo?: string;
}

/**
 * The contracts a change touches, from its changed files: added, modified,
 * renamed (both sides, each kept only when it matches the globs) and removed.
 * `changed` paths are relative to the repository root, contract paths to the
 * working directory `prefix` ("" when it is the root). A rename to a path
 * that is no contract (out of the globs, into an excluded directory, another
 * extension; `contractPaths`) has no head path: to the gate the contract is gone.
 */
export function touchedContracts(
  changed: readonly ChangedFile[],
  globs: readonly string[],
  prefix: string,
): TouchedContract[] {
  const paths = contractPaths(globs);
  const isContract = paths.isContract;
  const local = (p: string) =>
    prefix === "" ? p : p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : undefined;
  const inGlobs = (p: string | undefined) => (p !== undefined && isContract(p) ? p : undefined);
  const out: TouchedContract[] = [];
  for (const f of changed) {
    const path = inGlobs(local(f.path));
    if (f.status === "removed") {
      if (path !== undefined) out.push({ basePath: path });
    } else if (f.status === "renamed" && f.previousPath !== undefined) {
      const before = inGlobs(local(f.previousPath));
      if (before !== undefined || path !== undefined) {
        const to = local(f.path);
        const why = to === undefined ? undefined : paths.classify(to);
        out.push({
          ...(before !== undefined ? { basePath: before } : {}),
          ...(path !== undefined ? { headPath: path } : {}),
          ...(path === undefined && why !== undefined && "why" in why && why.why !== "globs"
            ? { movedTo: notAContractReason(to!, why) }
            : {}),
        });
      }
    } else if (f.status === "added" || f.status === "copied") {
      if (path !== undefined) out.push({ headPath: path });
    } else if (path !== undefined && f.status !== "unchanged") {
      out.push({ basePath: path, headPath: path });
    }
  }
  companionsTouched(changed, local, isContract, out);
  const key = (t: TouchedContract) => t.headPath ?? t.basePath ?? "";
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * A contract read from several files (`contractOfFile`: a Kiro spec, an
 * OpenSpec change) is touched by a change to any of them alone, so
 * un-checking a task in tasks.md is compared like an edit of the spec.
 */
function companionsTouched(
  changed: readonly ChangedFile[],
  local: (p: string) => string | undefined,
  isContract: (p: string) => boolean,
  out: TouchedContract[],
): void {
  const named = new Set(out.flatMap((t) => [t.basePath, t.headPath]));
  for (const f of changed) {
    for (const p of [f.path, f.previousPath]) {
      const path = p === undefined ? undefined : local(p);
      const owner = path === undefined ? undefined : contractOfFile(path);
      if (owner === undefined || named.has(owner) || !isContract(owner)) continue;
      named.add(owner);
      out.push({ basePath: owner, headPath: owner });
    }
  }
}
