import type { GitHubApi, PullReview, RepoPermission } from "../github/types.js";
import type { Approval } from "../integrity/types.js";

/** States that replace a reviewer's earlier verdict; a comment does not. */
const VERDICTS = new Set(["APPROVED", "CHANGES_REQUESTED", "DISMISSED"]);
const WRITE: readonly RepoPermission[] = ["admin", "write"];

/**
 * Reviews that could acknowledge contract changes: each reviewer's latest
 * verdict, when it is an approval on `headSha` by someone other than the
 * author. A later push moves the head, so an approval counts for the commit
 * it was given on only. Pure; `notes` say why the others do not count.
 */
export function candidateApprovals(
  reviews: readonly PullReview[],
  author: string | undefined,
  headSha: string,
): { candidates: PullReview[]; notes: string[] } {
  const latest = new Map<string, PullReview>();
  for (const r of reviews) {
    if (r.login === null || !VERDICTS.has(r.state)) continue;
    latest.set(r.login.toLowerCase(), r); // the API lists reviews oldest first
  }
  const candidates: PullReview[] = [];
  const notes: string[] = [];
  for (const r of latest.values()) {
    if (r.state !== "APPROVED") continue;
    if (author === undefined || r.login!.toLowerCase() === author.toLowerCase()) {
      notes.push(`the approval by ${r.login} is the PR author's own`);
    } else if (r.commitId !== headSha) {
      notes.push(
        `the approval by ${r.login} is on ${r.commitId?.slice(0, 12) ?? "an unknown commit"}, not the current head ${headSha.slice(0, 12)}`,
      );
    } else {
      candidates.push(r);
    }
  }
  return { candidates, notes };
}

/**
 * The approving review that acknowledges blocking contract changes: on the
 * current head, by a non-author with write (or higher) permission. An API
 * error is never an approval: it becomes the note naming the permission.
 */
export async function findApproval(
  api: Pick<GitHubApi, "listReviews" | "getPermission" | "getPull">,
  pr: { number: number; author?: string },
  headSha: string,
): Promise<{ approval?: Approval; note: string }> {
  try {
    const author = pr.author ?? (await api.getPull(pr.number)).author;
    const { candidates, notes } = candidateApprovals(
      await api.listReviews(pr.number),
      author,
      headSha,
    );
    for (const r of candidates) {
      const permission = await api.getPermission(r.login!);
      if (WRITE.includes(permission)) {
        return { approval: { login: r.login!, reviewUrl: r.htmlUrl }, note: "" };
      }
      notes.push(`${r.login} approved but has ${permission} permission, not write`);
    }
    return {
      note: notes.length > 0 ? `Not counted: ${notes.join("; ")}.` : "No approving review yet.",
    };
  } catch (e) {
    return { note: `Approvals could not be read: ${(e as Error).message}` };
  }
}
