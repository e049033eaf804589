import { describe, expect, it } from "vitest";
import type { Criterion, RequirementModel } from "../src/model/contract.js";
import { answerFor, type GradedEntry, gradeTest, type SideAnswer } from "../src/proof/run/grade.js";
import type { CaseOutcome } from "../src/proof/run/results.js";
import { settleWithProof } from "../src/proof/run/settle.js";
import type { Invocation } from "../src/proof/run/side.js";
import type { ProofVerdict, ProvedTest, TestOutcome } from "../src/proof/types.js";

const loc = (line: number) => ({ path: "specs/001-x/spec.md", line, column: 1 });
const entry = (changed: boolean): GradedEntry => ({
  requirement: "FR-001",
  file: "tests/a.test.ts",
  name: "trim > trims",
  mapLocation: loc(40),
  changed,
});
const out = (outcome: TestOutcome, loadFailed = false): SideAnswer => ({
  kind: "outcome",
  outcome,
  loadFailed,
});
const err: SideAnswer = { kind: "error", message: "the base run timed out after 600 s" };

type Row = [string, SideAnswer, SideAnswer | undefined, ProofVerdict, RegExp];

/** Every head answer × every base answer, for a new or changed requirement. */
const CHANGED: Row[] = [];
const heads: [string, SideAnswer][] = [
  ["passed", out("passed")],
  ["failed", out("failed")],
  ["errored", out("errored")],
  ["skipped", out("skipped")],
  ["absent, file loaded", out("absent")],
  ["absent, file failed to load", out("absent", true)],
  ["run error", err],
];
const bases: [string, SideAnswer | undefined][] = [
  ["passed", out("passed")],
  ["failed", out("failed")],
  ["errored", out("errored")],
  ["skipped", out("skipped")],
  ["absent, file loaded", out("absent")],
  ["absent, file failed to load", out("absent", true)],
  ["run error", err],
  ["not run", undefined],
];
for (const [h, head] of heads) {
  for (const [b, base] of bases) {
    let verdict: ProofVerdict;
    let why: RegExp;
    if (head.kind === "error") [verdict, why] = ["execution-error", /execution error at head/];
    else if (
      h === "absent, file loaded" &&
      (base === undefined || base.kind === "error" || b === "absent, file loaded")
    )
      [verdict, why] = [
        "execution-error",
        /no run reports tests\/a\.test\.ts > trim > trims \(map line specs\/001-x\/spec\.md:40\)/,
      ];
    else if (h !== "passed") [verdict, why] = ["not-passing-at-head", /^not proven: .* at head$/];
    else if (base === undefined) [verdict, why] = ["execution-error", /base run did not run/];
    else if (base.kind === "error")
      [verdict, why] = ["execution-error", /execution error at base: the base run timed out/];
    else if (b === "passed")
      [verdict, why] = [
        "passes-at-base",
        /^proves nothing: passes on the code before this change$/,
      ];
    else if (b === "skipped")
      [verdict, why] = ["skipped-at-base", /^not proven: skipped on the code before this change$/];
    else if (b === "absent, file loaded")
      [verdict, why] = ["skipped-at-base", /not run on the code before this change/];
    else [verdict, why] = ["proven", /^proven: /];
    CHANGED.push([`head ${h}, base ${b}`, head, base, verdict, why]);
  }
}

describe("grading a new or changed requirement's test (every pair)", () => {
  it.each(CHANGED)("%s → %s", (_what, head, base, verdict, why) => {
    const t = gradeTest(entry(true), head, base);
    expect(t.verdict).toBe(verdict);
    expect(t.reason).toMatch(why);
    expect(t.warning).toBeUndefined();
  });

  it("covers 56 pairs", () => expect(CHANGED).toHaveLength(56));

  it("records both results on the row", () => {
    expect(gradeTest(entry(true), out("passed"), out("failed"))).toMatchObject({
      base: "failed",
      head: "passed",
      changed: true,
    });
    expect(gradeTest(entry(true), out("passed"), err).base).toBeUndefined();
  });
});

describe("grading an invariant's test", () => {
  it.each<[string, SideAnswer, SideAnswer | undefined, ProofVerdict, string | undefined]>([
    ["passes at head and base", out("passed"), out("passed"), "invariant-holds", undefined],
    [
      "passes at head, fails at base: a warning",
      out("passed"),
      out("failed"),
      "invariant-holds",
      "an invariant that failed on the code before this change",
    ],
    [
      "passes at head, errors at base: a warning",
      out("passed"),
      out("errored"),
      "invariant-holds",
      "an invariant that errored on the code before this change",
    ],
    ["passes at head, base run broken", out("passed"), err, "invariant-holds", undefined],
    ["fails at head", out("failed"), out("passed"), "invariant-broken", undefined],
    ["skipped at head", out("skipped"), out("passed"), "invariant-broken", undefined],
    [
      "its file failed to load at head",
      out("absent", true),
      out("passed"),
      "invariant-broken",
      undefined,
    ],
    [
      "absent at head, present at base",
      out("absent"),
      out("passed"),
      "invariant-broken",
      undefined,
    ],
    ["absent everywhere", out("absent"), out("absent"), "execution-error", undefined],
    ["head run broken", err, out("passed"), "execution-error", undefined],
  ])("%s", (_what, head, base, verdict, warning) => {
    const t = gradeTest(entry(false), head, base);
    expect(t.verdict).toBe(verdict);
    expect(t.warning).toBe(warning);
  });
});

function inv(
  cases: { files?: string[]; name: string; outcome: CaseOutcome }[],
  files: string[],
  loadFailed: string[] = [],
): Invocation {
  return {
    run: { side: "head", command: "x", preset: "custom", chosenBy: "t", durationMs: 1 },
    files,
    results: { cases, loadFailed: new Set(loadFailed) },
  };
}

describe("finding a map entry's result", () => {
  const a = { file: "tests/a.test.ts", name: "trim > works" };
  const b = { file: "tests/b.test.ts", name: "trim > works" };
  const c = { file: "tests/b.test.ts", name: "other" };

  it("by file and canonical name", () => {
    const run = [
      inv([{ files: [a.file], name: "trim > works", outcome: "failed" }], [a.file, b.file]),
    ];
    expect(answerFor({ file: a.file, name: "trim::works" }, run, [a, b])).toEqual(out("failed"));
    expect(answerFor(b, run, [a, b])).toEqual(out("absent"));
  });

  it("by unique name when the runner names no file; a name two mapped files share is ambiguous", () => {
    const run = [
      inv(
        [
          { name: "trim > works", outcome: "passed" },
          { name: "other", outcome: "passed" },
        ],
        [a.file, b.file],
      ),
    ];
    expect(answerFor(c, run, [a, c])).toEqual(out("passed"));
    expect(answerFor(a, run, [a, c])).toEqual(out("passed"));
    expect(answerFor(a, run, [a, b])).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/also mapped in tests\/b\.test\.ts: ambiguous/),
    });
  });

  it("two results with one name in one file are ambiguous", () => {
    const run = [
      inv(
        [
          { files: [a.file], name: "trim > works", outcome: "passed" },
          { files: [a.file], name: "trim > works", outcome: "failed" },
        ],
        [a.file],
      ),
    ];
    expect(answerFor(a, run, [a])).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/2 results/),
    });
  });

  it("a file that failed to load makes its tests absent with the reason", () => {
    expect(answerFor(a, [inv([], [a.file], [a.file])], [a])).toEqual(out("absent", true));
  });

  it("a run that decided nothing is an error for its files", () => {
    const broken: Invocation = {
      run: {
        side: "base",
        command: "x",
        preset: "vitest",
        chosenBy: "t",
        durationMs: 1,
        error: { message: "the base run reported zero test cases", hint: "h" },
      },
      files: [a.file],
    };
    expect(answerFor(a, [broken], [a])).toEqual({
      kind: "error",
      message: "the base run reported zero test cases",
    });
  });
});

const model: RequirementModel = {
  layout: "spec",
  requirements: ["FR-001", "FR-002", "FR-003"].map((id, k) => ({
    id,
    text: id,
    location: loc(3 + k),
  })),
  scenarios: [],
  acceptance: [
    { id: "AC-1", text: "one", refs: [{ id: "FR-001", location: loc(10) }], location: loc(10) },
    {
      id: "AC-2",
      text: "both",
      refs: [
        { id: "FR-001", location: loc(11) },
        { id: "FR-002", location: loc(11) },
      ],
      location: loc(11),
    },
    {
      id: "AC-3",
      text: "err+unmet",
      refs: [
        { id: "FR-002", location: loc(12) },
        { id: "FR-003", location: loc(12) },
      ],
      location: loc(12),
    },
  ],
  guardrails: [],
  verification: [],
  openQuestions: [],
  stories: [],
  successCriteria: [],
};
const awaiting = (id: string): Criterion => ({
  id,
  title: id,
  location: loc(1),
  checks: [],
  settled: { status: "awaiting-proof", blocking: false, reason: "awaiting proof" },
});
const proved = (requirement: string, verdict: ProofVerdict, name = "t"): ProvedTest => ({
  requirement,
  file: "tests/a.test.ts",
  name,
  mapLocation: loc(40),
  changed: true,
  head: "passed",
  verdict,
  reason: verdict,
});

describe("settling the spec's criteria from the proof", () => {
  it.each<[ProofVerdict, string, boolean]>([
    ["proven", "met", false],
    ["invariant-holds", "met", false],
    ["passes-at-base", "unmet", true],
    ["skipped-at-base", "unmet", true],
    ["not-passing-at-head", "unmet", true],
    ["invariant-broken", "unmet", true],
    ["execution-error", "error", true],
  ])("a requirement whose test is %s is %s (blocking: %s)", (verdict, status, blocking) => {
    const [c] = settleWithProof([awaiting("FR-001")], model, {
      runs: [],
      tests: [proved("FR-001", verdict)],
    });
    expect(c!.settled).toMatchObject({ status, blocking });
  });

  it("a requirement takes the worst of its tests; acceptance criteria the worst of their requirements, unmet before error", () => {
    const settled = settleWithProof(
      ["FR-001", "FR-002", "FR-003", "AC-1", "AC-2", "AC-3"].map(awaiting),
      model,
      {
        runs: [],
        tests: [
          proved("FR-001", "proven", "a"),
          proved("FR-001", "invariant-holds", "b"),
          proved("FR-002", "proven", "c"),
          proved("FR-002", "passes-at-base", "d"),
          proved("FR-003", "execution-error", "e"),
        ],
      },
    );
    const status = Object.fromEntries(settled.map((c) => [c.id, c.settled?.status]));
    expect(status).toEqual({
      "FR-001": "met",
      "FR-002": "unmet",
      "FR-003": "error",
      "AC-1": "met",
      "AC-2": "unmet",
      "AC-3": "unmet",
    });
    expect(settled[1]!.settled!.reason).toContain("tests/a.test.ts > d: passes-at-base");
    expect(settled[4]!.settled!.reason).toBe("FR-002 not proven");
  });

  it("an acceptance criterion whose only failing requirement errored is an error; criteria not awaiting proof are untouched", () => {
    const manual: Criterion = {
      ...awaiting("FR-002"),
      settled: { status: "manual", blocking: false, reason: "manual: look" },
    };
    const settled = settleWithProof([awaiting("AC-1"), manual], model, {
      runs: [],
      tests: [proved("FR-001", "execution-error")],
    });
    expect(settled[0]!.settled).toMatchObject({ status: "error", blocking: true });
    expect(settled[1]).toBe(manual);
  });

  it("a mapped requirement no proof graded is an error, never met", () => {
    const [c] = settleWithProof([awaiting("FR-003")], model, { runs: [], tests: [] });
    expect(c!.settled).toMatchObject({ status: "error", blocking: true });
  });
});
