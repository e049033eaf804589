/**
 * Changes judged by their effect, through the bundled action against the
 * GitHub stand-in: a weakening that used to pass with a warning (a
 * regeneration that drops a check, a `manual` contract's check loosened)
 * fails until a second account with write permission approves the current
 * head; the honest twin (a regeneration that only adds) passes without one.
 * Run `npm run bundle` after changing src/.
 */
import { describe, expect, it } from "vitest";
import {
  finish,
  type GitRepo,
  lastCheckRun,
  makeRepo,
  PR_NUMBER,
  payloadFor,
  planContract,
  REPO,
  reportOf,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";

const GUARD = {
  type: "grep-match",
  path: "src/admin.js",
  pattern: "role === 'admin'",
  expect: "present",
};
const LINT = { type: "file-exists", path: "src/admin.js", must_contain: "allow" };
const SOURCE = { "src/admin.js": "if (user.role === 'admin') allow();\n" };
const PLAN = "---\nphase: 1\n---\n\n# Phase 1\n";

function contract(verification: unknown[], opts: { plan?: string; manual?: boolean } = {}) {
  const files = planContract(1, [{ id: "T1", title: "Admin guard", verification }], {
    plan: opts.plan ?? PLAN,
  });
  if (opts.manual) {
    const path = ".planning/phase-1-contract.json";
    files[path] = files[path]!.replace('"generated_by": "planner"', '"generated_by": "manual"');
  }
  return files;
}

async function approveAndRerun(repo: GitRepo, gh: Awaited<ReturnType<typeof standInFor>>) {
  gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED", commitId: repo.head });
  return runAction({
    repo,
    gh,
    event: "pull_request_review",
    payload: payloadFor("pull_request_review", repo, {
      review: { login: "maintainer", sha: repo.head, action: "submitted" },
    }),
    inputs: { sandbox: "off" },
  });
}

const codesOf = (r: Awaited<ReturnType<typeof runAction>>) =>
  reportOf(r).integrity.findings.map(
    (f: { code: string; blocking: boolean }) => `${f.blocking ? "B" : "W"} ${f.code}`,
  );

describe("weakenings by a permitted form need approval (bundled action)", () => {
  it("a regeneration that drops a check fails; an approval on the head clears it", async () => {
    const plan = `${PLAN}\nThe lint moved to CI.\n`;
    const repo = await makeRepo({
      base: { ...SOURCE, ...contract([GUARD, LINT]) },
      head: contract([LINT], { plan }),
    });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const opened = await runAction({ repo, gh, event: "pull_request", inputs: { sandbox: "off" } });
    expect(opened.code, opened.stdout).toBe(1);
    expect(codesOf(opened)).toEqual(["B regeneration-dropped"]);
    expect(lastCheckRun(gh).conclusion).toBe("failure");

    const approved = await approveAndRerun(repo, gh);
    expect(approved.code, approved.stdout).toBe(0);
    expect(lastCheckRun(gh).conclusion).toBe("success");
    await finish(gh, expect);
  });

  it("honest twin: a regeneration that only adds a check passes without approval", async () => {
    const plan = `${PLAN}\nAlso check the audit log.\n`;
    const audit = { type: "file-exists", path: "src/admin.js", must_contain: "role" };
    const repo = await makeRepo({
      base: { ...SOURCE, ...contract([GUARD, LINT]) },
      head: contract([GUARD, LINT, audit], { plan }),
    });
    const gh = await standInFor(repo);
    const r = await runAction({ repo, gh, event: "pull_request", inputs: { sandbox: "off" } });
    expect(codesOf(r)).toEqual([]);
    expect(r.code, r.stdout).toBe(0);
    await finish(gh, expect);
  });

  it("a manual contract whose check is loosened fails as criterion-weakened; an approval clears it", async () => {
    const repo = await makeRepo({
      base: { ...SOURCE, ...contract([GUARD, LINT], { manual: true }) },
      head: contract([{ ...GUARD, pattern: "role" }, LINT], { manual: true }),
    });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const opened = await runAction({ repo, gh, event: "pull_request", inputs: { sandbox: "off" } });
    expect(opened.code, opened.stdout).toBe(1);
    expect(codesOf(opened)).toEqual(["B criterion-weakened", "W manual-edit"]);
    const approved = await approveAndRerun(repo, gh);
    expect(approved.code, approved.stdout).toBe(0);
    expect(reportOf(approved).integrity.approvedBy).toMatchObject({ login: "maintainer" });
    await finish(gh, expect);
  });
});
