/**
 * A local stand-in for the GitHub REST API (127.0.0.1, random port) for tests
 * of the real adapter. It answers the endpoints contract-gate uses the way
 * GitHub does (status codes, JSON shapes built from the OpenAPI examples,
 * `Link` pagination, rate-limit headers) and validates EVERY request against
 * the operation in @octokit/openapi's api.github.com.json. A request GitHub
 * would reject gets GitHub's error (422/400/404) and is recorded in
 * `violations`; tests assert `violations` is empty.
 *
 * Outcomes that depend on state (401 bad token, 403 permissions, 404 missing
 * PR) are answered like GitHub but are not violations: they are what a test
 * sets up on purpose.
 */
import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  checkBody,
  checkParams,
  checkResponse,
  loadSpec,
  matchRoute,
  type Operation,
} from "./openapi.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The workflow's `GITHUB_TOKEN` (an installation token of the GitHub Actions app). */
export const ACTIONS_TOKEN = "ghs_standinGithubToken0000000000000000";
/** A personal access token of `octocat`. */
export const USER_TOKEN = "ghp_standinOctocat000000000000000000000";
export const ACTIONS_LOGIN = "github-actions[bot]";

export type Access = "none" | "read" | "write";

export interface TokenIdentity {
  /** `installation`: a GitHub App installation token (GITHUB_TOKEN); `user`: a PAT. */
  kind: "installation" | "user";
  /** Author of what the token writes: `github-actions[bot]` for GITHUB_TOKEN. */
  login: string;
  /** Writes to checks and comments are refused (a fork PR's GITHUB_TOKEN). */
  readOnly?: boolean;
  /** Finer than `readOnly`; a missing entry means `write`. */
  permissions?: { checks?: Access; pull_requests?: Access; issues?: Access };
  /** Repositories (`owner/name`) the token can see; others answer 404. Default: all. */
  repos?: string[];
  /** `x-ratelimit-limit` (default 1000 for installations, 5000 for users). */
  rateLimit?: number;
}

export type FileStatus =
  | "added"
  | "removed"
  | "modified"
  | "renamed"
  | "copied"
  | "changed"
  | "unchanged";

export interface PullFileState {
  filename: string;
  status: FileStatus;
  previous_filename?: string;
  additions?: number;
  deletions?: number;
}

export interface PullState {
  number: number;
  title: string;
  state: "open" | "closed";
  draft: boolean;
  merged: boolean;
  user: string;
  /** `repo`: `owner/name` of the head repository (a fork when different), `null` when deleted. */
  head: { sha: string; ref: string; repo: string | null };
  base: { sha: string; ref: string };
  /** Every changed file; listing stops at 3,000 like GitHub, `changed_files` counts all. */
  files: PullFileState[];
  createdAt: string;
  /** Reviews, oldest first (what `pulls/list-reviews` lists). */
  reviews: ReviewState[];
}

export interface ReviewState {
  id: number;
  user: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";
  /** The head commit the review was submitted on. */
  commitId: string;
  submittedAt: string;
}

export type AnnotationState = Record<string, Json>;

export interface CheckRunState {
  id: number;
  name: string;
  headSha: string;
  externalId: string | null;
  status: string;
  conclusion: string | null;
  startedAt: string;
  completedAt: string | null;
  detailsUrl: string | null;
  output: {
    title: string | null;
    summary: string | null;
    text: string | null;
    annotations: AnnotationState[];
  };
  suiteId: number;
  /** Login of the token that created it. */
  createdBy: string;
}

export interface CommentState {
  id: number;
  issueNumber: number;
  body: string;
  /** Author login. */
  user: string;
  createdAt: string;
  updatedAt: string;
}

export interface RepoState {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  defaultBranch: string;
  /** Known commit shas (pull heads and bases are added automatically). */
  commits: Set<string>;
  pulls: Map<number, PullState>;
  /** Plain issues (pull requests are issues too and need not be listed). */
  issues: Set<number>;
  checkRuns: CheckRunState[];
  comments: CommentState[];
  /** Collaborators' permission (`admin`, `maintain`, `write`, `triage`, `read`); others are not collaborators. */
  collaborators: Map<string, "admin" | "maintain" | "write" | "triage" | "read">;
}

export interface StandInState {
  /** Keyed by lower-cased `owner/name` (GitHub names are case-insensitive). */
  repos: Map<string, RepoState>;
  tokens: Map<string, TokenIdentity>;
  nextId: number;
}

export interface RecordedRequest {
  method: string;
  /** Path as requested (before the `/repositories/{id}` alias is resolved). */
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
  /** The matched operation, when one matched. */
  operationId?: string;
  /** Status the stand-in answered (0 when the connection was dropped). */
  status: number;
}

export interface Fault {
  method?: string;
  /** A RegExp on the concrete path, a template (`/repos/{owner}/{repo}/check-runs`), or a concrete path. */
  path: RegExp | string;
  /** Default 500 (403 for `rateLimit`). */
  status?: number;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** Response body (default: GitHub's body for the status). */
  body?: unknown;
  headers?: Record<string, string>;
  /** The request takes effect first, then the failure is returned (a lost response). */
  afterEffect?: boolean;
  /** Drop the connection instead of answering (a network error). */
  network?: boolean;
  /** Answer like GitHub's primary (remaining 0) or secondary rate limit. */
  rateLimit?: "primary" | "secondary";
  /** Seconds until the primary limit resets / the secondary `retry-after` (default 1). */
  retryAfterSeconds?: number;
  /** Let this many matching requests through first: the fault hits call skip + 1 (the Nth call). */
  skip?: number;
  /** Answer normally, but only after this many ms (a slow request; with nothing else set). */
  delayMs?: number;
  /** Never answer (the connection stays open until the client gives up or the stand-in closes); with `afterEffect`, after applying. */
  hang?: boolean;
}

export interface StandInOptions {
  /** Extra tokens; `ACTIONS_TOKEN` and `USER_TOKEN` always exist unless overridden. */
  tokens?: Record<string, TokenIdentity>;
  /** Link header style: `repositories` (GitHub's `/repositories/{id}/…`, default) or `repos`. */
  linkStyle?: "repositories" | "repos";
}

export interface StandIn {
  url: string;
  state: StandInState;
  requests: RecordedRequest[];
  /** Requests GitHub would reject as malformed; assert empty. */
  violations: string[];
  /** Accepted but suspicious (an ignored query parameter, per_page clamped). */
  warnings: string[];
  /** The stand-in's own responses that do not match the response schema (self-check). */
  responseProblems: string[];
  failNext(fault: Fault): void;
  /** Drop every fault not yet used up (GitHub recovers). */
  clearFaults(): void;
  addRepo(fullName: string, opts?: { private?: boolean; defaultBranch?: string }): RepoState;
  addPull(
    fullName: string,
    pull: {
      number: number;
      headSha: string;
      baseSha: string;
      headRef?: string;
      baseRef?: string;
      /** `owner/name` of the head repository; default the base repository; `null`: deleted fork. */
      headRepo?: string | null;
      files?: PullFileState[];
      title?: string;
      state?: "open" | "closed";
      user?: string;
    },
  ): PullState;
  addComment(
    fullName: string,
    issueNumber: number,
    comment: { body: string; user: string },
  ): CommentState;
  addToken(token: string, identity: TokenIdentity): void;
  /** A review submitted on `commitId` (default: the pull request's current head). */
  addReview(
    fullName: string,
    pullNumber: number,
    review: { user: string; state: ReviewState["state"]; commitId?: string },
  ): ReviewState;
  addCollaborator(
    fullName: string,
    login: string,
    role: "admin" | "maintain" | "write" | "triage" | "read",
  ): void;
  repo(fullName: string): RepoState;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The request breaks an API rule the schema does not express. */
  violation?: string;
}

interface Ctx {
  op: Operation;
  params: Record<string, string>;
  query: Record<string, Json>;
  body: JsonObject;
  token?: TokenIdentity;
  url: URL;
}

const GITHUB_ACTIONS_APP = { id: 15368, slug: "github-actions", name: "GitHub Actions" };

export async function startStandIn(opts: StandInOptions = {}): Promise<StandIn> {
  const spec = loadSpec();
  const state: StandInState = {
    repos: new Map(),
    tokens: new Map<string, TokenIdentity>([
      [ACTIONS_TOKEN, { kind: "installation", login: ACTIONS_LOGIN }],
      [USER_TOKEN, { kind: "user", login: "octocat" }],
      ...Object.entries(opts.tokens ?? {}),
    ]),
    nextId: 1000,
  };
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const warnings: string[] = [];
  const responseProblems: string[] = [];
  const faults: Array<Fault & { left: number; passed: number }> = [];
  const used = new Map<string, number>();
  const resetAt = Math.floor(Date.now() / 1000) + 3600;
  const linkStyle = opts.linkStyle ?? "repositories";
  let base = "";

  const nextId = () => ++state.nextId;
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

  function findRepo(owner: string, name: string): RepoState | undefined {
    return state.repos.get(`${owner}/${name}`.toLowerCase());
  }

  function repoOrThrow(fullName: string): RepoState {
    const r = state.repos.get(fullName.toLowerCase());
    if (!r) throw new Error(`stand-in: no repository ${fullName}; addRepo it first`);
    return r;
  }

  // ---------------------------------------------------------------- JSON shapes

  function retarget<T>(value: T, pairs: Array<[string, string]>): T {
    let s = JSON.stringify(value);
    for (const [from, to] of pairs) s = s.split(from).join(to);
    return JSON.parse(s) as T;
  }

  function userJson(login: string): JsonObject {
    const t = spec.example("issue-comment").user as JsonObject;
    const path = encodeURIComponent(login);
    const u = retarget(t, [
      ["https://api.github.com", base],
      ["/users/octocat", `/users/${path}`],
      ["github.com/octocat", `github.com/${path}`],
    ]);
    u.login = login;
    // Bots live under /apps/ on the web (`github-actions[bot]` → /apps/github-actions).
    if (login.endsWith("[bot]")) u.html_url = `https://github.com/apps/${login.slice(0, -5)}`;
    u.id = idFor(login);
    u.node_id = Buffer.from(`04:User${idFor(login)}`).toString("base64");
    u.type = login.endsWith("[bot]") ? "Bot" : "User";
    return u;
  }

  function repoJson(fullName: string, repo: RepoState | undefined, fork: boolean): JsonObject {
    const t = (spec.example("pull-request").base as JsonObject).repo as JsonObject;
    const [owner = "", name = ""] = fullName.split("/");
    const r = retarget(t, [
      ["https://api.github.com", base],
      ["octocat/Hello-World", fullName],
      ["/users/octocat", `/users/${owner}`],
      ["github.com/octocat", `github.com/${owner}`],
    ]);
    r.id = repo?.id ?? idFor(fullName);
    r.node_id = Buffer.from(`010:Repository${r.id}`).toString("base64");
    r.name = name;
    r.full_name = fullName;
    r.owner = userJson(owner);
    r.private = repo?.private ?? false;
    r.fork = fork;
    r.default_branch = repo?.defaultBranch ?? "main";
    return r;
  }

  function pullJson(repo: RepoState, pull: PullState): JsonObject {
    const full = `${repo.owner}/${repo.name}`;
    const t = spec.example("pull-request");
    const p = retarget(t, [
      ["https://api.github.com", base],
      ["octocat/Hello-World", full],
      ["/pulls/1347", `/pulls/${pull.number}`],
      ["/pull/1347", `/pull/${pull.number}`],
      ["/issues/1347", `/issues/${pull.number}`],
    ]);
    p.id = idFor(`${full}#${pull.number}`);
    p.node_id = Buffer.from(`011:PullRequest${p.id}`).toString("base64");
    p.number = pull.number;
    p.state = pull.state;
    p.title = pull.title;
    p.user = userJson(pull.user);
    p.draft = pull.draft;
    p.merged = pull.merged;
    p.requested_teams = [];
    p.created_at = pull.createdAt;
    p.updated_at = pull.createdAt;
    p.closed_at = pull.state === "closed" ? pull.createdAt : null;
    p.merged_at = null;
    p.merged_by = null;
    p.changed_files = pull.files.length;
    p.additions = pull.files.reduce((n, f) => n + (f.additions ?? 1), 0);
    p.deletions = pull.files.reduce((n, f) => n + (f.deletions ?? 0), 0);
    const headOwner = pull.head.repo?.split("/")[0] ?? "ghost";
    const headRepo =
      pull.head.repo === null
        ? null
        : repoJson(
            pull.head.repo,
            findRepo(...(pull.head.repo.split("/") as [string, string])),
            pull.head.repo.toLowerCase() !== full.toLowerCase(),
          );
    p.head = {
      label: `${headOwner}:${pull.head.ref}`,
      ref: pull.head.ref,
      sha: pull.head.sha,
      user: userJson(headOwner),
      repo: headRepo,
    };
    p.base = {
      label: `${repo.owner}:${pull.base.ref}`,
      ref: pull.base.ref,
      sha: pull.base.sha,
      user: userJson(repo.owner),
      repo: repoJson(full, repo, false),
    };
    return p;
  }

  function reviewJson(repo: RepoState, pull: PullState, r: ReviewState): JsonObject {
    const full = `${repo.owner}/${repo.name}`;
    const t = retarget(spec.example("pull-request-review"), [
      ["https://api.github.com", base],
      ["octocat/Hello-World", full],
      ["/pulls/12", `/pulls/${pull.number}`],
      ["/pull/12", `/pull/${pull.number}`],
      ["pullrequestreview-80", `pullrequestreview-${r.id}`],
    ]);
    t.id = r.id;
    t.node_id = Buffer.from(`017:PullRequestReview${r.id}`).toString("base64");
    t.user = userJson(r.user);
    t.state = r.state;
    t.body = "";
    t.commit_id = r.commitId;
    t.submitted_at = r.submittedAt;
    const role = repo.collaborators.get(r.user);
    t.author_association = role ? "COLLABORATOR" : r.user === pull.user ? "OWNER" : "NONE";
    return t;
  }

  function fileJson(repo: RepoState, pull: PullState, f: PullFileState): JsonObject {
    const full = `${repo.owner}/${repo.name}`;
    const additions = f.additions ?? 1;
    const deletions = f.deletions ?? 0;
    const out: JsonObject = {
      sha: fakeSha(`${pull.head.sha}:${f.filename}`),
      filename: f.filename,
      status: f.status,
      additions,
      deletions,
      changes: additions + deletions,
      blob_url: `https://github.com/${full}/blob/${pull.head.sha}/${f.filename}`,
      raw_url: `https://github.com/${full}/raw/${pull.head.sha}/${f.filename}`,
      contents_url: `${base}/repos/${full}/contents/${f.filename}?ref=${pull.head.sha}`,
      patch: "@@ -1 +1 @@",
    };
    if (f.previous_filename !== undefined) out.previous_filename = f.previous_filename;
    return out;
  }

  function checkRunJson(repo: RepoState, run: CheckRunState): JsonObject {
    const full = `${repo.owner}/${repo.name}`;
    const t = spec.example("check-run");
    const c = retarget(t, [
      ["https://api.github.com", base],
      ["github/hello-world", full],
    ]);
    c.id = run.id;
    c.node_id = Buffer.from(`08:CheckRun${run.id}`).toString("base64");
    c.head_sha = run.headSha;
    c.external_id = run.externalId ?? "";
    c.url = `${base}/repos/${full}/check-runs/${run.id}`;
    c.html_url = `https://github.com/${full}/runs/${run.id}`;
    c.details_url = run.detailsUrl ?? `https://github.com/${full}/runs/${run.id}`;
    c.status = run.status;
    c.conclusion = run.conclusion;
    c.started_at = run.startedAt;
    c.completed_at = run.completedAt;
    c.name = run.name;
    c.check_suite = { id: run.suiteId };
    c.output = {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotations.length,
      annotations_url: `${base}/repos/${full}/check-runs/${run.id}/annotations`,
    };
    const app = c.app as JsonObject;
    app.id = GITHUB_ACTIONS_APP.id;
    app.slug = GITHUB_ACTIONS_APP.slug;
    app.name = GITHUB_ACTIONS_APP.name;
    // Like GitHub: only pull requests whose head is in this repository (forks → []).
    c.pull_requests = [...repo.pulls.values()]
      .filter(
        (p) => p.head.sha === run.headSha && p.head.repo?.toLowerCase() === full.toLowerCase(),
      )
      .map((p) => ({
        url: `${base}/repos/${full}/pulls/${p.number}`,
        id: idFor(`${full}#${p.number}`),
        number: p.number,
        head: {
          ref: p.head.ref,
          sha: p.head.sha,
          repo: { id: repo.id, url: `${base}/repos/${full}`, name: repo.name },
        },
        base: {
          ref: p.base.ref,
          sha: p.base.sha,
          repo: { id: repo.id, url: `${base}/repos/${full}`, name: repo.name },
        },
      }));
    return c;
  }

  function annotationJson(repo: RepoState, a: AnnotationState): JsonObject {
    return {
      path: a.path ?? "",
      start_line: a.start_line ?? 1,
      end_line: a.end_line ?? 1,
      start_column: a.start_column ?? null,
      end_column: a.end_column ?? null,
      annotation_level: a.annotation_level ?? "notice",
      title: a.title ?? "",
      message: a.message ?? "",
      raw_details: a.raw_details ?? "",
      blob_href: `https://github.com/${repo.owner}/${repo.name}/blob/HEAD/${String(a.path)}`,
    };
  }

  function commentJson(repo: RepoState, c: CommentState): JsonObject {
    const full = `${repo.owner}/${repo.name}`;
    const kind = repo.pulls.has(c.issueNumber) ? "pull" : "issues";
    const t = spec.example("issue-comment");
    const out = retarget(t, [["https://api.github.com", base]]);
    out.id = c.id;
    out.node_id = Buffer.from(`012:IssueComment${c.id}`).toString("base64");
    out.url = `${base}/repos/${full}/issues/comments/${c.id}`;
    out.html_url = `https://github.com/${full}/${kind}/${c.issueNumber}#issuecomment-${c.id}`;
    out.issue_url = `${base}/repos/${full}/issues/${c.issueNumber}`;
    out.body = c.body;
    out.user = userJson(c.user);
    out.created_at = c.createdAt;
    out.updated_at = c.updatedAt;
    out.author_association = c.user.toLowerCase() === repo.owner.toLowerCase() ? "OWNER" : "NONE";
    return out;
  }

  // ------------------------------------------------------------------ helpers

  function error(status: number, message: string, op?: Operation, extra?: JsonObject): Reply {
    return {
      status,
      body: {
        message,
        documentation_url: op?.docsUrl ?? "https://docs.github.com/rest",
        status: String(status),
        ...extra,
      },
    };
  }

  function can(
    token: TokenIdentity | undefined,
    area: "checks" | "pulls" | "comments",
    write: boolean,
  ) {
    if (!write) {
      const p = token?.permissions;
      if (area === "checks") return p?.checks !== "none";
      if (area === "pulls") return p?.pull_requests !== "none";
      return p?.issues !== "none" || p?.pull_requests !== "none";
    }
    if (!token) return false;
    if (token.readOnly) return false;
    const p = token.permissions ?? {};
    if (area === "checks") return (p.checks ?? "write") === "write";
    if (area === "pulls") return (p.pull_requests ?? "write") === "write";
    return (p.issues ?? "write") === "write" || (p.pull_requests ?? "write") === "write";
  }

  function forbidden(token: TokenIdentity | undefined, op: Operation): Reply {
    if (!token) return error(401, "Requires authentication", op);
    return error(
      403,
      token.kind === "installation"
        ? "Resource not accessible by integration"
        : "Resource not accessible by personal access token",
      op,
    );
  }

  /** The repository of the route, or the 404 GitHub answers when it is missing or hidden. */
  function repoFor(ctx: Ctx): RepoState | Reply {
    const r = findRepo(ctx.params.owner ?? "", ctx.params.repo ?? "");
    const visible =
      r &&
      (!ctx.token?.repos ||
        ctx.token.repos.some((x) => x.toLowerCase() === `${r.owner}/${r.name}`.toLowerCase())) &&
      (ctx.token || !r.private);
    if (!r || !visible) return error(404, "Not Found", ctx.op);
    return r;
  }

  function paginate<T>(items: T[], ctx: Ctx, repo?: RepoState): { page: T[]; link?: string } {
    let perPage = typeof ctx.query.per_page === "number" ? ctx.query.per_page : 30;
    if (perPage > 100) {
      warnings.push(`${ctx.op.operationId}: per_page=${perPage} is capped at 100 by GitHub`);
      perPage = 100;
    }
    if (perPage < 1) perPage = 30;
    let page = typeof ctx.query.page === "number" ? ctx.query.page : 1;
    if (page < 1) page = 1;
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const slice = items.slice((page - 1) * perPage, page * perPage);
    if (items.length === 0) return { page: slice };
    const pageUrl = (n: number) => {
      const u = new URL(ctx.url.toString());
      if (linkStyle === "repositories" && repo) {
        u.pathname = u.pathname.replace(/^\/repos\/[^/]+\/[^/]+/, `/repositories/${repo.id}`);
      }
      u.searchParams.set("per_page", String(perPage));
      u.searchParams.set("page", String(n));
      return `<${base}${u.pathname}${u.search}>`;
    };
    const rels: string[] = [];
    if (page > 1) rels.push(`${pageUrl(Math.min(page - 1, last))}; rel="prev"`);
    if (page < last) {
      rels.push(`${pageUrl(page + 1)}; rel="next"`);
      rels.push(`${pageUrl(last)}; rel="last"`);
    }
    if (page > 1) rels.push(`${pageUrl(1)}; rel="first"`);
    return { page: slice, link: rels.length ? rels.join(", ") : undefined };
  }

  function list<T>(items: T[], ctx: Ctx, repo: RepoState, toJson: (t: T) => JsonObject): Reply {
    const { page, link } = paginate(items, ctx, repo);
    return { status: 200, body: page.map(toJson), headers: link ? { link } : {} };
  }

  function issueExists(repo: RepoState, n: number) {
    return repo.pulls.has(n) || repo.issues.has(n);
  }

  /** Limits GitHub enforces that the schema does not (or does in characters, not bytes). */
  function outputViolation(
    output: JsonObject | undefined,
    requireTitle: boolean,
  ): string | undefined {
    if (!output) return undefined;
    if (requireTitle && typeof output.title !== "string") return `"title" wasn't supplied.`;
    for (const field of ["summary", "text"] as const) {
      const v = output[field];
      if (typeof v !== "string") continue;
      const chars = [...v].length;
      if (chars > 65535) return `Only 65535 characters are allowed; ${chars} were supplied.`;
      const bytes = Buffer.byteLength(v, "utf8");
      if (bytes > 65535) return `${field} exceeds a maximum bytesize of 65535`;
    }
    const annotations = Array.isArray(output.annotations) ? output.annotations : [];
    if (annotations.length > 50) {
      return `Annotations are limited to 50 per request; ${annotations.length} were supplied.`;
    }
    for (const [i, a] of annotations.entries()) {
      if (a === null || typeof a !== "object" || Array.isArray(a)) continue;
      const hasColumns = a.start_column !== undefined || a.end_column !== undefined;
      if (hasColumns && a.start_line !== a.end_line) {
        return `annotations[${i}]: start_column/end_column are only allowed when start_line equals end_line.`;
      }
      if (
        typeof a.start_line === "number" &&
        typeof a.end_line === "number" &&
        a.end_line < a.start_line
      ) {
        return `annotations[${i}]: end_line is before start_line.`;
      }
      if (typeof a.title === "string" && [...a.title].length > 255) {
        return `annotations[${i}]: title is longer than 255 characters.`;
      }
      for (const f of ["message", "raw_details"] as const) {
        const v = a[f];
        if (typeof v === "string" && Buffer.byteLength(v, "utf8") > 64 * 1024) {
          return `annotations[${i}]: ${f} is larger than 64 KB.`;
        }
      }
    }
    return undefined;
  }

  function commentViolation(body: unknown, op: Operation): Reply | undefined {
    if (typeof body !== "string") return undefined;
    const chars = [...body].length;
    if (chars > 65536) {
      return {
        ...error(422, "Validation Failed", op, {
          errors: [
            {
              resource: "IssueComment",
              code: "unprocessable",
              field: "data",
              message: "Body is too long (maximum is 65536 characters)",
            },
          ],
        }),
        violation: `comment body has ${chars} characters; GitHub allows 65536`,
      };
    }
    if (body.trim() === "") {
      return {
        ...error(422, "Validation Failed", op, {
          errors: [{ resource: "IssueComment", code: "missing_field", field: "body" }],
        }),
        violation: "comment body is blank",
      };
    }
    return undefined;
  }

  function resolveRef(repo: RepoState, ref: string): string | undefined {
    if (repo.commits.has(ref)) return ref;
    const name = ref.replace(/^refs\/heads\//, "").replace(/^heads\//, "");
    for (const p of repo.pulls.values()) {
      if (
        p.head.ref === name &&
        p.head.repo?.toLowerCase() === `${repo.owner}/${repo.name}`.toLowerCase()
      )
        return p.head.sha;
      if (p.base.ref === name) return p.base.sha;
    }
    return undefined;
  }

  // ----------------------------------------------------------------- handlers

  const handlers: Record<string, (ctx: Ctx) => Reply> = {
    "repos/get"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      return { status: 200, body: repoJson(`${repo.owner}/${repo.name}`, repo, false) };
    },

    "pulls/get"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "pulls", false)) return forbidden(ctx.token, ctx.op);
      const pull = repo.pulls.get(Number(ctx.params.pull_number));
      if (!pull) return error(404, "Not Found", ctx.op);
      return { status: 200, body: pullJson(repo, pull) };
    },

    "pulls/list"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "pulls", false)) return forbidden(ctx.token, ctx.op);
      const state = typeof ctx.query.state === "string" ? ctx.query.state : "open";
      const head = typeof ctx.query.head === "string" ? ctx.query.head : undefined;
      const baseRef = typeof ctx.query.base === "string" ? ctx.query.base : undefined;
      // GitHub's default order: newest first (sort=created, direction=desc).
      const pulls = [...repo.pulls.values()]
        .filter((p) => state === "all" || p.state === state)
        .filter((p) => baseRef === undefined || p.base.ref === baseRef)
        .filter((p) => {
          if (head === undefined) return true;
          // `user:ref` (the head repository's owner), or a bare ref in this repository.
          const [who, ref] = head.includes(":") ? head.split(":", 2) : [repo.owner, head];
          const owner = p.head.repo?.split("/")[0] ?? "";
          return owner.toLowerCase() === who!.toLowerCase() && p.head.ref === ref;
        })
        .sort((a, b) => b.number - a.number);
      return list(pulls, ctx, repo, (p) => pullJson(repo, p));
    },

    "pulls/list-files"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "pulls", false)) return forbidden(ctx.token, ctx.op);
      const pull = repo.pulls.get(Number(ctx.params.pull_number));
      if (!pull) return error(404, "Not Found", ctx.op);
      // GitHub lists at most 3,000 files; pages past that are empty.
      return list(pull.files.slice(0, 3000), ctx, repo, (f) => fileJson(repo, pull, f));
    },

    "pulls/list-reviews"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "pulls", false)) return forbidden(ctx.token, ctx.op);
      const pull = repo.pulls.get(Number(ctx.params.pull_number));
      if (!pull) return error(404, "Not Found", ctx.op);
      return list(pull.reviews, ctx, repo, (r) => reviewJson(repo, pull, r));
    },

    "repos/get-collaborator-permission-level"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      const login = ctx.params.username ?? "";
      const role = [...repo.collaborators].find(
        ([l]) => l.toLowerCase() === login.toLowerCase(),
      )?.[1];
      // GitHub answers 404 for an account that is not a collaborator.
      if (!role) return error(404, `${login} is not a user`, ctx.op);
      const t = spec.example(
        "repository-collaborator-permission-response-if-user-has-admin-permissions",
      );
      // `permission` folds maintain into write and triage into read; `role_name` keeps the role.
      t.permission = role === "maintain" ? "write" : role === "triage" ? "read" : role;
      t.role_name = role;
      const user = { ...(t.user as JsonObject), ...userJson(login) };
      user.permissions = {
        admin: role === "admin",
        maintain: role === "admin" || role === "maintain",
        push: role !== "read" && role !== "triage",
        triage: role !== "read",
        pull: true,
      };
      user.role_name = role;
      t.user = user;
      return { status: 200, body: t };
    },

    "checks/create"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (ctx.token?.kind === "user")
        return error(403, "You must authenticate via a GitHub App.", ctx.op);
      if (!can(ctx.token, "checks", true)) return forbidden(ctx.token, ctx.op);
      const b = ctx.body;
      const output = b.output as JsonObject | undefined;
      const bad = outputViolation(output, true);
      if (bad) return { ...error(422, `Invalid request.\n\n${bad}`, ctx.op), violation: bad };
      if (
        (b.status === "completed" || b.completed_at !== undefined) &&
        b.conclusion === undefined
      ) {
        const v = `"conclusion" wasn't supplied.`;
        return { ...error(422, `Invalid request.\n\n${v}`, ctx.op), violation: v };
      }
      const headSha = String(b.head_sha);
      if (!repo.commits.has(headSha)) {
        return error(422, `No commit found for SHA: ${headSha}`, ctx.op);
      }
      const conclusion = typeof b.conclusion === "string" ? b.conclusion : null;
      const status = conclusion ? "completed" : typeof b.status === "string" ? b.status : "queued";
      const run: CheckRunState = {
        id: nextId(),
        name: String(b.name),
        headSha,
        externalId: typeof b.external_id === "string" ? b.external_id : null,
        status,
        conclusion,
        startedAt: typeof b.started_at === "string" ? b.started_at : now(),
        completedAt:
          status === "completed"
            ? typeof b.completed_at === "string"
              ? b.completed_at
              : now()
            : null,
        detailsUrl: typeof b.details_url === "string" ? b.details_url : null,
        output: {
          title: typeof output?.title === "string" ? output.title : null,
          summary: typeof output?.summary === "string" ? output.summary : null,
          text: typeof output?.text === "string" ? output.text : null,
          annotations: Array.isArray(output?.annotations)
            ? (output.annotations as AnnotationState[])
            : [],
        },
        suiteId: idFor(`${repo.owner}/${repo.name}@${headSha}`),
        createdBy: ctx.token?.login ?? "",
      };
      repo.checkRuns.push(run);
      return { status: 201, body: checkRunJson(repo, run) };
    },

    "checks/get"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      const run = repo.checkRuns.find((r) => r.id === Number(ctx.params.check_run_id));
      if (!run) return error(404, "Not Found", ctx.op);
      return { status: 200, body: checkRunJson(repo, run) };
    },

    "checks/update"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (ctx.token?.kind === "user")
        return error(403, "You must authenticate via a GitHub App.", ctx.op);
      if (!can(ctx.token, "checks", true)) return forbidden(ctx.token, ctx.op);
      const run = repo.checkRuns.find((r) => r.id === Number(ctx.params.check_run_id));
      if (!run) return error(404, "Not Found", ctx.op);
      const b = ctx.body;
      const output = b.output as JsonObject | undefined;
      const bad = outputViolation(output, true);
      if (bad) return { ...error(422, `Invalid request.\n\n${bad}`, ctx.op), violation: bad };
      if (typeof b.name === "string") run.name = b.name;
      if (typeof b.details_url === "string") run.detailsUrl = b.details_url;
      if (typeof b.external_id === "string") run.externalId = b.external_id;
      if (typeof b.started_at === "string") run.startedAt = b.started_at;
      if (typeof b.status === "string") run.status = b.status;
      if (typeof b.conclusion === "string") {
        run.conclusion = b.conclusion;
        run.status = "completed";
      }
      if (run.status === "completed" && !run.completedAt) {
        run.completedAt = typeof b.completed_at === "string" ? b.completed_at : now();
      }
      if (output) {
        run.output.title = String(output.title);
        run.output.summary = String(output.summary);
        // Assumption (conservative): an update's output replaces `text` too, so
        // omitting it clears it. Annotations append.
        run.output.text = typeof output.text === "string" ? output.text : null;
        if (Array.isArray(output.annotations)) {
          run.output.annotations.push(...(output.annotations as AnnotationState[]));
        }
      }
      return { status: 200, body: checkRunJson(repo, run) };
    },

    "checks/list-annotations"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      const run = repo.checkRuns.find((r) => r.id === Number(ctx.params.check_run_id));
      if (!run) return error(404, "Not Found", ctx.op);
      return list(run.output.annotations, ctx, repo, (a) => annotationJson(repo, a));
    },

    "checks/list-for-ref"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "checks", false)) return forbidden(ctx.token, ctx.op);
      const sha = resolveRef(repo, String(ctx.params.ref));
      if (!sha) return error(422, `No commit found for SHA: ${ctx.params.ref}`, ctx.op);
      let runs = repo.checkRuns.filter((r) => r.headSha === sha);
      if (typeof ctx.query.check_name === "string")
        runs = runs.filter((r) => r.name === ctx.query.check_name);
      if (typeof ctx.query.status === "string")
        runs = runs.filter((r) => r.status === ctx.query.status);
      if (typeof ctx.query.app_id === "number" && ctx.query.app_id !== GITHUB_ACTIONS_APP.id)
        runs = [];
      if ((ctx.query.filter ?? "latest") === "latest") {
        const latest = new Map<string, CheckRunState>();
        for (const r of runs) {
          const prev = latest.get(r.name);
          if (!prev || r.id > prev.id) latest.set(r.name, r);
        }
        runs = [...latest.values()];
      }
      runs = [...runs].sort((a, b) => b.id - a.id);
      const { page, link } = paginate(runs, ctx, repo);
      return {
        status: 200,
        body: { total_count: runs.length, check_runs: page.map((r) => checkRunJson(repo, r)) },
        headers: link ? { link } : {},
      };
    },

    "issues/list-comments"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "comments", false)) return forbidden(ctx.token, ctx.op);
      const n = Number(ctx.params.issue_number);
      if (!issueExists(repo, n)) return error(404, "Not Found", ctx.op);
      let comments = repo.comments.filter((c) => c.issueNumber === n);
      if (typeof ctx.query.since === "string") {
        const since = Date.parse(ctx.query.since);
        comments = comments.filter((c) => Date.parse(c.updatedAt) >= since);
      }
      comments.sort((a, b) => a.id - b.id);
      return list(comments, ctx, repo, (c) => commentJson(repo, c));
    },

    "issues/create-comment"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "comments", true)) return forbidden(ctx.token, ctx.op);
      const n = Number(ctx.params.issue_number);
      if (!issueExists(repo, n)) return error(404, "Not Found", ctx.op);
      const bad = commentViolation(ctx.body.body, ctx.op);
      if (bad) return bad;
      const at = now();
      const c: CommentState = {
        id: nextId(),
        issueNumber: n,
        body: String(ctx.body.body),
        user: ctx.token?.login ?? "",
        createdAt: at,
        updatedAt: at,
      };
      repo.comments.push(c);
      const json = commentJson(repo, c);
      return { status: 201, body: json, headers: { location: String(json.url) } };
    },

    "issues/update-comment"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "comments", true)) return forbidden(ctx.token, ctx.op);
      const c = repo.comments.find((x) => x.id === Number(ctx.params.comment_id));
      if (!c) return error(404, "Not Found", ctx.op);
      const bad = commentViolation(ctx.body.body, ctx.op);
      if (bad) return bad;
      c.body = String(ctx.body.body);
      c.updatedAt = now();
      return { status: 200, body: commentJson(repo, c) };
    },

    "issues/delete-comment"(ctx) {
      const repo = repoFor(ctx);
      if ("status" in repo) return repo;
      if (!can(ctx.token, "comments", true)) return forbidden(ctx.token, ctx.op);
      const i = repo.comments.findIndex((x) => x.id === Number(ctx.params.comment_id));
      if (i < 0) return error(404, "Not Found", ctx.op);
      repo.comments.splice(i, 1);
      return { status: 204 };
    },

    "users/get-authenticated"(ctx) {
      if (!ctx.token) return error(401, "Requires authentication", ctx.op);
      if (ctx.token.kind === "installation") {
        return error(403, "Resource not accessible by integration", ctx.op);
      }
      const t = spec.example("private-user-response-with-public-profile-information");
      const u = { ...t, ...userJson(ctx.token.login) };
      return { status: 200, body: u };
    },
  };

  // ------------------------------------------------------------------ faults

  function takeFault(method: string, pathname: string, op?: Operation): Fault | undefined {
    const i = faults.findIndex((f) => {
      if (f.method && f.method.toUpperCase() !== method) return false;
      if (f.path instanceof RegExp) return f.path.test(pathname);
      if (f.path.includes("{")) return op?.template === f.path;
      return f.path === pathname;
    });
    if (i < 0) return undefined;
    const f = faults[i]!;
    if (f.passed < (f.skip ?? 0)) {
      f.passed += 1;
      return undefined;
    }
    f.left -= 1;
    if (f.left <= 0) faults.splice(i, 1);
    return f;
  }

  function faultReply(f: Fault, op?: Operation): Reply {
    if (f.rateLimit === "primary") {
      const reset = Math.floor(Date.now() / 1000) + (f.retryAfterSeconds ?? 1);
      return {
        ...error(f.status ?? 403, "API rate limit exceeded for installation ID 1.", op),
        headers: {
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(reset),
          ...f.headers,
        },
        ...(f.body !== undefined ? { body: f.body } : {}),
      };
    }
    if (f.rateLimit === "secondary") {
      return {
        ...error(
          f.status ?? 403,
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
          op,
        ),
        headers: { "retry-after": String(f.retryAfterSeconds ?? 1), ...f.headers },
        ...(f.body !== undefined ? { body: f.body } : {}),
      };
    }
    const status = f.status ?? 500;
    if (f.body !== undefined) return { status, body: f.body, headers: f.headers };
    const defaults: Record<number, string> = {
      401: "Bad credentials",
      403: "Resource not accessible by integration",
      404: "Not Found",
      500: "Server Error",
    };
    if (status === 502 || status === 503 || status === 504) {
      // GitHub's load balancer answers these in HTML, not JSON.
      return {
        status,
        body: `<html><body><h1>${status} ${status === 502 ? "Bad Gateway" : status === 503 ? "Service Unavailable" : "Gateway Timeout"}</h1></body></html>`,
        headers: { "content-type": "text/html", ...f.headers },
      };
    }
    return { ...error(status, defaults[status] ?? "Error", op), headers: f.headers };
  }

  // ------------------------------------------------------------------ server

  function rateHeaders(tokenKey: string, token?: TokenIdentity): Record<string, string> {
    const limit = token?.rateLimit ?? (token?.kind === "user" ? 5000 : token ? 1000 : 60);
    const n = (used.get(tokenKey) ?? 0) + 1;
    used.set(tokenKey, n);
    return {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - n)),
      "x-ratelimit-reset": String(resetAt),
      "x-ratelimit-used": String(n),
      "x-ratelimit-resource": "core",
    };
  }

  function send(res: ServerResponse, reply: Reply, extra: Record<string, string>) {
    const headers: OutgoingHttpHeaders = {
      "x-github-api-version-selected": "2022-11-28",
      "x-github-media-type": "github.v3; format=json",
      "x-github-request-id": randomUUID().toUpperCase(),
      ...extra,
      ...reply.headers,
    };
    if (reply.body === undefined || reply.status === 204) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    if (!headers["content-type"]) headers["content-type"] = "application/json; charset=utf-8";
    res.writeHead(reply.status, headers);
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", base);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    }
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      headers,
      status: 0,
    };
    requests.push(record);
    const where = `${method} ${url.pathname}${url.search}`;
    const reject = (reply: Reply, why: string) => {
      violations.push(`${where}: ${why}`);
      record.status = reply.status;
      send(res, reply, {});
    };

    // `/repositories/{id}/…` (GitHub's Link header form) → `/repos/{owner}/{repo}/…`.
    let pathname = url.pathname;
    const alias = /^\/repositories\/(\d+)(\/.*)?$/.exec(pathname);
    if (alias) {
      const r = [...state.repos.values()].find((x) => x.id === Number(alias[1]));
      if (r) pathname = `/repos/${r.owner}/${r.name}${alias[2] ?? ""}`;
    }

    if (!headers["user-agent"]) {
      return reject(
        error(
          403,
          "Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).",
        ),
        "no User-Agent header",
      );
    }

    const match = matchRoute(method, pathname);
    if (!match || "methodMismatch" in match) {
      return reject(
        error(404, "Not Found"),
        match
          ? `no ${method} operation on this path in the OpenAPI description`
          : "no such route in the OpenAPI description",
      );
    }
    const { op } = match;
    record.operationId = op.operationId;

    let body: unknown;
    const present = raw.trim() !== "";
    if (present) {
      try {
        body = JSON.parse(raw);
      } catch {
        return reject(error(400, "Problems parsing JSON", op), "request body is not JSON");
      }
    }
    record.body = body;

    const params = checkParams(match, url.searchParams);
    for (const w of params.warnings) warnings.push(`${where}: ${w}`);
    if (params.errors.length > 0) {
      return reject(
        error(422, "Validation Failed", op, {
          errors: params.errors.map((m) => ({
            resource: op.operationId,
            code: "invalid",
            message: m,
          })),
        }),
        `${op.operationId}: ${params.errors.join("; ")}`,
      );
    }
    const bodyProblems = checkBody(op, body, present);
    if (bodyProblems.length > 0) {
      return reject(
        error(422, `Invalid request.\n\n${bodyProblems.join("\n")}`, op),
        `${op.operationId}: ${bodyProblems.join(" ")}`,
      );
    }

    const auth = headers.authorization ?? "";
    const tokenKey = auth.replace(/^(token|bearer)\s+/i, "").trim();
    let token: TokenIdentity | undefined;
    if (tokenKey) {
      token = state.tokens.get(tokenKey);
      if (!token) {
        record.status = 401;
        return send(res, error(401, "Bad credentials", op), {});
      }
    }
    const rate = rateHeaders(tokenKey || `anon:${req.socket.remoteAddress}`, token);

    let fault = takeFault(method, pathname, op);
    if (fault?.hang && !fault.afterEffect) {
      record.status = 0;
      return; // no answer, ever; close() drops the connection
    }
    if (fault?.delayMs !== undefined) {
      await new Promise((r) => setTimeout(r, fault!.delayMs));
      if (!fault.network && fault.status === undefined && !fault.rateLimit) fault = undefined;
    }
    if (fault && !fault.afterEffect) {
      if (fault.network) {
        record.status = 0;
        req.socket.destroy();
        return;
      }
      const reply = faultReply(fault, op);
      record.status = reply.status;
      return send(res, reply, rate);
    }

    const handler = handlers[op.operationId];
    if (!handler) {
      return reject(
        error(501, `stand-in does not implement ${op.operationId}`, op),
        `the stand-in does not implement ${op.operationId} (${op.method} ${op.template})`,
      );
    }
    const reply = handler({
      op,
      params: match.params,
      query: params.query,
      body: (body ?? {}) as JsonObject,
      token,
      url: new URL(`${pathname}${url.search}`, base),
    });
    if (reply.violation) violations.push(`${where}: ${op.operationId}: ${reply.violation}`);
    if (reply.status < 300 && reply.body !== undefined) {
      for (const p of checkResponse(op, reply.status, reply.body)) {
        if (/\/head\/repo must be object/.test(p)) continue; // deleted fork: GitHub sends null
        responseProblems.push(`${op.operationId} ${reply.status}: ${p}`);
      }
    }
    if (fault?.afterEffect) {
      if (fault.hang) {
        record.status = 0;
        return; // applied, and the answer never comes
      }
      if (fault.network) {
        record.status = 0;
        req.socket.destroy();
        return;
      }
      const failed = faultReply(fault, op);
      record.status = failed.status;
      return send(res, failed, rate);
    }
    record.status = reply.status;
    send(res, reply, rate);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      violations.push(`stand-in crashed on ${req.method} ${req.url}: ${String(e)}`);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Server Error" }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  const standIn: StandIn = {
    url: base,
    state,
    requests,
    violations,
    warnings,
    responseProblems,
    failNext(fault) {
      faults.push({ ...fault, left: fault.times ?? 1, passed: 0 });
    },
    clearFaults() {
      faults.splice(0);
    },
    addRepo(fullName, o = {}) {
      const [owner, name] = fullName.split("/");
      if (!owner || !name) throw new Error(`stand-in: ${fullName} is not owner/name`);
      const repo: RepoState = {
        id: idFor(fullName.toLowerCase()),
        owner,
        name,
        private: o.private ?? false,
        defaultBranch: o.defaultBranch ?? "main",
        commits: new Set(),
        pulls: new Map(),
        issues: new Set(),
        checkRuns: [],
        collaborators: new Map(),
        comments: [],
      };
      state.repos.set(fullName.toLowerCase(), repo);
      return repo;
    },
    addPull(fullName, p) {
      const repo = repoOrThrow(fullName);
      const pull: PullState = {
        number: p.number,
        title: p.title ?? `Pull request ${p.number}`,
        state: p.state ?? "open",
        draft: false,
        merged: false,
        user: p.user ?? "octocat",
        head: {
          sha: p.headSha,
          ref: p.headRef ?? `feature-${p.number}`,
          repo: p.headRepo === undefined ? `${repo.owner}/${repo.name}` : p.headRepo,
        },
        base: { sha: p.baseSha, ref: p.baseRef ?? repo.defaultBranch },
        files: p.files ?? [],
        createdAt: now(),
        reviews: [],
      };
      repo.pulls.set(p.number, pull);
      repo.commits.add(p.headSha);
      repo.commits.add(p.baseSha);
      return pull;
    },
    addReview(fullName, pullNumber, r) {
      const repo = repoOrThrow(fullName);
      const pull = repo.pulls.get(pullNumber);
      if (!pull) throw new Error(`no pull request #${pullNumber} in ${fullName}`);
      const review: ReviewState = {
        id: nextId(),
        user: r.user,
        state: r.state,
        commitId: r.commitId ?? pull.head.sha,
        submittedAt: now(),
      };
      pull.reviews.push(review);
      return review;
    },
    addCollaborator(fullName, login, role) {
      repoOrThrow(fullName).collaborators.set(login, role);
    },
    addComment(fullName, issueNumber, c) {
      const repo = repoOrThrow(fullName);
      const at = now();
      const comment: CommentState = {
        id: nextId(),
        issueNumber,
        body: c.body,
        user: c.user,
        createdAt: at,
        updatedAt: at,
      };
      repo.comments.push(comment);
      return comment;
    },
    addToken(token, identity) {
      state.tokens.set(token, identity);
    },
    repo: repoOrThrow,
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      });
    },
  };
  return standIn;
}

/** A stable positive id for a name (users, repositories, pull requests). */
function idFor(s: string): number {
  let h = 0;
  for (const ch of s) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return (Math.abs(h) % 900_000_000) + 1000;
}

/** A 40-hex fake sha derived from a string. */
export function fakeSha(seed: string): string {
  let out = "";
  let h = 2166136261;
  for (let i = 0; out.length < 40; i++) {
    h ^= seed.charCodeAt(i % Math.max(1, seed.length)) + i;
    h = Math.imul(h, 16777619) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, 40);
}
