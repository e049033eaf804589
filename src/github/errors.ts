/**
 * Octokit errors → `GitHubApiError` with a message a workflow author can act
 * on: the endpoint, the status, GitHub's own words, and what to change.
 */
import { clockTime, rateLimitOf } from "./rate-limit.js";
import { type FailureClass, GitHubApiError } from "./types.js";

/** What the failing call was about; picks the advice. */
export type ApiArea = "checks" | "comments" | "pulls" | "user" | "reviews" | "collaborators";

export interface ErrorContext {
  area: ApiArea;
  /** `owner/name`, for the 404 advice. */
  repo: string;
  /** What was addressed, e.g. `pull request #12` or `check run 77`. */
  subject?: string;
  /** Attempts made, when the caller retried by itself. */
  attempts?: number;
}

interface OctokitErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { data?: unknown; headers?: Record<string, unknown> };
}

/** HTTP status of an Octokit error; `undefined` for network errors (no response). */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof GitHubApiError) return error.status;
  const e = error as OctokitErrorLike | null;
  if (!e || typeof e !== "object" || typeof e.status !== "number") return undefined;
  // @octokit/request reports a failed fetch as status 500 without a response.
  if (e.status === 500 && !e.response) return undefined;
  return e.status;
}

/** A 5xx or a network error: the request may or may not have taken effect. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof GitHubApiError) return error.status === undefined || error.status >= 500;
  const e = error as OctokitErrorLike | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.status !== "number") return (error as Error).name === "AbortError";
  return e.status >= 500;
}

/** GitHub's message for the error: `message` (+ `errors`) from JSON, text of an HTML page. */
export function githubMessage(error: unknown): string {
  const e = error as OctokitErrorLike | null;
  const data = e?.response?.data;
  if (data && typeof data === "object" && "message" in data) {
    const d = data as { message?: unknown; errors?: unknown };
    let msg = String(d.message)
      .replace(/\s*\n+\s*/g, " ")
      .trim();
    if (Array.isArray(d.errors) && d.errors.length > 0) {
      const details = d.errors.map((x) =>
        x && typeof x === "object"
          ? String(
              (x as { message?: unknown }).message ??
                [(x as { field?: unknown }).field, (x as { code?: unknown }).code]
                  .filter((v) => v !== undefined)
                  .join(" "),
            )
          : String(x),
      );
      msg += ` (${details.join("; ")})`;
    }
    return clip(msg);
  }
  if (typeof data === "string" && data.trim() !== "") {
    return clip(
      data
        .replace(/<[^>]*>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );
  }
  const m = typeof e?.message === "string" ? e.message : String(error);
  // Octokit appends " - <documentation_url>"; the docs link is noise here.
  return clip(m.replace(/ - https:\/\/docs\.github\.com\S*$/, ""));
}

function clip(s: string): string {
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
}

function advice(error: unknown, status: number | undefined, ctx: ErrorContext): string {
  const msg = githubMessage(error);
  const subject = ctx.subject ?? `repository ${ctx.repo}`;
  if (status === undefined || status >= 500) {
    const after = ctx.attempts ? ` after ${ctx.attempts} attempts` : " after retrying";
    return `GitHub is having problems (the request still failed${after}); re-run the job, and check https://www.githubstatus.com if it keeps failing.`;
  }
  const limit = rateLimitOf(error);
  if (limit) {
    const which =
      limit.kind === "unnamed"
        ? "A GitHub rate limit (429 Too Many Requests)"
        : `GitHub's ${limit.kind} rate limit`;
    const until = limit.resetsAt ? `; it resets at ${clockTime(limit.resetsAt)}` : "";
    return `${which} outlasted the retries${until}. Re-run the job after that.`;
  }
  switch (status) {
    case 401:
      return "The token was rejected (bad or expired credentials): pass a valid token, e.g. the workflow's `GITHUB_TOKEN`.";
    case 403: {
      if (/must authenticate via a GitHub App/i.test(msg)) {
        return "Check runs can only be written with a GitHub App installation token such as the workflow's `GITHUB_TOKEN`; a personal access token cannot create or update check runs.";
      }
      if (ctx.area === "checks") {
        return `The token may not write check runs: add \`checks: write\` to the workflow's (or job's) \`permissions:\`.`;
      }
      if (ctx.area === "comments") {
        return `The token may not write pull request comments: add \`pull-requests: write\` to the workflow's (or job's) \`permissions:\`.`;
      }
      if (ctx.area === "reviews") {
        return "The token may not read pull request reviews, so no approval can acknowledge contract changes: add `pull-requests: read` to the workflow's (or job's) `permissions:`.";
      }
      if (ctx.area === "collaborators") {
        return "The token may not read collaborators' permissions, so no approval can acknowledge contract changes: it needs `metadata: read` (every `GITHUB_TOKEN` has it; a fine-grained token needs Metadata: read).";
      }
      if (ctx.area === "pulls") {
        return "The token may not read pull requests: add `pull-requests: read` to the workflow's (or job's) `permissions:`.";
      }
      return "GitHub refused the request: check the token's permissions and repository access.";
    }
    case 404:
      return `${capitalize(subject)} was not found, or the token has no access to it (a private repository needs a token with access to ${ctx.repo}).`;
    case 410:
      return `${capitalize(subject)} is gone (deleted or disabled).`;
    case 422:
      if (/No commit found/i.test(msg)) {
        return `The commit is not in ${ctx.repo}: check runs and comments must target the repository the workflow runs in.`;
      }
      return "GitHub rejected what contract-gate sent (see GitHub's message); this is a contract-gate bug, please report it with this message.";
    default:
      return "Unexpected answer from GitHub.";
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Wrap any error from an Octokit call into a `GitHubApiError` whose message
 * names the endpoint (e.g. `POST /repos/o/r/check-runs`), the status,
 * GitHub's message and what to do. A `GitHubApiError` passes through.
 */
export function toGitHubApiError(
  error: unknown,
  endpoint: string,
  ctx: ErrorContext,
): GitHubApiError {
  if (error instanceof GitHubApiError) return error;
  const status = statusOf(error);
  const what =
    status === undefined
      ? `network error (${githubMessage(error)})`
      : `${status}${httpReason(status)}: ${githubMessage(error)}`;
  const message = `${endpoint} failed with ${what}. ${advice(error, status, ctx)}`;
  const wrapped = new GitHubApiError(message, status, endpoint, failureClass(error, status));
  (wrapped as { cause?: unknown }).cause = error;
  return wrapped;
}

/** The class of a failed call (see FailureClass). */
export function failureClass(error: unknown, status = statusOf(error)): FailureClass {
  if (rateLimitOf(error)) return "rate-limit";
  if (status === undefined || status >= 500) return "github-trouble";
  if (status === 401) return "token-rejected";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  return "other";
}

function httpReason(status: number): string {
  const reasons: Record<number, string> = {
    400: " Bad Request",
    401: " Unauthorized",
    403: " Forbidden",
    404: " Not Found",
    410: " Gone",
    422: " Unprocessable Entity",
    429: " Too Many Requests",
    500: " Internal Server Error",
    502: " Bad Gateway",
    503: " Service Unavailable",
    504: " Gateway Timeout",
  };
  return reasons[status] ?? "";
}
