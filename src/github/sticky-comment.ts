/**
 * The sticky comment: one comment per pull request and gate, found by its
 * marker among the token's own comments, updated in place, never overwritten
 * by a run for an older head, duplicates from racing runs folded away.
 */
import { type ApiContext, describeFailure, type GitHubApiOptions } from "./api-context.js";
import { isRetryable, statusOf, toGitHubApiError } from "./errors.js";
import { composeStickyBody, recordedSha } from "./sticky-body.js";
import type { GitHubApi, PullRequestInfo, StickyCommentResult } from "./types.js";

export const DEFAULT_BOT_LOGIN = "github-actions[bot]";

export type StickyComments = Pick<GitHubApi, "findStickyComment" | "upsertStickyComment">;

interface IssueComment {
  id: number;
  body: string;
  url: string;
  login: string | undefined;
  createdAt: string;
}

/** `getPull` tells whether the pull request's head moved on (a stale run must not write). */
export function createStickyComments(
  ctx: ApiContext,
  opts: Pick<GitHubApiOptions, "login" | "fallbackLogin">,
  getPull: (number: number) => Promise<PullRequestInfo>,
): StickyComments {
  const { octokit, owner, repo, full, root, attempts, backoff, log, call } = ctx;
  let loginPromise: Promise<string> | undefined;

  async function login(): Promise<string> {
    if (opts.login) return opts.login;
    loginPromise ??= (async () => {
      try {
        const { data } = await octokit.rest.users.getAuthenticated();
        return data.login;
      } catch (e) {
        const status = statusOf(e);
        // Installation tokens (GITHUB_TOKEN) may not read /user: 403 "Resource not accessible by integration".
        if (status === 401 || status === 403) return opts.fallbackLogin ?? DEFAULT_BOT_LOGIN;
        loginPromise = undefined;
        throw toGitHubApiError(e, "GET /user", { area: "user", repo: full });
      }
    })();
    return loginPromise;
  }

  async function listComments(issueNumber: number): Promise<IssueComment[]> {
    const comments = await call(
      `GET ${root}/issues/${issueNumber}/comments`,
      "comments",
      `pull request #${issueNumber} in ${full}`,
      () =>
        octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: issueNumber,
          per_page: 100,
        }),
    );
    return comments.map((c) => ({
      id: c.id,
      body: c.body ?? "",
      url: c.html_url,
      login: c.user?.login,
      createdAt: c.created_at,
    }));
  }

  /**
   * This token's comments that start with `marker`, oldest first. Only these
   * are ever adopted, edited or deleted: another workflow writing as the same
   * bot may quote the marker (a PR description, say) anywhere else.
   */
  async function mine(issueNumber: number, marker: string): Promise<IssueComment[]> {
    const [me, comments] = await Promise.all([login(), listComments(issueNumber)]);
    return comments
      .filter((c) => c.body.startsWith(marker) && c.login === me)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  }

  async function updateComment(id: number, body: string): Promise<string | undefined> {
    try {
      const { data } = await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: id,
        body,
      });
      return data.html_url;
    } catch (e) {
      if (statusOf(e) === 404) return undefined; // deleted meanwhile (a racing run)
      throw toGitHubApiError(e, `PATCH ${root}/issues/comments/${id}`, {
        area: "comments",
        repo: full,
        subject: `comment ${id} in ${full}`,
      });
    }
  }

  async function deleteComment(id: number): Promise<void> {
    try {
      await octokit.rest.issues.deleteComment({ owner, repo, comment_id: id });
    } catch (e) {
      if (statusOf(e) === 404) return; // already gone: a racing run folded it too
      throw toGitHubApiError(e, `DELETE ${root}/issues/comments/${id}`, {
        area: "comments",
        repo: full,
        subject: `comment ${id} in ${full}`,
      });
    }
  }

  /** Create the comment; a retry first looks for one the failed attempt may have created. */
  async function createComment(
    issueNumber: number,
    marker: string,
    body: string,
    known: Set<number>,
  ): Promise<{ url: string }> {
    const endpoint = `POST ${root}/issues/${issueNumber}/comments`;
    const subject = `pull request #${issueNumber} in ${full}`;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        await backoff(attempt - 1);
        const adopted = (await mine(issueNumber, marker)).find((c) => !known.has(c.id));
        if (adopted) {
          log(`The comment was created despite the error; using it (${adopted.id}).`);
          if (adopted.body !== body) await updateComment(adopted.id, body);
          return { url: adopted.url };
        }
      }
      try {
        const { data } = await octokit.rest.issues.createComment({
          owner,
          repo,
          issue_number: issueNumber,
          body,
          request: { retries: 0 },
        });
        return { url: data.html_url };
      } catch (e) {
        if (!isRetryable(e))
          throw toGitHubApiError(e, endpoint, { area: "comments", repo: full, subject });
        lastError = e;
        log(`${endpoint} failed (${describeFailure(e)}); attempt ${attempt} of ${attempts}.`);
      }
    }
    const adopted = (await mine(issueNumber, marker)).find((c) => !known.has(c.id));
    if (adopted) return { url: adopted.url };
    throw toGitHubApiError(lastError, endpoint, {
      area: "comments",
      repo: full,
      subject,
      attempts,
    });
  }

  return {
    async findStickyComment(issueNumber, marker) {
      const [first] = await mine(issueNumber, marker);
      return first ? { id: first.id, body: first.body, url: first.url } : undefined;
    },

    async upsertStickyComment(req) {
      const body = composeStickyBody(req.marker, req.headSha, req.body);
      const existing = await mine(req.issueNumber, req.marker);
      const [keeper, ...duplicates] = existing;
      if (!keeper) {
        const { url } = await createComment(req.issueNumber, req.marker, body, new Set());
        return { action: "created", url, deletedDuplicates: 0 };
      }
      const recorded = recordedSha(keeper.body);
      if (recorded !== undefined && recorded !== req.headSha) {
        // A run for an older head must never overwrite the comment of a newer one.
        const pull = await getPull(req.issueNumber);
        if (pull.headSha !== req.headSha) {
          log(
            `Not updating the comment: it is for ${recorded}, this run is for ${req.headSha}, and the pull request's head is now ${pull.headSha}.`,
          );
          return { action: "skipped-stale", url: keeper.url, deletedDuplicates: 0 };
        }
      }
      let action: StickyCommentResult["action"];
      let url = keeper.url;
      if (keeper.body === body) {
        action = "unchanged";
      } else {
        const updated = await updateComment(keeper.id, body);
        if (updated === undefined) {
          // The keeper vanished between listing and updating: start over with a new one.
          const known = new Set(existing.map((c) => c.id));
          ({ url } = await createComment(req.issueNumber, req.marker, body, known));
          action = "created";
        } else {
          url = updated;
          action = "updated";
        }
      }
      for (const d of duplicates) await deleteComment(d.id);
      if (duplicates.length > 0 && action === "unchanged") action = "deleted-duplicates";
      return { action, url, deletedDuplicates: duplicates.length };
    },
  };
}
