import { describe, expect, it } from "vitest";
import { kindOf } from "../src/formats/index.js";
import { DEFAULT_CONTRACT_GLOBS } from "../src/formats/kinds/index.js";
import { phaseFiles } from "../src/formats/kinds/phase-files.js";
import { planHash } from "../src/formats/plan-hash.js";
import { compareContracts, supersededPaths, type VersionPair } from "../src/integrity/compare.js";
import type { RunContext } from "../src/integrity/successor-runs.js";
import { comparedKind, type Finding, orderFindings } from "../src/integrity/types.js";
import { type ContractVersion, version } from "../src/integrity/version.js";
import type { Contract } from "../src/model/contract.js";
import { contractPaths } from "../src/scope/contract-path.js";
import {
  BASE_FILES,
  checkOf,
  hashOf,
  ORACLE_BASE,
  ORACLE_PATH,
  PLAN_BASE,
  PLAN_CONTRACT_PATH,
  PLAN_PATH,
  planContract,
} from "./helpers/integrity-repo.js";

// A pull request's contract edits against their base, as table rows over the
// pure comparison: files in, findings out, no git. The same fixtures as the
// CLI tests (test/integrity-cli.test.ts), which keep the cases that prove the
// wiring: the base read from git, plans read beside their contracts, rename
// detection, exit codes and the rendered output.

type Files = Record<string, string>;
/** The head's changes: a path → its text, or `null` for deleted. */
type Head = Record<string, string | null>;

const encoder = new TextEncoder();
const isContract = contractPaths(DEFAULT_CONTRACT_GLOBS).isContract;

/** A contract as the gate reads it from `files`, with its plan's digest for a plan contract. */
function versionIn(files: Files, path: string): ContractVersion | undefined {
  const text = files[path];
  const kind = comparedKind(kindOf(path));
  if (text === undefined || kind === undefined) return undefined;
  const bytes = encoder.encode(text);
  if (kind !== "plan-contract") return version(kind, path, bytes, bytes.length);
  const plan = phaseFiles(path)?.plan;
  const planText = plan === undefined ? undefined : files[plan];
  const digest = planText === undefined ? null : planHash(encoder.encode(planText));
  return version(kind, path, bytes, bytes.length, digest);
}

/**
 * The findings of a PR that applies `head` to `base`, in the order every
 * surface shows them. Each changed contract path is one pair; a file moved out
 * of the globs is a deletion, as git's rename detection leaves it to the gate.
 */
function compare(head: Head, base: Files = BASE_FILES, run: RunContext = {}): Finding[] {
  const after: Files = { ...base };
  for (const [path, text] of Object.entries(head)) {
    if (text === null) delete after[path];
    else after[path] = text;
  }
  const pairs: VersionPair[] = Object.keys(head)
    .filter(isContract)
    .sort()
    .map((path) => {
      const b = versionIn(base, path);
      const h = versionIn(after, path);
      return { ...(b && { base: b }), ...(h && { head: h }) };
    });
  // Every oracle contract at head may supersede one: the CLI discovers them all.
  const heads: Contract[] = Object.keys(after)
    .filter((p) => isContract(p) && kindOf(p) === "oracle-contract")
    .flatMap((p) => versionIn(after, p)?.contract ?? []);
  return orderFindings(
    compareContracts(
      pairs,
      supersededPaths(heads),
      new Map(),
      new Map(heads.map((c) => [c.path, c])),
      new Set(Object.keys(head)),
      run,
    ),
  );
}

const codes = (fs: readonly Finding[]) => fs.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);
const edit = (from: string, to: string): Head => {
  if (!ORACLE_BASE.includes(from)) throw new Error(`fixture lacks ${from}`);
  return { [ORACLE_PATH]: ORACLE_BASE.replace(from, to) };
};
const weakened = (change: (c: Record<string, unknown>) => void): Head => ({
  [PLAN_CONTRACT_PATH]: planContract(PLAN_BASE, change),
});
const tasksOf = (c: Record<string, unknown>) => c.tasks as Record<string, unknown>[];

interface Row {
  case: string;
  head: Head;
  base?: Files;
  /** The run a successor would take part in (the PR's branch, the scope). */
  run?: RunContext;
  /**
   * `B code` (blocking) or `W code` (a warning), in the surfaces' order; `[]`:
   * no finding. Unset when the case pins no list (`also` says what it pins).
   */
  codes?: string[];
  /** Compare the codes as a set (the case does not pin the order). */
  unordered?: true;
  /** Fields of the finding at an index, or of the first one with a code. */
  fields?: [number | string, Partial<Finding>][];
  /** Anything else the case asserts. */
  also?: (findings: Finding[]) => void;
}

const REGRESSION =
  "2. the regression test reproduces the loop and passes\n   CHECK: test -f test/login.test.sh && echo REGRESSION-OK\n   EXPECT: REGRESSION-OK\n   EVIDENCE: pending\n";
const NEXT_PATH = ".claude/tasks/contracts/2026-03-05-login-logout-1000.md";
const NEXT = ORACLE_BASE.replace(
  "- status: active",
  `- status: active\n- supersedes: ${ORACLE_PATH}`,
).replace("fix it", "and the logout loop too");
const manualBase = planContract(PLAN_BASE, (c) => {
  c.generated_by = "manual";
});
/** A manual contract whose lint check must also print "no issues". */
const manualLinted = planContract(PLAN_BASE, (c) => {
  c.generated_by = "manual";
  checkOf(c, 0, 2).expect_stdout_match = "^no issues$";
});
const regenerated = `${PLAN_BASE}\nThe lint step moved to CI.\n`;
const extended = `${PLAN_BASE}\nAlso audit the admin area.\n`;
/** A finding's message up to its `(plan and …)` tail: what changed, where. */
const said = (f: Finding) => f.message.split(" (plan and")[0];

const MARKDOWN: Row[] = [
  {
    case: "a head identical to base but for EVIDENCE write-back: no finding (control)",
    head: edit("   EVIDENCE: pending\n2.", "   EVIDENCE: MET 2026-03-02 exit 0\n2."),
    codes: [],
  },
  {
    case: "REQUEST changed blocks, with before → after at the head line",
    head: edit("fix it\n", "make the loop rarer\n"),
    codes: ["B request-changed"],
    fields: [
      [
        0,
        {
          path: ORACLE_PATH,
          line: 6,
          before: "the login page redirects forever after a password reset, fix it",
          after: "the login page redirects forever after a password reset, make the loop rarer",
        },
      ],
    ],
  },
  {
    case: "a deleted criterion blocks",
    head: edit(REGRESSION, ""),
    codes: ["B criterion-removed"],
    fields: [[0, { before: "2. the regression test reproduces the loop and passes" }]],
  },
  {
    case: "abandoning a criterion instead of deleting it: no finding (control)",
    head: edit(
      "ABANDON: 3 copy",
      "ABANDON: 2 the test runner is broken on CI; handed to infra\nABANDON: 3 copy",
    ),
    codes: [],
  },
  {
    case: "a renumbered criterion blocks",
    head: edit(
      `${REGRESSION}3. the reset e-mail copy reads well\n\nABANDON: 3`,
      `${REGRESSION.replace("2.", "3.")}4. the reset e-mail copy reads well\n\nABANDON: 4`,
    ),
    codes: ["B criterion-renumbered", "B criterion-renumbered"],
    fields: [
      [
        0,
        {
          before: "2. the regression test reproduces the loop and passes",
          after: "3. the regression test reproduces the loop and passes",
        },
      ],
    ],
  },
  {
    case: "runnable → manual blocks",
    head: edit(
      "   CHECK: grep -q resetDone src/login.js && echo LOOP-GONE\n   EXPECT: LOOP-GONE\n   EVIDENCE: pending\n",
      "",
    ),
    codes: ["B oracle-removed"],
  },
  {
    case: "an EXPECT change blocks",
    head: edit("   EXPECT: LOOP-GONE", "   EXPECT: /.*/"),
    codes: ["B oracle-changed"],
    fields: [[0, { before: "LOOP-GONE", after: "/.*/", line: 13 }]],
  },
  {
    case: "a CHECK change blocks",
    head: edit("CHECK: grep -q resetDone src/login.js && echo LOOP-GONE", "CHECK: echo LOOP-GONE"),
    codes: ["B oracle-changed"],
    fields: [[0, { after: "echo LOOP-GONE" }]],
  },
  {
    case: "a CWD added blocks",
    head: edit("   EXPECT: LOOP-GONE\n", "   EXPECT: LOOP-GONE\n   CWD: src\n"),
    codes: ["B oracle-changed"],
    fields: [[0, { before: "(none)", after: "src" }]],
  },
  {
    case: "a manual criterion that gains CHECK and EXPECT blocks",
    head: edit(
      "3. the reset e-mail copy reads well\n",
      "3. the reset e-mail copy reads well\n   CHECK: echo COPY-OK\n   EXPECT: COPY-OK\n   EVIDENCE: pending\n",
    ),
    codes: ["B oracle-changed", "B oracle-changed"],
  },
  {
    case: "an ABANDON removed blocks",
    head: edit("ABANDON: 3 copy needs the design team; handed over in the final report\n", ""),
    codes: ["B abandon-changed"],
  },
  {
    case: "an ABANDON rewritten blocks",
    head: edit("copy needs the design team", "copy is fine"),
    codes: ["B abandon-changed"],
  },
  {
    case: "status changed (to aborted too) blocks",
    head: edit("- status: active", "- status: aborted"),
    codes: ["B status-changed"],
    fields: [[0, { line: 3, before: "active", after: "aborted" }]],
  },
  {
    case: "an edited CLARIFICATIONS entry blocks",
    head: edit("A: yes, every browser", "A: only Chrome"),
    codes: ["B clarification-changed"],
  },
  {
    case: "a [gated] CLARIFICATIONS append: no finding (control)",
    head: edit(
      "A: yes, every browser\n",
      "A: yes, every browser\nQ: mobile? / A: later [gated 2026-03-02]\n",
    ),
    codes: [],
  },
  {
    case: "a `none` CLARIFICATIONS placeholder replaced is an (ungated) append; an edited FILE SCOPE entry warns",
    base: {
      ...BASE_FILES,
      [ORACLE_PATH]: ORACLE_BASE.replace(
        "Q: every browser? / A: yes, every browser",
        "(or: none — request complete)",
      ),
    },
    head: { [ORACLE_PATH]: ORACLE_BASE.replace("src/login.js\n", "src/**\n") },
    codes: ["W file-scope-edited", "W ungated-append"],
    unordered: true,
    fields: [["file-scope-edited", { before: "src/login.js", after: "src/**" }]],
  },
  {
    case: "appends without [gated] and a reworded title are warnings",
    head: edit(
      "3. the reset e-mail copy reads well\n",
      "3. the reset e-mail copy is friendly\n4. the loop cannot come back\n5. a gated one [gated 2026-03-02]\n",
    ),
    codes: ["W criterion-reworded", "W ungated-append"],
    unordered: true,
  },
  {
    case: "a FILE SCOPE append without [gated] is a warning",
    head: edit("test/login.test.sh\n", "test/login.test.sh\nsrc/**\n"),
    codes: ["W ungated-append"],
  },
  {
    case: "a deleted contract blocks",
    head: { [ORACLE_PATH]: null },
    codes: ["B contract-removed"],
    fields: [[0, { path: ORACLE_PATH, line: 1 }]],
  },
  {
    case: "a contract moved out of the contract globs blocks",
    head: { [ORACLE_PATH]: null, "docs/old-contract.md": ORACLE_BASE },
    codes: ["B contract-removed"],
  },
  {
    case: "a deleted contract a head contract supersedes is a warning (control)",
    head: { [ORACLE_PATH]: null, [NEXT_PATH]: NEXT },
    codes: ["W contract-superseded"],
  },
  {
    case: "a superseded contract that is edited instead of left alone blocks",
    head: {
      [ORACLE_PATH]: ORACLE_BASE.replace("   EXPECT: LOOP-GONE", "   EXPECT: /.*/"),
      [NEXT_PATH]: NEXT,
    },
    codes: ["B superseded-edited"],
  },
  {
    case: "a supersession that drops a blocking criterion blocks by its effect",
    head: {
      [ORACLE_PATH]: null,
      [NEXT_PATH]: ORACLE_BASE.replace(
        "- status: active",
        `- status: active\n- supersedes: ${ORACLE_PATH}`,
      ).replace("grep -q resetDone src/login.js && echo LOOP-GONE", "echo LOOP-GONE"),
    },
    codes: ["B criterion-weakened", "W contract-superseded"],
    fields: [[0, { subject: "criterion 1", path: NEXT_PATH }]],
  },
  {
    case: "a supersession that loosens an EXPECT to a looser regex (/LOOP/) blocks by its effect",
    head: {
      [ORACLE_PATH]: null,
      [NEXT_PATH]: NEXT.replace("   EXPECT: LOOP-GONE", "   EXPECT: /LOOP/"),
    },
    codes: ["B criterion-weakened", "W contract-superseded"],
    fields: [[0, { subject: "criterion 1", path: NEXT_PATH }]],
  },
  {
    case: "a supersession that drops an ABANDON blocks by its effect",
    head: {
      [ORACLE_PATH]: null,
      [NEXT_PATH]: NEXT.replace(
        "ABANDON: 3 copy needs the design team; handed over in the final report\n",
        "",
      ),
    },
    codes: ["B criterion-weakened", "W contract-superseded"],
    fields: [[0, { subject: "criterion 3", path: NEXT_PATH }]],
  },
  {
    case: "a supersession that removes an abandoned criterion blocks by its effect",
    head: {
      [ORACLE_PATH]: null,
      [NEXT_PATH]: NEXT.replace("3. the reset e-mail copy reads well\n", "").replace(
        "ABANDON: 3 copy needs the design team; handed over in the final report\n",
        "",
      ),
    },
    codes: ["B criterion-weakened", "W contract-superseded"],
    fields: [[0, { subject: "criterion 3", path: NEXT_PATH }]],
  },
  {
    case: "a supersession whose successor runs on the PR's branch and in scope keeps every criterion (control)",
    head: { [ORACLE_PATH]: null, [NEXT_PATH]: NEXT },
    run: { headBranch: "fix/login-loop", scope: new Set([NEXT_PATH]) },
    codes: ["W contract-superseded"],
  },
  {
    case: "an aborted successor keeps nothing: each blocking criterion is removed, naming it and why",
    head: {
      [ORACLE_PATH]: null,
      [NEXT_PATH]: NEXT.replace("- status: active", "- status: aborted"),
    },
    codes: [
      "B criterion-removed",
      "B criterion-removed",
      "B criterion-removed",
      "W contract-superseded",
    ],
    fields: [
      [
        0,
        {
          path: NEXT_PATH,
          subject: "criterion 1",
          message: `criterion 1 (the redirect loop is gone) of ${ORACLE_PATH} could block at base; ${NEXT_PATH} supersedes it but runs nothing: it is aborted (\`status: aborted\`): an aborted contract runs nothing`,
        },
      ],
    ],
  },
  {
    case: "an invalid successor keeps nothing",
    head: {
      [ORACLE_PATH]: null,
      [NEXT_PATH]: NEXT.replace("   EXPECT: LOOP-GONE\n", ""),
    },
    also: (fs) => {
      const removed = fs.filter((f) => f.code === "criterion-removed");
      expect(removed.map((f) => f.subject)).toEqual(["criterion 1", "criterion 2", "criterion 3"]);
      expect(removed[0]?.message).toContain("it is invalid");
    },
  },
  {
    case: "a successor bound to another branch than the PR's keeps nothing",
    head: { [ORACLE_PATH]: null, [NEXT_PATH]: NEXT },
    run: { headBranch: "chore/cleanup" },
    codes: [
      "B criterion-removed",
      "B criterion-removed",
      "B criterion-removed",
      "W contract-superseded",
    ],
    fields: [
      [
        "criterion-removed",
        {
          message: expect.stringContaining(
            "`branch: fix/login-loop` binds it to another branch",
          ) as unknown as string,
        },
      ],
    ],
  },
  {
    case: "a successor outside the run's scope keeps nothing",
    head: { [ORACLE_PATH]: null, [NEXT_PATH]: NEXT },
    run: { scope: new Set<string>() },
    codes: [
      "B criterion-removed",
      "B criterion-removed",
      "B criterion-removed",
      "W contract-superseded",
    ],
    fields: [
      [
        "criterion-removed",
        { message: expect.stringContaining("outside this run's scope") as unknown as string },
      ],
    ],
  },
];

const JSON_PHASE: Row[] = [
  {
    case: "the real in-place edits block, each listed at field level with before → after",
    head: weakened((c) => {
      checkOf(c, 0, 0).pattern = "app_metadata";
      delete checkOf(c, 0, 1).must_contain;
      Object.assign(checkOf(c, 0, 2), {
        command: "node",
        args: ["-e", "try{require('child_process').execSync('supabase db lint')}catch{}"],
      });
      checkOf(c, 1, 1).expect = "present";
      (checkOf(c, 1, 0).evidence_required as unknown[]).pop();
    }),
    codes: Array(6).fill("B in-place-edit"),
    fields: [[0, { blocking: true, before: "app_metadata'->>'role'", after: "app_metadata" }]],
    also: (fs) => {
      expect(fs.map((f) => `${f.code} ${said(f)}`)).toEqual([
        "in-place-edit T1 check 1 (grep-match): pattern changed",
        "in-place-edit T1 check 2 (file-exists): must_contain was removed",
        "in-place-edit T1 check 3 (command-exit): args changed",
        "in-place-edit T1 check 3 (command-exit): command changed",
        "in-place-edit T2 check 1: an evidence_required entry was removed or changed",
        "in-place-edit T2 check 2 (grep-match): expect changed",
      ]);
      expect(fs.every((f) => f.blocking && f.line > 1)).toBe(true);
    },
  },
  {
    case: "present → absent, a dropped check and a replaced check type block",
    head: weakened((c) => {
      checkOf(c, 0, 0).expect = "absent";
      (tasksOf(c)[0]!.verification as unknown[]).splice(1, 1);
      tasksOf(c)[1]!.verification = [{ type: "file-exists", path: "src/admin.js" }];
    }),
    codes: Array(4).fill("B in-place-edit"),
    also: (fs) =>
      expect(fs.map(said).sort()).toEqual([
        "T1 check 1 (grep-match): expect flipped from present to absent",
        // Removed from the middle: one drop, not every later check "changed".
        "T1 check 2 (file-exists) was dropped",
        "T2 check 1 was replaced by a check of another type",
        "T2 check 2 (grep-match) was dropped",
      ]),
  },
  {
    case: "a dropped task and an edited success criterion block",
    head: weakened((c) => {
      (c.tasks as unknown[]).pop();
      c.success_criteria = ["admins see the admin area"];
    }),
    codes: ["B in-place-edit", "B in-place-edit"],
    also: (fs) => expect(fs.map((f) => f.subject)).toEqual(["task T2", "contract"]),
  },
  {
    case: "a regeneration (new plan, matching hash) that drops or changes a check blocks",
    head: {
      [PLAN_PATH]: regenerated,
      [PLAN_CONTRACT_PATH]: planContract(regenerated, (c) => {
        (tasksOf(c)[0]!.verification as unknown[]).pop();
        checkOf(c, 0, 0).pattern = "app_metadata'->>'role' = 'admin'";
      }),
    },
    codes: ["B regeneration-changed", "B regeneration-dropped"],
    unordered: true,
    fields: [
      [
        "regeneration-changed",
        { before: "app_metadata'->>'role'", after: "app_metadata'->>'role' = 'admin'" },
      ],
    ],
  },
  {
    case: "a regeneration that only adds a task and a check: no finding (honest twin)",
    head: {
      [PLAN_PATH]: extended,
      [PLAN_CONTRACT_PATH]: planContract(extended, (c) => {
        const tasks = tasksOf(c);
        (tasks[0]!.verification as unknown[]).push({
          type: "file-exists",
          path: "supabase/policies.sql",
          must_contain: "role",
        });
        tasks.push({ ...tasks[1]!, id: "T3", title: "Audit log", depends_on: ["T1"] });
      }),
    },
    codes: [],
  },
  {
    case: "a new plan with a hash that does not match it is no regeneration",
    head: {
      [PLAN_PATH]: regenerated,
      [PLAN_CONTRACT_PATH]: planContract(regenerated, (c) => {
        (tasksOf(c)[0]!.verification as unknown[]).pop();
        c.source_plan_hash = hashOf("something else");
      }),
    },
    codes: ["B in-place-edit", "B in-place-edit"],
    also: (fs) =>
      expect(fs.map((f) => f.subject).sort()).toEqual(["T1 check 3 (command-exit)", "contract"]),
  },
  {
    case: "flipping generated_by to manual is itself a finding",
    head: weakened((c) => {
      c.generated_by = "manual";
      checkOf(c, 0, 0).pattern = "app_metadata";
    }),
    codes: ["B generated-by-changed", "B in-place-edit"],
  },
  {
    case: "a base manual contract's weakened check blocks by its effect",
    base: { ...BASE_FILES, [PLAN_CONTRACT_PATH]: manualBase },
    head: weakened((c) => {
      c.generated_by = "manual";
      checkOf(c, 0, 0).pattern = "app_metadata";
    }),
    codes: ["B criterion-weakened", "W manual-edit"],
    fields: [[0, { subject: "criterion T1.1" }]],
  },
  {
    case: "a base manual contract's expect_stdout_match loosened blocks by its effect",
    base: { ...BASE_FILES, [PLAN_CONTRACT_PATH]: manualLinted },
    head: weakened((c) => {
      c.generated_by = "manual";
      checkOf(c, 0, 2).expect_stdout_match = ".*";
    }),
    codes: ["B criterion-weakened", "W manual-edit"],
    fields: [[0, { subject: "criterion T1.3" }]],
  },
  {
    case: "a base manual contract's expect_stdout_match kept: no finding (control)",
    base: { ...BASE_FILES, [PLAN_CONTRACT_PATH]: manualLinted },
    head: { [PLAN_CONTRACT_PATH]: JSON.stringify(JSON.parse(manualLinted)) },
    codes: [],
  },
  {
    case: "a manual contract that gains a check and rewords a title: warnings only (honest twin)",
    base: { ...BASE_FILES, [PLAN_CONTRACT_PATH]: manualBase },
    head: weakened((c) => {
      c.generated_by = "manual";
      const tasks = tasksOf(c);
      tasks[0]!.title = "Role check in the row-level security policy";
      (tasks[0]!.verification as unknown[]).push({
        type: "file-exists",
        path: "supabase/policies.sql",
        must_contain: "role",
      });
    }),
    // The case pins "some finding, none blocking", not which warnings.
    also: (fs) => {
      expect(fs.length).toBeGreaterThan(0);
      expect(fs.every((f) => !f.blocking)).toBe(true);
    },
  },
  {
    case: "a lower version blocks",
    head: weakened((c) => {
      c.version = 0;
    }),
    also: (fs) => expect(codes(fs)).toContain("B version-decreased"),
  },
  {
    case: "a deleted contract (and its plan) blocks",
    head: { [PLAN_CONTRACT_PATH]: null, [PLAN_PATH]: null },
    codes: ["B contract-removed"],
  },
  {
    case: "layout-only edits are no change (control)",
    head: { [PLAN_CONTRACT_PATH]: JSON.stringify(JSON.parse(planContract())) },
    codes: [],
  },
];

function check(row: Row) {
  const found = compare(row.head, row.base, row.run);
  if (row.codes !== undefined) {
    const got = codes(found);
    expect(row.unordered ? got.sort() : got).toEqual(
      row.unordered ? [...row.codes].sort() : row.codes,
    );
  }
  for (const [at, fields] of row.fields ?? []) {
    const f = typeof at === "number" ? found[at] : found.find((x) => x.code === at);
    expect(f).toMatchObject(fields);
  }
  row.also?.(found);
}

describe("markdown contracts against their base", () => {
  it.each(MARKDOWN)("$case", check);
});

describe("JSON phase contracts against their base", () => {
  it.each(JSON_PHASE)("$case", check);
});
