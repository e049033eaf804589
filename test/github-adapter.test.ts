/**
 * The real GitHub adapter (Octokit + retry/throttling plugins) against the
 * local stand-in, which validates every request against GitHub's OpenAPI
 * description: every test ends with no violations.
 */
import { describe, expect, it } from "vitest";
import { createGitHubApi, type GitHubApiOptions } from "../src/github/adapter.js";
import { createOctokit } from "../src/github/client.js";
import { recordedSha, shaMarker } from "../src/github/sticky-body.js";
import { type Annotation, type GitHubApi, GitHubApiError } from "../src/github/types.js";
import { standInsCheckedAfterEach } from "./github/checked.js";
import {
  ACTIONS_LOGIN,
  ACTIONS_TOKEN,
  fakeSha,
  type PullFileState,
  type StandIn,
  startStandIn,
  USER_TOKEN,
} from "./github/standin.js";

const OWNER = "acme";
const NAME = "widgets";
const REPO = `${OWNER}/${NAME}`;
const HEAD = fakeSha("head");
const BASE = fakeSha("base");
const MARKER = "<!-- contract-gate:contract-gate -->";

const open = standInsCheckedAfterEach();

interface Setup {
  gh: StandIn;
  api: GitHubApi;
  logs: string[];
  /** Requests after setup, as `METHOD operationId`. */
  calls(): string[];
}

async function setup(
  opts: { token?: string; files?: PullFileState[]; api?: GitHubApiOptions } = {},
): Promise<Setup> {
  const gh = await startStandIn();
  open.push(gh);
  gh.addRepo(REPO);
  gh.addPull(REPO, { number: 7, headSha: HEAD, baseSha: BASE, files: opts.files ?? [] });
  const logs: string[] = [];
  const octokit = createOctokit({
    token: opts.token ?? ACTIONS_TOKEN,
    baseUrl: gh.url,
    userAgent: "contract-gate-tests",
    retryDelayMs: 1,
    rateLimitTimeUnitMs: 1,
    writeSpacingMs: 0,
  });
  const api = createGitHubApi(
    octokit,
    { owner: OWNER, repo: NAME },
    { retryDelayMs: 1, log: (m) => logs.push(m), ...opts.api },
  );
  return {
    gh,
    api,
    logs,
    calls: () => gh.requests.map((r) => `${r.method} ${r.operationId ?? r.path}`),
  };
}

function files(n: number): PullFileState[] {
  return Array.from({ length: n }, (_, i) => ({
    filename: `src/f${String(i).padStart(4, "0")}.ts`,
    status: "modified" as const,
  }));
}

function annotations(n: number): Annotation[] {
  return Array.from({ length: n }, (_, i) => ({
    path: `contracts/c${i}.md`,
    start_line: i + 1,
    end_line: i + 1,
    annotation_level: "failure" as const,
    message: `criterion ${i} failed`,
    title: `C${i}`,
  }));
}

async function thrown(p: Promise<unknown>): Promise<GitHubApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GitHubApiError);
    return e as GitHubApiError;
  }
  throw new Error("expected a GitHubApiError");
}

describe("pull requests", () => {
  it("reads the pull request: shas, refs, repositories, changed file count", async () => {
    const { api, gh } = await setup({ files: files(4) });
    gh.addPull(REPO, {
      number: 8,
      headSha: fakeSha("fork"),
      baseSha: BASE,
      headRef: "patch-1",
      headRepo: "someone/widgets",
    });
    gh.addPull(REPO, { number: 9, headSha: fakeSha("gone"), baseSha: BASE, headRepo: null });
    expect(await api.getPull(7)).toEqual({
      number: 7,
      headSha: HEAD,
      headRef: "feature-7",
      baseSha: BASE,
      baseRef: "main",
      headRepo: REPO,
      baseRepo: REPO,
      changedFiles: 4,
      state: "open",
      htmlUrl: `https://github.com/${REPO}/pull/7`,
      author: "octocat",
    });
    expect(await api.getPull(8)).toMatchObject({ headRepo: "someone/widgets", headRef: "patch-1" });
    expect((await api.getPull(9)).headRepo).toBeNull();
  });

  it("lists every open pull request in pages of 100: heads from forks and deleted forks, bases", async () => {
    const { api, gh } = await setup();
    for (let n = 8; n < 160; n++) {
      gh.addPull(REPO, { number: n, headSha: fakeSha(`h${n}`), baseSha: BASE });
    }
    gh.addPull(REPO, {
      number: 200,
      headSha: HEAD,
      baseSha: BASE,
      headRef: "patch-1",
      headRepo: "someone/widgets",
      baseRef: "release-1",
    });
    gh.addPull(REPO, { number: 201, headSha: HEAD, baseSha: BASE, headRepo: null });
    gh.addPull(REPO, { number: 202, headSha: HEAD, baseSha: BASE, state: "closed" });
    const got = await api.listOpenPulls();
    expect(got.map((p) => p.number).sort((a, b) => a - b)).toEqual([
      7,
      ...Array.from({ length: 152 }, (_, i) => i + 8),
      200,
      201,
    ]);
    expect(got.find((p) => p.number === 200)).toEqual({
      number: 200,
      headSha: HEAD,
      headRepo: "someone/widgets",
      headRef: "patch-1",
      baseRef: "release-1",
      baseRepo: REPO,
      htmlUrl: `https://github.com/${REPO}/pull/200`,
    });
    expect(got.find((p) => p.number === 201)?.headRepo).toBeNull();
    const pages = gh.requests.filter((r) => r.operationId === "pulls/list");
    expect(pages).toHaveLength(2);
    expect(pages.every((r) => r.query.per_page === "100" && r.query.state === "open")).toBe(true);
  });

  it("lists 250 files in 3 pages of 100, with renames", async () => {
    const list = files(250);
    list[3] = { filename: "src/new.ts", status: "renamed", previous_filename: "src/old.ts" };
    list[4] = { filename: "src/gone.ts", status: "removed" };
    const { api, gh } = await setup({ files: list });
    const got = await api.listPullFiles(7);
    expect(got).toHaveLength(250);
    expect(got[3]).toEqual({ path: "src/new.ts", status: "renamed", previousPath: "src/old.ts" });
    expect(got[4]).toEqual({ path: "src/gone.ts", status: "removed" });
    expect(got[249]).toEqual({ path: "src/f0249.ts", status: "modified" });
    const pages = gh.requests.filter((r) => r.operationId === "pulls/list-files");
    expect(pages).toHaveLength(3);
    expect(pages.every((r) => r.query.per_page === "100")).toBe(true);
    expect(gh.warnings).toEqual([]);
  });

  it("stops at GitHub's 3,000 files; changedFiles tells the cap was hit", async () => {
    const { api } = await setup({ files: files(3050) });
    expect(await api.listPullFiles(7)).toHaveLength(3000);
    expect((await api.getPull(7)).changedFiles).toBe(3050);
  });

  it("retries a 500 and then succeeds", async () => {
    const { api, gh, calls } = await setup();
    gh.failNext({ method: "GET", path: "/repos/{owner}/{repo}/pulls/{pull_number}", status: 500 });
    expect((await api.getPull(7)).headSha).toBe(HEAD);
    expect(calls()).toEqual(["GET pulls/get", "GET pulls/get"]);
  });

  it("retries a dropped connection and a page that failed mid-listing", async () => {
    const { api, gh } = await setup({ files: files(150) });
    gh.failNext({ path: `/repos/${REPO}/pulls/7`, network: true });
    expect((await api.getPull(7)).number).toBe(7);
    gh.failNext({ path: /\/pulls\/7\/files$/, status: 502, times: 2 });
    expect(await api.listPullFiles(7)).toHaveLength(150);
  });

  it("gives up after the retries with a message that says to re-run", async () => {
    const { api, gh, calls } = await setup();
    gh.failNext({ path: "/repos/{owner}/{repo}/pulls/{pull_number}", status: 502, times: 10 });
    const e = await thrown(api.getPull(7));
    expect(e.status).toBe(502);
    expect(e.endpoint).toBe(`GET /repos/${REPO}/pulls/7`);
    expect(e.message).toContain(
      `GET /repos/${REPO}/pulls/7 failed with 502 Bad Gateway: 502 Bad Gateway.`,
    );
    expect(e.message).toMatch(/GitHub is having problems.*re-run the job/);
    expect(calls()).toHaveLength(4); // 1 + 3 retries
  });

  it("waits out primary and secondary rate limits", async () => {
    const { api, gh, calls } = await setup();
    gh.failNext({ path: `/repos/${REPO}/pulls/7`, rateLimit: "primary" });
    expect((await api.getPull(7)).number).toBe(7);
    gh.failNext({ path: `/repos/${REPO}/pulls/7`, rateLimit: "secondary", status: 429 });
    expect((await api.getPull(7)).number).toBe(7);
    expect(calls()).toHaveLength(4);
  });

  it("explains 404 and 401", async () => {
    const { api } = await setup();
    const missing = await thrown(api.getPull(99));
    expect(missing.status).toBe(404);
    expect(missing.message).toContain(
      `GET /repos/${REPO}/pulls/99 failed with 404 Not Found: Not Found.`,
    );
    expect(missing.message).toContain(
      `Pull request #99 in ${REPO} was not found, or the token has no access`,
    );
    const bad = await setup({ token: "ghp_revoked" });
    const denied = await thrown(bad.api.getPull(7));
    expect(denied.status).toBe(401);
    expect(denied.message).toContain("Bad credentials");
    expect(denied.message).toContain("pass a valid token");
  });
});

describe("check runs", () => {
  it("starts a run in_progress with its external id", async () => {
    const { api, gh, calls } = await setup();
    const ref = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "123-1",
      detailsUrl: "https://example.com/run/123",
    });
    const [run] = gh.repo(REPO).checkRuns;
    expect(ref).toEqual({ id: run!.id, htmlUrl: `https://github.com/${REPO}/runs/${run!.id}` });
    expect(run).toMatchObject({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "123-1",
      status: "in_progress",
      detailsUrl: "https://example.com/run/123",
    });
    expect(calls()).toEqual(["POST checks/create"]);
  });

  it("after a 502 on a create that went through, finds the run instead of duplicating it", async () => {
    const { api, gh, calls, logs } = await setup();
    gh.failNext({
      method: "POST",
      path: `/repos/${REPO}/check-runs`,
      status: 502,
      afterEffect: true,
    });
    const ref = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "123-1",
    });
    const runs = gh.repo(REPO).checkRuns;
    expect(runs).toHaveLength(1);
    expect(ref.id).toBe(runs[0]!.id);
    expect(calls()).toEqual(["POST checks/create", "GET checks/list-for-ref"]);
    const lookup = gh.requests[1]!;
    expect(lookup.query).toMatchObject({ check_name: "contract-gate", filter: "all" });
    expect(logs.join("\n")).toContain("created despite the error");
  });

  it("creates again when the failed create did not go through, ignoring other runs", async () => {
    const { api, gh, calls } = await setup();
    // Another run of the same name (an earlier attempt) must not be taken for this one.
    await api.startCheckRun({ name: "contract-gate", headSha: HEAD, externalId: "123-0" });
    gh.failNext({ method: "POST", path: `/repos/${REPO}/check-runs`, network: true });
    const ref = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "123-1",
    });
    const runs = gh.repo(REPO).checkRuns;
    expect(runs.map((r) => r.externalId)).toEqual(["123-0", "123-1"]);
    expect(ref.id).toBe(runs[1]!.id);
    expect(calls()).toEqual([
      "POST checks/create",
      "POST checks/create",
      "GET checks/list-for-ref",
      "POST checks/create",
    ]);
  });

  it("completes with the first 50 annotations, then appends the rest 50 at a time", async () => {
    const { api, gh, calls } = await setup();
    const { id } = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "1",
    });
    await api.completeCheckRun(id, {
      conclusion: "failure",
      output: {
        title: "2 of 5 contracts failed",
        summary: "## Summary",
        text: "details",
        annotations: annotations(120),
      },
    });
    const patches = gh.requests.filter((r) => r.operationId === "checks/update");
    expect(patches).toHaveLength(3);
    expect(calls()).toEqual([
      "POST checks/create",
      "PATCH checks/update",
      "PATCH checks/update",
      "PATCH checks/update",
    ]);
    const bodies = patches.map(
      (r) =>
        r.body as {
          conclusion?: string;
          output: { title: string; summary: string; text?: string; annotations: unknown[] };
        },
    );
    expect(bodies.map((b) => b.output.annotations.length)).toEqual([50, 50, 20]);
    expect(bodies[0]!.conclusion).toBe("failure");
    expect(bodies[1]!.conclusion).toBeUndefined();
    for (const b of bodies) {
      expect(b.output).toMatchObject({
        title: "2 of 5 contracts failed",
        summary: "## Summary",
        text: "details",
      });
    }
    const run = gh.repo(REPO).checkRuns[0]!;
    expect(run.status).toBe("completed");
    expect(run.conclusion).toBe("failure");
    expect(run.output.annotations).toHaveLength(120);
    expect(run.output.annotations.map((a) => a.message)).toEqual(
      annotations(120).map((a) => a.message),
    );
    expect(run.output.text).toBe("details");
  });

  it("does not re-send an annotation batch whose answer was lost", async () => {
    const { api, gh, calls } = await setup();
    const second = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "2",
    });
    const before = gh.requests.length;
    // The first batch (with the conclusion) reaches GitHub, then the answer is a 502.
    gh.failNext({
      method: "PATCH",
      path: `/repos/${REPO}/check-runs/${second.id}`,
      status: 502,
      afterEffect: true,
    });
    await api.completeCheckRun(second.id, {
      conclusion: "failure",
      output: { title: "t", summary: "s", annotations: annotations(70) },
    });
    const run = gh.repo(REPO).checkRuns.find((r) => r.id === second.id)!;
    expect(run.output.annotations).toHaveLength(70);
    expect(run.conclusion).toBe("failure");
    // The lost first batch is checked (GET), not re-sent; the second goes once.
    expect(calls().slice(before)).toEqual([
      "PATCH checks/update",
      "GET checks/get",
      "PATCH checks/update",
    ]);
  });

  it("re-sends a batch that did not arrive", async () => {
    const { api, gh } = await setup();
    const { id } = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "1",
    });
    gh.failNext({ method: "PATCH", path: `/repos/${REPO}/check-runs/${id}`, status: 500 });
    await api.completeCheckRun(id, {
      conclusion: "failure",
      output: { title: "t", summary: "s", annotations: annotations(60) },
    });
    const run = gh.repo(REPO).checkRuns[0]!;
    expect(run.output.annotations).toHaveLength(60);
    expect(run.conclusion).toBe("failure");
  });

  it("completes a run it did not start (learns the annotation count first)", async () => {
    const { api, gh, calls } = await setup();
    const { id } = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "1",
    });
    const fresh = createGitHubApi(
      createOctokit({ token: ACTIONS_TOKEN, baseUrl: gh.url, retryDelayMs: 1, writeSpacingMs: 0 }),
      { owner: OWNER, repo: NAME },
      { retryDelayMs: 1 },
    );
    await fresh.completeCheckRun(id, {
      conclusion: "neutral",
      output: { title: "t", summary: "s", annotations: annotations(3) },
    });
    expect(calls()).toEqual(["POST checks/create", "GET checks/get", "PATCH checks/update"]);
  });

  it("completes without annotations in one update, and fits an oversized summary", async () => {
    const { api, gh } = await setup();
    const { id } = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "1",
    });
    await api.completeCheckRun(id, {
      conclusion: "success",
      output: { title: "all met", summary: "✓".repeat(30_000), annotations: [] },
    });
    const patches = gh.requests.filter((r) => r.operationId === "checks/update");
    expect(patches).toHaveLength(1);
    const run = gh.repo(REPO).checkRuns[0]!;
    expect(Buffer.byteLength(run.output.summary!, "utf8")).toBeLessThanOrEqual(65_535);
    expect(run.output.summary).toMatch(/truncated/);
    expect(run.conclusion).toBe("success");
  });

  it("names the permission on 403 for a read-only token", async () => {
    const { api, gh } = await setup({ token: "ghs_fork" });
    gh.addToken("ghs_fork", { kind: "installation", login: ACTIONS_LOGIN, readOnly: true });
    const e = await thrown(
      api.startCheckRun({ name: "contract-gate", headSha: HEAD, externalId: "1" }),
    );
    expect(e.status).toBe(403);
    expect(e.endpoint).toBe(`POST /repos/${REPO}/check-runs`);
    expect(e.message).toContain(
      `POST /repos/${REPO}/check-runs failed with 403 Forbidden: Resource not accessible by integration.`,
    );
    expect(e.message).toContain("add `checks: write` to the workflow's");
    // The fork recipe is the action's, given only on a fork's pull request.
    expect(e.message).not.toContain("fork");
    expect(e.failure).toBe("forbidden");
  });

  it("explains that a personal access token cannot write check runs", async () => {
    const { api } = await setup({ token: USER_TOKEN });
    const e = await thrown(
      api.startCheckRun({ name: "contract-gate", headSha: HEAD, externalId: "1" }),
    );
    expect(e.status).toBe(403);
    expect(e.message).toContain("GitHub App installation token");
  });

  it("reports what GitHub rejected on 422", async () => {
    const { api, gh } = await setup();
    const { id } = await api.startCheckRun({
      name: "contract-gate",
      headSha: HEAD,
      externalId: "1",
    });
    gh.failNext({
      method: "PATCH",
      path: `/repos/${REPO}/check-runs/${id}`,
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [
          {
            resource: "CheckRun",
            code: "custom",
            field: "summary",
            message: "summary exceeds a maximum bytesize of 65535",
          },
        ],
        documentation_url: "https://docs.github.com/rest/checks/runs#update-a-check-run",
        status: "422",
      },
    });
    const e = await thrown(
      api.completeCheckRun(id, {
        conclusion: "success",
        output: { title: "t", summary: "s", annotations: [] },
      }),
    );
    expect(e.status).toBe(422);
    expect(e.message).toContain("Validation Failed (summary exceeds a maximum bytesize of 65535)");
    expect(e.message).toContain("GitHub rejected what contract-gate sent");
  });
});

describe("sticky comment", () => {
  const req = (body: string, headSha = HEAD) => ({ issueNumber: 7, marker: MARKER, headSha, body });

  it("creates the comment with the marker and the head sha, then updates it in place", async () => {
    const { api, gh, calls } = await setup();
    const first = await api.upsertStickyComment(req("## 1 failing"));
    expect(first).toMatchObject({ action: "created", deletedDuplicates: 0 });
    const comments = gh.repo(REPO).comments;
    expect(comments).toHaveLength(1);
    expect(first.url).toBe(`https://github.com/${REPO}/pull/7#issuecomment-${comments[0]!.id}`);
    expect(comments[0]!.body).toBe(`${MARKER}\n${shaMarker(HEAD)}\n## 1 failing`);
    expect(comments[0]!.user).toBe(ACTIONS_LOGIN);
    expect(recordedSha(comments[0]!.body)).toBe(HEAD);

    const second = await api.upsertStickyComment(req("## all met"));
    expect(second).toMatchObject({ action: "updated", deletedDuplicates: 0, url: first.url });
    expect(gh.repo(REPO).comments).toHaveLength(1);
    expect(gh.repo(REPO).comments[0]!.body).toContain("## all met");

    const third = await api.upsertStickyComment(req("## all met"));
    expect(third.action).toBe("unchanged");
    expect(calls().filter((c) => c.startsWith("PATCH"))).toHaveLength(1);
    // GET /user is asked once and its 403 means github-actions[bot].
    expect(calls().filter((c) => c === "GET users/get-authenticated")).toHaveLength(1);
  });

  it("folds duplicates into the oldest and leaves other authors' comments alone", async () => {
    const { api, gh } = await setup();
    const human = gh.addComment(REPO, 7, { body: `quoting ${MARKER}`, user: "octocat" });
    const oldest = gh.addComment(REPO, 7, { body: `${MARKER}\nold`, user: ACTIONS_LOGIN });
    gh.addComment(REPO, 7, { body: "unrelated bot chatter", user: ACTIONS_LOGIN });
    gh.addComment(REPO, 7, { body: `${MARKER}\nrace 1`, user: ACTIONS_LOGIN });
    gh.addComment(REPO, 7, { body: `${MARKER}\nrace 2`, user: ACTIONS_LOGIN });
    const result = await api.upsertStickyComment(req("## fresh"));
    expect(result).toMatchObject({ action: "updated", deletedDuplicates: 2 });
    const left = gh.repo(REPO).comments;
    expect(left.map((c) => c.id)).toEqual([human.id, oldest.id, left[2]!.id]);
    expect(left.find((c) => c.id === oldest.id)!.body).toContain("## fresh");
    expect(left.find((c) => c.id === human.id)!.body).toBe(`quoting ${MARKER}`);
    expect(left[2]!.body).toBe("unrelated bot chatter");
    expect(await api.findStickyComment(7, MARKER)).toMatchObject({ id: oldest.id });
  });

  it("adopts only its own comment that starts with the marker: a bot comment quoting it mid-body is left alone", async () => {
    const { api, gh } = await setup();
    // Another workflow writing as the same bot, quoting a PR description that holds the marker.
    const quoting = gh.addComment(REPO, 7, {
      body: `> ${MARKER}\n> from the description`,
      user: ACTIONS_LOGIN,
    });
    const inline = gh.addComment(REPO, 7, { body: `see ${MARKER}`, user: ACTIONS_LOGIN });
    // Starts with the marker, but someone else wrote it.
    const forged = gh.addComment(REPO, 7, { body: `${MARKER}\nforged`, user: "fork-owner" });
    expect(await api.findStickyComment(7, MARKER)).toBeUndefined();
    const result = await api.upsertStickyComment(req("## mine"));
    expect(result).toMatchObject({ action: "created", deletedDuplicates: 0 });
    const left = gh.repo(REPO).comments;
    expect(left.slice(0, 3).map((c) => c.body)).toEqual([quoting.body, inline.body, forged.body]);
    expect(left).toHaveLength(4);
    expect(left[3]!.body.startsWith(MARKER)).toBe(true);
    // Control: its own comment, marker first, is found and updated in place.
    expect(await api.findStickyComment(7, MARKER)).toMatchObject({ id: left[3]!.id });
    expect(await api.upsertStickyComment(req("## again"))).toMatchObject({ action: "updated" });
    expect(gh.repo(REPO).comments).toHaveLength(4);
    // The action's body already starts with the marker: it still opens the comment, once.
    await api.upsertStickyComment(req(`${MARKER}\n## from the action`));
    expect(gh.repo(REPO).comments[3]!.body).toBe(
      `${MARKER}\n${shaMarker(HEAD)}\n## from the action`,
    );
  });

  it("reports deleted duplicates when the kept comment is already current", async () => {
    const { api, gh } = await setup();
    const body = `${MARKER}\n${shaMarker(HEAD)}\n## same`;
    gh.addComment(REPO, 7, { body, user: ACTIONS_LOGIN });
    gh.addComment(REPO, 7, { body, user: ACTIONS_LOGIN });
    const result = await api.upsertStickyComment(req("## same"));
    expect(result).toMatchObject({ action: "deleted-duplicates", deletedDuplicates: 1 });
    expect(gh.repo(REPO).comments).toHaveLength(1);
  });

  it("never lets a run for an older head overwrite the comment for a newer one", async () => {
    const { api, gh, calls } = await setup();
    const NEW = HEAD;
    const OLD = fakeSha("older");
    const current = gh.addComment(REPO, 7, {
      body: `${MARKER}\n${shaMarker(NEW)}\nnew`,
      user: ACTIONS_LOGIN,
    });
    const stale = await api.upsertStickyComment(req("old result", OLD));
    expect(stale.action).toBe("skipped-stale");
    expect(gh.repo(REPO).comments[0]!.body).toContain("\nnew");
    expect(calls()).toContain("GET pulls/get");
    expect(calls().some((c) => c.startsWith("PATCH") || c.startsWith("POST"))).toBe(false);

    // The head moves on: a run for the new head replaces a comment for an older one.
    const NEWER = fakeSha("newer");
    gh.repo(REPO).pulls.get(7)!.head.sha = NEWER;
    const fresh = await api.upsertStickyComment(req("newer result", NEWER));
    expect(fresh.action).toBe("updated");
    expect(gh.repo(REPO).comments.find((c) => c.id === current.id)!.body).toContain(
      shaMarker(NEWER),
    );
  });

  it("finds its comment among 230 (every page) and ignores comments on other pages of chatter", async () => {
    const { api, gh } = await setup();
    for (let i = 0; i < 228; i++)
      gh.addComment(REPO, 7, { body: `comment ${i}`, user: i % 2 ? "octocat" : ACTIONS_LOGIN });
    const sticky = gh.addComment(REPO, 7, {
      body: `${MARKER}\n${shaMarker(HEAD)}\nx`,
      user: ACTIONS_LOGIN,
    });
    gh.addComment(REPO, 7, { body: "last", user: "octocat" });
    expect(await api.findStickyComment(7, MARKER)).toEqual({
      id: sticky.id,
      body: sticky.body,
      url: `https://github.com/${REPO}/pull/7#issuecomment-${sticky.id}`,
    });
    const pages = gh.requests.filter((r) => r.operationId === "issues/list-comments");
    expect(pages).toHaveLength(3);
    expect(pages[0]!.query.per_page).toBe("100");
    const result = await api.upsertStickyComment(req("y"));
    expect(result.action).toBe("updated");
    expect(gh.repo(REPO).comments).toHaveLength(230);
  });

  it("uses the PAT's login from GET /user", async () => {
    const { api, gh } = await setup({ token: USER_TOKEN });
    gh.addComment(REPO, 7, { body: `${MARKER}\nby the bot`, user: ACTIONS_LOGIN });
    const result = await api.upsertStickyComment(req("mine"));
    expect(result.action).toBe("created");
    const comments = gh.repo(REPO).comments;
    expect(comments).toHaveLength(2);
    expect(comments[1]!.user).toBe("octocat");
  });

  it("does not duplicate a comment whose create answer was lost", async () => {
    const { api, gh, logs } = await setup();
    gh.failNext({
      method: "POST",
      path: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      status: 502,
      afterEffect: true,
    });
    const result = await api.upsertStickyComment(req("hello"));
    expect(result.action).toBe("created");
    expect(gh.repo(REPO).comments).toHaveLength(1);
    expect(logs.join("\n")).toContain("created despite the error");
  });

  it("tolerates a duplicate already deleted by a racing run", async () => {
    const { api, gh } = await setup();
    gh.addComment(REPO, 7, { body: `${MARKER}\na`, user: ACTIONS_LOGIN });
    const dup = gh.addComment(REPO, 7, { body: `${MARKER}\nb`, user: ACTIONS_LOGIN });
    gh.failNext({
      method: "DELETE",
      path: `/repos/${REPO}/issues/comments/${dup.id}`,
      status: 404,
    });
    const result = await api.upsertStickyComment(req("c"));
    expect(result).toMatchObject({ action: "updated", deletedDuplicates: 1 });
  });

  it("names `pull-requests: write` on 403 for a read-only token", async () => {
    const { api, gh } = await setup({ token: "ghs_fork" });
    gh.addToken("ghs_fork", { kind: "installation", login: ACTIONS_LOGIN, readOnly: true });
    const e = await thrown(api.upsertStickyComment(req("x")));
    expect(e.status).toBe(403);
    expect(e.endpoint).toBe(`POST /repos/${REPO}/issues/7/comments`);
    expect(e.message).toContain("Resource not accessible by integration");
    expect(e.message).toContain("add `pull-requests: write` to the workflow's");
  });

  it("keeps the body within GitHub's comment limit", async () => {
    const { api, gh } = await setup();
    await api.upsertStickyComment(req("x".repeat(70_000)));
    const [c] = gh.repo(REPO).comments;
    expect([...c!.body].length).toBeLessThanOrEqual(65_536);
    expect(c!.body.startsWith(`${MARKER}\n${shaMarker(HEAD)}\n`)).toBe(true);
  });
});
