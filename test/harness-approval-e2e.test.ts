/**
 * What a check runs is part of its contract (issue 33), through the bundled
 * action (run `npm run bundle`): a PR that rewrites the script an unchanged
 * contract's check runs turns the check green, and the gate fails on
 * `check-harness-changed` until an approving review on the head — like every
 * other integrity finding. The honest twin (the PR fixes what the script
 * checks) passes with no finding. The requirement proof's test command is such
 * a check too: the package.json script it runs, rewritten, is the same finding;
 * and a runner configuration that weakens the run adds `test-config-changed`,
 * cleared by the same approval. The workflows the gate's run reaches are its
 * harness as well: a called reusable workflow narrowing `contracts:` is
 * `gate-config-changed`, approvable the same way; and a failing contract
 * replaced by an aborted successor is `criterion-removed`, and an override
 * re-pointed at an alias `guardrail-new-dependency`, likewise.
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
import { BASE_FILES, linkNodeModules } from "./helpers/proof-repo.js";

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

/** A maintainer's approving review on the PR's head, then the run that review starts. */
async function approvedOnHead(
  repo: Awaited<ReturnType<typeof makeRepo>>,
  gh: Awaited<ReturnType<typeof standInFor>>,
  inputs: Record<string, string>,
  env?: Record<string, string>,
) {
  gh.addReview(REPO, PR_NUMBER, { user: "maintainer", state: "APPROVED", commitId: repo.head });
  return runAction({
    repo,
    gh,
    event: "pull_request_review",
    ...(env && { env }),
    inputs,
    payload: payloadFor("pull_request_review", repo, {
      review: { login: "maintainer", sha: repo.head, action: "submitted" },
    }),
  });
}

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

    const approved = await approvedOnHead(repo, gh, INPUTS);
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

describe("the proof's test command's harness through the action, with its approval twin", () => {
  const pkg = (test: string, lint: string) =>
    `${JSON.stringify({ name: "x", devDependencies: { vitest: "^4.0.0" }, scripts: { test, lint } }, null, 2)}\n`;
  const base = { ...BASE_FILES, "package.json": pkg("vitest run", "biome check .") };
  const fix = { "src/trim.ts": "export const trim = (s: string) => s.trim();\n" };
  // The proof runs the package.json script; vitest comes from this repository's node_modules.
  const inputs = {
    sandbox: "off",
    scope: "all",
    "requirement-proof": "fail-to-pass",
    "test-command":
      "npm test -- --reporter=default --reporter=junit --outputFile.junit={junit} {files}",
  };
  async function pr(head: Record<string, string>) {
    const repo = await makeRepo({ base, head });
    linkNodeModules(repo.dir);
    return repo;
  }

  it("scripts.test rewritten: blocking check-harness-changed on the proof's command; approved on the head, green", async () => {
    const repo = await pr({ ...fix, "package.json": pkg("vitest run --silent", "biome check .") });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r)).toEqual(["B check-harness-changed"]);
    expect(reportOf(r).integrity.findings[0]).toMatchObject({
      path: "package.json",
      before: "vitest run",
      after: "vitest run --silent",
    });
    expect(reportOf(r).integrity.findings[0].message).toContain("the proof's test command");
    expect(r.code, r.stdout).toBe(1);

    const approved = await approvedOnHead(repo, gh, inputs);
    expect(reportOf(approved).integrity.approvedBy?.login).toBe("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    await finish(gh, expect);
  });

  it("another script entry changed: no finding, green (the twin)", async () => {
    const repo = await pr({ ...fix, "package.json": pkg("vitest run", "eslint .") });
    const gh = await standInFor(repo);
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r)).toEqual([]);
    // The spec ran, its requirements proven: the proof is on in this run, not skipped.
    expect(reportOf(r).contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(r.code, r.stdout).toBe(0);
    await finish(gh, expect);
  });
});

describe("test-config-changed through the action, with its approval twin", () => {
  const config = (test: string) => `export default { test: {${test}} };\n`;
  const base = { ...BASE_FILES, "vitest.config.ts": config("") };
  const fix = { "src/trim.ts": "export const trim = (s: string) => s.trim();\n" };
  // The runner detected at base (vitest), so its configuration is the proof's harness too.
  // `scope: all`: the unchanged spec is in scope, so the proof (and its tamper reading) runs.
  const inputs = { sandbox: "off", scope: "all", "requirement-proof": "fail-to-pass" };
  async function pr(head: Record<string, string>) {
    const repo = await makeRepo({ base, head });
    linkNodeModules(repo.dir);
    return repo;
  }

  it("passWithNoTests added: blocking test-config-changed (and the proof's harness changed); approved on the head, green", async () => {
    const repo = await pr({ ...fix, "vitest.config.ts": config("\n  passWithNoTests: true,\n") });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect([...codesOf(r)].sort()).toEqual(["B check-harness-changed", "B test-config-changed"]);
    expect(r.code, r.stdout).toBe(1);

    const approved = await approvedOnHead(repo, gh, inputs);
    expect(reportOf(approved).integrity.approvedBy?.login).toBe("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    await finish(gh, expect);
  });

  it("the same fix with the configuration unchanged: no finding, green (the twin)", async () => {
    const repo = await pr(fix);
    const gh = await standInFor(repo);
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r)).toEqual([]);
    // The spec ran, its requirements proven: the proof is on in this run, not skipped.
    expect(reportOf(r).contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(r.code, r.stdout).toBe(0);
    await finish(gh, expect);
  });
});

describe("gate-config-changed in a local reusable workflow the invoking one calls, with its approval twin", () => {
  const CALLER = ".github/workflows/ci.yml";
  const GATE = ".github/workflows/gate.yml";
  const caller = ["on: pull_request", "jobs:", "  gate:", `    uses: ./${GATE}`, ""].join("\n");
  const reusable = (contracts: string) =>
    [
      "on:",
      "  workflow_call: {}",
      "jobs:",
      "  gate:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - uses: contract-gate/contract-gate@v1",
      "        with:",
      `          contracts: ${contracts}`,
      "          sandbox: off",
      "",
    ].join("\n");
  const FAILING = oraclePath("login");
  const failing = oracleContract("login", [
    { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
  ]);
  // GITHUB_WORKFLOW_REF names the caller: the reusable workflow is reached through it.
  const env = { GITHUB_WORKFLOW_REF: `${REPO}/${CALLER}@refs/pull/${PR_NUMBER}/merge` };
  const base = { [CALLER]: caller, [GATE]: reusable(GLOB), [FAILING]: failing };

  it("the attack: the called workflow narrows `contracts:` and the failing contract goes; the caller unchanged: blocking on the called file, an approval clears it", async () => {
    const repo = await makeRepo({
      base,
      head: { [GATE]: reusable('"nothing/**"'), [FAILING]: null },
    });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    // The head's reusable workflow is what runs: its inputs.
    const inputs = { contracts: "nothing/**", sandbox: "off" };
    const r = await runAction({ repo, gh, event: "pull_request", env, inputs });
    expect(codesOf(r)).toEqual(["B gate-config-changed"]);
    expect(reportOf(r).integrity.findings[0].path).toBe(GATE);
    expect(r.code, r.stdout).toBe(1);
    expect(lastCheckRun(gh).conclusion).toBe("failure");

    const approved = await approvedOnHead(repo, gh, inputs, env);
    expect(reportOf(approved).integrity.approvedBy?.login).toBe("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    await finish(gh, expect);
  });

  it("the twin: a workflow the gate does not reach changes, the contract is met: no finding, green", async () => {
    const repo = await makeRepo({
      base: { ...base, ".github/workflows/docs.yml": "on: push\njobs: {}\n", "src/fixed": "" },
      head: { ".github/workflows/docs.yml": "on: push\njobs: { x: {} }\n" },
    });
    const gh = await standInFor(repo);
    const inputs = { contracts: GLOB, sandbox: "off", scope: "all" };
    const r = await runAction({ repo, gh, event: "pull_request", env, inputs });
    expect(codesOf(r)).toEqual([]);
    expect(reportOf(r).contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(r.code, r.stdout).toBe(0);
    await finish(gh, expect);
  });
});

describe("supersession counts only what runs, through the action, with its approval twin", () => {
  const OLD = oraclePath("login");
  const NEXT = oraclePath("login-next");
  const criteria = [
    { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
  ];
  // Bound to the PR's head branch (`feature`): a successor bound to another branch runs nothing.
  const successor = (status: string) =>
    oracleContract("login-next", criteria, { status })
      .replace("branch: feat/login-next", "branch: feature")
      .replace(`- status: ${status}`, `- status: ${status}\n- supersedes: ${OLD}`);
  const inputs = { contracts: GLOB, sandbox: "off" };

  it("the failing contract replaced by an identical aborted successor: criterion-removed blocks; an approval clears it", async () => {
    const repo = await makeRepo({
      base: { [OLD]: oracleContract("login", criteria) },
      head: { [OLD]: null, [NEXT]: successor("aborted") },
    });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r).filter((c: string) => c.startsWith("B"))).toEqual(["B criterion-removed"]);
    expect(r.code, r.stdout).toBe(1);

    const approved = await approvedOnHead(repo, gh, inputs);
    expect(reportOf(approved).integrity.approvedBy?.login).toBe("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    await finish(gh, expect);
  });

  it("the twin: the same successor active, its check met, keeps every criterion: a warning only, green", async () => {
    const repo = await makeRepo({
      base: { [OLD]: oracleContract("login", criteria), "src/fixed": "" },
      head: { [OLD]: null, [NEXT]: successor("active") },
    });
    const gh = await standInFor(repo);
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r)).toEqual(["W contract-superseded"]);
    expect(r.code, r.stdout).toBe(0);
    await finish(gh, expect);
  });
});

describe("a dependency from beyond the four maps, through the action, with its approval twin", () => {
  const manifest = (extra: object) =>
    `${JSON.stringify({ name: "x", devDependencies: { vitest: "^4.0.0" }, ...extra }, null, 2)}\n`;
  const fix = { "src/trim.ts": "export const trim = (s: string) => s.trim();\n" };
  const inputs = { sandbox: "off", scope: "all", "requirement-proof": "fail-to-pass" };
  async function pr(head: Record<string, string>) {
    const repo = await makeRepo({ base: BASE_FILES, head });
    linkNodeModules(repo.dir);
    return repo;
  }

  it("an override re-pointed at an alias breaks 'No new dependencies.': blocking; an approval clears it", async () => {
    const repo = await pr({
      ...fix,
      "package.json": manifest({ overrides: { ms: "npm:evil@1.0.0" } }),
    });
    const gh = await standInFor(repo);
    gh.addCollaborator(REPO, "maintainer", "write");
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r)).toEqual(["B guardrail-new-dependency"]);
    expect(r.code, r.stdout).toBe(1);

    const approved = await approvedOnHead(repo, gh, inputs);
    expect(reportOf(approved).integrity.approvedBy?.login).toBe("maintainer");
    expect(approved.code, approved.stdout).toBe(0);
    await finish(gh, expect);
  });

  it("the twin: package.json changed with no package added: no finding, green", async () => {
    const repo = await pr({ ...fix, "package.json": manifest({ description: "names" }) });
    const gh = await standInFor(repo);
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(codesOf(r)).toEqual([]);
    expect(r.code, r.stdout).toBe(0);
    await finish(gh, expect);
  });
});
