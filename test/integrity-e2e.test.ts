/**
 * Contract integrity end to end: the bundled action (dist/index.js) on a real
 * repository whose PR weakens a generated contract in place, against the
 * GitHub stand-in (every request validated against @octokit/openapi). An
 * approving review on the current head by a second account with write
 * permission turns it green; the author's own, a read-only account's or an
 * older head's approval does not; a push after the approval turns it red.
 * Run `npm run bundle` after changing src/.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import { ACTIONS_TOKEN } from "./github/standin.js";
import {
  finish,
  type GitRepo,
  lastCheckRun as lastRun,
  makeRepo,
  oracleContract,
  oraclePath,
  PR_NUMBER,
  payloadFor,
  READ_ONLY_TOKEN,
  REPO,
  reportOf as report,
  runAction,
  shallowClone,
  standInFor,
  WEAKENED_GUARD,
  workflowRunPayload,
} from "./helpers/action-harness.js";

const CONTRACT = ".planning/phase-1-contract.json";

/**
 * Base: the guard checks the role and the contract says so. Head: the agent
 * dropped the role check and loosened the pattern so the gate stays green.
 */
async function weakeningPr(opts: { fork?: boolean } = {}) {
  const repo = await makeRepo(WEAKENED_GUARD);
  const gh = await standInFor(repo, opts.fork ? { fork: true } : {});
  gh.addCollaborator(REPO, "octocat", "write"); // the PR's author (the stand-in's default)
  gh.addCollaborator(REPO, "maintainer", "write");
  gh.addCollaborator(REPO, "reader", "read");
  return { repo, gh };
}

/** The `pull_request_review` payload GitHub sends when `login` reviews `sha`. */
function reviewPayload(
  repo: GitRepo,
  login: string,
  sha: string,
  action: "submitted" | "dismissed" = "submitted",
) {
  return payloadFor("pull_request_review", repo, { review: { login, sha, action } });
}

describe("contract integrity through the bundled action", () => {
  it("a PR that weakens a check fails; only a write account's approval of the current head turns it green; a push turns it red again", async ({
    expect,
  }) => {
    const { repo, gh } = await weakeningPr();
    const review = (login: string, sha = repo.head) => {
      gh.addReview(REPO, PR_NUMBER, {
        user: login,
        state: "APPROVED",
        commitId: sha,
      });
      return runAction({
        repo,
        gh,
        event: "pull_request_review",
        payload: reviewPayload(repo, login, sha),
      });
    };

    const opened = await runAction({ repo, gh, event: "pull_request" });
    expect(opened.code).toBe(1);
    // Positive control: every check passes; only the contract change blocks.
    expect(report(opened).contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(report(opened).integrity).toMatchObject({
      blocking: 1,
      approvedBy: null,
      findings: [
        {
          code: "in-place-edit",
          before: "app_metadata\\.role === 'admin'",
          after: "app_metadata",
        },
      ],
    });
    let run = lastRun(gh);
    expect(run.conclusion).toBe("failure");
    expect(run.output.title).toMatch(/^1 blocking contract change \(need approval\)/);
    expect(run.output.summary!.split("\n")[2]).toBe("### Contract changes");
    expect(run.output.annotations).toContainEqual(
      expect.objectContaining({
        path: CONTRACT,
        annotation_level: "failure",
        title: "Contract change: in-place-edit",
      }),
    );
    expect(opened.summary).toContain("### Contract changes");
    expect(gh.repo(REPO).comments.at(-1)!.body).toContain("### Contract changes");

    // The author's own approval, a read-only account's, and one on an older head do not count.
    for (const [login, sha] of [
      ["octocat", repo.head],
      ["reader", repo.head],
      ["maintainer", repo.base],
    ] as const) {
      const r = await review(login, sha);
      expect(r.code, `${login} on ${sha}`).toBe(1);
      expect(lastRun(gh).conclusion).toBe("failure");
      expect(lastRun(gh).headSha).toBe(repo.head);
    }
    expect(lastRun(gh).output.summary).toContain("reader approved but has read permission");

    // A second account with write permission approves the current head: green.
    const approved = await review("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    run = lastRun(gh);
    expect(run.conclusion).toBe("success");
    expect(run.output.summary).toContain("approved by @\u2060maintainer in [review](");
    expect(run.output.annotations).toContainEqual(
      expect.objectContaining({ annotation_level: "notice", path: CONTRACT }),
    );
    expect(report(approved).integrity).toMatchObject({
      blocking: 0,
      approvedBy: { login: "maintainer" },
    });

    // The approval dismissed (pull_request_review.dismissed): red; restored for the push below.
    const approval = gh.repo(REPO).pulls.get(PR_NUMBER)!.reviews.at(-1)!;
    approval.state = "DISMISSED";
    const dismissed = await runAction({
      repo,
      gh,
      event: "pull_request_review",
      payload: reviewPayload(repo, "maintainer", repo.head, "dismissed"),
    });
    expect(dismissed.code).toBe(1);
    expect(lastRun(gh).conclusion).toBe("failure");
    approval.state = "APPROVED";

    // A push after the approval: the approval was for the old head; red again.
    await repo.git("checkout", "-q", "feature");
    await repo.git("commit", "-q", "--allow-empty", "-m", "one more push");
    const pushed: GitRepo = { ...repo, head: await repo.git("rev-parse", "HEAD") };
    const pull = gh.repo(REPO).pulls.get(PR_NUMBER)!;
    pull.head.sha = pushed.head;
    gh.repo(REPO).commits.add(pushed.head);
    const again = await runAction({ repo: pushed, gh, event: "pull_request" });
    expect(again.code).toBe(1);
    expect(lastRun(gh)).toMatchObject({ headSha: pushed.head, conclusion: "failure" });
    expect(lastRun(gh).output.summary).toContain("not the current head");
    await finish(gh, expect);
  });

  it("fork PRs: the review event's read-only token still gates the job; the second stage (workflow_run) carries the approval to the check run", async ({
    expect,
  }) => {
    const { repo, gh } = await weakeningPr({ fork: true });
    gh.addToken(ACTIONS_TOKEN, READ_ONLY_TOKEN);
    const stage2 = (token = "ghs_stage2WriteToken000000000000000000") => {
      gh.addToken(token, { kind: "installation", login: "github-actions[bot]" });
      return runAction({
        repo,
        gh,
        event: "workflow_run",
        token,
        payload: workflowRunPayload(repo, { fork: true }),
        inputs: { "pr-number": String(PR_NUMBER) },
      });
    };

    const before = await stage2();
    expect(before.code).toBe(1);
    expect(lastRun(gh).conclusion).toBe("failure");

    gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED" });
    const stage1 = await runAction({
      repo,
      gh,
      event: "pull_request_review",
      fork: true,
      payload: reviewPayload(repo, "maintainer", repo.head),
    });
    // Read-only: no check run written by stage 1, but its own status reflects the approval.
    expect(stage1.code, stage1.stdout).toBe(0);
    expect(gh.repo(REPO).checkRuns).toHaveLength(1);

    const after = await stage2();
    expect(after.code, after.stdout).toBe(0);
    expect(gh.repo(REPO).checkRuns).toHaveLength(2);
    expect(lastRun(gh)).toMatchObject({ headSha: repo.head, conclusion: "success" });
    await finish(gh, expect);
  });

  it("a depth-1 checkout is deepened to the merge base; without a remote the step fails closed with the fix", async ({
    expect,
  }) => {
    const { repo, gh } = await weakeningPr();
    const shallow = await shallowClone(repo, "head");
    const deepened = await runAction({ repo: shallow, gh, event: "pull_request" });
    expect(deepened.code).toBe(1);
    expect(report(deepened).integrity.findings.map((f: { code: string }) => f.code)).toEqual([
      "in-place-edit",
    ]);

    // Control: the same clone without `origin` cannot reach the base, and nothing passes.
    const orphan = await shallowClone(repo, "head");
    await orphan.git("remote", "remove", "origin");
    const before = gh.repo(REPO).checkRuns.length;
    const failed = await runAction({ repo: orphan, gh, event: "pull_request" });
    expect(failed.code).toBe(1);
    const error = failed.commands.find((c) => c.command === "error")!.data;
    expect(error).toContain("No merge base between");
    expect(error).toContain("fetch-depth: 0");
    expect(gh.repo(REPO).checkRuns.length).toBe(before);
    await finish(gh, expect);
  });

  it("push: no PR base, so the comparison does not apply and the report says so", async ({
    expect,
  }) => {
    const { repo, gh } = await weakeningPr();
    const pushed = await runAction({ repo, gh, event: "push" });
    expect(pushed.code, pushed.stdout).toBe(0);
    expect(report(pushed).integrity).toMatchObject({ applies: false, findings: [] });
    expect(pushed.summary).toContain(
      "### Contract changes\n\nNot compared: push has no pull request base",
    );
    await finish(gh, expect);
  });

  it("a checkout of GitHub's merge commit compares only what the PR changed, not the base branch's later edits", async ({
    expect,
  }) => {
    const path = oraclePath("merge");
    const criteria = (expect3: string, title3: string) =>
      oracleContract("merge", [
        { title: "prints OK", check: "echo OK", expect: "OK" },
        { title: "prints YES", check: "echo YES", expect: "YES" },
        { title: title3, check: "echo DONE", expect: expect3 },
      ]);
    // The PR changes criterion 1's EXPECT; later, main rewords criterion 3.
    const repo = await makeRepo({
      base: { [path]: criteria("DONE", "prints DONE") },
      head: { [path]: criteria("DONE", "prints DONE").replace("EXPECT: OK", "EXPECT: /O/") },
    });
    await repo.git("checkout", "-q", "main");
    await writeFile(join(repo.dir, path), criteria("DONE", "prints DONE, as the team asked"));
    await repo.git("commit", "-q", "-am", "main moves on");
    const baseTip = await repo.git("rev-parse", "HEAD");
    await repo.git("merge", "-q", "--no-ff", "-m", "Merge feature", "feature");
    const merge = await repo.git("rev-parse", "HEAD");
    await repo.checkout(merge);
    // Control: the merged file on disk does carry main's rewording.
    expect(await readFile(join(repo.dir, path), "utf8")).toContain("as the team asked");

    const moved: GitRepo = { ...repo, base: baseTip, merge };
    const gh = await standInFor(moved);
    const r = await runAction({ repo: moved, gh, event: "pull_request", sha: merge });
    expect(report(r).integrity.findings.map((f: { code: string }) => f.code)).toEqual([
      "oracle-changed",
    ]);
    expect(r.code).toBe(1);
    await finish(gh, expect);
  });
});
