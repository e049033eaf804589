import type { GitHubApi } from "../github/types.js";
import { type Redact, redactDeep } from "../report/redact.js";
import type { ActionIO, GitHubFactory } from "./io.js";

/**
 * The action's edges with the job's secret values redacted (report/redact.ts):
 * every line it logs, its outputs, the job summary, and what it posts to
 * GitHub (the check run's output, the sticky comment). A check printed what
 * it liked; GitHub masks registered secrets in logs only, never in API payloads.
 */
export function redactingIO(io: ActionIO, redact: Redact): ActionIO {
  return {
    ...io,
    setOutput: (name, value) =>
      io.setOutput(name, typeof value === "string" ? redact(value) : value),
    setFailed: (message) => io.setFailed(redact(message)),
    info: (message) => io.info(redact(message)),
    ...(io.debug && { debug: (message: string) => io.debug?.(redact(message)) }),
    ...(io.notice && { notice: (message: string) => io.notice?.(redact(message)) }),
    warning: (message) => io.warning(redact(message)),
    errorAt: (message, at) => io.errorAt(redact(message), { ...at, title: redact(at.title) }),
    writeSummary: (markdown) => io.writeSummary(redact(markdown)),
    untrusted: (text) => io.untrusted(redact(text)),
  };
}

/** The GitHub API whose writes (check run output, comment body) are redacted. */
export function redactingGitHub(factory: GitHubFactory, redact: Redact): GitHubFactory {
  return (token, repo, baseUrl) => {
    const api: GitHubApi = factory(token, repo, baseUrl);
    const writes: Partial<GitHubApi> = {
      completeCheckRun: (id, args) =>
        api.completeCheckRun(id, { ...args, output: redactDeep(args.output, redact) }),
      upsertStickyComment: (req) => api.upsertStickyComment({ ...req, body: redact(req.body) }),
    };
    // A proxy, not a copy: the adapter (or a test's fake) may keep its methods on a prototype.
    return new Proxy(api, {
      get(target, prop) {
        if (prop in writes) return writes[prop as keyof GitHubApi];
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  };
}
