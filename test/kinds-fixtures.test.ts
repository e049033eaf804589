import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import type { ProblemCode } from "../src/model/problem-codes.js";
import { discoverContracts } from "../src/scope/discover.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "kinds");

/**
 * Every rule of the planner and workphase kinds, each proven by a failing
 * fixture (`<case>/fail`) and its passing twin (`<case>/twin`) that differs
 * only where the rule looks. Both are discovered with the default globs.
 */
const CASES: Record<string, ProblemCode> = {
  "kind-mismatch": "kind-mismatch",
  "not-a-planner-plan": "not-a-planner-plan",
  "planner-unknown-key": "planner-unknown-key",
  "planner-nothing-to-gate": "nothing-to-gate",
  "missing-key": "missing-key",
  "wrong-type": "wrong-type",
  "invalid-value-diagram-type": "invalid-value",
  "duplicate-id-decision": "duplicate-id",
  "duplicate-id-node": "duplicate-id",
  "duplicate-id-intent": "duplicate-id",
  "duplicate-change-id": "duplicate-change-id",
  "absolute-path": "absolute-path",
  "absolute-path-test": "absolute-path",
  "unresolved-intent-other-milestone": "unresolved-reference",
  "unresolved-decision-ref": "unresolved-reference",
  "unresolved-rejected-ref": "unresolved-reference",
  "unresolved-risk-ref": "unresolved-reference",
  "unresolved-edge-other-diagram": "unresolved-reference",
  "unresolved-scope": "unresolved-reference",
  "unresolved-wave-milestone": "unresolved-reference",
  "milestone-in-no-wave": "milestone-wave",
  "milestone-in-two-waves": "milestone-wave",
  "context-missing-field": "missing-key",
  "context-wrong-type": "wrong-type",
  "qr-phase-name": "qr-phase",
  "qr-phase-unknown": "qr-phase",
  "qr-iteration-over": "qr-iteration",
  "qr-iteration-zero": "qr-iteration",
  "qr-finding-fail": "qr-finding",
  "qr-pass-finding": "qr-pass-finding",
  "qr-duplicate-item": "duplicate-id",
  "qr-status": "invalid-value",
  "findings-empty": "item-count",
  "findings-over-64": "item-count",
  "finding-id": "invalid-finding-id",
  "finding-duplicate": "duplicate-id",
  "finding-confidence": "invalid-value",
  "claim-multi-line": "not-single-line",
  "evidence-over-500-bytes": "not-single-line",
  "evidence-empty": "not-single-line",
  "relevant-code-absolute": "unsafe-path",
  "research-unknown-key": "unknown-key",
  "legacy-research": "legacy-research",
  "unknowns-over-64": "item-count",
  "changes-empty": "item-count",
  "change-missing-intent": "missing-key",
  "citation-unknown": "unresolved-citation",
  "citation-no-research": "unresolved-citation",
  "decisions-multi-line": "not-single-line",
};

async function problemsUnder(root: string) {
  const paths = await discoverContracts({ root });
  expect(paths.length).toBeGreaterThan(0);
  const contracts = await Promise.all(paths.map((p) => loadContract(root, p)));
  return contracts.flatMap((c) => c.problems);
}

describe("planner and workphase rules: failing fixture and passing twin", () => {
  it("covers every fixture directory", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [name, code] of Object.entries(CASES)) {
    it(`${name}: ${code}`, async () => {
      const failing = await problemsUnder(join(FIXTURES, name, "fail"));
      expect(failing.map((p) => p.code)).toContain(code);
      const twin = await problemsUnder(join(FIXTURES, name, "twin"));
      expect(twin.map((p) => p.code)).not.toContain(code);
      expect(twin.filter((p) => p.severity === "error")).toEqual([]);
    });
  }
});

describe("a quality review's PASS item that keeps its finding (issue 35)", () => {
  it("is said as what it is, a warning quoting the finding, not as the rule", async () => {
    const problems = await problemsUnder(join(FIXTURES, "qr-pass-finding", "fail"));
    const found = problems.find((p) => p.code === "qr-pass-finding")!;
    expect(found.severity).toBe("warning");
    expect(found.message).toBe(
      'item qa-001 is PASS but keeps a finding ("Refactor complete: the handler was split into smaller helpers; the size thres…"); it is read as PASS',
    );
    // The defect twin still blocks: a FAIL item with no finding.
    const fail = await problemsUnder(join(FIXTURES, "qr-finding-fail", "fail"));
    expect(fail.find((p) => p.code === "qr-finding")?.severity).toBe("error");
  });
});

describe("a planner plan whose milestones list no test (issue 35)", () => {
  it("says once that nothing is gated, as a warning, not a silent pass nor an error", async () => {
    const problems = await problemsUnder(join(FIXTURES, "planner-nothing-to-gate", "fail"));
    expect(problems.map((p) => [p.code, p.severity, p.message])).toEqual([
      [
        "nothing-to-gate",
        "warning",
        "nothing to gate in this plan: none of its 2 milestones lists a test",
      ],
    ]);
  });
});
