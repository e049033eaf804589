/**
 * The real `GitHubApi`: Octokit calls with pagination, duplicate-free retries
 * of non-idempotent writes, annotation batching and the sticky comment.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { GitHubOctokit } from "./client.js";
import { type ApiArea, isRetryable, statusOf, toGitHubApiError } from "./errors.js";
import type {
  Annotation,
  ChangedFile,
  CheckRunOutput,
  CheckRunRef,
  FoundCheckRun,
  GitHubApi,
  OpenPull,
  PullRequestInfo,
  PullReview,
  RepoPermission,
  RepoRef,
  StickyCommentRequest,
  StickyCommentResult,
} from "./types.js";

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

/** GitHub's limits the adapter fits within rather than be refused. */
export const LIMITS = {
  /** Check-run `output.summary` / `output.text`: 65,535 (GitHub counts bytes). */
  outputBytes: 65_535,
  /** Issue comment body, in characters. */
  commentChars: 65_536,
  /** Annotations per create/update request. */
  annotationsPerRequest: 50,
  annotationTitleChars: 255,
  annotationDetailBytes: 64 * 1024,
} as const;

export const DEFAULT_BOT_LOGIN = "github-actions[bot]";

/** The hidden marker recording the head sha a sticky comment was computed for. */
export function shaMarker(sha: string): string {
  return `<!-- contract-gate:sha:${sha} -->`;
}

const SHA_MARKER_RE = /<!-- contract-gate:sha:([0-9A-Za-z]+) -->\n?/g;

/** The head sha recorded in a sticky comment body, if any. */
export function recordedSha(body: string): string | undefined {
  const m = /<!-- contract-gate:sha:([0-9A-Za-z]+) -->/.exec(body);
  return m?.[1];
}

/**
 * The body as posted: `marker` first (once, even when the body starts with
 * it), the sha marker, then the body, cut to GitHub's comment limit.
 */
export function composeStickyBody(marker: string, headSha: string, body: string): string {
  let clean = body.replace(SHA_MARKER_RE, "");
  // The marker must open the body: that is how the gate knows its comment (see `mine`).
  if (clean.startsWith(marker)) clean = clean.slice(marker.length).replace(/^\n/, "");
  const head = `${marker}\n${shaMarker(headSha)}\n`;
  return head + fitChars(clean, LIMITS.commentChars - [...head].length);
}

const TRUNCATED = "\n\n… (truncated to fit GitHub's size limit)";

/** `s` cut to at most `max` characters (code points), with a note when cut. */
export function fitChars(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const note = [...TRUNCATED];
  return chars.slice(0, Math.max(0, max - note.length)).join("") + TRUNCATED;
}

/** `s` cut to at most `max` UTF-8 bytes (never inside a character), with a note when cut. */
export function fitBytes(s: string, max: number): string {
  if (Buffer.byteLength(s, "utf8") <= max) return s;
  const budget = max - Buffer.byteLength(TRUNCATED, "utf8");
  let used = 0;
  let out = "";
  for (const ch of s) {
    const n = Buffer.byteLength(ch, "utf8");
    if (used + n > budget) break;
    used += n;
    out += ch;
  }
  return out + TRUNCATED;
}

function fitAnnotation(a: Annotation): Annotation {
  const start = Math.max(1, Math.trunc(a.start_line));
  const out: Annotation = {
    path: a.path,
    start_line: start,
    end_line: Math.max(start, Math.trunc(a.end_line)),
    annotation_level: a.annotation_level,
    message: fitBytes(a.message, LIMITS.annotationDetailBytes),
  };
  if (a.title !== undefined) out.title = fitChars(a.title, LIMITS.annotationTitleChars);
  if (a.raw_details !== undefined) {
    out.raw_details = fitBytes(a.raw_details, LIMITS.annotationDetailBytes);
  }
  return out;
}

interface IssueComment {
  id: number;
  body: string;
  url: string;
  login: string | undefined;
  createdAt: string;
}

export function createGitHubApi(
  octokit: GitHubOctokit,
  repoRef: RepoRef,
  opts: GitHubApiOptions = {},
): GitHubApi {
  const { owner, repo } = repoRef;
  const full = `${owner}/${repo}`;
  const root = `/repos/${owner}/${repo}`;
  const attempts = Math.max(1, opts.createAttempts ?? 3);
  const delayUnit = opts.retryDelayMs ?? 1000;
  const log = opts.log ?? (() => {});
  /** Annotation count of runs this adapter created or completed (from GitHub's answers). */
  const annotationCounts = new Map<number, number>();
  let loginPromise: Promise<string> | undefined;

  async function call<T>(
    endpoint: string,
    area: ApiArea,
    subject: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw toGitHubApiError(e, endpoint, { area, repo: full, subject });
    }
  }

  const backoff = (attempt: number) => sleep(attempt * attempt * delayUnit);

  // ------------------------------------------------------------ pulls

  async function getPull(number: number): Promise<PullRequestInfo> {
    const { data } = await call(
      `GET ${root}/pulls/${number}`,
      "pulls",
      `pull request #${number} in ${full}`,
      () => octokit.rest.pulls.get({ owner, repo, pull_number: number }),
    );
    // The schema says `head.repo` is always an object; GitHub sends null once the fork is deleted.
    const headRepo = (data.head.repo as { full_name: string } | null) ?? null;
    return {
      number: data.number,
      headSha: data.head.sha,
      headRef: data.head.ref,
      baseSha: data.base.sha,
      baseRef: data.base.ref,
      headRepo: headRepo ? headRepo.full_name : null,
      baseRepo: data.base.repo.full_name,
      changedFiles: data.changed_files,
      state: data.state,
      htmlUrl: data.html_url,
      author: data.user.login,
    };
  }

  async function listOpenPulls(): Promise<OpenPull[]> {
    const pulls = await call(
      `GET ${root}/pulls?state=open`,
      "pulls",
      `the open pull requests of ${full}`,
      () =>
        octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: "open", per_page: 100 }),
    );
    return pulls.map((p) => ({
      number: p.number,
      headSha: p.head.sha,
      // As in getPull: the schema says an object, GitHub sends null once the fork is deleted.
      headRepo: (p.head.repo as { full_name: string } | null)?.full_name ?? null,
      headRef: p.head.ref,
      baseRef: p.base.ref,
      baseRepo: p.base.repo.full_name,
      htmlUrl: p.html_url,
    }));
  }

  async function listReviews(number: number): Promise<PullReview[]> {
    const reviews = await call(
      `GET ${root}/pulls/${number}/reviews`,
      "reviews",
      `pull request #${number} in ${full}`,
      () =>
        octokit.paginate(octokit.rest.pulls.listReviews, {
          owner,
          repo,
          pull_number: number,
          per_page: 100,
        }),
    );
    return reviews.map((r) => ({
      id: r.id,
      login: r.user?.login ?? null,
      state: r.state,
      commitId: r.commit_id ?? null,
      submittedAt: r.submitted_at ?? null,
      htmlUrl: r.html_url,
    }));
  }

  async function getPermission(login: string): Promise<RepoPermission> {
    try {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner,
        repo,
        username: login,
      });
      const p = data.permission;
      return p === "admin" || p === "write" || p === "read" ? p : "none";
    } catch (e) {
      // 404: not a collaborator (or no such user), which is no permission at all.
      if (statusOf(e) === 404) return "none";
      throw toGitHubApiError(e, `GET ${root}/collaborators/${login}/permission`, {
        area: "collaborators",
        repo: full,
        subject: `the permission of ${login} in ${full}`,
      });
    }
  }

  async function listPullFiles(number: number): Promise<ChangedFile[]> {
    const files = await call(
      `GET ${root}/pulls/${number}/files`,
      "pulls",
      `pull request #${number} in ${full}`,
      () =>
        octokit.paginate(octokit.rest.pulls.listFiles, {
          owner,
          repo,
          pull_number: number,
          per_page: 100,
        }),
    );
    return files.map((f) => {
      const out: ChangedFile = { path: f.filename, status: f.status };
      if (f.previous_filename !== undefined && (f.status === "renamed" || f.status === "copied")) {
        out.previousPath = f.previous_filename;
      }
      return out;
    });
  }

  // ------------------------------------------------------------ check runs

  async function findCheckRun(
    name: string,
    headSha: string,
    externalId: string,
  ): Promise<FoundCheckRun | undefined> {
    const runs = await call(
      `GET ${root}/commits/${headSha}/check-runs`,
      "checks",
      `commit ${headSha} in ${full}`,
      () =>
        octokit.paginate(octokit.rest.checks.listForRef, {
          owner,
          repo,
          ref: headSha,
          check_name: name,
          filter: "all",
          per_page: 100,
        }),
    );
    const mine = runs
      .filter((r) => r.name === name && r.external_id === externalId)
      .sort((a, b) => b.id - a.id)[0];
    if (!mine) return undefined;
    annotationCounts.set(mine.id, mine.output.annotations_count);
    return { id: mine.id, htmlUrl: mine.html_url ?? "", completed: mine.status === "completed" };
  }

  async function startCheckRun(args: {
    name: string;
    headSha: string;
    externalId: string;
    detailsUrl?: string;
  }): Promise<CheckRunRef> {
    const endpoint = `POST ${root}/check-runs`;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        await backoff(attempt - 1);
        // The failed create may have gone through before the answer was lost.
        const existing = await findCheckRun(args.name, args.headSha, args.externalId);
        if (existing) {
          log(`Check run "${args.name}" was created despite the error; using it (${existing.id}).`);
          return { id: existing.id, htmlUrl: existing.htmlUrl };
        }
      }
      try {
        const { data } = await octokit.rest.checks.create({
          owner,
          repo,
          name: args.name,
          head_sha: args.headSha,
          external_id: args.externalId,
          status: "in_progress",
          started_at: new Date().toISOString(),
          ...(args.detailsUrl ? { details_url: args.detailsUrl } : {}),
          // Retried here, after looking for the run, never blindly by the plugin.
          request: { retries: 0 },
        });
        annotationCounts.set(data.id, data.output.annotations_count);
        return { id: data.id, htmlUrl: data.html_url ?? "" };
      } catch (e) {
        if (!isRetryable(e)) {
          throw toGitHubApiError(e, endpoint, { area: "checks", repo: full });
        }
        lastError = e;
        log(`${endpoint} failed (${describe(e)}); attempt ${attempt} of ${attempts}.`);
      }
    }
    const existing = await findCheckRun(args.name, args.headSha, args.externalId);
    if (existing) return { id: existing.id, htmlUrl: existing.htmlUrl };
    throw toGitHubApiError(lastError, endpoint, { area: "checks", repo: full, attempts });
  }

  async function annotationCountOf(id: number): Promise<number> {
    const { data } = await call(
      `GET ${root}/check-runs/${id}`,
      "checks",
      `check run ${id} in ${full}`,
      () => octokit.rest.checks.get({ owner, repo, check_run_id: id }),
    );
    return data.output.annotations_count;
  }

  async function completeCheckRun(
    id: number,
    args: { conclusion: "success" | "failure" | "neutral" | "cancelled"; output: CheckRunOutput },
  ): Promise<void> {
    const endpoint = `PATCH ${root}/check-runs/${id}`;
    const subject = `check run ${id} in ${full}`;
    const summary = fitBytes(args.output.summary, LIMITS.outputBytes);
    const text =
      args.output.text === undefined ? undefined : fitBytes(args.output.text, LIMITS.outputBytes);
    if (summary !== args.output.summary || text !== args.output.text) {
      log(`Check run output was cut to GitHub's ${LIMITS.outputBytes}-byte limit.`);
    }
    const annotations = args.output.annotations.map(fitAnnotation);
    const batches: Annotation[][] = [];
    for (let i = 0; i < annotations.length; i += LIMITS.annotationsPerRequest) {
      batches.push(annotations.slice(i, i + LIMITS.annotationsPerRequest));
    }
    if (batches.length === 0) batches.push([]);

    let count = annotationCounts.get(id);
    if (count === undefined && annotations.length > 0) count = await annotationCountOf(id);

    for (const [i, batch] of batches.entries()) {
      // Every update repeats title/summary/text: GitHub requires them with
      // annotations, and an output without `text` may clear it.
      const output = {
        title: args.output.title,
        summary,
        ...(text !== undefined ? { text } : {}),
        ...(batch.length > 0 ? { annotations: batch } : {}),
      };
      const params = {
        owner,
        repo,
        check_run_id: id,
        ...(i === 0
          ? {
              status: "completed" as const,
              conclusion: args.conclusion,
              completed_at: new Date().toISOString(),
            }
          : {}),
        output,
      };
      if (batch.length === 0) {
        // Idempotent: the retry plugin may repeat it.
        const { data } = await call(endpoint, "checks", subject, () =>
          octokit.rest.checks.update(params),
        );
        annotationCounts.set(id, data.output.annotations_count);
        continue;
      }
      // Annotations append: a repeat after a lost answer would duplicate them,
      // so a failed batch is only re-sent when GitHub's count shows it missing.
      const before = count ?? 0;
      let done = false;
      let lastError: unknown;
      for (let attempt = 1; attempt <= attempts && !done; attempt++) {
        if (attempt > 1) {
          await backoff(attempt - 1);
          const now = await annotationCountOf(id);
          if (now >= before + batch.length) {
            log(`Annotation batch ${i + 1} reached GitHub despite the error; not re-sending it.`);
            count = now;
            done = true;
            break;
          }
        }
        try {
          const { data } = await octokit.rest.checks.update({ ...params, request: { retries: 0 } });
          count = data.output.annotations_count;
          done = true;
        } catch (e) {
          if (!isRetryable(e))
            throw toGitHubApiError(e, endpoint, { area: "checks", repo: full, subject });
          lastError = e;
          log(`${endpoint} failed (${describe(e)}); attempt ${attempt} of ${attempts}.`);
        }
      }
      if (!done) {
        const now = await annotationCountOf(id);
        if (now < before + batch.length) {
          throw toGitHubApiError(lastError, endpoint, {
            area: "checks",
            repo: full,
            subject,
            attempts,
          });
        }
        count = now;
      }
      annotationCounts.set(id, count ?? before + batch.length);
    }
  }

  // ------------------------------------------------------------ comments

  async function login(): Promise<string> {
    if (opts.login) return opts.login;
    loginPromise ??= (async () => {
      try {
        const { data } = await octokit.rest.users.getAuthenticated();
        return data.login;
      } catch (e) {
        const status = statusOf(e);
        // Installation tokens (GITHUB_TOKEN) may not read /user: 403 "Resource not accessible by integration".
        if (status === 401 || status === 403) return opts.fallbackLogin ?? DEFAULT_BOT_LOGIN;
        loginPromise = undefined;
        throw toGitHubApiError(e, "GET /user", { area: "user", repo: full });
      }
    })();
    return loginPromise;
  }

  async function listComments(issueNumber: number): Promise<IssueComment[]> {
    const comments = await call(
      `GET ${root}/issues/${issueNumber}/comments`,
      "comments",
      `pull request #${issueNumber} in ${full}`,
      () =>
        octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: issueNumber,
          per_page: 100,
        }),
    );
    return comments.map((c) => ({
      id: c.id,
      body: c.body ?? "",
      url: c.html_url,
      login: c.user?.login,
      createdAt: c.created_at,
    }));
  }

  /**
   * This token's comments that start with `marker`, oldest first. Only these
   * are ever adopted, edited or deleted: another workflow writing as the same
   * bot may quote the marker (a PR description, say) anywhere else.
   */
  async function mine(issueNumber: number, marker: string): Promise<IssueComment[]> {
    const [me, comments] = await Promise.all([login(), listComments(issueNumber)]);
    return comments
      .filter((c) => c.body.startsWith(marker) && c.login === me)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  }

  async function findStickyComment(
    issueNumber: number,
    marker: string,
  ): Promise<{ id: number; body: string; url: string } | undefined> {
    const [first] = await mine(issueNumber, marker);
    return first ? { id: first.id, body: first.body, url: first.url } : undefined;
  }

  async function updateComment(id: number, body: string): Promise<string | undefined> {
    try {
      const { data } = await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: id,
        body,
      });
      return data.html_url;
    } catch (e) {
      if (statusOf(e) === 404) return undefined; // deleted meanwhile (a racing run)
      throw toGitHubApiError(e, `PATCH ${root}/issues/comments/${id}`, {
        area: "comments",
        repo: full,
        subject: `comment ${id} in ${full}`,
      });
    }
  }

  async function deleteComment(id: number): Promise<void> {
    try {
      await octokit.rest.issues.deleteComment({ owner, repo, comment_id: id });
    } catch (e) {
      if (statusOf(e) === 404) return; // already gone: a racing run folded it too
      throw toGitHubApiError(e, `DELETE ${root}/issues/comments/${id}`, {
        area: "comments",
        repo: full,
        subject: `comment ${id} in ${full}`,
      });
    }
  }

  /** Create the comment; a retry first looks for one the failed attempt may have created. */
  async function createComment(
    issueNumber: number,
    marker: string,
    body: string,
    known: Set<number>,
  ): Promise<{ url: string }> {
    const endpoint = `POST ${root}/issues/${issueNumber}/comments`;
    const subject = `pull request #${issueNumber} in ${full}`;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        await backoff(attempt - 1);
        const adopted = (await mine(issueNumber, marker)).find((c) => !known.has(c.id));
        if (adopted) {
          log(`The comment was created despite the error; using it (${adopted.id}).`);
          if (adopted.body !== body) await updateComment(adopted.id, body);
          return { url: adopted.url };
        }
      }
      try {
        const { data } = await octokit.rest.issues.createComment({
          owner,
          repo,
          issue_number: issueNumber,
          body,
          request: { retries: 0 },
        });
        return { url: data.html_url };
      } catch (e) {
        if (!isRetryable(e))
          throw toGitHubApiError(e, endpoint, { area: "comments", repo: full, subject });
        lastError = e;
        log(`${endpoint} failed (${describe(e)}); attempt ${attempt} of ${attempts}.`);
      }
    }
    const adopted = (await mine(issueNumber, marker)).find((c) => !known.has(c.id));
    if (adopted) return { url: adopted.url };
    throw toGitHubApiError(lastError, endpoint, {
      area: "comments",
      repo: full,
      subject,
      attempts,
    });
  }

  async function upsertStickyComment(req: StickyCommentRequest): Promise<StickyCommentResult> {
    const body = composeStickyBody(req.marker, req.headSha, req.body);
    const existing = await mine(req.issueNumber, req.marker);
    const [keeper, ...duplicates] = existing;
    if (!keeper) {
      const { url } = await createComment(req.issueNumber, req.marker, body, new Set());
      return { action: "created", url, deletedDuplicates: 0 };
    }
    const recorded = recordedSha(keeper.body);
    if (recorded !== undefined && recorded !== req.headSha) {
      // A run for an older head must never overwrite the comment of a newer one.
      const pull = await getPull(req.issueNumber);
      if (pull.headSha !== req.headSha) {
        log(
          `Not updating the comment: it is for ${recorded}, this run is for ${req.headSha}, and the pull request's head is now ${pull.headSha}.`,
        );
        return { action: "skipped-stale", url: keeper.url, deletedDuplicates: 0 };
      }
    }
    let action: StickyCommentResult["action"];
    let url = keeper.url;
    if (keeper.body === body) {
      action = "unchanged";
    } else {
      const updated = await updateComment(keeper.id, body);
      if (updated === undefined) {
        // The keeper vanished between listing and updating: start over with a new one.
        const known = new Set(existing.map((c) => c.id));
        ({ url } = await createComment(req.issueNumber, req.marker, body, known));
        action = "created";
      } else {
        url = updated;
        action = "updated";
      }
    }
    for (const d of duplicates) await deleteComment(d.id);
    if (duplicates.length > 0 && action === "unchanged") action = "deleted-duplicates";
    return { action, url, deletedDuplicates: duplicates.length };
  }

  return {
    getPull,
    listOpenPulls,
    listPullFiles,
    listReviews,
    getPermission,
    startCheckRun,
    findCheckRun: (args) => findCheckRun(args.name, args.headSha, args.externalId),
    completeCheckRun,
    findStickyComment,
    upsertStickyComment,
  };
}

function describe(e: unknown): string {
  const status = statusOf(e);
  return status === undefined ? "network error" : `status ${status}`;
}
