/**
 * A contract bound to the PR's head branch judges the PR under `scope:
 * changed`, though the PR touches only source files: its header's `branch:`
 * names the branch. The log, the check run and the JSON report say why it
 * is in scope. A contract bound to another branch stays out (twin). Through the bundled action (run `npm run
 * bundle` after changing src/).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  finish,
  lastCheckRun,
  makeRepo,
  oracleContract,
  oraclePath,
  payloadFor,
  reportOf,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";

const FAILING = oraclePath("login");
const CONTRACT = oracleContract("login", [
  { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
]); // branch: feat/login

async function prOnBranch(
  branch: string,
  inputs: Record<string, string> = {},
  beforeGate?: (dir: string) => void,
) {
  const repo = await makeRepo({
    base: { [FAILING]: CONTRACT, "src/login.js": "loop();\n" },
    head: { "src/login.js": "noLoop();\n" },
  });
  beforeGate?.(repo.dir);
  const gh = await standInFor(repo);
  const payload = payloadFor("pull_request", repo) as { pull_request: { head: { ref: string } } };
  payload.pull_request.head.ref = branch;
  const r = await runAction({
    repo,
    gh,
    event: "pull_request",
    payload,
    inputs: { sandbox: "off", ...inputs },
  });
  await finish(gh, expect);
  return { ...r, summary: lastCheckRun(gh).output.summary ?? "" };
}

describe("contracts bound to the PR's head branch", () => {
  it("a failing contract whose branch: is the PR's head branch runs and fails, the log saying why", async () => {
    const r = await prOnBranch("feat/login");
    expect(reportOf(r).contracts.map((c: { path: string }) => c.path)).toEqual([FAILING]);
    expect(r.stdout).toContain(
      `${FAILING} is in scope: its header binds it to the PR's head branch feat/login.`,
    );
    expect(reportOf(r).contracts[0].inScope).toEqual({
      reason: "branch",
      text: "its header binds it to the PR's head branch feat/login",
    });
    expect(r.summary).toContain(
      "In scope: its header binds it to the PR's head branch `feat/login`.",
    );
    expect(r.code, r.stdout).toBe(1);
  });

  it("under scope: all every surface says so instead", async () => {
    const r = await prOnBranch("feat/other", { scope: "all" });
    expect(reportOf(r).contracts[0].inScope).toEqual({
      reason: "all",
      text: "every contract is gated (scope: all)",
    });
    expect(r.summary).toContain("In scope: every contract is gated (`scope: all`).");
    expect(r.code, r.stdout).toBe(1);
  });

  it("a step before the gate that unbinds it on disk does not take it out of scope: it blocks as worktree-modified", async () => {
    const r = await prOnBranch("feat/login", {}, (dir) => {
      const file = join(dir, FAILING);
      writeFileSync(file, readFileSync(file, "utf8").replace("branch: feat/login", "branch: x"));
    });
    expect(reportOf(r).contracts.map((c: { path: string }) => c.path)).toEqual([FAILING]);
    expect(r.summary).toContain("worktree-modified");
    expect(r.code, r.stdout).toBe(1);
  });

  it("twin: bound to another branch, it stays out of scope", async () => {
    const r = await prOnBranch("feat/other");
    expect(reportOf(r).contracts).toEqual([]);
    expect(r.stdout).not.toContain("is in scope: its header binds it");
    expect(r.code, r.stdout).toBe(0);
  });
});
