/**
 * Which rate limit an answer reports, from GitHub's own signals: a
 * `secondary rate` message (secondary limit), `x-ratelimit-remaining: 0`
 * (primary limit), or a bare 429 (a limit GitHub did not name). The throttling
 * plugin retries the first two; client.ts retries the third.
 */
export type RateLimitKind = "primary" | "secondary" | "unnamed";

export interface RateLimit {
  kind: RateLimitKind;
  /** When the limit lifts, from `x-ratelimit-reset` or `retry-after`. */
  resetsAt?: Date;
}

interface ErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { data?: unknown; headers?: Record<string, unknown> };
}

/** The rate limit a failed request hit, if it hit one. */
export function rateLimitOf(error: unknown, now = Date.now()): RateLimit | undefined {
  const e = error as ErrorLike | null;
  if (!e || typeof e !== "object" || (e.status !== 403 && e.status !== 429)) return undefined;
  const headers = e.response?.headers ?? {};
  const data = e.response?.data as { message?: unknown } | undefined;
  const text = `${String(e.message ?? "")} ${String(data?.message ?? "")}`;
  const retryAfter = Number(headers["retry-after"]);
  const afterRetry =
    Number.isFinite(retryAfter) && retryAfter >= 0 ? new Date(now + retryAfter * 1000) : undefined;
  if (/\bsecondary rate\b/i.test(text)) {
    return { kind: "secondary", ...(afterRetry && { resetsAt: afterRetry }) };
  }
  if (headers["x-ratelimit-remaining"] === "0" || /\brate limit\b/i.test(text)) {
    const reset = Number(headers["x-ratelimit-reset"]);
    const resetsAt = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : afterRetry;
    return { kind: "primary", ...(resetsAt && { resetsAt }) };
  }
  if (e.status === 429) return { kind: "unnamed", ...(afterRetry && { resetsAt: afterRetry }) };
  return undefined;
}

/** `14:05:09 UTC`: when a limit lifts, as the log shows it. */
export function clockTime(d: Date): string {
  return `${d.toISOString().slice(11, 19)} UTC`;
}
