/**
 * Acknowledging blocking contract changes: the real adapter's reviews and
 * collaborator-permission calls against the stand-in (validated against
 * @octokit/openapi), and the rule — an approving review on the current head
 * by a non-author with write permission.
 */
import { describe, expect, it } from "vitest";
import { candidateApprovals, findApproval } from "../src/action/approval.js";
import { createGitHubApi } from "../src/github/adapter.js";
import { createOctokit } from "../src/github/client.js";
import type { PullReview } from "../src/github/types.js";
import { standInsCheckedAfterEach } from "./github/checked.js";
import {
  ACTIONS_LOGIN,
  ACTIONS_TOKEN,
  fakeSha,
  startStandIn,
  type TokenIdentity,
} from "./github/standin.js";

const REPO = "acme/widgets";
const HEAD = fakeSha("head");
const OLD = fakeSha("old-head");
const open = standInsCheckedAfterEach();

async function setup(token?: TokenIdentity) {
  const gh = await startStandIn(token ? { tokens: { [ACTIONS_TOKEN]: token } } : undefined);
  open.push(gh);
  gh.addRepo(REPO);
  gh.addPull(REPO, { number: 7, headSha: HEAD, baseSha: fakeSha("base"), user: "agent-bot" });
  gh.addCollaborator(REPO, "maintainer", "write");
  gh.addCollaborator(REPO, "lead", "maintain");
  gh.addCollaborator(REPO, "reader", "read");
  gh.addCollaborator(REPO, "agent-bot", "write");
  const octokit = createOctokit({
    token: ACTIONS_TOKEN,
    baseUrl: gh.url,
    userAgent: "contract-gate-tests",
    retryDelayMs: 1,
    rateLimitTimeUnitMs: 1,
    writeSpacingMs: 0,
  });
  return {
    gh,
    api: createGitHubApi(octokit, { owner: "acme", repo: "widgets" }, { retryDelayMs: 1 }),
  };
}

describe("the adapter's review and permission calls", () => {
  it("lists reviews (every page) and reads permissions; a non-collaborator has none", async () => {
    const { gh, api } = await setup();
    for (let i = 0; i < 120; i++) gh.addReview(REPO, 7, { user: `r${i}`, state: "COMMENTED" });
    gh.addReview(REPO, 7, { user: "maintainer", state: "APPROVED" });
    const reviews = await api.listReviews(7);
    expect(reviews).toHaveLength(121);
    expect(reviews.at(-1)).toMatchObject({
      login: "maintainer",
      state: "APPROVED",
      commitId: HEAD,
      htmlUrl: expect.stringContaining("/acme/widgets/pull/7#pullrequestreview-"),
    });
    expect(await api.getPermission("maintainer")).toBe("write");
    expect(await api.getPermission("lead")).toBe("write"); // maintain folds into write
    expect(await api.getPermission("reader")).toBe("read");
    expect(await api.getPermission("stranger")).toBe("none");
    expect((await api.getPull(7)).author).toBe("agent-bot");
  });
});

describe("an approval acknowledges blocking contract changes", () => {
  const pr = { number: 7 };

  it("counts an approval on the current head by a non-author with write permission", async () => {
    const { gh, api } = await setup();
    const r = gh.addReview(REPO, 7, { user: "maintainer", state: "APPROVED" });
    expect(await findApproval(api, pr, HEAD)).toEqual({
      approval: {
        login: "maintainer",
        reviewUrl: `https://github.com/${REPO}/pull/7#pullrequestreview-${r.id}`,
      },
      note: "",
    });
  });

  it("never counts the author's, a read-only account's, or an older head's approval (each with its control)", async () => {
    const own = await setup();
    own.gh.addReview(REPO, 7, { user: "agent-bot", state: "APPROVED" });
    expect((await findApproval(own.api, pr, HEAD)).approval).toBeUndefined();
    expect((await findApproval(own.api, pr, HEAD)).note).toContain("the PR author's own");

    const read = await setup();
    read.gh.addReview(REPO, 7, { user: "reader", state: "APPROVED" });
    const readResult = await findApproval(read.api, pr, HEAD);
    expect(readResult.approval).toBeUndefined();
    expect(readResult.note).toContain("reader approved but has read permission");

    const stale = await setup();
    stale.gh.addReview(REPO, 7, { user: "maintainer", state: "APPROVED", commitId: OLD });
    const staleResult = await findApproval(stale.api, pr, HEAD);
    expect(staleResult.approval).toBeUndefined();
    expect(staleResult.note).toContain("not the current head");

    // Control: the same stand-in, a write account approving the current head, counts.
    stale.gh.addReview(REPO, 7, { user: "lead", state: "APPROVED" });
    expect((await findApproval(stale.api, pr, HEAD)).approval?.login).toBe("lead");
  });

  it("a later dismissal or request for changes by the same reviewer withdraws the approval", async () => {
    const dismissed = await setup();
    dismissed.gh.addReview(REPO, 7, { user: "maintainer", state: "APPROVED" });
    dismissed.gh.addReview(REPO, 7, { user: "maintainer", state: "COMMENTED" });
    expect((await findApproval(dismissed.api, pr, HEAD)).approval?.login).toBe("maintainer");
    dismissed.gh.state.repos.get(REPO)!.pulls.get(7)!.reviews[0]!.state = "DISMISSED";
    expect((await findApproval(dismissed.api, pr, HEAD)).approval).toBeUndefined();

    const changes = await setup();
    changes.gh.addReview(REPO, 7, { user: "maintainer", state: "APPROVED" });
    changes.gh.addReview(REPO, 7, { user: "maintainer", state: "CHANGES_REQUESTED" });
    expect((await findApproval(changes.api, pr, HEAD)).approval).toBeUndefined();
  });

  it("a token that may not read reviews blocks, naming `pull-requests: read`", async () => {
    const { gh, api } = await setup({
      kind: "installation",
      login: ACTIONS_LOGIN,
      permissions: { pull_requests: "none" },
    });
    gh.addReview(REPO, 7, { user: "maintainer", state: "APPROVED" });
    const result = await findApproval(api, { number: 7, author: "agent-bot" }, HEAD);
    expect(result.approval).toBeUndefined();
    expect(result.note).toContain("403");
    expect(result.note).toContain("`pull-requests: read`");
  });
});

describe("candidateApprovals (pure)", () => {
  const review = (login: string | null, state: string, commitId = HEAD): PullReview => ({
    id: 1,
    login,
    state,
    commitId,
    submittedAt: null,
    htmlUrl: "u",
  });

  it("keeps each reviewer's latest verdict, matching logins case-insensitively", () => {
    const { candidates, notes } = candidateApprovals(
      [review("Maint", "APPROVED"), review("ghost-deleted", "APPROVED"), review(null, "APPROVED")],
      "AGENT",
      HEAD,
    );
    expect(candidates.map((c) => c.login)).toEqual(["Maint", "ghost-deleted"]);
    expect(notes).toEqual([]);
    expect(candidateApprovals([review("agent", "APPROVED")], "AGENT", HEAD).candidates).toEqual([]);
  });

  it("an unknown author counts no approval (fail closed)", () => {
    expect(candidateApprovals([review("maint", "APPROVED")], undefined, HEAD).candidates).toEqual(
      [],
    );
  });
});
