import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunReportSchema } from "../src/report/run-json.js";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import {
  applyHead,
  baseAndHead,
  checkOf,
  ORACLE_BASE,
  ORACLE_PATH,
  PLAN_BASE,
  PLAN_CONTRACT_PATH,
  PLAN_PATH,
  planContract,
} from "./helpers/integrity-repo.js";
import { tempDir } from "./helpers/tmp.js";

interface JsonFinding {
  code: string;
  blocking: boolean;
  path: string;
  line: number;
  before: string | null;
  after: string | null;
  message: string;
  subject: string;
}

/** `validate --base main --json` in a repo whose head applies `head`. */
async function findingsFor(head: Record<string, string | null>) {
  const root = baseAndHead(head);
  const { code, stdout, stderr } = await runCli(["validate", "--base", "main", "--json"], root);
  const json = JSON.parse(stdout || "{}");
  return { code, stderr, findings: (json.integrity?.findings ?? []) as JsonFinding[], root };
}

const codes = (fs: JsonFinding[]) => fs.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);
const edit = (from: string, to: string) => {
  if (!ORACLE_BASE.includes(from)) throw new Error(`fixture lacks ${from}`);
  return { [ORACLE_PATH]: ORACLE_BASE.replace(from, to) };
};

// Which edits are findings is the pure comparison's business, one table row
// each (test/integrity-compare.table.test.ts). These cases prove the wiring:
// the base read from git (a plan beside its contract too, a rename out of the
// globs as git reports it), the exit code, and the findings in the JSON.
describe("the comparison end to end", () => {
  it("REQUEST changed: read at the merge base, blocking, exit 1, before → after at the head line", async () => {
    const r = await findingsFor(edit("fix it\n", "make the loop rarer\n"));
    expect(codes(r.findings)).toEqual(["B request-changed"]);
    expect(r.findings[0]).toMatchObject({
      path: ORACLE_PATH,
      line: 6,
      before: "the login page redirects forever after a password reset, fix it",
      after: "the login page redirects forever after a password reset, make the loop rarer",
    });
    expect(r.code).toBe(1);
  });

  it("warnings alone exit 0 (control)", async () => {
    const r = await findingsFor(
      edit(
        "3. the reset e-mail copy reads well\n",
        "3. the reset e-mail copy is friendly\n4. the loop cannot come back\n5. a gated one [gated 2026-03-02]\n",
      ),
    );
    expect(codes(r.findings).sort()).toEqual(["W criterion-reworded", "W ungated-append"]);
    expect(r.code).toBe(0);
  });

  it("a regeneration is told by the plans read beside the contracts at base and head", async () => {
    const plan = `${PLAN_BASE}\nThe lint step moved to CI.\n`;
    const r = await findingsFor({
      [PLAN_PATH]: plan,
      [PLAN_CONTRACT_PATH]: planContract(plan, (c) => {
        ((c.tasks as Record<string, unknown>[])[0]!.verification as unknown[]).pop();
        checkOf(c, 0, 0).pattern = "app_metadata'->>'role' = 'admin'";
      }),
    });
    expect(codes(r.findings).sort()).toEqual(["B regeneration-changed", "B regeneration-dropped"]);
    expect(r.findings.find((f) => f.code === "regeneration-changed")).toMatchObject({
      before: "app_metadata'->>'role'",
      after: "app_metadata'->>'role' = 'admin'",
    });
    expect(r.code).toBe(1);
  });

  it("a deleted contract, and one git pairs with a file out of the globs, are gone at head", async () => {
    const deleted = await findingsFor({ [ORACLE_PATH]: null });
    expect(codes(deleted.findings)).toEqual(["B contract-removed"]);
    expect(deleted.findings[0]).toMatchObject({ path: ORACLE_PATH, line: 1 });
    const renamedAway = await findingsFor({
      [ORACLE_PATH]: null,
      "docs/old-contract.md": ORACLE_BASE,
    });
    // The file it became is no contract, so what the checks run is read too: a warning names the one it cannot resolve.
    expect(codes(renamedAway.findings).filter((c) => c !== "W check-harness-unresolved")).toEqual([
      "B contract-removed",
    ]);
    expect(renamedAway.code).toBe(1);
  });
});

describe("reading the base", () => {
  it("an unknown --base revision is a usage error naming the fix, never a silent pass", async () => {
    const root = baseAndHead({ [ORACLE_PATH]: null });
    const r = await runCli(["validate", "--base", "no-such-branch"], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--base no-such-branch: no-such-branch is not a commit");
    // No remote in this clone: nothing to fetch from, so no fetch is suggested.
    expect(r.stderr).toContain("this repository has no remote");
    expect(r.stderr).not.toContain("git fetch");
  });

  it("an unknown ref names the fetch for the remotes the clone has: `origin/x` with origin, a bare name too", async () => {
    const upstream = baseAndHead({ [ORACLE_PATH]: null });
    const clone = tempDir("cg-clone-");
    git(clone, "clone", "-q", "--branch", "pr", `file://${upstream}`, ".");
    const remoteBranch = await runCli(["validate", "--base", "origin/release"], clone);
    expect(remoteBranch.code).toBe(2);
    expect(remoteBranch.stderr).toContain("fetch it: `git fetch origin release`");
    expect(remoteBranch.stderr).not.toContain("git fetch origin origin/release");
    const bare = await runCli(["validate", "--base", "release"], clone);
    expect(bare.stderr).toContain("`git fetch origin release`, then `--base origin/release`");
    // `origin/main` in a clone without a remote is never told to fetch from origin.
    git(clone, "remote", "remove", "origin");
    const noRemote = await runCli(["validate", "--base", "origin/main"], clone);
    expect(noRemote.code).toBe(2);
    expect(noRemote.stderr).toContain("this repository has no remote");
    expect(noRemote.stderr).not.toContain("git fetch");
  });

  it("outside a git repository --base says so, not that the ref is missing", async () => {
    const dir = tempDir("cg-no-git-");
    const r = await runCli(["validate", "--base", "main", "--root", dir], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not a git repository");
    expect(r.stderr).not.toContain("is not a commit");
  });

  /** A depth-1 clone of `pr` that also has a depth-1 `origin/main`: no merge base yet. */
  function shallowClone(upstream: string): string {
    const clone = tempDir("cg-shallow-");
    git(clone, "clone", "-q", "--depth", "1", "--branch", "pr", `file://${upstream}`, ".");
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main");
    return clone;
  }

  it("a shallow clone is deepened until the merge base exists, then compared", async () => {
    const upstream = baseAndHead(edit("- status: active", "- status: aborted"));
    git(upstream, "checkout", "-q", "main");
    applyHead(upstream, { "README.md": "main moved on\n" }, "main moves on");
    const clone = shallowClone(upstream);
    expect(() => git(clone, "merge-base", "origin/main", "HEAD")).toThrow();

    const r = await runCli(["validate", "--base", "origin/main", "--json"], clone);
    expect(JSON.parse(r.stdout).integrity.findings.map((f: JsonFinding) => f.code)).toEqual([
      "status-changed",
    ]);
    expect(r.code).toBe(1);
  });

  it("without a remote to deepen from, the base cannot be read and the command fails closed", async () => {
    const upstream = baseAndHead(edit("- status: active", "- status: aborted"));
    git(upstream, "checkout", "-q", "main");
    applyHead(upstream, { "README.md": "main moved on\n" }, "main moves on");
    const clone = shallowClone(upstream);
    git(clone, "remote", "remove", "origin");
    git(clone, "update-ref", "refs/heads/base", git(upstream, "rev-parse", "main").trim());
    const r = await runCli(["validate", "--base", "base"], clone);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("No merge base between base and HEAD: the clone is shallow");
    expect(r.stderr).toContain("fetch-depth: 0");
  });
});

describe("run --base surfaces", () => {
  const weakenedHead = {
    [PLAN_CONTRACT_PATH]: planContract(PLAN_BASE, (c) => {
      checkOf(c, 0, 0).pattern = "app_metadata";
    }),
  };

  it("--json carries `integrity`, validates against the schema, and the conclusion is the gate's", async () => {
    const root = baseAndHead(weakenedHead);
    const r = await runCli(
      ["run", "--no-write", "--base", "main", "--json", PLAN_CONTRACT_PATH],
      root,
    );
    const json = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(json.integrity).toMatchObject({
      applies: true,
      blocking: 1,
      approvedBy: null,
      findings: [
        { code: "in-place-edit", before: "app_metadata'->>'role'", after: "app_metadata" },
      ],
    });
    expect(json.integrity?.base).toBe(git(root, "rev-parse", "main").trim());
    expect(json.conclusion).toBe("failure");
    expect(r.code).toBe(1);
  });

  it("without --base the same run reports no integrity (positive control for the flag)", async () => {
    const root = baseAndHead(weakenedHead);
    const r = await runCli(["run", "--no-write", "--json", PLAN_CONTRACT_PATH], root);
    expect(JSON.parse(r.stdout).integrity).toBeUndefined();
  });

  it("the terminal and markdown reports show the change, blocking first, before → after", async () => {
    const root = baseAndHead({
      ...weakenedHead,
      ...edit(
        "3. the reset e-mail copy reads well\n",
        "3. the reset e-mail copy reads well\n4. new\n",
      ),
    });
    const text = await runCli(["run", "--no-write", "--base", "main", PLAN_CONTRACT_PATH], root);
    expect(text.stdout).toContain("Contract changes against the merge base");
    expect(text.stdout).toMatch(
      /✘ blocking {2}\.planning\/phase-1-contract\.json:\d+ {2}in-place-edit {2}T1 check 1 \(grep-match\): pattern changed/,
    );
    expect(text.stdout).toContain("- app_metadata'->>'role'\n");
    expect(text.stdout).toContain("+ app_metadata\n");
    expect(text.stdout.indexOf("in-place-edit")).toBeLessThan(
      text.stdout.indexOf("ungated-append"),
    );

    const md = await runCli(
      ["run", "--no-write", "--base", "main", "--markdown", PLAN_CONTRACT_PATH],
      root,
    );
    const lines = md.stdout.split("\n");
    expect(lines[0]).toBe("## ❌ Contract Gate: failure");
    // First under the heading, below only a sandbox warning (a `>` block) when there is one.
    expect(lines.filter((l) => l !== "" && !l.startsWith(">"))[1]).toBe("### Contract changes");
    expect(md.stdout).toContain("```diff\n  - app_metadata'->>'role'\n  + app_metadata\n  ```");
    expect(md.stdout.indexOf("### Contract changes")).toBeLessThan(
      md.stdout.indexOf("blocking** of"),
    );
  });
});

describe("a contract replaced by a symlink", () => {
  it("counts as gone at head, and the finding says why", async () => {
    const root = baseAndHead({});
    rmSync(join(root, ORACLE_PATH));
    symlinkSync("../../../src/login.js", join(root, ORACLE_PATH));
    applyHead(root, {}, "link");
    const r = await runCli(["validate", "--base", "main", "--json"], root);
    const [f] = JSON.parse(r.stdout).integrity.findings as JsonFinding[];
    expect(f).toMatchObject({ code: "contract-removed", blocking: true, path: ORACLE_PATH });
    expect(f!.message).toContain("is not a regular file at head");
    expect(r.code).toBe(1);
  });
});
