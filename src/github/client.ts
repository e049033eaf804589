/**
 * The Octokit the adapter uses: @actions/github's client (proxy-aware on
 * self-hosted runners) with the retry and throttling plugins. Everything is
 * passed in; nothing here reads the environment.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { getOctokit } from "@actions/github";
import { retry } from "@octokit/plugin-retry";
import { type ThrottlingOptions, throttling } from "@octokit/plugin-throttling";
import Bottleneck from "bottleneck/light.js";
import { rateLimitOf } from "./rate-limit.js";
import { timedFetch } from "./timed-fetch.js";

export type GitHubOctokit = ReturnType<typeof getOctokit>;

export interface OctokitLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface CreateOctokitOptions {
  token: string;
  /** REST API root: `https://api.github.com`, `https://HOST/api/v3` on GHES, or a stand-in. */
  baseUrl: string;
  userAgent?: string;
  /** Retries after a 5xx or a network error (default 3). */
  retries?: number;
  /** Backoff unit in ms: retry n waits n² × this (default 1000; tests pass 1). */
  retryDelayMs?: number;
  /** Retries after a rate limit (primary, secondary or a bare 429): default the same as `retries`. */
  rateLimitRetries?: number;
  /** Longest advised wait honoured, in seconds; a longer one fails instead (default 120). */
  maxRateLimitWaitSeconds?: number;
  /** Milliseconds per second of advised wait (default 1000; tests pass 1). */
  rateLimitTimeUnitMs?: number;
  /**
   * Minimum spacing between writes in ms. Default: the throttling plugin's
   * (1 s between writes, 3 s between writes that notify, such as comments),
   * which is what GitHub asks of integrations. Tests pass 0.
   */
  writeSpacingMs?: number;
  /** How long one attempt of a request may take before it is abandoned as a network error (default 30 000 ms). */
  requestTimeoutMs?: number;
  /** After this long without an answer, the log says what it waits for (default 5000 ms). */
  slowRequestNoticeMs?: number;
  /**
   * Time all requests of this client may take together, waits included
   * (default 15 min): past it, no request (or 429 retry) is started. Each request
   * alone is bounded by (retries + 1) × requestTimeoutMs plus its waits.
   */
  budgetMs?: number;
  log?: Partial<OctokitLog>;
}

/** Statuses the retry plugin leaves alone: client errors, and 429 (the throttling plugin's). */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

export function createOctokit(opts: CreateOctokitOptions): GitHubOctokit {
  const noop = () => {};
  const log: OctokitLog = {
    debug: opts.log?.debug ?? noop,
    info: opts.log?.info ?? noop,
    warn: opts.log?.warn ?? noop,
    error: opts.log?.error ?? noop,
  };
  const retries = opts.retries ?? 3;
  // One budget for every kind of retry: a rate limit is retried as often as a 5xx.
  const rateLimitRetries = opts.rateLimitRetries ?? retries;
  const maxWait = opts.maxRateLimitWaitSeconds ?? 120;
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      options: { method?: string; url?: string },
      _o: unknown,
      retryCount: number,
    ) => {
      const what = `${options.method ?? "?"} ${options.url ?? "?"}`;
      if (retryCount >= rateLimitRetries) {
        log.warn(`GitHub ${kind} rate limit on ${what}: giving up after ${retryCount} retries.`);
        return false;
      }
      if (retryAfter > maxWait) {
        log.warn(
          `GitHub ${kind} rate limit on ${what}: the advised wait (${retryAfter} s) is longer than ${maxWait} s; not waiting.`,
        );
        return false;
      }
      log.info(`GitHub ${kind} rate limit on ${what}: retrying in ${retryAfter} s.`);
      return true;
    };
  const throttle: ThrottlingOptions = {
    onRateLimit: onLimit("primary"),
    onSecondaryRateLimit: onLimit("secondary"),
    retryAfterBaseValue: opts.rateLimitTimeUnitMs ?? 1000,
  };
  if (opts.writeSpacingMs !== undefined) {
    const spacing = { maxConcurrent: 1, minTime: opts.writeSpacingMs };
    throttle.write = new Bottleneck.Group(spacing);
    throttle.notifications = new Bottleneck.Group(spacing);
  }
  const octokit = getOctokit(
    opts.token,
    {
      baseUrl: opts.baseUrl.replace(/\/+$/, ""),
      ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
      log,
      retry: {
        retries,
        retryAfterBaseValue: opts.retryDelayMs ?? 1000,
        doNotRetry: DO_NOT_RETRY,
      },
      throttle,
    },
    retry,
    throttling,
  );
  // Registered last, this wrap is the outermost: it sees what the retry and
  // throttling plugins gave up on, and its fetch is called once per attempt.
  const unit = opts.rateLimitTimeUnitMs ?? 1000;
  const backoffUnit = opts.retryDelayMs ?? 1000;
  const budgetMs = opts.budgetMs ?? 15 * 60_000;
  const spentBy = Date.now() + budgetMs;
  const withinBudget = (what: string) => {
    if (Date.now() > spentBy) {
      throw new Error(
        `${what}: not sent, the run's time budget for GitHub requests (${Math.round(budgetMs / 1000)} s) is spent`,
      );
    }
  };
  octokit.hook.wrap("request", async (request, options) => {
    withinBudget(`${options.method} ${options.url}`);
    const what = describeRequest(octokit, options);
    options.request = {
      ...options.request,
      // The proxy-aware fetch @actions/github configured, with a deadline per attempt.
      fetch: timedFetch(options.request?.fetch ?? globalThis.fetch, {
        timeoutMs: opts.requestTimeoutMs ?? 30_000,
        noticeMs: opts.slowRequestNoticeMs ?? 5000,
        what,
        log: (m) => log.info(m),
      }),
    };
    for (let retry = 0; ; retry++) {
      try {
        return await request(options);
      } catch (e) {
        // A 429 that names no limit: not applied by GitHub, so safe to repeat even for a
        // write; the throttling plugin handles (and gives up on) the named ones.
        const limit = rateLimitOf(e);
        if (limit?.kind !== "unnamed" || retry >= rateLimitRetries) throw e;
        const advised = limit.resetsAt
          ? Math.ceil((limit.resetsAt.getTime() - Date.now()) / 1000)
          : undefined;
        if (advised !== undefined && advised > maxWait) throw e;
        const waitMs = advised !== undefined ? advised * unit : (retry + 1) ** 2 * backoffUnit;
        log.info(
          `GitHub answered 429 Too Many Requests on ${what}: retry ${retry + 1} of ${rateLimitRetries} in ${Math.ceil(waitMs / 1000)} s.`,
        );
        await sleep(waitMs);
        withinBudget(what);
      }
    }
  });
  return octokit;
}

/** `GET /repos/o/r/pulls/7` for the log: the concrete path, not the route template. */
function describeRequest(octokit: GitHubOctokit, options: { method: string; url: string }): string {
  try {
    const { method, url } = octokit.request.endpoint.parse(
      options as Parameters<typeof octokit.request.endpoint.parse>[0],
    );
    return `${method} ${new URL(url).pathname}`;
  } catch {
    return `${options.method} ${options.url}`;
  }
}
