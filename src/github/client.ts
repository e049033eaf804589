/**
 * The Octokit the adapter uses: @actions/github's client (proxy-aware on
 * self-hosted runners) with the retry and throttling plugins. Everything is
 * passed in; nothing here reads the environment.
 */
import { getOctokit } from "@actions/github";
import { retry } from "@octokit/plugin-retry";
import { type ThrottlingOptions, throttling } from "@octokit/plugin-throttling";
import Bottleneck from "bottleneck/light.js";

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
  /** Retries after a primary or secondary rate limit (default 2). */
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
  const rateLimitRetries = opts.rateLimitRetries ?? 2;
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
  return getOctokit(
    opts.token,
    {
      baseUrl: opts.baseUrl.replace(/\/+$/, ""),
      ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
      log,
      retry: {
        retries: opts.retries ?? 3,
        retryAfterBaseValue: opts.retryDelayMs ?? 1000,
        doNotRetry: DO_NOT_RETRY,
      },
      throttle,
    },
    retry,
    throttling,
  );
}
