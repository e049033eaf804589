/**
 * The workflow that runs the gate is part of the PR: on `pull_request` GitHub
 * runs the head's workflow file. A PR that deletes its failing contract and
 * points `contracts:` at nothing (or turns `sandbox` off, or narrows `scope`)
 * must not end neutral: the gate reads the invoking workflow
 * (GITHUB_WORKFLOW_REF) at the merge base and at the head, and a change is
 * the blocking `gate-config-changed`, naming each weakening input; an
 * approval clears it. Through the bundled action (run `npm run bundle`).
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

const WORKFLOW = ".github/workflows/gate.yml";
const GLOB = ".claude/tasks/contracts/**/*.md";
const workflow = (inputs: Record<string, string>) =>
  [
    "name: gate",
    "on: pull_request",
    "jobs:",
    "  gate:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: contract-gate/contract-gate@v1",
    "        with:",
    ...Object.entries(inputs).map(([k, v]) => `          ${k}: ${v}`),
    "",
  ].join("\n");
const BASE_INPUTS = { contracts: GLOB, sandbox: "off", scope: "changed" };
const FAILING = oraclePath("login");
const CONTRACT = oracleContract("login", [
  { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
]);
const ENV = { GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/pull/${PR_NUMBER}/merge` };

const codesOf = (r: Awaited<ReturnType<typeof runAction>>) =>
  reportOf(r).integrity.findings.map(
    (f: { code: string; blocking: boolean }) => `${f.blocking ? "B" : "W"} ${f.code}`,
  );

describe("the invoking workflow compared with the base", () => {
  for (const [input, value] of [
    ["contracts", "nothing/**/*.md"],
    ["sandbox", "off-for-now"],
    ["scope", "all"],
  ] as const) {
    it(`the PR changes \`${input}:\`: blocking gate-config-changed naming it`, async () => {
      const headInputs = { ...BASE_INPUTS, [input]: value };
      const repo = await makeRepo({
        base: { [WORKFLOW]: workflow(BASE_INPUTS), "README.md": "app\n" },
        head: { [WORKFLOW]: workflow(headInputs), "README.md": "app, changed\n" },
      });
      const gh = await standInFor(repo);
      const r = await runAction({
        repo,
        gh,
        event: "pull_request",
        env: ENV,
        inputs: { contracts: GLOB, sandbox: "off" },
      });
      expect(codesOf(r)).toEqual(["B gate-config-changed"]);
      const f = reportOf(r).integrity.findings[0];
      expect(f.path).toBe(WORKFLOW);
      expect(f.message).toContain(`\`${input}\`: \`${BASE_INPUTS[input]}\` → \`${value}\``);
      expect(r.code, r.stdout).toBe(1);
      await finish(gh, expect);
    });
  }

  it("the attack: the failing contract deleted and `contracts:` pointed at nothing fails; an approval clears it; an unchanged workflow is no finding (twin)", async () => {
    const repo = await makeRepo({
      base: { [WORKFLOW]: workflow(BASE_INPUTS), [FAILING]: CONTRACT },
      head: { [WORKFLOW]: workflow({ ...BASE_INPUTS, contracts: "nothing/**" }), [FAILING]: null },
    });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    // The head's workflow is what runs: its inputs.
    const inputs = { contracts: "nothing/**", sandbox: "off" };
    const r = await runAction({ repo, gh, event: "pull_request", env: ENV, inputs });
    expect(codesOf(r)).toEqual(["B gate-config-changed"]);
    expect(r.code, r.stdout).toBe(1);
    expect(lastCheckRun(gh).conclusion).toBe("failure");

    gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED", commitId: repo.head });
    const approved = await runAction({
      repo,
      gh,
      event: "pull_request_review",
      env: ENV,
      inputs,
      payload: payloadFor("pull_request_review", repo, {
        review: { login: "maintainer", sha: repo.head, action: "submitted" },
      }),
    });
    expect(approved.code, approved.stdout).toBe(0);
    await finish(gh, expect);

    const twin = await makeRepo({
      base: { [WORKFLOW]: workflow(BASE_INPUTS), [FAILING]: CONTRACT, "src/fixed": "" },
      head: { "README.md": "docs\n" },
    });
    const gh2 = await standInFor(twin);
    const ok = await runAction({
      repo: twin,
      gh: gh2,
      event: "pull_request",
      env: ENV,
      inputs: { contracts: GLOB, sandbox: "off" },
    });
    expect(codesOf(ok)).toEqual([]);
    expect(ok.code, ok.stdout).toBe(0);
    await finish(gh2, expect);
  });
});

describe("workflowPathOf / workflowFindings (pure)", () => {
  it("reads the workflow's path from GITHUB_WORKFLOW_REF, only under .github/workflows of this repository", async () => {
    const { workflowPathOf } = await import("../src/integrity/workflow-diff.js");
    expect(workflowPathOf(`${REPO}/.github/workflows/gate.yml@refs/pull/7/merge`, REPO)).toBe(
      ".github/workflows/gate.yml",
    );
    expect(workflowPathOf("other/repo/.github/workflows/gate.yml@refs/heads/main", REPO)).toBe(
      undefined,
    );
    expect(workflowPathOf(`${REPO}/src/x.yml@refs/heads/main`, REPO)).toBe(undefined);
    expect(workflowPathOf(undefined, REPO)).toBe(undefined);
  });

  it("names a changed gate version; an unchanged file is no finding", async () => {
    const { workflowFindings } = await import("../src/integrity/workflow-diff.js");
    const base = workflow(BASE_INPUTS);
    expect(workflowFindings(WORKFLOW, base, base)).toEqual([]);
    const pinned = base.replace(
      "contract-gate/contract-gate@v1",
      "contract-gate/contract-gate@v0.9",
    );
    const [f] = workflowFindings(WORKFLOW, base, pinned);
    expect(f?.message).toContain(
      "the gate version: `contract-gate/contract-gate@v1` → `contract-gate/contract-gate@v0.9`",
    );
    const trigger = base.replace("on: pull_request", "on: push");
    expect(workflowFindings(WORKFLOW, base, trigger)[0]).toMatchObject({
      blocking: true,
      line: 2,
      before: "on: pull_request",
      after: "on: push",
    });
  });
});
