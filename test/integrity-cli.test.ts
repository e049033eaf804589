import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunReportSchema } from "../src/report/run-json.js";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import {
  applyHead,
  BASE_FILES,
  baseAndHead,
  checkOf,
  hashOf,
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

describe("markdown contracts against their base", () => {
  it("a head identical to base but for EVIDENCE write-back has no findings (control)", async () => {
    const r = await findingsFor(
      edit("   EVIDENCE: pending\n2.", "   EVIDENCE: MET 2026-03-02 exit 0\n2."),
    );
    expect(r.findings).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("REQUEST changed blocks, with before → after at the head line", async () => {
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

  it("a deleted criterion blocks; abandoning it instead does not (control)", async () => {
    const deleted = await findingsFor(
      edit(
        "2. the regression test reproduces the loop and passes\n   CHECK: test -f test/login.test.sh && echo REGRESSION-OK\n   EXPECT: REGRESSION-OK\n   EVIDENCE: pending\n",
        "",
      ),
    );
    expect(codes(deleted.findings)).toEqual(["B criterion-removed"]);
    expect(deleted.findings[0]!.before).toBe(
      "2. the regression test reproduces the loop and passes",
    );
    const abandoned = await findingsFor(
      edit(
        "ABANDON: 3 copy",
        "ABANDON: 2 the test runner is broken on CI; handed to infra\nABANDON: 3 copy",
      ),
    );
    expect(abandoned.findings).toEqual([]);
    expect(abandoned.code).toBe(0);
  });

  it("a renumbered criterion blocks", async () => {
    const r = await findingsFor(
      edit(
        "2. the regression test reproduces the loop and passes\n   CHECK: test -f test/login.test.sh && echo REGRESSION-OK\n   EXPECT: REGRESSION-OK\n   EVIDENCE: pending\n3. the reset e-mail copy reads well\n\nABANDON: 3",
        "3. the regression test reproduces the loop and passes\n   CHECK: test -f test/login.test.sh && echo REGRESSION-OK\n   EXPECT: REGRESSION-OK\n   EVIDENCE: pending\n4. the reset e-mail copy reads well\n\nABANDON: 4",
      ),
    );
    expect(codes(r.findings)).toEqual(["B criterion-renumbered", "B criterion-renumbered"]);
    expect(r.findings[0]).toMatchObject({
      before: "2. the regression test reproduces the loop and passes",
      after: "3. the regression test reproduces the loop and passes",
    });
  });

  it("runnable → manual, and CHECK / EXPECT / CWD changes block", async () => {
    const manual = await findingsFor(
      edit(
        "   CHECK: grep -q resetDone src/login.js && echo LOOP-GONE\n   EXPECT: LOOP-GONE\n   EVIDENCE: pending\n",
        "",
      ),
    );
    expect(codes(manual.findings)).toEqual(["B oracle-removed"]);

    const expect_ = await findingsFor(edit("   EXPECT: LOOP-GONE", "   EXPECT: /.*/"));
    expect(codes(expect_.findings)).toEqual(["B oracle-changed"]);
    expect(expect_.findings[0]).toMatchObject({ before: "LOOP-GONE", after: "/.*/", line: 13 });

    const check = await findingsFor(
      edit("CHECK: grep -q resetDone src/login.js && echo LOOP-GONE", "CHECK: echo LOOP-GONE"),
    );
    expect(codes(check.findings)).toEqual(["B oracle-changed"]);
    expect(check.findings[0]!.after).toBe("echo LOOP-GONE");

    const cwd = await findingsFor(
      edit("   EXPECT: LOOP-GONE\n", "   EXPECT: LOOP-GONE\n   CWD: src\n"),
    );
    expect(codes(cwd.findings)).toEqual(["B oracle-changed"]);
    expect(cwd.findings[0]).toMatchObject({ before: "(none)", after: "src" });

    const gained = await findingsFor(
      edit(
        "3. the reset e-mail copy reads well\n",
        "3. the reset e-mail copy reads well\n   CHECK: echo COPY-OK\n   EXPECT: COPY-OK\n   EVIDENCE: pending\n",
      ),
    );
    expect(codes(gained.findings)).toEqual(["B oracle-changed", "B oracle-changed"]);
  });

  it("an ABANDON removed or rewritten blocks", async () => {
    const removed = await findingsFor(
      edit("ABANDON: 3 copy needs the design team; handed over in the final report\n", ""),
    );
    expect(codes(removed.findings)).toEqual(["B abandon-changed"]);
    const rewritten = await findingsFor(edit("copy needs the design team", "copy is fine"));
    expect(codes(rewritten.findings)).toEqual(["B abandon-changed"]);
  });

  it("status changed (to aborted too) blocks", async () => {
    const r = await findingsFor(edit("- status: active", "- status: aborted"));
    expect(codes(r.findings)).toEqual(["B status-changed"]);
    expect(r.findings[0]).toMatchObject({ line: 3, before: "active", after: "aborted" });
  });

  it("CLARIFICATIONS: an edited entry blocks; a [gated] append does not (control)", async () => {
    const edited = await findingsFor(edit("A: yes, every browser", "A: only Chrome"));
    expect(codes(edited.findings)).toEqual(["B clarification-changed"]);
    const appended = await findingsFor(
      edit(
        "A: yes, every browser\n",
        "A: yes, every browser\nQ: mobile? / A: later [gated 2026-03-02]\n",
      ),
    );
    expect(appended.findings).toEqual([]);
  });

  it("a `none` CLARIFICATIONS placeholder may be replaced; an edited FILE SCOPE entry warns", async () => {
    const placeholder = ORACLE_BASE.replace(
      "Q: every browser? / A: yes, every browser",
      "(or: none — request complete)",
    );
    const root = baseAndHead(
      { [ORACLE_PATH]: ORACLE_BASE.replace("src/login.js\n", "src/**\n") },
      { ...BASE_FILES, [ORACLE_PATH]: placeholder },
    );
    const r = await runCli(["validate", "--base", "main", "--json"], root);
    const findings = JSON.parse(r.stdout).integrity.findings as JsonFinding[];
    // The placeholder's replacement is an append (ungated: a warning), never an edit.
    expect(codes(findings).sort()).toEqual(["W file-scope-edited", "W ungated-append"]);
    expect(findings.find((f) => f.code === "file-scope-edited")).toMatchObject({
      before: "src/login.js",
      after: "src/**",
    });
    expect(r.code).toBe(0);
  });

  it("appends without [gated] and reworded titles are warnings, not blocking", async () => {
    const r = await findingsFor(
      edit(
        "3. the reset e-mail copy reads well\n",
        "3. the reset e-mail copy is friendly\n4. the loop cannot come back\n5. a gated one [gated 2026-03-02]\n",
      ),
    );
    expect(codes(r.findings).sort()).toEqual(["W criterion-reworded", "W ungated-append"]);
    expect(r.code).toBe(0);
    const scope = await findingsFor(edit("test/login.test.sh\n", "test/login.test.sh\nsrc/**\n"));
    expect(codes(scope.findings)).toEqual(["W ungated-append"]);
  });

  it("a deleted contract blocks; one superseded by a head contract is a warning (control)", async () => {
    const deleted = await findingsFor({ [ORACLE_PATH]: null });
    expect(codes(deleted.findings)).toEqual(["B contract-removed"]);
    expect(deleted.findings[0]).toMatchObject({ path: ORACLE_PATH, line: 1 });

    const renamedAway = await findingsFor({
      [ORACLE_PATH]: null,
      "docs/old-contract.md": ORACLE_BASE,
    });
    expect(codes(renamedAway.findings)).toEqual(["B contract-removed"]);

    const next = ORACLE_BASE.replace(
      "- status: active",
      `- status: active\n- supersedes: ${ORACLE_PATH}`,
    ).replace("fix it", "and the logout loop too");
    const superseded = await findingsFor({
      [ORACLE_PATH]: null,
      ".claude/tasks/contracts/2026-03-05-login-logout-1000.md": next,
    });
    expect(codes(superseded.findings)).toEqual(["W contract-superseded"]);
    expect(superseded.code).toBe(0);

    const edited = await findingsFor({
      [ORACLE_PATH]: ORACLE_BASE.replace("   EXPECT: LOOP-GONE", "   EXPECT: /.*/"),
      ".claude/tasks/contracts/2026-03-05-login-logout-1000.md": next,
    });
    expect(codes(edited.findings)).toEqual(["B superseded-edited"]);
  });

  it("a supersession that drops a blocking criterion blocks by its effect; the twin above keeps every one", async () => {
    const weak = ORACLE_BASE.replace(
      "- status: active",
      `- status: active\n- supersedes: ${ORACLE_PATH}`,
    ).replace("grep -q resetDone src/login.js && echo LOOP-GONE", "echo LOOP-GONE");
    const r = await findingsFor({
      [ORACLE_PATH]: null,
      ".claude/tasks/contracts/2026-03-05-login-logout-1000.md": weak,
    });
    expect(codes(r.findings)).toEqual(["B criterion-weakened", "W contract-superseded"]);
    expect(r.findings[0]).toMatchObject({
      subject: "criterion 1",
      path: ".claude/tasks/contracts/2026-03-05-login-logout-1000.md",
    });
    expect(r.code).toBe(1);
  });
});

describe("JSON phase contracts against their base", () => {
  const weakened = (edit: (c: Record<string, unknown>) => void) => ({
    [PLAN_CONTRACT_PATH]: planContract(PLAN_BASE, edit),
  });

  it("the real in-place edits block, each listed at field level with before → after", async () => {
    const r = await findingsFor(
      weakened((c) => {
        checkOf(c, 0, 0).pattern = "app_metadata";
        delete checkOf(c, 0, 1).must_contain;
        Object.assign(checkOf(c, 0, 2), {
          command: "node",
          args: ["-e", "try{require('child_process').execSync('supabase db lint')}catch{}"],
        });
        checkOf(c, 1, 1).expect = "present";
        (checkOf(c, 1, 0).evidence_required as unknown[]).pop();
      }),
    );
    const subjects = r.findings.map((f) => `${f.code} ${f.message.split(" (plan and")[0]}`);
    expect(subjects).toEqual([
      "in-place-edit T1 check 1 (grep-match): pattern changed",
      "in-place-edit T1 check 2 (file-exists): must_contain was removed",
      "in-place-edit T1 check 3 (command-exit): args changed",
      "in-place-edit T1 check 3 (command-exit): command changed",
      "in-place-edit T2 check 1: an evidence_required entry was removed or changed",
      "in-place-edit T2 check 2 (grep-match): expect changed",
    ]);
    expect(r.findings[0]).toMatchObject({
      blocking: true,
      before: "app_metadata'->>'role'",
      after: "app_metadata",
    });
    expect(r.findings.every((f) => f.blocking && f.line > 1)).toBe(true);
    expect(r.code).toBe(1);
  });

  it("present → absent, a dropped check or task and a replaced check type block", async () => {
    const r = await findingsFor(
      weakened((c) => {
        checkOf(c, 0, 0).expect = "absent";
        ((c.tasks as Record<string, unknown>[])[0]!.verification as unknown[]).splice(1, 1);
        (c.tasks as Record<string, unknown>[])[1]!.verification = [
          { type: "file-exists", path: "src/admin.js" },
        ];
      }),
    );
    expect(r.findings.map((f) => f.message.split(" (plan and")[0]).sort()).toEqual([
      "T1 check 1 (grep-match): expect flipped from present to absent",
      // Removed from the middle: one drop, not every later check "changed".
      "T1 check 2 (file-exists) was dropped",
      "T2 check 1 was replaced by a check of another type",
      "T2 check 2 (grep-match) was dropped",
    ]);
    const task = await findingsFor(
      weakened((c) => {
        (c.tasks as unknown[]).pop();
        c.success_criteria = ["admins see the admin area"];
      }),
    );
    expect(codes(task.findings)).toEqual(["B in-place-edit", "B in-place-edit"]);
    expect(task.findings.map((f) => f.subject)).toEqual(["task T2", "contract"]);
  });

  it("regeneration (new plan, matching hash) that drops or changes a check blocks: the plan edit and refresh-hash are no way around approval", async () => {
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

  it("honest twin: a regeneration that only adds a task and a check passes without approval", async () => {
    const plan = `${PLAN_BASE}\nAlso audit the admin area.\n`;
    const r = await findingsFor({
      [PLAN_PATH]: plan,
      [PLAN_CONTRACT_PATH]: planContract(plan, (c) => {
        const tasks = c.tasks as Record<string, unknown>[];
        (tasks[0]!.verification as unknown[]).push({
          type: "file-exists",
          path: "supabase/policies.sql",
          must_contain: "role",
        });
        tasks.push({ ...tasks[1]!, id: "T3", title: "Audit log", depends_on: ["T1"] });
      }),
    });
    expect(r.findings).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("a new plan with a hash that does not match it is no regeneration", async () => {
    const plan = `${PLAN_BASE}\nThe lint step moved to CI.\n`;
    const r = await findingsFor({
      [PLAN_PATH]: plan,
      [PLAN_CONTRACT_PATH]: planContract(plan, (c) => {
        ((c.tasks as Record<string, unknown>[])[0]!.verification as unknown[]).pop();
        c.source_plan_hash = hashOf("something else");
      }),
    });
    expect(codes(r.findings)).toEqual(["B in-place-edit", "B in-place-edit"]);
    expect(r.findings.map((f) => f.subject).sort()).toEqual([
      "T1 check 3 (command-exit)",
      "contract",
    ]);
  });

  it("flipping generated_by to manual is itself a finding; a base manual contract's weakened check blocks by its effect", async () => {
    const flipped = await findingsFor(
      weakened((c) => {
        c.generated_by = "manual";
        checkOf(c, 0, 0).pattern = "app_metadata";
      }),
    );
    expect(codes(flipped.findings)).toEqual(["B generated-by-changed", "B in-place-edit"]);

    const manualBase = planContract(PLAN_BASE, (c) => {
      c.generated_by = "manual";
    });
    const root = baseAndHead(
      {
        [PLAN_CONTRACT_PATH]: planContract(PLAN_BASE, (c) => {
          c.generated_by = "manual";
          checkOf(c, 0, 0).pattern = "app_metadata";
        }),
      },
      { ...BASE_FILES, [PLAN_CONTRACT_PATH]: manualBase },
    );
    const { code, stdout } = await runCli(["validate", "--base", "main", "--json"], root);
    const findings = JSON.parse(stdout).integrity.findings as JsonFinding[];
    expect(codes(findings)).toEqual(["B criterion-weakened", "W manual-edit"]);
    expect(findings[0]!.subject).toBe("criterion T1.1");
    expect(code).toBe(1);

    // Honest twin: the manual contract gains a check and a task title is re-worded: warnings only.
    const twin = baseAndHead(
      {
        [PLAN_CONTRACT_PATH]: planContract(PLAN_BASE, (c) => {
          c.generated_by = "manual";
          const tasks = c.tasks as Record<string, unknown>[];
          tasks[0]!.title = "Role check in the row-level security policy";
          (tasks[0]!.verification as unknown[]).push({
            type: "file-exists",
            path: "supabase/policies.sql",
            must_contain: "role",
          });
        }),
      },
      { ...BASE_FILES, [PLAN_CONTRACT_PATH]: manualBase },
    );
    const honest = await runCli(["validate", "--base", "main", "--json"], twin);
    const warned = JSON.parse(honest.stdout).integrity.findings as JsonFinding[];
    expect(warned.length).toBeGreaterThan(0);
    expect(warned.every((f) => !f.blocking)).toBe(true);
    expect(honest.code).toBe(0);
  });

  it("a lower version and a deleted contract block; layout-only edits are no change (control)", async () => {
    const lower = await findingsFor(weakened((c) => (c.version = 0)));
    expect(codes(lower.findings)).toContain("B version-decreased");
    const deleted = await findingsFor({ [PLAN_CONTRACT_PATH]: null, [PLAN_PATH]: null });
    expect(codes(deleted.findings)).toEqual(["B contract-removed"]);
    const relaid = await findingsFor({
      [PLAN_CONTRACT_PATH]: JSON.stringify(JSON.parse(planContract())),
    });
    expect(relaid.findings).toEqual([]);
    expect(relaid.code).toBe(0);
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
