import { type FailureClass, GitHubApiError } from "../github/types.js";

/** Failures after which the gate makes no further writes: the next ones would fail the same way. */
const STOPPING = new Set<FailureClass>(["token-rejected", "forbidden", "rate-limit"]);

/**
 * The first failure after which further writes are pointless (a refused
 * token, a missing permission, a rate limit that outlasted the retries):
 * said once, at the end (publish.ts).
 */
export class ApiStops {
  stop: { error: GitHubApiError; doing: string } | undefined;

  /** Whether `e` stops the writes (the first such is kept); the caller warns about any other. */
  record(e: unknown, doing: string): boolean {
    if (!(e instanceof GitHubApiError) || !STOPPING.has(e.failure)) return false;
    this.stop ??= { error: e, doing };
    return true;
  }
}
