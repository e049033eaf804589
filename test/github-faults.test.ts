/**
 * Issue 11: the real adapter (Octokit, retry and throttling plugins, the
 * client's 429 and timeout hook) against the stand-in under injected faults:
 * a status on the Nth call, a bare or named 429, a connection reset before or
 * after a write took effect, a delay, a request that never answers. Every
 * case asserts what GitHub ends up holding (no duplicates, nothing lost) and
 * what the error says. Timeouts and waits are milliseconds here; no assertion
 * depends on how long anything took.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createGitHubApi } from "../src/github/adapter.js";
import { createOctokit } from "../src/github/client.js";
import type { FailureClass, GitHubApi } from "../src/github/types.js";
import { GitHubApiError } from "../src/github/types.js";
import {
  ACTIONS_LOGIN,
  ACTIONS_TOKEN,
  type Fault,
  fakeSha,
  type StandIn,
  startStandIn,
} from "./github/standin.js";

const REPO = "acme/widgets";
const HEAD = fakeSha("head");
const MARKER = "<!-- contract-gate:contract-gate -->";
const CREATE_RUN = "/repos/{owner}/{repo}/check-runs";
const UPDATE_RUN = "/repos/{owner}/{repo}/check-runs/{check_run_id}";
const CREATE_COMMENT = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

const open: StandIn[] = [];
afterEach(async () => {
  for (const gh of open.splice(0)) {
    expect(gh.violations).toEqual([]);
    await gh.close();
  }
});

async function setup(opts: { token?: string; requestTimeoutMs?: number } = {}) {
  const gh = await startStandIn();
  open.push(gh);
  gh.addRepo(REPO);
  gh.addPull(REPO, { number: 7, headSha: HEAD, baseSha: fakeSha("base"), files: [] });
  const logs: string[] = [];
  const octokit = createOctokit({
    token: opts.token ?? ACTIONS_TOKEN,
    baseUrl: gh.url,
    retryDelayMs: 1,
    rateLimitTimeUnitMs: 1,
    writeSpacingMs: 0,
    // Long enough for the stand-in's first, cold answer; the hang tests pass a short one.
    requestTimeoutMs: opts.requestTimeoutMs ?? 5000,
    slowRequestNoticeMs: 20,
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m) },
  });
  const api = createGitHubApi(
    octokit,
    { owner: "acme", repo: "widgets" },
    { retryDelayMs: 1, log: (m) => logs.push(m) },
  );
  return { gh, api, logs };
}

const start = (api: GitHubApi) =>
  api.startCheckRun({ name: "contract-gate", headSha: HEAD, externalId: "42-1" });
const complete = (api: GitHubApi, id: number) =>
  api.completeCheckRun(id, {
    conclusion: "failure",
    output: {
      title: "t",
      summary: "s",
      annotations: Array.from({ length: 60 }, (_, i) => ({
        path: "c.md",
        start_line: i + 1,
        end_line: i + 1,
        annotation_level: "failure" as const,
        message: `m${i}`,
      })),
    },
  });
const comment = (api: GitHubApi) =>
  api.upsertStickyComment({ issueNumber: 7, marker: MARKER, headSha: HEAD, body: `${MARKER}\nx` });

async function thrown(p: Promise<unknown>): Promise<GitHubApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GitHubApiError) return e;
    throw e;
  }
  throw new Error("did not throw");
}

/** The whole write path: check run created, completed with 60 annotations, comment posted. */
async function everything(api: GitHubApi) {
  expect((await api.getPull(7)).number).toBe(7);
  await api.listPullFiles(7);
  const run = await start(api);
  await complete(api, run.id);
  await comment(api);
}

function assertPosted(gh: StandIn) {
  const runs = gh.repo(REPO).checkRuns;
  expect(runs.map((r) => [r.status, r.conclusion])).toEqual([["completed", "failure"]]);
  expect(runs[0]!.output.annotations).toHaveLength(60);
  expect(gh.repo(REPO).comments).toHaveLength(1);
}

describe("429 is retried on every endpoint", () => {
  const endpoints: Array<[string, Partial<Fault>]> = [
    ["GET pull", { method: "GET", path: "/repos/{owner}/{repo}/pulls/{pull_number}" }],
    ["GET files", { method: "GET", path: "/repos/{owner}/{repo}/pulls/{pull_number}/files" }],
    ["POST check run", { method: "POST", path: CREATE_RUN }],
    ["PATCH check run (first)", { method: "PATCH", path: UPDATE_RUN }],
    ["PATCH check run (2nd batch)", { method: "PATCH", path: UPDATE_RUN, skip: 1 }],
    ["GET comments", { method: "GET", path: CREATE_COMMENT }],
    ["POST comment", { method: "POST", path: CREATE_COMMENT }],
  ];
  for (const [name, where] of endpoints) {
    it(`a bare 429 on ${name}: retried, everything posted once`, async () => {
      const { gh, api, logs } = await setup();
      gh.failNext({ path: "", ...where, status: 429, times: 2 });
      await everything(api);
      assertPosted(gh);
      expect(gh.requests.filter((r) => r.status === 429)).toHaveLength(2);
      expect(logs.join("\n")).toMatch(/429 Too Many Requests on .*retry 2 of 3/);
    });
  }

  it("honours retry-after on a bare 429", async () => {
    const { gh, api, logs } = await setup();
    gh.failNext({ method: "POST", path: CREATE_RUN, status: 429, headers: { "retry-after": "3" } });
    await start(api);
    expect(gh.repo(REPO).checkRuns).toHaveLength(1);
    expect(logs.join("\n")).toMatch(/retry 1 of 3 in 1 s/); // 3 advised seconds × the 1 ms test unit
  });

  it("a named secondary limit as 429 on the comment: retried, one comment", async () => {
    const { gh, api } = await setup();
    gh.failNext({ method: "POST", path: CREATE_COMMENT, status: 429, rateLimit: "secondary" });
    await comment(api);
    expect(gh.repo(REPO).comments).toHaveLength(1);
  });

  for (const [limit, status, says] of [
    ["unnamed", 429, /A GitHub rate limit \(429 Too Many Requests\) outlasted the retries/],
    [
      "secondary",
      403,
      /GitHub's secondary rate limit outlasted the retries; it resets at \d\d:\d\d:\d\d UTC/,
    ],
    [
      "primary",
      403,
      /GitHub's primary rate limit outlasted the retries; it resets at \d\d:\d\d:\d\d UTC/,
    ],
  ] as const) {
    it(`a ${limit} limit outlasting the budget: one rate-limit error, no check run`, async () => {
      const { gh, api } = await setup();
      gh.failNext({
        method: "POST",
        path: CREATE_RUN,
        status,
        times: 50,
        ...(limit !== "unnamed" && { rateLimit: limit }),
      });
      const e = await thrown(start(api));
      expect(e.failure).toBe("rate-limit");
      expect(e.message).toMatch(says);
      expect(e.message).not.toMatch(/fork|permissions:|GitHub is having problems/);
      expect(gh.repo(REPO).checkRuns).toHaveLength(0);
      // 1 + 3 retries: the same budget as a 5xx.
      expect(gh.requests.filter((r) => r.method === "POST")).toHaveLength(4);
    });
  }
});

describe("requests that never answer, resets and delays", () => {
  it("a GET that never answers times out, is retried, and the log says what it waited for", async () => {
    const { gh, api, logs } = await setup({ requestTimeoutMs: 200 });
    gh.failNext({ method: "GET", path: "/repos/{owner}/{repo}/pulls/{pull_number}", hang: true });
    expect((await api.getPull(7)).number).toBe(7);
    expect(logs.join("\n")).toMatch(
      /Waiting for GitHub to answer GET \/repos\/acme\/widgets\/pulls\/7 \(/,
    );
    expect(gh.requests.filter((r) => r.path.endsWith("/pulls/7"))).toHaveLength(2);
  });

  it("a create that took effect but never answered: the run is found, not duplicated", async () => {
    const { gh, api } = await setup({ requestTimeoutMs: 200 });
    gh.failNext({ method: "POST", path: CREATE_RUN, hang: true, afterEffect: true });
    await start(api);
    expect(gh.repo(REPO).checkRuns).toHaveLength(1);
  });

  it("a comment that took effect but never answered: one comment", async () => {
    const { gh, api } = await setup({ requestTimeoutMs: 200 });
    gh.failNext({ method: "POST", path: CREATE_COMMENT, hang: true, afterEffect: true });
    await comment(api);
    expect(gh.repo(REPO).comments).toHaveLength(1);
  });

  it("an annotation batch that took effect but never answered: annotations once", async () => {
    const { gh, api } = await setup({ requestTimeoutMs: 200 });
    const run = await start(api);
    gh.failNext({ method: "PATCH", path: UPDATE_RUN, hang: true, afterEffect: true, skip: 1 });
    await complete(api, run.id);
    assertPostedRunOnly(gh);
  });

  it("a create that never answers at all: a GitHub-trouble error naming the timeout, no run", async () => {
    const { gh, api } = await setup({ requestTimeoutMs: 200 });
    gh.failNext({ method: "POST", path: CREATE_RUN, hang: true, times: 50 });
    const e = await thrown(start(api));
    expect(e.failure).toBe("github-trouble");
    expect(e.message).toMatch(
      /network error \(no answer within 200 ms\).*GitHub is having problems/,
    );
    expect(gh.repo(REPO).checkRuns).toHaveLength(0);
  });

  for (const afterEffect of [false, true]) {
    it(`a connection reset ${afterEffect ? "after" : "before"} each write took effect: everything posted once`, async () => {
      const { gh, api } = await setup();
      for (const [method, path] of [
        ["POST", CREATE_RUN],
        ["PATCH", UPDATE_RUN],
        ["POST", CREATE_COMMENT],
      ] as const) {
        gh.failNext({ method, path, network: true, afterEffect });
      }
      await everything(api);
      assertPosted(gh);
    });
  }

  it("a slow answer within the timeout: used, with a waiting line", async () => {
    const { gh, api, logs } = await setup();
    gh.failNext({ method: "POST", path: CREATE_RUN, delayMs: 200 });
    await start(api);
    expect(gh.repo(REPO).checkRuns).toHaveLength(1);
    expect(gh.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(logs.join("\n")).toMatch(/Waiting for GitHub to answer POST/);
  });

  it("a 503 on the 2nd PATCH (an annotation batch): sent once after the retry", async () => {
    const { gh, api } = await setup();
    const run = await start(api);
    gh.failNext({ method: "PATCH", path: UPDATE_RUN, status: 503, skip: 1 });
    await complete(api, run.id);
    assertPostedRunOnly(gh);
    expect(gh.requests.filter((r) => r.method === "PATCH").map((r) => r.status)).toEqual([
      200, 503, 200,
    ]);
  });
});

function assertPostedRunOnly(gh: StandIn) {
  const runs = gh.repo(REPO).checkRuns;
  expect(runs.map((r) => [r.status, r.conclusion])).toEqual([["completed", "failure"]]);
  expect(runs[0]!.output.annotations).toHaveLength(60);
}

/** Each class's advice; a message must carry its own and no other. */
const ADVICE: Record<Exclude<FailureClass, "other">, RegExp> = {
  "token-rejected": /token was rejected/,
  forbidden: /add `checks: write`/,
  "rate-limit": /rate limit.*outlasted the retries/,
  "not-found": /was not found, or the token has no access/,
  "github-trouble": /GitHub is having problems.*re-run the job/,
};

describe("diagnosis: each failure class its own message and fix", () => {
  const cases: Array<[Exclude<FailureClass, "other">, Partial<Fault>, string?]> = [
    ["token-rejected", { status: 401 }],
    ["forbidden", { status: 403 }],
    ["rate-limit", { rateLimit: "secondary", times: 50 }],
    ["rate-limit", { status: 429, times: 50 }],
    ["not-found", { status: 404 }],
    ["github-trouble", { status: 503, times: 50 }],
  ];
  for (const [cls, fault] of cases) {
    it(`${cls} (${fault.status ?? fault.rateLimit})`, async () => {
      const { gh, api } = await setup();
      gh.failNext({ method: "POST", path: CREATE_RUN, ...fault });
      const e = await thrown(start(api));
      expect(e.failure).toBe(cls);
      expect(e.message).toMatch(ADVICE[cls]);
      for (const [other, re] of Object.entries(ADVICE)) {
        if (other !== cls) expect(e.message).not.toMatch(re);
      }
      expect(e.message).not.toMatch(/fork|two-stage|Unexpected answer/);
      expect(gh.repo(REPO).checkRuns).toHaveLength(0);
    });
  }

  it("a read-only token's 403 names the permission (the fork recipe is the action's)", async () => {
    const { gh, api } = await setup({ token: "ghs_ro" });
    gh.addToken("ghs_ro", { kind: "installation", login: ACTIONS_LOGIN, readOnly: true });
    const e = await thrown(start(api));
    expect(e.failure).toBe("forbidden");
    expect(e.message).toMatch(ADVICE.forbidden);
  });
});
