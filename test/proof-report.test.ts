import { describe, expect, it } from "vitest";
import type { ProvedTest, SpecProof } from "../src/proof/types.js";
import { plain } from "../src/report/paint.js";
import { proofMarkdown, proofTerminal } from "../src/report/proof.js";
import { RunReportSchema, runReportJson } from "../src/report/run-json.js";
import type { ContractOutcome, RunSummary } from "../src/verdict.js";
import { expectGolden } from "./helpers/golden.js";

const SPEC = "specs/001-trim/spec.md";
const at = (line: number) => ({ path: SPEC, line, column: 1 });

/** Every verdict of the grading table, a tamper finding of each severity and each guardrail form. */
const PROVED: SpecProof = {
  contract: SPEC,
  enabled: true,
  base: "0123456789abcdef0123456789abcdef01234567",
  runs: [
    {
      side: "head",
      command: "npx vitest run --reporter=junit --outputFile=/tmp/j.xml tests/trim.test.ts",
      preset: "vitest",
      chosenBy: "package.json devDependencies.vitest",
      exitCode: 1,
      durationMs: 1234,
    },
    {
      side: "base",
      command: "npx vitest run --reporter=junit --outputFile=/tmp/k.xml tests/trim.test.ts",
      preset: "vitest",
      chosenBy: "package.json devDependencies.vitest",
      exitCode: 1,
      durationMs: 987,
    },
  ],
  tests: [
    ["FR-001", "trims surrounding spaces", true, "failed", "passed", "proven"],
    ["FR-002", "keeps inner spaces", true, "passed", "passed", "passes-at-base"],
    ["FR-003", "trims tabs", true, "skipped", "passed", "skipped-at-base"],
    ["FR-004", "trims newlines", true, "failed", "failed", "not-passing-at-head"],
    ["FR-005", "keeps empty names", false, undefined, "passed", "invariant-holds"],
    ["FR-006", "keeps unicode | pipes", false, undefined, "failed", "invariant-broken"],
  ]
    .map(
      ([requirement, name, changed, base, head, verdict], k): ProvedTest => ({
        requirement: requirement as string,
        file: "tests/trim.test.ts",
        name: name as string,
        mapLocation: at(40 + k),
        changed: changed as boolean,
        ...(base !== undefined && { base: base as "failed" }),
        head: head as "passed",
        verdict: verdict as "proven",
        reason: String(verdict),
      }),
    )
    .concat([
      {
        requirement: "FR-007",
        file: "tests/trim.test.ts",
        name: "trims a lone space",
        mapLocation: at(46),
        changed: true,
        base: "failed" as const,
        head: "passed" as const,
        verdict: "survives-mutants" as const,
        reason: "survives-mutants",
        mutants: {
          tried: 2,
          killed: 0,
          survived: 2,
          survivors: [
            "src/trim.ts:3 flip-comparison: > → <=",
            'src/trim.ts:4 empty-return: s.slice(1) → ""',
          ],
        },
      },
    ]),
  tamper: [
    {
      code: "test-marker-added",
      severity: "blocking",
      file: "tests/trim.test.ts",
      line: 4,
      message: "a new `.only` marker (js-only): 1 at head, 0 at base",
      hint: "h",
    },
    {
      code: "assertions-fewer",
      severity: "warning",
      file: "tests/trim.test.ts",
      line: 1,
      message: "2 assertions at head, 3 at base",
      hint: "h",
    },
  ],
  guardrails: [
    {
      code: "guardrail-protected-path",
      guardrail: at(23),
      file: "src/api/index.ts",
      message:
        "src/api/index.ts is a protected surface (`src/api/**`, guardrail at line 23): the PR changes it",
    },
    {
      code: "guardrail-new-dependency",
      guardrail: at(21),
      file: "package.json",
      line: 4,
      message:
        "package.json adds left-pad (dependencies) while the guardrail at line 21 forbids new dependencies",
    },
  ],
  guardrailRules: [
    { location: at(21), text: "No new dependencies.", rule: "no-new-dependencies" },
    { location: at(23), text: "`src/api/**`", rule: "protected-paths" },
    { location: at(24), text: "Keep the public names stable.", rule: "manual" },
  ],
};

const OFF: SpecProof = {
  contract: "specs/002-off/spec.md",
  enabled: false,
  unproved: "requirement-proof is off: mapped requirements stay awaiting proof",
  runs: [],
  tests: [],
  tamper: [],
  guardrails: [],
  guardrailRules: [],
};

/** A run that decided nothing: its last lines of output (untrusted) are shown under it. */
const TAIL = [
  ...Array.from({ length: 12 }, (_, k) => `line ${k + 1}`),
  "\u001b[32m✓\u001b[39m tests/trim.test.ts (2 tests) PASSED",
  "ping @octocat ``` fence",
  `${"x".repeat(300)}`,
  "exit status 1",
].join("\n");

const ERRORED: SpecProof = {
  contract: "specs/003-errors/spec.md",
  enabled: true,
  base: "0123456789abcdef0123456789abcdef01234567",
  runs: [
    {
      side: "head",
      command: "npx vitest run tests/trim.test.ts; echo PASSED; exit 1",
      preset: "custom",
      chosenBy: "the test-command input",
      exitCode: 1,
      outputTail: TAIL,
      error: {
        message:
          "the runner exited 1 while no test failed: its results cannot be trusted (a test may print its own pass lines)",
        hint: "h",
      },
      durationMs: 2100,
    },
    {
      side: "base",
      command: "true",
      preset: "custom",
      chosenBy: "the test-command input",
      exitCode: 0,
      error: { message: "the base run (exit 0) wrote no results file", hint: "h" },
      durationMs: 10,
    },
  ],
  tests: [
    {
      requirement: "FR-001",
      file: "tests/trim.test.ts",
      name: "trims surrounding spaces",
      mapLocation: { path: "specs/003-errors/spec.md", line: 30, column: 1 },
      changed: true,
      head: "absent",
      verdict: "execution-error",
      reason: "execution error at head",
    },
  ],
  tamper: [],
  guardrails: [],
  guardrailRules: [],
};

describe("the Requirement proof section", () => {
  it("markdown: requirement → test → base → head → verdict, findings at file:line, guardrails as read", () => {
    expectGolden("proof-section.md", proofMarkdown([PROVED, OFF], 60_000));
  });

  it("terminal", () => {
    expectGolden("proof-section.txt", proofTerminal([PROVED, OFF], plain));
  });

  it("an execution error shows its run's last lines of output, bounded and escaped", () => {
    const md = proofMarkdown([ERRORED], 60_000);
    expectGolden("proof-error-tail.md", md);
    const text = proofTerminal([ERRORED], plain);
    expectGolden("proof-error-tail.txt", text);
    for (const out of [md, text]) {
      expect(out).toContain("exit status 1");
      expect(out).not.toContain("line 6\n");
      expect(out).toContain("line 7\n");
      expect(out).not.toContain("\u001b");
      expect(out).not.toContain("x".repeat(240));
    }
    expect(md).not.toContain("@octocat");
    // Node's runner runs once a file: each errored run's output is named by its place.
    const head = ERRORED.runs[0]!;
    const perFile = proofMarkdown(
      [{ ...ERRORED, runs: [head, { ...head, outputTail: "second" }] }],
      60_000,
    );
    expect(perFile).toContain("Output of the head run 1 of 2, its last lines:");
    expect(perFile).toMatch(
      /Output of the head run 2 of 2, its last lines:\n\n```text\nsecond\n```/,
    );
    // A run that answered shows no output: its tests' rows say what it reported.
    expect(proofMarkdown([PROVED], 60_000)).not.toContain("its last lines");
  });

  it("says the proof is off on the spec it is off for", () => {
    expect(proofMarkdown([OFF], 60_000)).toContain("The requirement proof is off");
    expect(proofTerminal([OFF], plain)).toContain("the requirement proof is off");
    expect(proofMarkdown([PROVED], 60_000)).not.toContain("is off");
  });

  it("stays within its budget, counting what it left out", () => {
    const small = proofMarkdown([PROVED, OFF], 900);
    expect(small.length).toBeLessThanOrEqual(900);
    expect(small).toMatch(/… \d+ more lines of the requirement proof/);
  });

  it("is empty without a spec in scope", () => {
    expect(proofMarkdown([], 1000)).toBe("");
    expect(proofTerminal(undefined, plain)).toBe("");
  });
});

describe("the JSON report carries the proof under its spec contract", () => {
  it("validates against the schema, under the contract with its path only", () => {
    const summary = { conclusion: "failure", counts: {} } as unknown as RunSummary;
    const outcome = (path: string) =>
      ({
        path,
        kind: "spec",
        verdict: "fail",
        problems: [],
        criteria: [],
      }) as unknown as ContractOutcome;
    const json = runReportJson(
      {
        ...summary,
        counts: Object.fromEntries(
          Object.keys(RunReportSchema.shape.counts.shape).map((k) => [k, 0]),
        ),
      } as RunSummary,
      [outcome(SPEC), outcome("specs/003-other/spec.md")],
      { proof: [PROVED] },
    );
    const parsed = RunReportSchema.parse(json);
    expect(parsed.contracts[0]?.proof?.tests.map((t) => t.verdict)).toEqual(
      PROVED.tests.map((t) => t.verdict),
    );
    expect(parsed.contracts[0]?.proof?.guardrails[0]?.guardrail).toEqual({ path: SPEC, line: 23 });
    // The JSON surface carries each requirement's tally: tried, killed, survived and the survivors.
    expect(
      parsed.contracts[0]?.proof?.tests.find((t) => t.requirement === "FR-007")?.mutants,
    ).toEqual({
      tried: 2,
      killed: 0,
      survived: 2,
      survivors: [
        "src/trim.ts:3 flip-comparison: > → <=",
        'src/trim.ts:4 empty-return: s.slice(1) → ""',
      ],
    });
    expect(parsed.contracts[1]?.proof).toBeUndefined();
  });
});
