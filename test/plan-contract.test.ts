import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseJsonDocument } from "../src/formats/json/document.js";
import { parsePlanContract } from "../src/formats/plan-contract/index.js";
import { ruleProblems } from "../src/formats/plan-contract/rules.js";
import type { Contract, PlanHeader } from "../src/model/contract.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";

const FIXTURES = "test/fixtures/plan-contract";

function fixtureBytes(rel: string): Uint8Array {
  return readFileSync(new URL(`fixtures/plan-contract/${rel}`, import.meta.url));
}

/** Parse a fixture under its repo-relative path, as the loader would. */
function parseFixture(rel: string): Contract {
  return parsePlanContract(`${FIXTURES}/${rel}`, fixtureBytes(rel));
}

/** `code line:column`, the part of a problem the fixture table pins down. */
function codesAt(contract: Contract): string[] {
  return contract.problems.map((p) => `${p.code} ${p.line}:${p.column}`);
}

function header(contract: Contract): PlanHeader {
  if (contract.header.kind !== "plan-contract") throw new Error("not a plan header");
  return contract.header;
}

const encode = (text: string) => new TextEncoder().encode(text);

/** The minimal valid fixture, changed by `edit`, as bytes: for one-off cases. */
function minimalWith(edit: (contract: Record<string, unknown>) => void): Uint8Array {
  const contract = JSON.parse(
    new TextDecoder().decode(fixtureBytes("valid-minimal/phase-1-contract.json")),
  );
  edit(contract);
  return encode(JSON.stringify(contract, null, 2));
}

function task(id: string, wave: number, dependsOn: string[]) {
  return {
    id,
    title: `task ${id}`,
    wave,
    depends_on: dependsOn,
    files_modify: [],
    files_create: [],
    files_delete: [],
    acceptance_criteria: ["it works"],
    action: "Do it.",
    context_files: [],
    verification: [{ type: "file-exists", path: `src/${id}.ts` }],
  };
}

const ALL_CRITERIA = ["T1.1", "T1.2", "T1.3", "T2.1"];

// Every fixture with the exact problems it must yield (code and position) and
// the criteria that are still safe to build from it.
const CASES: { fixture: string; problems: string[]; criteria: string[] }[] = [
  { fixture: "valid/phase-2-contract.json", problems: [], criteria: ALL_CRITERIA },
  { fixture: "valid-minimal/phase-1-contract.json", problems: [], criteria: ["T1.1"] },
  {
    fixture: "rule-01-duplicate-id/phase-2-contract.json",
    problems: ["duplicate-task-id 83:13"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "rule-02-invalid-id/phase-2-contract.json",
    problems: ["invalid-task-id 48:13"],
    criteria: ["T1.1", "T1.2", "T1.3", "task-2.1"],
  },
  {
    fixture: "rule-03-unknown-dependency/phase-2-contract.json",
    problems: ["unknown-dependency 51:28"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "rule-04-cycle/phase-2-contract.json",
    problems: ["dependency-cycle 14:22"],
    criteria: [...ALL_CRITERIA, "T3.1"],
  },
  {
    fixture: "rule-05-wave-order/phase-2-contract.json",
    problems: ["wave-order 50:15"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "rule-06-no-verification/phase-2-contract.json",
    problems: ["no-verification 63:23"],
    criteria: ["T1.1", "T1.2", "T1.3"],
  },
  {
    fixture: "rule-07-file-overlap/phase-2-contract.json",
    problems: ["file-list-overlap 17:50", "file-list-overlap 18:24"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "rule-08-unsafe-command/phase-2-contract.json",
    problems: ["unsafe-command 34:22", "unsafe-command 47:22"],
    criteria: ["T1.1", "T1.3", "T2.1"],
  },
  {
    fixture: "rule-09-no-success-criteria/phase-2-contract.json",
    problems: ["no-success-criteria 83:23"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "rule-10-action-too-long/phase-2-contract.json",
    problems: ["action-too-long 24:17"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "rule-11-invalid-evidence/phase-2-contract.json",
    problems: ["invalid-evidence 69:23", "invalid-evidence 75:26"],
    criteria: ["T1.1", "T1.2", "T1.3"],
  },
  { fixture: "json-syntax/phase-1-contract.json", problems: ["json-syntax 5:3"], criteria: [] },
  { fixture: "json-comment/phase-1-contract.json", problems: ["json-syntax 8:3"], criteria: [] },
  {
    fixture: "json-trailing-comma/phase-1-contract.json",
    problems: ["json-syntax 30:65"],
    criteria: [],
  },
  {
    fixture: "json-duplicate-key/phase-1-contract.json",
    problems: ["json-duplicate-key 13:7"],
    criteria: ["T1.1"],
  },
  {
    fixture: "unknown-key-typo/phase-2-contract.json",
    problems: ["unknown-key 30:11"],
    criteria: ["T1.2", "T1.3", "T2.1"],
  },
  {
    fixture: "missing-key/phase-2-contract.json",
    problems: ["missing-key 1:1", "missing-key 9:5"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "wrong-type/phase-2-contract.json",
    problems: ["wrong-type 3:12", "wrong-type 35:19", "wrong-type 50:15"],
    criteria: ["T1.1", "T1.3", "T2.1"],
  },
  {
    fixture: "invalid-value/phase-2-contract.json",
    problems: [
      "invalid-value 4:11",
      "invalid-value 6:19",
      "invalid-value 7:19",
      "invalid-value 15:18",
      "invalid-value 36:28",
      "invalid-value 37:25",
      "invalid-value 43:21",
      "invalid-value 81:19",
    ],
    criteria: ["T1.1", "T2.1"],
  },
  {
    fixture: "unsupported-version/phase-2-contract.json",
    problems: ["unsupported-version 2:14"],
    criteria: [],
  },
  {
    fixture: "persona-deprecated/phase-2-contract.json",
    problems: ["persona-deprecated 15:18"],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "unsafe-path-lists/phase-2-contract.json",
    problems: [
      "unsafe-path 16:24",
      "unsafe-path 17:24",
      "unsafe-path 18:24",
      // context_files is advisory: warnings, and every check still runs.
      "advisory-path 25:25",
      "advisory-path 25:39",
      "advisory-path 25:72",
    ],
    criteria: ALL_CRITERIA,
  },
  {
    fixture: "unsafe-path-checks/phase-2-contract.json",
    problems: ["unsafe-path 29:19", "unsafe-path 38:18", "unsafe-path 42:19"],
    // T1.4 is a grep-match over the glob `src/**/*.{ts,tsx}`: globs are fine.
    criteria: ["T1.4", "T2.1"],
  },
  {
    fixture: "invalid-regex/phase-2-contract.json",
    problems: ["invalid-regex 38:34", "invalid-regex 43:22"],
    criteria: ["T1.1", "T2.1"],
  },
  {
    fixture: "phase-mismatch/phase-3-contract.json",
    problems: ["phase-mismatch 3:12"],
    criteria: ALL_CRITERIA,
  },
  { fixture: "crlf/phase-2-contract.json", problems: [], criteria: ALL_CRITERIA },
  { fixture: "bom/phase-2-contract.json", problems: [], criteria: ALL_CRITERIA },
  { fixture: "invalid-utf8/phase-2-contract.json", problems: ["invalid-utf8 4:26"], criteria: [] },
  { fixture: "nul-byte/phase-2-contract.json", problems: ["nul-byte 5:18"], criteria: [] },
];

describe("plan-contract fixtures", () => {
  it.each(CASES)("$fixture", ({ fixture, problems, criteria }) => {
    const contract = parseFixture(fixture);
    expect(contract.kind).toBe("plan-contract");
    expect(contract.path).toBe(`${FIXTURES}/${fixture}`);
    expect(codesAt(contract)).toEqual(problems);
    expect(contract.criteria.map((c) => c.id)).toEqual(criteria);
    for (const p of contract.problems) {
      expect(p.path).toBe(`${FIXTURES}/${fixture}`);
      expect(p.severity).toBe(PROBLEM_CODES[p.code].severity);
    }
  });
});

describe("plan-contract model", () => {
  it("reads the format's example into header and criteria", () => {
    const contract = parseFixture("valid/phase-2-contract.json");
    const h = header(contract);
    expect(h).toMatchObject({
      kind: "plan-contract",
      version: 1,
      phase: 2,
      goal: "Authenticated users can sign in with email/password and reach the dashboard.",
      generatedBy: "planner",
      sourcePlanHash: "sha256:9c1ae6f2b4d8e1f3a5c7b9d0e2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9",
      sourcePlanHashLocation: {
        path: `${FIXTURES}/valid/phase-2-contract.json`,
        line: 8,
        column: 23,
      },
      planPath: `${FIXTURES}/valid/phase-2-plan.md`,
    });
    expect(h.tasks.map((t) => [t.id, t.title, t.wave, t.dependsOn, t.location.line])).toEqual([
      ["T1", "Add email/password sign-in handler", 1, [], 10],
      ["T2", "Wire sign-in form to handler", 2, ["T1"], 50],
    ]);
    expect(h.successCriteria).toHaveLength(3);
    expect(contract.criteria.map((c) => [c.id, c.group, c.title])).toEqual([
      ["T1.1", "T1", "file-exists src/lib/auth-schema.ts"],
      ["T1.2", "T1", "command-exit npx tsc --noEmit"],
      ["T1.3", "T1", "grep-match signInWithPassword in src/lib/auth.ts (present)"],
      ["T2.1", "T2", "behavioral: Form submission with valid creds redirects to /dashboard"],
    ]);
  });

  it("maps every check type to the camelCase model, located at the check object", () => {
    const path = `${FIXTURES}/valid/phase-2-contract.json`;
    const [fileExists, command, grep, behavioral] = parseFixture(
      "valid/phase-2-contract.json",
    ).criteria;
    expect(fileExists?.location).toEqual({ path, line: 30, column: 9 });
    expect(fileExists?.checks).toEqual([
      {
        type: "file-exists",
        location: { path, line: 30, column: 9 },
        path: "src/lib/auth-schema.ts",
        mustContain: "z.object",
      },
    ]);
    expect(command?.checks).toEqual([
      {
        type: "command-exit",
        location: { path, line: 35, column: 9 },
        command: "npx",
        args: ["tsc", "--noEmit"],
        expectedExit: 0,
        timeoutMs: 60000,
      },
    ]);
    expect(grep?.checks[0]).toMatchObject({
      type: "grep-match",
      path: "src/lib/auth.ts",
      pattern: "signInWithPassword",
      expect: "present",
    });
    expect(behavioral?.checks[0]).toMatchObject({
      type: "behavioral",
      description: "Form submission with valid creds redirects to /dashboard",
      evidenceRequired: [
        {
          path: "src/app/(auth)/signin/page.tsx",
          matcher: "redirect\\(['\"]/dashboard",
          description: "redirect() call targeting /dashboard after successful signin",
        },
        {
          path: "src/app/(auth)/signin/page.tsx",
          matcher: "useFormState|action=",
          description: "form is wired to a server action or POST handler",
        },
      ],
    });
  });

  it("defaults timeout_ms to 30000 and keeps cwd and expect_stdout_match", () => {
    const bytes = minimalWith((c) => {
      (c.tasks as { verification: unknown[] }[])[0]!.verification = [
        {
          type: "command-exit",
          command: "node",
          args: ["--version"],
          cwd: "tools",
          expected_exit: 0,
          expect_stdout_match: "^v\\d+",
        },
      ];
    });
    const [criterion] = parsePlanContract(".planning/phase-1-contract.json", bytes).criteria;
    expect(criterion?.checks[0]).toMatchObject({
      type: "command-exit",
      timeoutMs: 30000,
      cwd: "tools",
      expectStdoutMatch: "^v\\d+",
    });
  });

  it("knows the plan path from the file name only, numeric or not", () => {
    const bytes = fixtureBytes("valid-minimal/phase-1-contract.json");
    expect(header(parsePlanContract(".planning/phase-07-contract.json", bytes)).planPath).toBe(
      ".planning/phase-07-plan.md",
    );
    expect(header(parsePlanContract("phase-1-contract.json", bytes)).planPath).toBe(
      "phase-1-plan.md",
    );
    // A named phase pairs by name, and its `phase` is not compared with the name.
    const named = parsePlanContract(".planning/phase-invoicing-reliability-contract.json", bytes);
    expect(header(named).planPath).toBe(".planning/phase-invoicing-reliability-plan.md");
    expect(named.problems.map((p) => p.code)).not.toContain("phase-mismatch");
    // Another name pairs with nothing: the JSON's phase never chooses a plan.
    expect(header(parsePlanContract("contracts/auth.json", bytes)).planPath).toBeUndefined();
  });

  it("distinguishes an absent source_plan_hash from an empty one", () => {
    const absent = parsePlanContract(
      "p/phase-1-contract.json",
      fixtureBytes("valid-minimal/phase-1-contract.json"),
    );
    expect(absent.problems).toEqual([]);
    expect(header(absent).sourcePlanHash).toBeUndefined();
    expect(header(absent).sourcePlanHashLocation).toEqual({
      path: "p/phase-1-contract.json",
      line: 1,
      column: 1,
    });

    const empty = parsePlanContract(
      "p/phase-1-contract.json",
      minimalWith((c) => {
        c.source_plan_hash = "";
      }),
    );
    expect(empty.problems).toEqual([]);
    expect(header(empty).sourcePlanHash).toBe("");
    expect(header(empty).sourcePlanHashLocation.line).toBeGreaterThan(1);

    const wrong = parsePlanContract(
      "p/phase-1-contract.json",
      minimalWith((c) => {
        c.source_plan_hash = 42;
      }),
    );
    expect(wrong.problems.map((p) => p.code)).toEqual(["wrong-type"]);
    expect(header(wrong).sourcePlanHash).toBeUndefined();
  });
});

describe("plan-contract messages", () => {
  it("names the cycle, starting at its earliest task", () => {
    const [cycle] = parseFixture("rule-04-cycle/phase-2-contract.json").problems;
    expect(cycle?.message).toBe("dependency cycle: T1 → T3 → T1");
  });

  it("reports each cycle once, including cycles that share a task and self-loops", () => {
    const bytes = minimalWith((c) => {
      c.tasks = [
        task("T1", 1, ["T2", "T3"]),
        task("T2", 2, ["T1"]),
        task("T3", 3, ["T1"]),
        task("T4", 4, ["T4"]),
        task("T5", 5, ["T1"]),
      ];
    });
    const contract = parsePlanContract("c/phase-1-contract.json", bytes);
    expect(contract.problems.map((p) => p.message)).toEqual([
      "dependency cycle: T1 → T2 → T1",
      "dependency cycle: T1 → T3 → T1",
      "dependency cycle: T4 → T4",
    ]);
  });

  it("finds a cycle through a chain deeper than the call stack", () => {
    // Rules alone (no schema), so the test stays fast: 20 000 bare tasks fit in
    // 1 MiB and would overflow a recursive depth-first search.
    const n = 20_000;
    const tasks = Array.from({ length: n }, (_, i) => ({
      id: `T${i + 1}`,
      depends_on: [`T${i === n - 1 ? 1 : i + 2}`],
    }));
    const parsed = parseJsonDocument("c/phase-1-contract.json", JSON.stringify({ tasks }));
    // Bare tasks have no checks: the contract also checks nothing (`no-criteria`).
    const problems = ruleProblems(parsed.document!, undefined).filter(
      (p) => p.code !== "no-criteria",
    );
    expect(problems.map((p) => p.code)).toEqual(["dependency-cycle"]);
    expect(problems[0]?.message).toBe(
      "dependency cycle: T1 → T2 → T3 → T4 → T5 → T6 → T7 → T8 → … 19985 more … → T19994 → T19995 → T19996 → T19997 → T19998 → T19999 → T20000 → T1",
    );
  });

  it("names the first 50 cycles and summarises the rest", () => {
    // A hub every task depends on and that depends on every task: 80 cycles.
    const spokes = Array.from({ length: 80 }, (_, i) => ({ id: `T${i + 1}`, depends_on: ["T0"] }));
    const hub = { id: "T0", depends_on: spokes.map((t) => t.id) };
    const parsed = parseJsonDocument(
      "c/phase-1-contract.json",
      JSON.stringify({ tasks: [hub, ...spokes] }),
    );
    const messages = ruleProblems(parsed.document!, undefined)
      .filter((p) => p.code === "dependency-cycle")
      .map((p) => p.message);
    expect(messages).toHaveLength(51);
    expect(messages[0]).toBe("dependency cycle: T0 → T1 → T0");
    expect(messages[49]).toBe("dependency cycle: T0 → T50 → T0");
    expect(messages[50]).toBe(
      "30 more tasks are on dependency cycles: T51, T52, T53, T54, T55, T56, T57, T58, T59, T60, …",
    );
  });

  it("explains wave order in terms of both tasks", () => {
    const [p] = parseFixture("rule-05-wave-order/phase-2-contract.json").problems;
    expect(p?.message).toBe(
      "T2 is in wave 1 but depends on T1 in wave 1; its wave must be greater than 1",
    );
  });

  it("suggests the closest key for a typo", () => {
    const [p] = parseFixture("unknown-key-typo/phase-2-contract.json").problems;
    expect(p?.message).toBe('tasks[0].verification[0]: unknown key "must_contian"');
    expect(p?.hint).toBe('did you mean "must_contain"?');
  });

  it("lists the allowed keys when no key is close", () => {
    const contract = parsePlanContract(
      "c/phase-1-contract.json",
      minimalWith((c) => {
        c.reviewers = ["ana"];
      }),
    );
    expect(contract.problems).toHaveLength(1);
    expect(contract.problems[0]?.hint).toMatch(/^allowed keys: version, phase, goal, /);
  });

  it("names the key and the line of the first occurrence of a duplicate key", () => {
    const [p] = parseFixture("json-duplicate-key/phase-1-contract.json").problems;
    expect(p?.message).toBe('duplicate key "title"; it is already defined on line 11');
  });

  it("reports an unsupported version once and nothing else", () => {
    const { problems } = parseFixture("unsupported-version/phase-2-contract.json");
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toBe("version 2 is not supported; contract-gate reads version 1");
  });

  it("names the offending command character and shows the args fix", () => {
    const [space, pipe] = parseFixture("rule-08-unsafe-command/phase-2-contract.json").problems;
    expect(space?.message).toContain("contains a space");
    expect(space?.hint).toContain('"command": "npx", "args": ["tsc", "--noEmit"]');
    expect(pipe?.message).toContain("contains `|`");
  });

  it("rejects every shell metacharacter and whitespace in a command", () => {
    for (const char of [..." \t\n;&|`$()<>*?[]{}~!#'\"\\", "\u00a0"]) {
      const contract = parsePlanContract(
        "c/phase-1-contract.json",
        minimalWith((c) => {
          (c.tasks as { verification: unknown[] }[])[0]!.verification = [
            { type: "command-exit", command: `npm${char}x`, args: [], expected_exit: 0 },
          ];
        }),
      );
      expect(contract.problems.map((p) => p.code)).toEqual(["unsafe-command"]);
      expect(contract.criteria).toEqual([]);
    }
  });

  it("gives the length of a too-long action and accepts exactly 500 characters", () => {
    const [p] = parseFixture("rule-10-action-too-long/phase-2-contract.json").problems;
    expect(p?.message).toBe("tasks[0].action is 501 characters; the limit is 500");
    const atLimit = minimalWith((c) => {
      (c.tasks as { action: string }[])[0]!.action = "é".repeat(500);
    });
    expect(parsePlanContract("c/phase-1-contract.json", atLimit).problems).toEqual([]);
  });

  it("names the file and both lists of an overlap", () => {
    const [first] = parseFixture("rule-07-file-overlap/phase-2-contract.json").problems;
    expect(first?.message).toBe('T1: "src/lib/auth.ts" is in both files_modify and files_create');
  });

  it("shows zod-style paths in schema messages", () => {
    const messages = parseFixture("wrong-type/phase-2-contract.json").problems.map(
      (p) => p.message,
    );
    expect(messages).toEqual([
      'phase must be a number, got string "2"',
      'tasks[0].verification[1].args must be an array, got string "tsc --noEmit"',
      'tasks[1].wave must be a number, got string "2"',
    ]);
    const invalid = parseFixture("invalid-value/phase-2-contract.json").problems;
    expect(invalid.at(-1)?.message).toBe(
      'tasks[1].verification[1].type is "shell", not a check type; expected one of "file-exists", "grep-match", "command-exit" or "behavioral"',
    );
  });

  it("reports missing keys at the enclosing object", () => {
    expect(
      parseFixture("missing-key/phase-2-contract.json").problems.map((p) => p.message),
    ).toEqual(['missing required key "why"', 'tasks[0]: missing required key "title"']);
  });

  it("runs the rules on well-typed parts even when the schema fails elsewhere", () => {
    const bytes = minimalWith((c) => {
      c.generated_by = 7;
      c.tasks = [
        { ...task("T1", 1, ["T2"]), wave: "one" },
        task("T2", 2, ["T1"]),
        { ...task("T3", 3, []), files_create: ["/abs.ts"], action: "x".repeat(501) },
      ];
    });
    const codes = parsePlanContract("c/phase-1-contract.json", bytes).problems.map((p) => p.code);
    expect(codes.sort()).toEqual([
      "action-too-long",
      "dependency-cycle",
      "unsafe-path",
      "wrong-type",
      "wrong-type",
    ]);
  });
});

describe("plan-contract input hygiene", () => {
  it("yields identical problems and criteria for CRLF and LF", () => {
    const crlf = fixtureBytes("crlf/phase-2-contract.json");
    // Guard: if git ever normalised the fixture, this test would prove nothing.
    expect(Buffer.from(crlf).includes("\r\n")).toBe(true);
    const path = ".planning/phase-2-contract.json";
    const lf = parsePlanContract(path, fixtureBytes("valid/phase-2-contract.json"));
    expect(parsePlanContract(path, crlf)).toEqual(lf);

    // The same holds for an invalid contract, problem positions included.
    const broken = new TextDecoder().decode(fixtureBytes("invalid-value/phase-2-contract.json"));
    expect(parsePlanContract(path, encode(broken.replace(/\n/g, "\r\n")))).toEqual(
      parsePlanContract(path, encode(broken)),
    );
  });

  it("ignores a UTF-8 byte order mark", () => {
    const bom = fixtureBytes("bom/phase-2-contract.json");
    expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const path = ".planning/phase-2-contract.json";
    expect(parsePlanContract(path, bom)).toEqual(
      parsePlanContract(path, fixtureBytes("valid/phase-2-contract.json")),
    );
  });

  it("stops at the first JSON syntax error", () => {
    const { problems, criteria } = parseFixture("json-syntax/phase-1-contract.json");
    expect(problems.map((p) => p.message)).toEqual(["invalid JSON: comma expected"]);
    expect(criteria).toEqual([]);
  });

  it("says why comments and trailing commas fail", () => {
    expect(parseFixture("json-comment/phase-1-contract.json").problems[0]?.hint).toBe(
      "JSON has no comments; remove them",
    );
    expect(parseFixture("json-trailing-comma/phase-1-contract.json").problems[0]?.hint).toBe(
      "remove the trailing comma before the closing bracket",
    );
  });

  it.each([
    ["", "json-syntax 1:1"],
    ["  \n ", "json-syntax 1:1"],
    ["{} {}", "json-syntax 1:4"],
    ["\u00a0{}", "json-syntax 1:1"],
    ["[]", "wrong-type 1:1"],
    ["null", "wrong-type 1:1"],
  ])("refuses %j", (text, expected) => {
    const contract = parsePlanContract("c/phase-1-contract.json", encode(text));
    expect(codesAt(contract)).toEqual([expected]);
    expect(contract.criteria).toEqual([]);
  });

  it("refuses absurd nesting with a problem instead of a stack overflow", () => {
    const contract = parsePlanContract("c/phase-1-contract.json", encode("[".repeat(500_000)));
    expect(codesAt(contract)).toEqual(["json-syntax 1:65"]);
  });

  it("does not let __proto__ or constructor keys reach prototypes", () => {
    const bytes = minimalWith(() => {});
    const text = new TextDecoder()
      .decode(bytes)
      .replace('"version": 1,', '"version": 1, "__proto__": {"phase": 9}, "constructor": 1,');
    const contract = parsePlanContract("c/phase-1-contract.json", encode(text));
    expect(contract.problems.map((p) => p.code)).toEqual(["unknown-key", "unknown-key"]);
    expect(header(contract).phase).toBe(1);
  });
});
