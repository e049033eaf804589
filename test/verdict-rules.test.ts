/**
 * The verdict's rules as rows, one behaviour each: what a recorded outcome,
 * an abandoned criterion, a refused contract, a skipped command and an
 * integrity report do to the gate's conclusion. The survivors of a mutation
 * run over src/verdict.ts (issue 37) showed which of them no test pinned.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../src/checks/types.js";
import type { Finding, IntegrityReport } from "../src/integrity/types.js";
import type { Contract, Criterion, SettledCriterion } from "../src/model/contract.js";
import {
  type ContractOutcome,
  CRITERION_STATUSES,
  type CriterionOutcome,
  type CriterionStatus,
  contractVerdict,
  criterionBase,
  decideCriterion,
  gateConclusion,
  refusal,
  refusedOutcome,
  skippedCommands,
  summariseRun,
  unacknowledged,
  withIntegrity,
} from "../src/verdict.js";

const loc = { path: "c.md", line: 3, column: 1 };
const oracle = {
  type: "oracle" as const,
  location: loc,
  command: "true",
  expect: { kind: "literal" as const, text: "ok" },
};
const criterion = (extra: Partial<Criterion> = {}): Criterion => ({
  id: "1",
  title: "t",
  location: loc,
  checks: [oracle],
  ...extra,
});
const result = (r: Partial<CheckResult> & Pick<CheckResult, "result">): CheckResult => ({
  reason: r.result,
  durationMs: 1,
  ...r,
});
const pass = result({ result: "pass", reason: "exit 0" });
const off = { requireOracles: false };
const on = { requireOracles: true };

describe("decideCriterion: recorded outcomes", () => {
  const settled = (s: Partial<SettledCriterion>) =>
    criterion({
      checks: [],
      settled: { status: "manual", blocking: false, reason: "a person decides", ...s },
    });

  it.each([
    ["a manual outcome, oracles optional: shown, not blocking", { status: "manual" }, off, false],
    ["a manual outcome, oracles required: blocks", { status: "manual" }, on, true],
    ["a blocking outcome blocks either way", { status: "unmet", blocking: true }, off, true],
    ["a met outcome never blocks, even with oracles required", { status: "met" }, on, false],
    [
      "an awaiting-proof outcome with oracles required stays non-blocking",
      { status: "awaiting-proof" },
      on,
      false,
    ],
  ] as const)("%s", (_case, s, opts, blocking) => {
    expect(decideCriterion(settled(s as Partial<SettledCriterion>), [pass], opts)).toEqual({
      status: s.status,
      blocking,
      reason: "a person decides",
    });
  });
});

describe("decideCriterion: abandoned", () => {
  const abandoned = criterion({ abandon: { reason: "impossible", location: loc } });

  it("a check the policy refused is not shown as having run", () => {
    const refused = result({ result: "partial", reason: "not run: untrusted-commands: block" });
    expect(decideCriterion(abandoned, [refused], off)).toEqual({
      status: "abandoned",
      blocking: true,
      reason: "ABANDON: impossible",
    });
  });

  it("a check that ran is shown as information, a failing one by its reason", () => {
    const failed = result({ result: "fail", reason: "marker absent" });
    expect(decideCriterion(abandoned, [pass, failed], off).reason).toBe(
      "ABANDON: impossible (check ran for information: met, exit 0; marker absent)",
    );
  });
});

describe("decideCriterion: results in precedence order", () => {
  const two = criterion({ checks: [oracle, oracle] });
  const partial = result({ result: "partial", reason: "command not found" });
  const missing = result({
    result: "fail",
    failureReason: "verification-evidence-missing",
    reason: "no citation",
  });
  const unmet = result({
    result: "fail",
    failureReason: "verification-criteria-unmet",
    reason: "marker absent",
  });

  it.each([
    [
      "an execution error before a missing evidence",
      [missing, partial],
      "error",
      "command not found",
    ],
    ["missing evidence before an unmet check", [unmet, missing], "evidence-missing", "no citation"],
    ["an unmet check beside a passing one", [pass, unmet], "unmet", "marker absent"],
    ["fewer results than checks: did not run", [pass], "error", "check did not run"],
  ] as const)("%s", (_case, results, status, reason) => {
    expect(decideCriterion(two, results, off)).toEqual({ status, blocking: true, reason });
  });

  it("met only when all pass; the reasons joined", () => {
    expect(
      decideCriterion(two, [pass, result({ result: "pass", reason: "exit 0, found" })], off),
    ).toEqual({ status: "met", blocking: false, reason: "exit 0; exit 0, found" });
  });

  it("a criterion without checks is manual; its reason says whether oracles are required", () => {
    expect(decideCriterion(criterion({ checks: [] }), [], off).reason).toBe(
      "no oracle: a reviewer decides",
    );
    expect(decideCriterion(criterion({ checks: [] }), [], on).reason).toBe(
      "no oracle, and oracles are required (--require-oracles)",
    );
  });
});

describe("refusal and refused outcomes", () => {
  const contract = (problems: Contract["problems"], status?: string): Contract => ({
    kind: "oracle-contract",
    path: "c.md",
    header: { kind: "oracle-contract", ...(status ? { status } : {}) },
    criteria: [criterion({ group: "T1" }), criterion({ id: "2" })],
    problems,
  });
  const err = (code: Contract["problems"][number]["code"]) => ({
    code,
    severity: "error" as const,
    message: "m",
    ...loc,
  });

  it.each(["plan-drift", "plan-missing", "invalid-plan-hash"] as const)(
    "%s alone is drift, not invalidity",
    (code) => {
      expect(refusal(contract([err(code)]))).toBe("drifted");
    },
  );

  it("an aborted status is read whatever its case", () => {
    expect(refusal(contract([], "Aborted"))).toBe("aborted");
    expect(refusal(contract([], "active"))).toBeUndefined();
  });

  it.each([
    [
      "invalid",
      [err("unknown-key"), { ...err("drift-check-disabled"), severity: "warning" as const }],
      "not run: the contract is invalid (1 error)",
      true,
    ],
    [
      "invalid",
      [err("unknown-key"), err("partial-oracle")],
      "not run: the contract is invalid (2 errors)",
      true,
    ],
    ["drifted", [err("plan-drift")], "not run: the contract drifted from its plan", true],
    ["aborted", [], "not run: the contract's status is aborted", false],
  ] as const)("%s: every criterion not-run, with why", (why, problems, reason, blocking) => {
    const out = refusedOutcome(contract([...problems]), why);
    expect(out).toMatchObject({ path: "c.md", kind: "oracle-contract", verdict: why });
    expect(out.problems).toHaveLength(problems.length);
    expect(out.criteria).toEqual([
      {
        id: "1",
        title: "t",
        group: "T1",
        location: { path: "c.md", line: 3 },
        status: "not-run",
        blocking,
        reason,
        checks: [],
      },
      {
        id: "2",
        title: "t",
        location: { path: "c.md", line: 3 },
        status: "not-run",
        blocking,
        reason,
        checks: [],
      },
    ]);
  });

  it("criterionBase carries no group when the criterion has none", () => {
    expect(Object.keys(criterionBase(criterion()))).toEqual(["id", "title", "location"]);
  });
});

const outcome = (status: CriterionStatus, blocking: boolean, checks = 0): CriterionOutcome => ({
  id: status,
  title: status,
  location: { path: "c.md", line: 1 },
  status,
  blocking,
  reason: "",
  // Two command checks, the rest file checks: oracle, command-exit, file-exists, file-exists, …
  checks: Array.from({ length: checks }, (_, i) => ({
    type: i === 0 ? "oracle" : i === 1 ? "command-exit" : "file-exists",
    result: "partial",
    reason: "not run",
    durationMs: 0,
  })),
});
const contractOf = (
  verdict: ContractOutcome["verdict"],
  criteria: CriterionOutcome[],
): ContractOutcome => ({
  path: `${verdict}.md`,
  kind: "oracle-contract",
  verdict,
  problems: [],
  criteria,
});

describe("contractVerdict", () => {
  it.each([
    [
      "an abandoned criterion beside a met one",
      [outcome("abandoned", true), outcome("met", false)],
      "abandoned",
    ],
    [
      "a not-run criterion that does not block",
      [outcome("not-run", false), outcome("met", false)],
      "neutral",
    ],
    ["a requirement awaiting its proof", [outcome("awaiting-proof", false)], "neutral"],
    ["a manual, non-blocking criterion", [outcome("manual", false), outcome("met", false)], "pass"],
    [
      "a blocking criterion beside an abandoned one",
      [outcome("abandoned", true), outcome("unmet", true)],
      "fail",
    ],
  ] as const)("%s → %s", (_case, criteria, verdict) => {
    expect(contractVerdict([...criteria])).toBe(verdict);
  });
});

describe("skippedCommands", () => {
  it("counts the command checks and oracles of not-run criteria in neutral contracts only", () => {
    const skipped = outcome("not-run", false, 4);
    expect(
      skippedCommands([
        contractOf("neutral", [skipped, outcome("met", false, 1)]),
        contractOf("aborted", [skipped]),
        contractOf("invalid", [skipped]),
      ]),
    ).toBe(2);
    expect(skippedCommands([])).toBe(0);
  });
});

describe("summariseRun", () => {
  it("counts every status, zero for the absent ones", () => {
    const s = summariseRun([contractOf("pass", [outcome("met", false)])]);
    // Spelled out, not derived from CRITERION_STATUSES: a status missing there must show here.
    expect(s.counts).toEqual({
      unmet: 0,
      "evidence-missing": 0,
      error: 0,
      abandoned: 0,
      "not-run": 0,
      "awaiting-proof": 0,
      manual: 0,
      met: 1,
      criteria: 1,
      blocking: 0,
      contracts: 1,
    });
    expect(CRITERION_STATUSES).toHaveLength(8);
  });

  it.each([
    ["an invalid contract with no criteria fails", [contractOf("invalid", [])], "failure"],
    ["a drifted contract with no criteria fails", [contractOf("drifted", [])], "failure"],
    [
      "a neutral contract beside a passing one is neutral",
      [
        contractOf("neutral", [outcome("not-run", false)]),
        contractOf("pass", [outcome("met", false)]),
      ],
      "neutral",
    ],
    ["a passing contract with no criteria succeeds", [contractOf("pass", [])], "success"],
  ] as const)("%s", (_case, contracts, conclusion) => {
    expect(summariseRun([...contracts]).conclusion).toBe(conclusion);
  });
});

describe("integrity turns a conclusion into failure only when unacknowledged", () => {
  const blocking = { code: "criterion-weakened", blocking: true } as Finding;
  const warning = { code: "manual-edit", blocking: false } as Finding;
  const report = (findings: Finding[], approved = false): IntegrityReport => ({
    applies: true,
    base: "abc",
    findings,
    ...(approved ? { approval: { login: "m", reviewUrl: "u" } } : {}),
  });

  it.each([
    ["no report", undefined, [], "success"],
    ["a report that does not apply", { applies: false, reason: "push" } as const, [], "success"],
    ["warnings only", report([warning]), [], "success"],
    ["a blocking finding", report([blocking, warning]), [blocking], "failure"],
    ["a blocking finding with an approval", report([blocking], true), [], "success"],
  ] as const)("%s", (_case, r, open, conclusion) => {
    expect(unacknowledged(r)).toEqual(open);
    expect(gateConclusion("success", r)).toBe(conclusion);
    const summary = { conclusion: "success", counts: 1 };
    expect(withIntegrity(summary, r)).toEqual({ ...summary, conclusion });
    if (conclusion === "success") expect(withIntegrity(summary, r)).toBe(summary);
  });
});
