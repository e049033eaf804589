/**
 * One head commit, two open pull requests with different bases, end to end:
 * the bundled action (dist/index.js) on a real repository against the GitHub
 * stand-in (every request validated against @octokit/openapi). A check run
 * belongs to the commit, so a green run for PR B (into `release`, where the
 * weakened contract is already weak) would satisfy the required check of PR
 * A (into `main`, whose comparison blocks). The gate fails instead, naming
 * the sibling; a duplicate PR (same base), a sibling on another commit or a
 * closed one leave the normal verdict. Run `npm run bundle` after changing src/.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import type { StandIn } from "./github/standin.js";
import {
  type ActionResult,
  finish,
  type GitRepo,
  lastCheckRun as lastRun,
  makeRepo,
  PR_NUMBER,
  payloadFor,
  REPO,
  reportOf as report,
  runAction,
  standInFor,
  WEAKENED_GUARD,
  workflowRunPayload,
} from "./helpers/action-harness.js";

const CONTRACT = ".planning/phase-1-contract.json";
const SIBLING = 8;

/**
 * `main` checks the role; the branch weakens the guard and its contract in one
 * commit (W), then adds a note (H, the shared head). `release` points at W:
 * against it, H changes no contract. PR_NUMBER is B (H → release).
 */
async function attackRepo() {
  const repo = await makeRepo(WEAKENED_GUARD);
  const weakened = repo.head;
  await repo.git("checkout", "-q", "feature");
  writeFileSync(join(repo.dir, "NOTES.md"), "notes\n");
  await repo.git("add", "NOTES.md");
  await repo.git("commit", "-q", "-m", "notes");
  const head = await repo.git("rev-parse", "HEAD");
  await repo.checkout(head);
  /** PR A: H into main (the contract weakened in place). */
  const intoMain: GitRepo = {
    ...repo,
    head,
    files: [...repo.files, { filename: "NOTES.md", status: "added" }],
  };
  /** PR B: H into release (nothing but a note). */
  const intoRelease: GitRepo = {
    ...repo,
    base: weakened,
    head,
    files: [{ filename: "NOTES.md", status: "added" }],
  };
  return { repo, intoMain, intoRelease, mainBase: repo.base, weakened };
}

/** The stand-in with PR_NUMBER as `pr` (into `baseRef`), as GitHub would have it. */
async function standInWith(pr: GitRepo, baseRef: string): Promise<StandIn> {
  const gh = await standInFor(pr);
  gh.repo(REPO).pulls.get(PR_NUMBER)!.base.ref = baseRef;
  gh.addCollaborator(REPO, "octocat", "write");
  gh.addCollaborator(REPO, "maintainer", "write");
  return gh;
}

/** The pull_request payload for `pr` into `baseRef`. */
function payload(pr: GitRepo, baseRef: string) {
  const p = payloadFor("pull_request", pr) as { pull_request: { base: { ref: string } } };
  p.pull_request.base.ref = baseRef;
  return p;
}

function codes(r: ActionResult): string[] {
  return report(r).integrity.findings.map((f: { code: string }) => f.code);
}

describe("one head commit shared by open pull requests with different bases", () => {
  it("PR B (into release) fails while PR A (into main) is open on the same commit; the sibling is named on every surface", async ({
    expect,
  }) => {
    const { intoRelease, mainBase } = await attackRepo();
    const gh = await standInWith(intoRelease, "release");
    const gated = () =>
      runAction({
        repo: intoRelease,
        gh,
        event: "pull_request",
        payload: payload(intoRelease, "release"),
      });

    // Positive control: alone, B touches no contract: neutral, which a required check counts as passing.
    const alone = await gated();
    expect(alone.code, alone.stdout).toBe(0);
    expect(lastRun(gh)).toMatchObject({ headSha: intoRelease.head, conclusion: "neutral" });
    expect(codes(alone)).toEqual([]);

    gh.addPull(REPO, {
      number: SIBLING,
      headSha: intoRelease.head,
      baseSha: mainBase,
      headRef: "feature",
      baseRef: "main",
    });
    const attacked = await gated();
    expect(attacked.code).toBe(1);
    expect(codes(attacked)).toEqual(["shared-head-other-base"]);
    expect(report(attacked).integrity.blocking).toBe(1);
    const run = lastRun(gh);
    expect(run).toMatchObject({ headSha: intoRelease.head, conclusion: "failure" });
    expect(run.output.title).toMatch(/^Head commit shared with an open PR into another base/);
    // No surface offers an approval as the way out.
    expect(run.output.summary).not.toContain("They stop blocking once");
    expect(attacked.stdout).not.toContain("They stop blocking once");
    const named = `#${SIBLING} (${REPO}:feature into ${REPO}:main`;
    expect(run.output.summary).toContain(named);
    expect(run.output.summary).toContain("push a separate commit for each");
    expect(run.output.annotations).toContainEqual(
      expect.objectContaining({
        path: CONTRACT,
        annotation_level: "failure",
        title: "Contract change: shared-head-other-base",
        message: expect.stringContaining(named),
      }),
    );
    expect(attacked.summary).toContain(named);
    expect(gh.repo(REPO).comments.at(-1)!.body).toContain(named);
    await finish(gh, expect);
  });

  it("a sibling from another branch of a fork, on the same commit, is found too", async ({
    expect,
  }) => {
    const { intoRelease, mainBase } = await attackRepo();
    const gh = await standInWith(intoRelease, "release");
    gh.addRepo("someone/widgets");
    gh.addPull(REPO, {
      number: SIBLING,
      headSha: intoRelease.head,
      baseSha: mainBase,
      headRef: "other-branch",
      headRepo: "someone/widgets",
      baseRef: "main",
    });
    const r = await runAction({
      repo: intoRelease,
      gh,
      event: "pull_request",
      payload: payload(intoRelease, "release"),
    });
    expect(r.code).toBe(1);
    expect(lastRun(gh).conclusion).toBe("failure");
    expect(lastRun(gh).output.summary).toContain("#8 (someone/widgets:other-branch into");
    await finish(gh, expect);
  });

  it("controls: a duplicate PR (same base), a sibling on another commit and a closed sibling keep the normal verdict", async ({
    expect,
  }) => {
    const { intoRelease, mainBase, weakened } = await attackRepo();
    for (const [what, sibling] of [
      ["same base", { headSha: intoRelease.head, baseSha: weakened, baseRef: "release" }],
      ["another head", { headSha: weakened, baseSha: mainBase, baseRef: "main" }],
      [
        "closed",
        { headSha: intoRelease.head, baseSha: mainBase, baseRef: "main", state: "closed" as const },
      ],
    ] as const) {
      const gh = await standInWith(intoRelease, "release");
      gh.addPull(REPO, { number: SIBLING, headRef: "feature", ...sibling });
      const r = await runAction({
        repo: intoRelease,
        gh,
        event: "pull_request",
        payload: payload(intoRelease, "release"),
      });
      expect(r.code, `${what}: ${r.stdout}`).toBe(0);
      expect(lastRun(gh).conclusion, what).toBe("neutral");
      expect(codes(r), what).toEqual([]);
      await finish(gh, expect);
    }
  });

  it("PR A (into main): an approval acknowledges its contract change, never the shared head", async ({
    expect,
  }) => {
    const { intoMain, weakened } = await attackRepo();
    const gh = await standInWith(intoMain, "main");
    gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED" });
    const gated = () => runAction({ repo: intoMain, gh, event: "pull_request" });

    // Positive control: alone, the maintainer's approval acknowledges the in-place edit.
    const alone = await gated();
    expect(alone.code, alone.stdout).toBe(0);
    expect(report(alone).integrity.approvedBy).toMatchObject({ login: "maintainer" });

    gh.addPull(REPO, {
      number: SIBLING,
      headSha: intoMain.head,
      baseSha: weakened,
      headRef: "feature",
      baseRef: "release",
    });
    const shared = await gated();
    expect(shared.code).toBe(1);
    expect(codes(shared).sort()).toEqual(["in-place-edit", "shared-head-other-base"]);
    expect(report(shared).integrity).toMatchObject({ approvedBy: null, blocking: 2 });
    expect(lastRun(gh).conclusion).toBe("failure");
    expect(lastRun(gh).output.summary).toContain(
      "No approval counts while another open pull request",
    );
    await finish(gh, expect);
  });

  it("stage 2 (workflow_run) of the fork setup: the artifact naming PR B does not turn the shared commit green", async ({
    expect,
  }) => {
    const { intoRelease, mainBase } = await attackRepo();
    const gh = await standInWith(intoRelease, "release");
    gh.addPull(REPO, {
      number: SIBLING,
      headSha: intoRelease.head,
      baseSha: mainBase,
      headRef: "feature",
      baseRef: "main",
    });
    const r = await runAction({
      repo: intoRelease,
      gh,
      event: "workflow_run",
      payload: workflowRunPayload(intoRelease),
      inputs: { "pr-number": String(PR_NUMBER) },
    });
    expect(r.code).toBe(1);
    expect(lastRun(gh)).toMatchObject({ headSha: intoRelease.head, conclusion: "failure" });
    expect(codes(r)).toEqual(["shared-head-other-base"]);
    await finish(gh, expect);
  });

  it("the open pull requests cannot be listed: the step fails closed and nothing is posted", async ({
    expect,
  }) => {
    const { intoRelease } = await attackRepo();
    const gh = await standInWith(intoRelease, "release");
    gh.failNext({ method: "GET", path: "/repos/{owner}/{repo}/pulls", status: 403 });
    const r = await runAction({
      repo: intoRelease,
      gh,
      event: "pull_request",
      payload: payload(intoRelease, "release"),
    });
    expect(r.code).toBe(1);
    const error = r.commands.find((c) => c.command === "error")!.data;
    expect(error).toContain("cannot list the open pull requests");
    expect(error).toContain("pull-requests: read");
    expect(gh.repo(REPO).checkRuns).toEqual([]);
    await finish(gh, expect);
  });

  it("push: no pull request, so no listing and the normal verdict", async ({ expect }) => {
    const { intoRelease, mainBase } = await attackRepo();
    const gh = await standInWith(intoRelease, "release");
    gh.addPull(REPO, {
      number: SIBLING,
      headSha: intoRelease.head,
      baseSha: mainBase,
      baseRef: "main",
    });
    const r = await runAction({ repo: intoRelease, gh, event: "push" });
    expect(r.code, r.stdout).toBe(0);
    expect(gh.requests.filter((q) => q.operationId === "pulls/list")).toEqual([]);
    await finish(gh, expect);
  });
});
