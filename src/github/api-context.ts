/**
 * What every part of the GitHub adapter shares: the repository it talks to,
 * the Octokit client, how non-idempotent writes are retried, and how a
 * failed call becomes a `GitHubApiError` that names its endpoint.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { GitHubOctokit } from "./client.js";
import { type ApiArea, statusOf, toGitHubApiError } from "./errors.js";
import type { RepoRef } from "./types.js";

export interface GitHubApiOptions {
  /**
   * Login the token writes comments as, when `GET /user` is refused (it is for
   * every GitHub App installation token). Default `github-actions[bot]`, the
   * author of what the workflow's `GITHUB_TOKEN` writes; another app's token
   * writes as `<app-slug>[bot]`.
   */
  fallbackLogin?: string;
  /** The token's login, when known: skips `GET /user`. */
  login?: string;
  /** Attempts for writes that must not be duplicated (create check run, create comment, annotation batches). Default 3. */
  createAttempts?: number;
  /** Backoff unit in ms for those attempts: attempt n+1 waits n² × this. Default 1000. */
  retryDelayMs?: number;
  /** A line worth logging: a retry, a reused check run, a truncation. */
  log?: (message: string) => void;
}

/** The repository, client and retry policy the adapter's parts share. */
export interface ApiContext {
  octokit: GitHubOctokit;
  owner: string;
  repo: string;
  /** `owner/repo`, as errors name the repository. */
  full: string;
  /** `/repos/owner/repo`, as errors name an endpoint. */
  root: string;
  /** Attempts for a write that must not be duplicated (at least 1). */
  attempts: number;
  /** Wait before the attempt after `attempt` (n² backoff units). */
  backoff(attempt: number): Promise<unknown>;
  log(message: string): void;
  /** `fn()`, its failure turned into a `GitHubApiError` for `endpoint`. */
  call<T>(
    endpoint: string,
    area: ApiArea,
    subject: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T>;
}

export function createApiContext(
  octokit: GitHubOctokit,
  { owner, repo }: RepoRef,
  opts: GitHubApiOptions,
): ApiContext {
  const full = `${owner}/${repo}`;
  const delayUnit = opts.retryDelayMs ?? 1000;
  return {
    octokit,
    owner,
    repo,
    full,
    root: `/repos/${owner}/${repo}`,
    attempts: Math.max(1, opts.createAttempts ?? 3),
    backoff: (attempt) => sleep(attempt * attempt * delayUnit),
    log: opts.log ?? (() => {}),
    async call(endpoint, area, subject, fn) {
      try {
        return await fn();
      } catch (e) {
        throw toGitHubApiError(e, endpoint, { area, repo: full, subject });
      }
    },
  };
}

/** A failed attempt in a log line: its status, or that no answer came. */
export function describeFailure(e: unknown): string {
  const status = statusOf(e);
  return status === undefined ? "network error" : `status ${status}`;
}
