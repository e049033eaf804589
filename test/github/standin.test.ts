import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { links, raw } from "./http.js";
import { examplePayload } from "./payloads.js";
import {
  ACTIONS_TOKEN,
  fakeSha,
  type PullFileState,
  type StandIn,
  startStandIn,
  USER_TOKEN,
} from "./standin.js";

const REPO = "acme/widgets";
const HEAD = fakeSha("head");
const BASE = fakeSha("base");

let gh: StandIn;

beforeEach(async () => {
  gh = await startStandIn();
  gh.addRepo(REPO);
  gh.addPull(REPO, {
    number: 7,
    headSha: HEAD,
    baseSha: BASE,
    files: files(3),
  });
});

afterEach(async () => {
  // The stand-in's own answers must match GitHub's response schemas.
  expect(gh.responseProblems).toEqual([]);
  await gh.close();
});

function files(n: number): PullFileState[] {
  return Array.from({ length: n }, (_, i) => ({
    filename: `src/f${String(i).padStart(4, "0")}.ts`,
    status: "modified" as const,
  }));
}

const validRun = {
  name: "contract-gate",
  head_sha: HEAD,
  status: "in_progress",
  external_id: "run-1",
};

describe("request validation", () => {
  it("answers a valid request like GitHub and records no violation", async () => {
    const res = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "contract-gate",
      head_sha: HEAD,
      status: "in_progress",
      conclusion: null,
      external_id: "run-1",
      app: { slug: "github-actions" },
    });
    expect(res.body.pull_requests.map((p: { number: number }) => p.number)).toEqual([7]);
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("999");
    expect(gh.violations).toEqual([]);
    expect(gh.requests[0]).toMatchObject({
      method: "POST",
      path: `/repos/${REPO}/check-runs`,
      operationId: "checks/create",
      status: 201,
      body: validRun,
    });
  });

  it("rejects a check-run conclusion GitHub does not know", async () => {
    const res = await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
      body: { ...validRun, conclusion: "passed" },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Invalid request\./);
    expect(res.body.message).toContain('"passed" is not a member of');
    expect(res.body.documentation_url).toMatch(/^https:\/\/docs\.github\.com\//);
    expect(gh.violations).toHaveLength(1);
    expect(gh.violations[0]).toContain("checks/create");
    expect(gh.state.repos.get(REPO)!.checkRuns).toEqual([]);
  });

  it("rejects an annotation without a path", async () => {
    const res = await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
      body: {
        ...validRun,
        output: {
          title: "t",
          summary: "s",
          annotations: [{ start_line: 1, end_line: 1, annotation_level: "failure", message: "m" }],
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(`"path" wasn't supplied.`);
    expect(gh.violations.join("\n")).toMatch(/"path" wasn't supplied/);
  });

  it("rejects more than 50 annotations in one request", async () => {
    const created = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    const annotations = Array.from({ length: 51 }, (_, i) => ({
      path: "a.ts",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "notice",
      message: "m",
    }));
    const res = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/${created.body.id}`, {
      body: { output: { title: "t", summary: "s", annotations } },
    });
    expect(res.status).toBe(422);
    expect(gh.violations).toHaveLength(1);
  });

  it("enforces limits the schema does not: summary bytes, update title, comment length", async () => {
    const created = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    const id = created.body.id as number;
    // 30,000 two-byte characters: under 65,535 characters, over 65,535 bytes.
    const wide = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/${id}`, {
      body: { output: { title: "t", summary: "é".repeat(40_000) } },
    });
    expect(wide.status).toBe(422);
    expect(wide.body.message).toContain("summary exceeds a maximum bytesize of 65535");
    const noTitle = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/${id}`, {
      body: { output: { summary: "s" } },
    });
    expect(noTitle.status).toBe(422);
    expect(noTitle.body.message).toContain(`"title" wasn't supplied.`);
    const long = await raw(gh, "POST", `/repos/${REPO}/issues/7/comments`, {
      body: { body: "x".repeat(65_537) },
    });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].message).toBe("Body is too long (maximum is 65536 characters)");
    const fits = await raw(gh, "POST", `/repos/${REPO}/issues/7/comments`, {
      body: { body: "x".repeat(65_536) },
    });
    expect(fits.status).toBe(201);
    expect(gh.violations).toHaveLength(3);
  });

  it("records an unknown route and a method the path does not have", async () => {
    const unknown = await raw(gh, "GET", `/repos/${REPO}/check-runz`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Not Found");
    const wrongMethod = await raw(gh, "PUT", `/repos/${REPO}/check-runs`, { body: validRun });
    expect(wrongMethod.status).toBe(404);
    expect(gh.violations).toHaveLength(2);
    expect(gh.violations[0]).toContain("no such route");
    expect(gh.violations[1]).toContain("no PUT operation");
  });

  it("validates path and query parameters after coercing them from strings", async () => {
    const badId = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/abc`, {
      body: { status: "completed", conclusion: "success" },
    });
    expect(badId.status).toBe(422);
    const badEnum = await raw(gh, "GET", `/repos/${REPO}/commits/${HEAD}/check-runs?filter=newest`);
    expect(badEnum.status).toBe(422);
    const badInt = await raw(gh, "GET", `/repos/${REPO}/pulls/7/files?per_page=lots`);
    expect(badInt.status).toBe(422);
    expect(gh.violations).toHaveLength(3);
    const ignored = await raw(gh, "GET", `/repos/${REPO}/pulls/7/files?perpage=100`);
    expect(ignored.status).toBe(200);
    expect(gh.violations).toHaveLength(3);
    expect(gh.warnings.join("\n")).toContain("perpage");
  });

  it("requires a User-Agent and JSON bodies", async () => {
    const noAgent = await new Promise<number>((resolve, reject) => {
      const req = request(`${gh.url}/repos/${REPO}/pulls/7`, { method: "GET" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(noAgent).toBe(403);
    expect(gh.violations).toEqual([expect.stringContaining("no User-Agent header")]);
    gh.violations.length = 0;
    const notJson = await raw(gh, "POST", `/repos/${REPO}/issues/7/comments`, { body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe("Problems parsing JSON");
    expect(gh.violations).toHaveLength(1);
  });

  it("requires conclusion when completing (the update schema's anyOf)", async () => {
    const created = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    const res = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/${created.body.id}`, {
      body: { status: "completed" },
    });
    expect(res.status).toBe(422);
    expect(gh.violations).toHaveLength(1);
  });
});

describe("pagination", () => {
  it("pages pull files with Link headers GitHub-style and stops at 3,000", async () => {
    gh.addPull(REPO, { number: 8, headSha: fakeSha("h8"), baseSha: BASE, files: files(3005) });
    const first = await raw(gh, "GET", `/repos/${REPO}/pulls/8/files?per_page=100`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(100);
    const rel = links(first.headers.get("link"));
    expect(rel.next).toMatch(/\/repositories\/\d+\/pulls\/8\/files\?per_page=100&page=2$/);
    expect(rel.last).toMatch(/page=30$/);
    // Following GitHub's `/repositories/{id}` links works and stays valid.
    let url: string | undefined = rel.next;
    let total = first.body.length as number;
    while (url) {
      const page = await raw(gh, "GET", url);
      total += page.body.length;
      url = links(page.headers.get("link")).next;
    }
    expect(total).toBe(3000);
    const beyond = await raw(gh, "GET", `/repos/${REPO}/pulls/8/files?per_page=100&page=31`);
    expect(beyond.body).toEqual([]);
    const pull = await raw(gh, "GET", `/repos/${REPO}/pulls/8`);
    expect(pull.body.changed_files).toBe(3005);
    expect(gh.violations).toEqual([]);
  });

  it("caps per_page at 100 like GitHub (and warns)", async () => {
    gh.addPull(REPO, { number: 9, headSha: fakeSha("h9"), baseSha: BASE, files: files(250) });
    const res = await raw(gh, "GET", `/repos/${REPO}/pulls/9/files?per_page=300`);
    expect(res.body).toHaveLength(100);
    expect(gh.warnings.join("\n")).toContain("per_page=300");
  });

  it("lists check runs for a ref by name with total_count, latest or all", async () => {
    for (const id of ["a", "b"]) {
      await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
        body: { ...validRun, external_id: id },
      });
    }
    await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: { ...validRun, name: "other" } });
    const all = await raw(
      gh,
      "GET",
      `/repos/${REPO}/commits/${HEAD}/check-runs?check_name=contract-gate&filter=all&per_page=1`,
    );
    expect(all.body.total_count).toBe(2);
    expect(all.body.check_runs).toHaveLength(1);
    expect(links(all.headers.get("link")).next).toContain("page=2");
    const latest = await raw(gh, "GET", `/repos/${REPO}/commits/${HEAD}/check-runs`);
    expect(latest.body.total_count).toBe(2);
    expect(
      latest.body.check_runs.map((r: { external_id: string }) => r.external_id).sort(),
    ).toEqual(["b", "run-1"]);
    expect(gh.violations).toEqual([]);
  });
});

describe("state and behaviour", () => {
  it("appends annotations across updates and keeps the conclusion", async () => {
    const created = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    const id = created.body.id as number;
    const ann = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        path: "a.ts",
        start_line: i + 1,
        end_line: i + 1,
        annotation_level: "warning",
        message: `m${i}`,
      }));
    const done = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/${id}`, {
      body: {
        conclusion: "failure",
        output: { title: "t", summary: "s", text: "x", annotations: ann(50) },
      },
    });
    expect(done.body).toMatchObject({ status: "completed", conclusion: "failure" });
    const more = await raw(gh, "PATCH", `/repos/${REPO}/check-runs/${id}`, {
      body: { output: { title: "t", summary: "s", annotations: ann(20) } },
    });
    expect(more.body.output.annotations_count).toBe(70);
    expect(more.body.conclusion).toBe("failure");
    const listed = await raw(gh, "GET", `/repos/${REPO}/check-runs/${id}/annotations?per_page=100`);
    expect(listed.body).toHaveLength(70);
    expect(gh.violations).toEqual([]);
  });

  it("creates, lists, edits and deletes comments with their authors", async () => {
    gh.addComment(REPO, 7, { body: "by a human", user: "octocat" });
    const created = await raw(gh, "POST", `/repos/${REPO}/issues/7/comments`, {
      body: { body: "hello" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(created.body.url);
    expect(created.body.user).toMatchObject({ login: "github-actions[bot]", type: "Bot" });
    expect(created.body.html_url).toMatch(/\/pull\/7#issuecomment-\d+$/);
    const edited = await raw(gh, "PATCH", `/repos/${REPO}/issues/comments/${created.body.id}`, {
      body: { body: "hello again" },
    });
    expect(edited.body.body).toBe("hello again");
    const listed = await raw(gh, "GET", `/repos/${REPO}/issues/7/comments`);
    expect(listed.body.map((c: { user: { login: string } }) => c.user.login)).toEqual([
      "octocat",
      "github-actions[bot]",
    ]);
    const deleted = await raw(gh, "DELETE", `/repos/${REPO}/issues/comments/${created.body.id}`);
    expect(deleted.status).toBe(204);
    const again = await raw(gh, "DELETE", `/repos/${REPO}/issues/comments/${created.body.id}`);
    expect(again.status).toBe(404);
    expect(gh.violations).toEqual([]);
  });

  it("answers GET /user like GitHub for installation tokens, PATs and bad tokens", async () => {
    const app = await raw(gh, "GET", "/user");
    expect(app.status).toBe(403);
    expect(app.body.message).toBe("Resource not accessible by integration");
    const pat = await raw(gh, "GET", "/user", { token: USER_TOKEN });
    expect(pat.status).toBe(200);
    expect(pat.body.login).toBe("octocat");
    expect(pat.headers.get("x-ratelimit-limit")).toBe("5000");
    const bad = await raw(gh, "GET", "/user", { token: "ghp_nope" });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe("Bad credentials");
    const anon = await raw(gh, "GET", "/user", { token: null });
    expect(anon.status).toBe(401);
    expect(gh.violations).toEqual([]);
  });

  it("refuses writes for a read-only token, and check runs for a PAT", async () => {
    gh.addToken("ghs_fork", { kind: "installation", login: "github-actions[bot]", readOnly: true });
    const check = await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
      body: validRun,
      token: "ghs_fork",
    });
    expect(check.status).toBe(403);
    expect(check.body.message).toBe("Resource not accessible by integration");
    const comment = await raw(gh, "POST", `/repos/${REPO}/issues/7/comments`, {
      body: { body: "x" },
      token: "ghs_fork",
    });
    expect(comment.status).toBe(403);
    const read = await raw(gh, "GET", `/repos/${REPO}/pulls/7`, { token: "ghs_fork" });
    expect(read.status).toBe(200);
    const pat = await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
      body: validRun,
      token: USER_TOKEN,
    });
    expect(pat.status).toBe(403);
    expect(pat.body.message).toBe("You must authenticate via a GitHub App.");
    expect(gh.violations).toEqual([]);
  });

  it("answers 404 for missing repositories and pull requests, 422 for unknown commits", async () => {
    expect((await raw(gh, "GET", "/repos/acme/nope/pulls/7")).status).toBe(404);
    expect((await raw(gh, "GET", `/repos/${REPO}/pulls/99`)).status).toBe(404);
    const noCommit = await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
      body: { ...validRun, head_sha: fakeSha("nowhere") },
    });
    expect(noCommit.status).toBe(422);
    expect(noCommit.body.message).toContain("No commit found for SHA");
    expect(gh.violations).toEqual([]);
  });

  it("describes fork pull requests and deleted forks", async () => {
    gh.addPull(REPO, {
      number: 10,
      headSha: fakeSha("f"),
      baseSha: BASE,
      headRepo: "someone/widgets",
    });
    gh.addPull(REPO, { number: 11, headSha: fakeSha("g"), baseSha: BASE, headRepo: null });
    const fork = await raw(gh, "GET", `/repos/${REPO}/pulls/10`);
    expect(fork.body.head.repo).toMatchObject({ full_name: "someone/widgets", fork: true });
    expect(fork.body.base.repo).toMatchObject({ full_name: REPO, fork: false });
    const gone = await raw(gh, "GET", `/repos/${REPO}/pulls/11`);
    expect(gone.body.head.repo).toBeNull();
    // Fork heads are not linked to check runs (GitHub documents an empty array).
    const run = await raw(gh, "POST", `/repos/${REPO}/check-runs`, {
      body: { ...validRun, head_sha: fakeSha("f") },
    });
    expect(run.body.pull_requests).toEqual([]);
  });
});

describe("pull request listing", () => {
  it("lists pulls by state, head (owner:branch, forks too) and base, newest first", async () => {
    gh.addPull(REPO, { number: 8, headSha: HEAD, baseSha: BASE, headRef: "x", baseRef: "old" });
    gh.addPull(REPO, {
      number: 9,
      headSha: HEAD,
      baseSha: BASE,
      headRef: "x",
      headRepo: "someone/widgets",
    });
    gh.addPull(REPO, { number: 10, headSha: HEAD, baseSha: BASE, state: "closed" });
    const numbers = async (query: string) =>
      (await raw(gh, "GET", `/repos/${REPO}/pulls${query}`)).body.map(
        (p: { number: number }) => p.number,
      );
    expect(await numbers("")).toEqual([9, 8, 7]);
    expect(await numbers("?state=all")).toEqual([10, 9, 8, 7]);
    expect(await numbers("?state=closed")).toEqual([10]);
    expect(await numbers("?head=acme:x")).toEqual([8]);
    expect(await numbers("?head=someone:x")).toEqual([9]);
    expect(await numbers("?base=old")).toEqual([8]);
    // The query is validated against the OpenAPI description like every other request.
    expect((await raw(gh, "GET", `/repos/${REPO}/pulls?state=bogus`)).status).toBe(422);
  });
});

describe("fault injection", () => {
  it("fails the next matching requests, by template or regex, then recovers", async () => {
    gh.failNext({
      method: "GET",
      path: "/repos/{owner}/{repo}/pulls/{pull_number}",
      status: 500,
      times: 2,
    });
    expect((await raw(gh, "GET", `/repos/${REPO}/pulls/7`)).status).toBe(500);
    expect((await raw(gh, "GET", `/repos/${REPO}/pulls/7`)).status).toBe(500);
    expect((await raw(gh, "GET", `/repos/${REPO}/pulls/7`)).status).toBe(200);
    gh.failNext({ path: /\/check-runs$/, status: 503 });
    const html = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    expect(html.status).toBe(503);
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(gh.state.repos.get(REPO)!.checkRuns).toHaveLength(0);
  });

  it("can let the request take effect and still fail (a lost answer)", async () => {
    gh.failNext({
      method: "POST",
      path: `/repos/${REPO}/check-runs`,
      status: 502,
      afterEffect: true,
    });
    const res = await raw(gh, "POST", `/repos/${REPO}/check-runs`, { body: validRun });
    expect(res.status).toBe(502);
    expect(gh.state.repos.get(REPO)!.checkRuns).toHaveLength(1);
  });

  it("can drop the connection", async () => {
    gh.failNext({ path: `/repos/${REPO}/pulls/7`, network: true });
    await expect(raw(gh, "GET", `/repos/${REPO}/pulls/7`)).rejects.toThrow();
    expect((await raw(gh, "GET", `/repos/${REPO}/pulls/7`)).status).toBe(200);
  });

  it("answers rate limits with GitHub's headers", async () => {
    gh.failNext({ path: `/repos/${REPO}/pulls/7`, rateLimit: "primary" });
    const primary = await raw(gh, "GET", `/repos/${REPO}/pulls/7`);
    expect(primary.status).toBe(403);
    expect(primary.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(primary.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    gh.failNext({ path: `/repos/${REPO}/pulls/7`, rateLimit: "secondary", status: 429 });
    const secondary = await raw(gh, "GET", `/repos/${REPO}/pulls/7`);
    expect(secondary.status).toBe(429);
    expect(secondary.headers.get("retry-after")).toBe("1");
    expect(secondary.body.message).toMatch(/secondary rate limit/);
  });
});

describe("examplePayload", () => {
  it("patches a real pull_request.opened example", () => {
    const p = examplePayload("pull_request", "opened", {
      owner: "acme",
      repo: "widgets",
      number: 7,
      headSha: HEAD,
      baseSha: BASE,
    });
    expect(p.action).toBe("opened");
    expect(p.number).toBe(7);
    expect(p.repository.full_name).toBe(REPO);
    expect(p.repository.owner.login).toBe("acme");
    expect(p.pull_request.number).toBe(7);
    expect(p.pull_request.head.sha).toBe(HEAD);
    expect(p.pull_request.base.sha).toBe(BASE);
    expect(p.pull_request.head.repo?.full_name).toBe(REPO);
    expect(p.pull_request.base.repo.full_name).toBe(REPO);
    expect(p.pull_request.url).toMatch(/\/repos\/acme\/widgets\/pulls\/7$/);
    expect(JSON.stringify(p)).not.toContain("Codertocat/Hello-World");
  });

  it("makes fork and deleted-fork heads, and serves pull_request_target", () => {
    const fork = examplePayload("pull_request_target", "synchronize", {
      owner: "acme",
      repo: "widgets",
      headSha: HEAD,
      fork: true,
    });
    expect(fork.pull_request.head.repo).toMatchObject({
      full_name: "fork-owner/widgets",
      fork: true,
    });
    expect(fork.pull_request.head.label).toBe(`fork-owner:${fork.pull_request.head.ref}`);
    expect(fork.pull_request.base.repo.full_name).toBe(REPO);
    expect((fork as { after?: string }).after).toBe(HEAD);
    const gone = examplePayload("pull_request", "opened", { fork: null });
    expect(gone.pull_request.head.repo).toBeNull();
  });

  it("patches push and workflow_dispatch examples", () => {
    const push = examplePayload("push", undefined, {
      owner: "acme",
      repo: "widgets",
      sha: HEAD,
      ref: "refs/heads/main",
    });
    expect(push.after).toBe(HEAD);
    expect(push.ref).toBe("refs/heads/main");
    expect(push.repository.full_name).toBe(REPO);
    const dispatch = examplePayload("workflow_dispatch", undefined, {
      owner: "acme",
      repo: "widgets",
      inputs: { contracts: "all" },
    });
    expect(dispatch.inputs).toEqual({ contracts: "all" });
    expect(dispatch.repository.full_name).toBe(REPO);
  });

  it("says which actions exist when asked for a missing one", () => {
    expect(() => examplePayload("pull_request", "exploded")).toThrow(/opened/);
  });
});

it("uses the token's identity for rate-limit accounting", async () => {
  await raw(gh, "GET", `/repos/${REPO}/pulls/7`, { token: ACTIONS_TOKEN });
  const second = await raw(gh, "GET", `/repos/${REPO}/pulls/7`, { token: ACTIONS_TOKEN });
  expect(second.headers.get("x-ratelimit-used")).toBe("2");
});
