/**
 * The GitHub operations the action needs, behind one interface so the action's
 * logic can be tested with plain objects and the real adapter against a local
 * stand-in of the API. Every method throws `GitHubApiError` on failure.
 */

import type { ChangedFile } from "../model/changed-file.js";

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface PullRequestInfo {
  number: number;
  headSha: string;
  headRef: string;
  baseSha: string;
  baseRef: string;
  /** `owner/name` of the head repository; `null` when the fork was deleted. */
  headRepo: string | null;
  baseRepo: string;
  /** `changed_files` from pulls.get: compared with the listed files to detect the 3,000-file cap. */
  changedFiles: number;
  state: string;
  htmlUrl: string;
  /** Login of the PR's author (`user.login`): their own review never acknowledges a contract change. */
  author?: string;
}

/** An open pull request as `pulls.list` gives it: enough to tell which share a head commit. */
export interface OpenPull {
  number: number;
  headSha: string;
  /** `owner/name` of the head repository; `null` when the fork was deleted. */
  headRepo: string | null;
  headRef: string;
  baseRef: string;
  baseRepo: string;
  htmlUrl: string;
}

/** A pull request review, as far as acknowledging contract changes needs it. */
export interface PullReview {
  id: number;
  /** `null` when the reviewer's account was deleted. */
  login: string | null;
  /** `APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`, `DISMISSED`, `PENDING`. */
  state: string;
  /** The head commit the review was submitted on. */
  commitId: string | null;
  submittedAt: string | null;
  htmlUrl: string;
}

/** A collaborator's permission as `permission` reports it (maintain → write, triage → read). */
export type RepoPermission = "admin" | "write" | "read" | "none";

/** Re-exported: the adapter lists a PR's files in the shape git's changes have. */
export type { ChangedFile, FileStatus } from "../model/changed-file.js";

/** A check-run annotation as the API takes it. */
export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
  raw_details?: string;
}

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
  annotations: Annotation[];
}

export interface CheckRunRef {
  id: number;
  htmlUrl: string;
}

/** A check run found by name and external id, and whether it is completed. */
export interface FoundCheckRun extends CheckRunRef {
  completed: boolean;
}

export interface StickyCommentRequest {
  issueNumber: number;
  /** Identifies this gate's comment: `<!-- contract-gate:<check-name> -->`. */
  marker: string;
  /** Head sha the body was computed for; recorded in the comment. */
  headSha: string;
  body: string;
}

export interface StickyCommentResult {
  action: "created" | "updated" | "unchanged" | "skipped-stale" | "deleted-duplicates";
  url?: string;
  /** Duplicates (from racing runs) folded into the oldest and deleted. */
  deletedDuplicates: number;
}

export interface GitHubApi {
  getPull(number: number): Promise<PullRequestInfo>;
  /** Every page, 100 per page (the API stops at 3,000 files). */
  listPullFiles(number: number): Promise<ChangedFile[]>;
  /**
   * Every open pull request of the repository, every page (100 per page):
   * the gate needs each one whose head is its commit, from any branch or fork.
   */
  listOpenPulls(): Promise<OpenPull[]>;
  /** Every review of the pull request, oldest first (`pull-requests: read`). */
  listReviews(number: number): Promise<PullReview[]>;
  /** `login`'s permission on the repository (`metadata: read`, which every token has). */
  getPermission(login: string): Promise<RepoPermission>;
  /**
   * Create the check run `in_progress` on `headSha`. When `externalId` is
   * given and creating may have succeeded before a retry, an existing run with
   * the same name and external id on that commit is reused, never duplicated.
   */
  startCheckRun(args: {
    name: string;
    headSha: string;
    externalId: string;
    detailsUrl?: string;
  }): Promise<CheckRunRef>;
  /** The newest check run on `headSha` with this name and external id, if there is one. */
  findCheckRun(args: {
    name: string;
    headSha: string;
    externalId: string;
  }): Promise<FoundCheckRun | undefined>;
  /**
   * Complete the run with its conclusion and output. Annotations beyond 50 go
   * in follow-up updates of 50 (GitHub appends them).
   */
  completeCheckRun(
    id: number,
    args: { conclusion: "success" | "failure" | "neutral" | "cancelled"; output: CheckRunOutput },
  ): Promise<void>;
  /** The sticky comment in `issueNumber`: the token's own, its body starting with `marker`. */
  findStickyComment(
    issueNumber: number,
    marker: string,
  ): Promise<{ id: number; body: string; url: string } | undefined>;
  /** Create or update the one sticky comment, folding duplicates. */
  upsertStickyComment(req: StickyCommentRequest): Promise<StickyCommentResult>;
}

/**
 * Why a call failed, as far as the fix goes: each class has its own advice
 * (errors.ts) and the action reacts to it (a stopped API, the fork fallback).
 */
export type FailureClass =
  | "token-rejected" // 401
  | "forbidden" // 403 without a rate limit: a missing permission, or a fork's read-only token
  | "rate-limit" // 403/429 from a primary, secondary or unnamed limit
  | "not-found" // 404
  | "github-trouble" // 5xx, network error, timeout
  | "other";

/** A failed API call, with a message that names the endpoint, the status and what to do. */
export class GitHubApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly endpoint: string,
    readonly failure: FailureClass = classOfStatus(status),
  ) {
    super(message);
    this.name = "GitHubApiError";
  }
}

/** The class a bare status implies (errors.ts looks further: a 403 can be a rate limit). */
function classOfStatus(status: number | undefined): FailureClass {
  if (status === undefined || status >= 500) return "github-trouble";
  const byStatus: Record<number, FailureClass> = {
    401: "token-rejected",
    403: "forbidden",
    404: "not-found",
    429: "rate-limit",
  };
  return byStatus[status] ?? "other";
}
