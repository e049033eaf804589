import { describe, expect, it } from "vitest";
import type { CheckResult } from "../src/checks/types.js";
import type { Contract, Criterion } from "../src/model/contract.js";
import {
  type ContractOutcome,
  contractVerdict,
  decideCriterion,
  refusal,
  refusedOutcome,
  summariseRun,
} from "../src/verdict.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

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
const pass: CheckResult = { result: "pass", reason: "exit 0, marker found", durationMs: 1 };
const unmet: CheckResult = {
  result: "fail",
  failureReason: "verification-criteria-unmet",
  reason: "exit 0, marker absent",
  durationMs: 1,
};
const missing: CheckResult = {
  result: "fail",
  failureReason: "verification-evidence-missing",
  reason: "no citation",
  durationMs: 1,
};
const error: CheckResult = {
  result: "partial",
  failureReason: "verification-execution-error",
  reason: "command not found: x",
  durationMs: 1,
};
const opts = { requireOracles: false };

describe("decideCriterion", () => {
  it("maps check results to statuses, fail-closed", () => {
    expect(decideCriterion(criterion(), [pass], opts)).toMatchObject({
      status: "met",
      blocking: false,
    });
    expect(decideCriterion(criterion(), [unmet], opts)).toMatchObject({
      status: "unmet",
      blocking: true,
      reason: "exit 0, marker absent",
    });
    expect(decideCriterion(criterion(), [missing], opts)).toMatchObject({
      status: "evidence-missing",
      blocking: true,
    });
    expect(decideCriterion(criterion(), [error], opts)).toMatchObject({
      status: "error",
      blocking: true,
    });
    // A check with no result did not run: never a pass.
    expect(decideCriterion(criterion(), [], opts)).toMatchObject({
      status: "error",
      blocking: true,
    });
  });

  it("blocks an abandoned criterion even when its check passes, showing the result as information", () => {
    const d = decideCriterion(
      criterion({ abandon: { reason: "impossible", location: loc } }),
      [pass],
      opts,
    );
    expect(d).toMatchObject({ status: "abandoned", blocking: true });
    expect(d.reason).toContain("ABANDON: impossible");
    expect(d.reason).toContain("for information: met");
  });

  it("leaves manual criteria non-blocking unless oracles are required", () => {
    expect(decideCriterion(criterion({ checks: [] }), [], opts)).toMatchObject({
      status: "manual",
      blocking: false,
    });
    expect(decideCriterion(criterion({ checks: [] }), [], { requireOracles: true })).toMatchObject({
      status: "manual",
      blocking: true,
    });
  });
});

describe("contract verdicts", () => {
  const contract = (problems: Contract["problems"], status?: string): Contract => ({
    kind: "oracle-contract",
    path: "c.md",
    header: { kind: "oracle-contract", ...(status ? { status } : {}) },
    criteria: [criterion()],
    problems,
  });
  const err = (code: Contract["problems"][number]["code"]) => ({
    code,
    severity: "error" as const,
    message: "m",
    ...loc,
  });

  it("refuses invalid, drifted and aborted contracts; invalid wins", () => {
    expect(refusal(contract([]))).toBeUndefined();
    expect(refusal(contract([err("partial-oracle")]))).toBe("invalid");
    expect(refusal(contract([err("plan-drift")]))).toBe("drifted");
    expect(refusal(contract([err("plan-drift"), err("unknown-key")]))).toBe("invalid");
    expect(refusal(contract([], "aborted"))).toBe("aborted");
    expect(refusal(contract([err("partial-oracle")], "aborted"))).toBe("invalid");
    expect(
      refusal(contract([{ ...err("drift-check-disabled"), severity: "warning" }])),
    ).toBeUndefined();
  });

  it("marks every criterion of a refused contract not-run; only aborted ones do not block", () => {
    expect(refusedOutcome(contract([err("plan-drift")]), "drifted").criteria[0]).toMatchObject({
      status: "not-run",
      blocking: true,
    });
    expect(refusedOutcome(contract([], "aborted"), "aborted").criteria[0]).toMatchObject({
      status: "not-run",
      blocking: false,
    });
  });

  it("fails before it abandons, and passes only when nothing blocks", () => {
    const [c] = sampleOutcomes();
    expect(contractVerdict(c!.criteria)).toBe("fail");
    expect(
      contractVerdict(c!.criteria.filter((k) => k.status !== "unmet" && k.status !== "error")),
    ).toBe("abandoned");
    expect(contractVerdict(c!.criteria.filter((k) => !k.blocking))).toBe("pass");
  });

  it("concludes failure, success or neutral", () => {
    const all = sampleOutcomes();
    const s = summariseRun(all);
    expect(s.conclusion).toBe("failure");
    expect(s.counts).toMatchObject({
      met: 1,
      unmet: 1,
      error: 1,
      manual: 1,
      abandoned: 1,
      "not-run": 1,
      criteria: 6,
      blocking: 4,
      contracts: 2,
    });
    expect(summariseRun([]).conclusion).toBe("neutral");
    const green = {
      ...all[0]!,
      verdict: "pass" as const,
      criteria: all[0]!.criteria.filter((k) => !k.blocking),
    };
    expect(summariseRun([green]).conclusion).toBe("success");
  });

  it("is neutral, never success, when every contract was aborted; one aborted beside others changes nothing", () => {
    const [base] = sampleOutcomes();
    const aborted: ContractOutcome = {
      ...base!,
      path: "aborted.md",
      verdict: "aborted",
      criteria: base!.criteria.map((k) => ({ ...k, status: "not-run", blocking: false })),
    };
    const green: ContractOutcome = {
      ...base!,
      verdict: "pass",
      criteria: base!.criteria.filter((k) => !k.blocking),
    };
    expect(summariseRun([aborted]).conclusion).toBe("neutral");
    expect(summariseRun([aborted, { ...aborted, path: "b.md" }]).conclusion).toBe("neutral");
    // Positive controls: beside a contract that ran, the aborted one is set aside.
    expect(summariseRun([aborted, green]).conclusion).toBe("success");
    expect(summariseRun([aborted, base!]).conclusion).toBe("failure");
  });
});
