/**
 * A deadline for each attempt of an API request. Without one, a request that
 * never answers holds the gate for the fetch default (about five minutes) in
 * silence. The timeout surfaces as a plain error, which @octokit/request turns
 * into a network error (status 500, no response): the retry plugin repeats
 * idempotent calls, and the adapter treats a timed-out write like an ambiguous
 * 5xx (it looks for what the attempt created before trying again).
 */
export interface TimedFetchOptions {
  timeoutMs: number;
  /** After this long, log once what is being waited for. */
  noticeMs: number;
  /** `METHOD /path`, for the log. */
  what: string;
  log: (message: string) => void;
}

export function timedFetch(inner: typeof fetch, opts: TimedFetchOptions): typeof fetch {
  return async (input, init) => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
    const notice = setTimeout(
      () =>
        opts.log(
          `Waiting for GitHub to answer ${opts.what} (${duration(opts.noticeMs)} so far; giving up after ${duration(opts.timeoutMs)}).`,
        ),
      opts.noticeMs,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      return await inner(input, { ...init, signal });
    } catch (e) {
      if (deadline.signal.aborted) {
        throw new Error(`no answer within ${duration(opts.timeoutMs)}`);
      }
      throw e;
    } finally {
      clearTimeout(timer);
      clearTimeout(notice);
    }
  };
}

/** `30 s`, or `200 ms` for the tests' short timeouts. */
function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
