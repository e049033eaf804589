/**
 * The real `GitHubApi`: Octokit calls with pagination, duplicate-free retries
 * of non-idempotent writes, annotation batching and the sticky comment. Each
 * part lives in its own file (pulls, check runs, sticky comment) over one
 * shared context; this puts them behind the one interface.
 */
import { createApiContext, type GitHubApiOptions } from "./api-context.js";
import { createCheckRuns } from "./check-runs.js";
import type { GitHubOctokit } from "./client.js";
import { createPulls } from "./pulls.js";
import { createStickyComments } from "./sticky-comment.js";
import type { GitHubApi, RepoRef } from "./types.js";

export type { GitHubApiOptions } from "./api-context.js";

export function createGitHubApi(
  octokit: GitHubOctokit,
  repoRef: RepoRef,
  opts: GitHubApiOptions = {},
): GitHubApi {
  const ctx = createApiContext(octokit, repoRef, opts);
  const pulls = createPulls(ctx);
  const checkRuns = createCheckRuns(ctx);
  const comments = createStickyComments(ctx, opts, pulls.getPull);
  return {
    getPull: pulls.getPull,
    listOpenPulls: pulls.listOpenPulls,
    listPullFiles: pulls.listPullFiles,
    listReviews: pulls.listReviews,
    getPermission: pulls.getPermission,
    startCheckRun: checkRuns.startCheckRun,
    findCheckRun: checkRuns.findCheckRun,
    completeCheckRun: checkRuns.completeCheckRun,
    findStickyComment: comments.findStickyComment,
    upsertStickyComment: comments.upsertStickyComment,
  };
}
