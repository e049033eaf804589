import type { GitHubApi, OpenPull } from "../github/types.js";
import { type Finding, finding } from "../integrity/types.js";
import { StopRun } from "./io.js";

/** The gated pull request, as far as telling its siblings apart needs it. */
export interface GatedPull {
  number: number;
  headSha: string;
  baseRef: string;
  baseRepo: string;
}

/**
 * The open pull requests other than `gated` whose head is the gated commit
 * and whose base is another branch or repository. A check run belongs to the
 * commit, so the gate's verdict against one base would also stand for them.
 * Another PR with the same head and the same base (a duplicate) is fine. Pure.
 */
export function siblingsWithOtherBase(gated: GatedPull, open: readonly OpenPull[]): OpenPull[] {
  return open.filter(
    (p) =>
      p.number !== gated.number &&
      p.headSha === gated.headSha &&
      (p.baseRef !== gated.baseRef || p.baseRepo.toLowerCase() !== gated.baseRepo.toLowerCase()),
  );
}

/** The blocking finding naming every sibling and its base, anchored at `path` line 1. */
export function sharedHeadFinding(
  gated: GatedPull,
  siblings: readonly OpenPull[],
  path: string,
): Finding {
  const named = siblings
    .map(
      (p) =>
        `#${p.number} (${p.headRepo ?? "deleted fork"}:${p.headRef} into ${p.baseRepo}:${p.baseRef}, ${p.htmlUrl})`,
    )
    .join(", ");
  const one = siblings.length === 1;
  return finding({
    code: "shared-head-other-base",
    contract: `pull request #${gated.number}`,
    kind: "pull-request",
    path,
    line: 1,
    subject: `head commit ${gated.headSha.slice(0, 12)}`,
    message:
      `Open pull request${one ? "" : "s"} ${named} ${one ? "has" : "have"} this PR's head commit ${gated.headSha.slice(0, 12)} ` +
      `but another base than this PR's ${gated.baseRepo}:${gated.baseRef}. The check run belongs to the commit, so no single verdict ` +
      "is valid for all of them: the gate fails, and no approval acknowledges it. " +
      "Close one of them, or push a separate commit for each.",
  });
}

/**
 * Part of stage 4 for a pull request: every open PR of the repository (any
 * branch, any fork) whose head is the gated commit must share the gated PR's
 * base. Returns the blocking finding when one does not. Throws StopRun when
 * the open pull requests cannot be listed: the run cannot prove no sibling
 * exists, so it never passes.
 */
export async function sharedHeadFindings(
  api: Pick<GitHubApi, "listOpenPulls" | "getPull">,
  pr: { number: number; headSha: string },
  anchor: string,
): Promise<Finding[]> {
  const listed = await readOrStop(
    () => api.listOpenPulls(),
    "cannot list the open pull requests, so the gate cannot rule out another open PR with this head commit and another base (its check run would stand for that PR too)",
  );
  const sameHead = listed.filter((p) => p.number !== pr.number && p.headSha === pr.headSha);
  if (sameHead.length === 0) return [];
  // Its base as GitHub has it now; a closed PR is not in the list (a re-run can still post on its commit).
  const self =
    listed.find((p) => p.number === pr.number) ??
    (await readOrStop(
      () => api.getPull(pr.number),
      `cannot read pull request #${pr.number} to compare its base with the open pull requests on the same head commit`,
    ));
  const gated: GatedPull = { ...pr, baseRef: self.baseRef, baseRepo: self.baseRepo };
  const siblings = siblingsWithOtherBase(gated, sameHead);
  return siblings.length === 0 ? [] : [sharedHeadFinding(gated, siblings, anchor)];
}

async function readOrStop<T>(read: () => Promise<T>, what: string): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw new StopRun(`contract-gate: ${what}: ${(e as Error).message}`);
  }
}
