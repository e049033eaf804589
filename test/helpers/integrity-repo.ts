import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { git } from "./git.js";
import { tempDir, writeTree } from "./tmp.js";

/**
 * Real git repositories with a base commit on `main` and a head commit on
 * `pr`, for the contract-integrity tests. Contracts are modelled on real
 * ledgers and phase contracts (written for these tests, not copied).
 */

export const ORACLE_PATH = ".claude/tasks/contracts/2026-03-01-login-loop-0930.md";
export const PLAN_CONTRACT_PATH = ".planning/phase-1-contract.json";
export const PLAN_PATH = ".planning/phase-1-plan.md";

export const ORACLE_BASE = `# CONTRACT — login-loop
- date: 2026-03-01 | flow: bugfix | branch: fix/login-loop
- status: active

## REQUEST (verbatim — IMMUTABLE)
the login page redirects forever after a password reset, fix it

## CLARIFICATIONS
Q: every browser? / A: yes, every browser

## ACCEPTANCE CRITERIA
1. the redirect loop is gone
   CHECK: grep -q resetDone src/login.js && echo LOOP-GONE
   EXPECT: LOOP-GONE
   EVIDENCE: pending
2. the regression test reproduces the loop and passes
   CHECK: test -f test/login.test.sh && echo REGRESSION-OK
   EXPECT: REGRESSION-OK
   EVIDENCE: pending
3. the reset e-mail copy reads well

ABANDON: 3 copy needs the design team; handed over in the final report

## FILE SCOPE
src/login.js
test/login.test.sh
`;

/** A valid plan for phase 1, and its hash as `source_plan_hash`. */
export const PLAN_BASE = "# Phase 1\n\nRole-based access for the admin area.\n";

export function hashOf(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

type Json = Record<string, unknown>;

/** A generated phase contract whose checks the real edits weakened. */
export function planContract(plan = PLAN_BASE, edit: (c: Json) => void = () => {}): string {
  const c: Json = {
    version: 1,
    phase: 1,
    goal: "Only admins reach the admin area.",
    why: "The admin area leaks customer data to every signed-in user.",
    generated_at: "2026-03-01T09:30:00Z",
    generated_by: "planner",
    source_plan_hash: hashOf(plan),
    tasks: [
      {
        id: "T1",
        title: "Role check in the RLS policy",
        wave: 1,
        depends_on: [],
        files_modify: ["supabase/policies.sql"],
        files_create: [],
        files_delete: [],
        acceptance_criteria: ["non-admins get no rows"],
        action: "Check the role claim in the policy.",
        context_files: [],
        verification: [
          {
            type: "grep-match",
            path: "supabase/policies.sql",
            pattern: "app_metadata'->>'role'",
            expect: "present",
          },
          {
            type: "file-exists",
            path: "supabase/policies.sql",
            must_contain: "admin",
          },
          {
            type: "command-exit",
            command: "supabase",
            args: ["db", "lint"],
            expected_exit: 0,
          },
        ],
      },
      {
        id: "T2",
        title: "Admin page guard",
        wave: 2,
        depends_on: ["T1"],
        files_modify: ["src/admin.js"],
        files_create: [],
        files_delete: [],
        acceptance_criteria: ["non-admins are redirected"],
        action: "Redirect non-admins.",
        context_files: [],
        verification: [
          {
            type: "behavioral",
            description: "non-admins are redirected to /",
            evidence_required: [
              { path: "src/admin.js", matcher: "isAdmin", description: "the guard" },
              { path: "src/admin.js", matcher: "redirect", description: "the redirect" },
            ],
          },
          {
            type: "grep-match",
            path: "src/admin.js",
            pattern: "debugBypass",
            expect: "absent",
          },
        ],
      },
    ],
    success_criteria: ["only admins see the admin area"],
  };
  edit(c);
  return `${JSON.stringify(c, null, 2)}\n`;
}

/** The check `k` (0-based) of task `t` (0-based) of a contract built by `planContract`. */
export function checkOf(c: Json, t: number, k: number): Json {
  return ((c.tasks as Json[])[t]!.verification as Json[])[k]!;
}

export const BASE_FILES: Record<string, string> = {
  [ORACLE_PATH]: ORACLE_BASE,
  [PLAN_PATH]: PLAN_BASE,
  [PLAN_CONTRACT_PATH]: planContract(),
  "src/login.js": "export const resetDone = true;\n",
  "test/login.test.sh": "exit 0\n",
  "supabase/policies.sql": "-- admin: app_metadata'->>'role' = 'admin'\n",
  "src/admin.js": "if (!isAdmin) redirect('/');\n",
};

/**
 * A repository with `base` committed on `main`, then on branch `pr` the
 * `head` changes (a path → text, or `null` to delete) committed. Returns the root.
 */
export function baseAndHead(
  head: Record<string, string | null>,
  base: Record<string, string> = BASE_FILES,
): string {
  const root = tempDir("cg-integrity-");
  writeTree(root, base);
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  git(root, "checkout", "-q", "-b", "pr");
  applyHead(root, head);
  return root;
}

/** Write or delete files and commit them on the current branch. */
export function applyHead(root: string, head: Record<string, string | null>, message = "head") {
  for (const [path, text] of Object.entries(head)) {
    if (text === null) rmSync(join(root, path), { force: true });
    else writeTree(root, { [path]: text });
  }
  git(root, "add", "-A");
  git(root, "commit", "-q", "--allow-empty", "-m", message);
}
