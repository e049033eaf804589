/**
 * One predicate decides what a contract is (src/contract-path.ts), and every
 * part of the gate asks it. The attack it closes: a failing contract renamed,
 * unchanged, into a directory discovery never searches (`node_modules/`) was
 * a rename inside the globs to the base pairing (no `contract-removed`) and a
 * file discovery never loads (nothing runs): green beside a passing contract.
 * Each exclusion the predicate has is walked; through the CLI with `--base`
 * and through the bundled action (run `npm run bundle` after changing src/).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contractPaths, EXCLUDED_DIRS } from "../src/scope/contract-path.js";
import {
  finish,
  makeRepo,
  oracleContract,
  oraclePath,
  reportOf,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import { baseAndHead } from "./helpers/integrity-repo.js";

const DIR = ".claude/tasks/contracts";
const FAILING = oraclePath("login");
const PASSING = oraclePath("docs");
const BASE = {
  [FAILING]: oracleContract("login", [
    { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
  ]),
  [PASSING]: oracleContract("docs", [
    { title: "the docs exist", check: "echo DOCS", expect: "DOCS" },
  ]),
};

interface JsonFinding {
  code: string;
  blocking: boolean;
  message: string;
}
const findingsOf = (stdout: string): JsonFinding[] =>
  JSON.parse(stdout || "{}").integrity?.findings ?? [];

/** The repo with BASE on main and, on `pr`, the failing contract moved by `move` (in the work tree), committed. */
function moved(move: (root: string) => void): string {
  const root = baseAndHead({}, BASE);
  move(root);
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "move");
  return root;
}

function mv(root: string, to: string): void {
  mkdirSync(join(root, to, ".."), { recursive: true });
  renameSync(join(root, FAILING), join(root, to));
}

const RUN = ["run", "--base", "main", "--no-write", "--sandbox", "off", "--json"];

describe("the contract predicate", () => {
  it("says why a path is no contract: globs, each excluded directory, kind", () => {
    const paths = contractPaths([`${DIR}/**`]);
    expect(paths.classify(`${DIR}/a.md`)).toEqual({ kind: "oracle-contract" });
    expect(paths.classify("elsewhere/a.md")).toEqual({ why: "globs" });
    for (const dir of EXCLUDED_DIRS) {
      expect(paths.classify(`${DIR}/${dir}/a.md`)).toEqual({ why: "excluded-dir", dir });
    }
    expect(paths.classify(`${DIR}/a.txt`)).toEqual({ why: "kind" });
  });
});

describe("a failing contract moved to a path that is no contract blocks as removed (CLI --base)", () => {
  for (const dir of EXCLUDED_DIRS) {
    it(`renamed into ${dir}/`, async () => {
      const to = `${DIR}/${dir}/2026-11-29-login-1200.md`;
      const root = baseAndHead({}, BASE);
      mv(root, to);
      git(root, "add", "-A");
      git(root, "commit", "-q", "-m", "move");
      // Git never commits a path under a `.git` component: that exclusion arrives as a deletion.
      const committed = git(root, "ls-files", "--", to).trim();
      expect(committed).toBe(dir === ".git" ? "" : to);
      const r = await runCli(RUN, root);
      const found = findingsOf(r.stdout);
      expect(found.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`)).toEqual([
        "B contract-removed",
      ]);
      if (dir !== ".git") expect(found[0]!.message).toContain(`lies under \`${dir}/\``);
      expect(r.code).toBe(1);
    });
  }

  it("honest twin: renamed within the contracts directory, it is still discovered, compared and run", async () => {
    const root = moved((r) => mv(r, `${DIR}/auth/2026-11-29-login-1200.md`));
    const r = await runCli(RUN, root);
    expect(findingsOf(r.stdout)).toEqual([]);
    // Still a contract: it runs, and still fails.
    const verdicts = JSON.parse(r.stdout).contracts.map((c: { verdict: string }) => c.verdict);
    expect(verdicts.sort()).toEqual(["fail", "pass"]);
    expect(r.code).toBe(1);
  });

  it("renamed to another extension that a custom glob still matches: no kind, so removed", async () => {
    const root = moved((r) => mv(r, `${FAILING}.txt`));
    const r = await runCli([...RUN, "--contracts", `${DIR}/**`], root);
    const found = findingsOf(r.stdout);
    expect(found.map((f) => f.code)).toEqual(["contract-removed"]);
    expect(found[0]!.message).toContain("has no contract kind");
    expect(r.code).toBe(1);
  });

  it("turned into a directory: removed", async () => {
    const root = moved((r) => {
      rmSync(join(r, FAILING));
      mkdirSync(join(r, FAILING));
      writeFileSync(join(r, FAILING, "notes.txt"), "moved\n");
    });
    // The CLI refuses the run before comparing: a directory with a contract's name is a
    // misconfiguration it names (exit 2), which fails closed as surely as the finding.
    const r = await runCli(RUN, root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${FAILING} has a contract's name but is a directory`);
  });

  it("turned into a submodule: removed", async () => {
    const root = baseAndHead({}, BASE);
    const sha = git(root, "rev-parse", "HEAD").trim();
    git(root, "rm", "-q", "--cached", FAILING);
    rmSync(join(root, FAILING));
    git(root, "update-index", "--add", "--cacheinfo", `160000,${sha},${FAILING}`);
    git(root, "commit", "-q", "-m", "submodule");
    expect(execFileSync("git", ["ls-tree", "HEAD", FAILING], { cwd: root }).toString()).toMatch(
      /^160000 commit/,
    );
    const r = await runCli(RUN, root);
    expect(findingsOf(r.stdout).map((f) => `${f.blocking ? "B" : "W"} ${f.code}`)).toEqual([
      "B contract-removed",
    ]);
    expect(r.code).toBe(1);
  });
});

describe("through the bundled action", () => {
  it("renamed into node_modules/ under scope: all, beside a passing contract: fails as removed; renamed within the globs it runs (twin)", async () => {
    const into = `${DIR}/node_modules/2026-11-29-login-1200.md`;
    const attack = await makeRepo({
      base: BASE,
      head: { [FAILING]: null, [into]: BASE[FAILING]! },
    });
    const gh = await standInFor(attack);
    const r = await runAction({
      repo: attack,
      gh,
      event: "pull_request",
      inputs: { sandbox: "off", scope: "all" },
    });
    expect(r.code, r.stdout).toBe(1);
    expect(reportOf(r).integrity.findings.map((f: JsonFinding) => f.code)).toEqual([
      "contract-removed",
    ]);
    await finish(gh, expect);

    const within = `${DIR}/auth/2026-11-29-login-1200.md`;
    const twin = await makeRepo({
      base: { ...BASE, "src/fixed": "" },
      head: { [FAILING]: null, [within]: BASE[FAILING]! },
    });
    const gh2 = await standInFor(twin);
    const ok = await runAction({
      repo: twin,
      gh: gh2,
      event: "pull_request",
      inputs: { sandbox: "off", scope: "all" },
    });
    expect(reportOf(ok).integrity.findings).toEqual([]);
    expect(ok.code, ok.stdout).toBe(0);
    await finish(gh2, expect);
  });
});
