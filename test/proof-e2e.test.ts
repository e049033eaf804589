/**
 * The requirement proof's diff readings end to end: the bundled action
 * (dist/index.js) on a real repository with a requirement spec, against the
 * GitHub stand-in. A new `.only` in a test file blocks like a contract
 * change until a second account with write permission approves the head;
 * the honest twin (the same PR without the marker) has no proof finding;
 * `requirement-proof: off` is said on every surface. Run `npm run bundle`
 * after changing src/.
 */
import { describe, it } from "vitest";
import {
  finish,
  lastCheckRun as lastRun,
  makeRepo,
  PR_NUMBER,
  payloadFor,
  REPO,
  reportOf as report,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { BASE_FILES, linkNodeModules, SPEC_PATH, TEST } from "./helpers/proof-repo.js";

// The build PR adds FR-001 to a spec that has FR-002 (an invariant now) and builds it, so the
// spec is in scope, FR-001's test must fail on the code before the change and FR-002's must pass.
const { [SPEC_PATH]: spec, ...rest } = BASE_FILES;
const BEFORE = {
  ...rest,
  [SPEC_PATH]: spec!
    .split("\n")
    .filter((l) => !l.includes("FR-001"))
    .join("\n"),
};
const FIXED = {
  [SPEC_PATH]: spec!,
  "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
};
const ONLY = { ...FIXED, "tests/trim.test.ts": TEST.replace('it("keeps', 'it.only("keeps') };

async function pr(head: Record<string, string>) {
  const repo = await makeRepo({ base: BEFORE, head });
  linkNodeModules(repo.dir);
  const gh = await standInFor(repo);
  gh.addCollaborator(REPO, "octocat", "write");
  gh.addCollaborator(REPO, "maintainer", "write");
  return { repo, gh };
}

describe("the requirement proof through the bundled action", () => {
  it("a new .only blocks with its file and line on every surface; a write account's approval of the head acknowledges it", async ({
    expect,
  }) => {
    const { repo, gh } = await pr(ONLY);
    // The subject is the tamper finding and its approval; the proof's test runs are the honest twin's.
    const inputs = { "requirement-proof": "off" };
    const opened = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(opened.code, opened.stdout).toBe(1);
    expect(report(opened).integrity).toMatchObject({
      blocking: 1,
      findings: [{ code: "test-marker-added", path: "tests/trim.test.ts", line: 4 }],
    });
    const spec = report(opened).contracts.find((c: { path: string }) => c.path === SPEC_PATH);
    expect(spec.proof).toMatchObject({
      enabled: false,
      tamper: [{ code: "test-marker-added", line: 4 }],
    });
    let run = lastRun(gh);
    expect(run.conclusion).toBe("failure");
    expect(run.output.summary).toContain("### Requirement proof");
    expect(run.output.summary).toContain("`tests/trim.test.ts:4` `test-marker-added`");
    expect(run.output.annotations).toContainEqual(
      expect.objectContaining({
        path: "tests/trim.test.ts",
        start_line: 4,
        annotation_level: "failure",
      }),
    );
    expect(opened.summary).toContain("### Requirement proof");
    expect(gh.repo(REPO).comments.at(-1)!.body).toContain("`test-marker-added`");
    // The manual guardrail is a criterion showing its text.
    expect(spec.criteria.map((c: { id: string; title: string }) => `${c.id} ${c.title}`)).toContain(
      "G1 guardrail: Keep the public names stable.",
    );

    gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED", commitId: repo.head });
    const approved = await runAction({
      repo,
      gh,
      event: "pull_request_review",
      inputs,
      payload: payloadFor("pull_request_review", repo, {
        review: { login: "maintainer", sha: repo.head, action: "submitted" },
      }),
    });
    expect(approved.code, approved.stdout).toBe(0);
    expect(report(approved).integrity).toMatchObject({
      blocking: 0,
      approvedBy: { login: "maintainer" },
    });
    run = lastRun(gh);
    expect(run.conclusion).not.toBe("failure");
    await finish(gh, expect);
  });

  it("without a spec in the PR, test-tamper: on is what reads its test diff", async ({
    expect,
  }) => {
    const repo = await makeRepo({ base: BASE_FILES, head: { "tests/trim.test.ts": null } });
    const gh = await standInFor(repo);
    const plain = await runAction({ repo, gh, event: "pull_request" });
    expect(report(plain).integrity.findings).toEqual([]);
    const on = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { "test-tamper": "on" },
    });
    expect(on.code, on.stdout).toBe(1);
    expect(report(on).integrity.findings).toMatchObject([
      { code: "test-file-deleted", path: "tests/trim.test.ts", blocking: true },
    ]);
    await finish(gh, expect);
  });

  it("the honest twin has no proof finding; requirement-proof: off is said on every surface", async ({
    expect,
  }) => {
    const { repo, gh } = await pr(FIXED);
    // Sandboxed: vitest comes from this repository's node_modules, inside the action's own folder
    // (protected, read-only), which the proof's runs are granted to read as the checkout's link.
    const honest = await runAction({ repo, gh, event: "pull_request" });
    expect(honest.code, honest.stdout).toBe(0);
    expect(report(honest).sandbox).toMatchObject({
      mechanism: "namespaces (root)",
      executor: "lane executor",
    });
    expect(report(honest).integrity.findings).toEqual([]);
    // The proof ran vitest twice: FR-001's test fails on the code before the change, passes after.
    const proved = report(honest).contracts.find((c: { path: string }) => c.path === SPEC_PATH);
    expect(proved.proof.tests).toContainEqual(
      expect.objectContaining({
        requirement: "FR-001",
        base: "failed",
        head: "passed",
        verdict: "proven",
      }),
    );
    expect(proved.proof.tests).toContainEqual(
      expect.objectContaining({
        requirement: "FR-002",
        head: "passed",
        verdict: "invariant-holds",
      }),
    );
    const off = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { "requirement-proof": "off" },
    });
    expect(off.code, off.stdout).toBe(0);
    const spec = report(off).contracts.find((c: { path: string }) => c.path === SPEC_PATH);
    expect(spec.proof.enabled).toBe(false);
    expect(lastRun(gh).output.summary).toContain("The requirement proof is off");
    expect(off.summary).toContain("The requirement proof is off");
    expect(gh.repo(REPO).comments.at(-1)!.body).toContain("The requirement proof is off");
    await finish(gh, expect);
  });
});
