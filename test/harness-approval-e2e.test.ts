/**
 * What a check runs is part of its contract (issue 33), through the bundled
 * action (run `npm run bundle`): a PR that rewrites the script an unchanged
 * contract's check runs turns the check green, and the gate fails on
 * `check-harness-changed` until an approving review on the head — like every
 * other integrity finding. The honest twin (the PR fixes what the script
 * checks) passes with no finding.
 */
import { describe, expect, it } from "vitest";
import {
  finish,
  lastCheckRun,
  makeRepo,
  oracleContract,
  oraclePath,
  PR_NUMBER,
  payloadFor,
  REPO,
  reportOf,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";

const GLOB = ".claude/tasks/contracts/**/*.md";
const CONTRACT_PATH = oraclePath("verify");
const CONTRACT = oracleContract("verify", [
  { title: "the state is ok", check: "sh scripts/verify.sh && echo VERIFIED", expect: "VERIFIED" },
]);
// The base fails its check: the state is broken.
const BASE = {
  [CONTRACT_PATH]: CONTRACT,
  "scripts/verify.sh": "grep -qx ok src/state.txt\n",
  "src/state.txt": "broken\n",
};
// `scope: all`: the unchanged contract runs, so its check's verdict is what the PR changes.
const INPUTS = { contracts: GLOB, sandbox: "off", scope: "all" };

const codesOf = (r: Awaited<ReturnType<typeof runAction>>) =>
  reportOf(r).integrity.findings.map(
    (f: { code: string; blocking: boolean }) => `${f.blocking ? "B" : "W"} ${f.code}`,
  );

describe("check-harness-changed through the action, with its approval twin", () => {
  it("the attack: the script rewritten to pass fails the gate; a maintainer's approval on the head clears it", async () => {
    const repo = await makeRepo({ base: BASE, head: { "scripts/verify.sh": "exit 0\n" } });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const r = await runAction({ repo, gh, event: "pull_request", inputs: INPUTS });
    expect(codesOf(r)).toEqual(["B check-harness-changed"]);
    const f = reportOf(r).integrity.findings[0];
    expect(f).toMatchObject({ path: "scripts/verify.sh", after: "exit 0\n" });
    // The check itself went green: the finding alone is what fails the gate.
    expect(reportOf(r).contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(r.code, r.stdout).toBe(1);
    expect(lastCheckRun(gh).conclusion).toBe("failure");

    gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED", commitId: repo.head });
    const approved = await runAction({
      repo,
      gh,
      event: "pull_request_review",
      inputs: INPUTS,
      payload: payloadFor("pull_request_review", repo, {
        review: { login: "maintainer", sha: repo.head, action: "submitted" },
      }),
    });
    expect(codesOf(approved)).toEqual(["B check-harness-changed"]);
    expect(reportOf(approved).integrity.approvedBy?.login).toBe("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    expect(lastCheckRun(gh).conclusion).toBe("success");
    await finish(gh, expect);
  });

  it("the honest twin: the PR fixes what the script checks, the script unchanged: no finding, green", async () => {
    const repo = await makeRepo({ base: BASE, head: { "src/state.txt": "ok\n" } });
    const gh = await standInFor(repo);
    const r = await runAction({ repo, gh, event: "pull_request", inputs: INPUTS });
    expect(codesOf(r)).toEqual([]);
    expect(reportOf(r).contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(r.code, r.stdout).toBe(0);
    expect(lastCheckRun(gh).conclusion).toBe("success");
    await finish(gh, expect);
  });
});
