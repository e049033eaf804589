import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { planHash } from "../src/formats/plan-hash.js";
import { checkDrift } from "../src/load/drift.js";
import type { PlanHeader } from "../src/model/contract.js";

const plan = new TextEncoder().encode("# Phase 1\r\nplan text\n");
const at = { path: ".planning/phase-1-contract.json", line: 8, column: 23 };
const header = (sourcePlanHash: string | undefined): PlanHeader => ({
  kind: "plan-contract",
  sourcePlanHash,
  sourcePlanHashLocation: at,
  planPath: ".planning/phase-1-plan.md",
  tasks: [],
  successCriteria: [],
});

describe("plan drift", () => {
  const hash = `sha256:${createHash("sha256").update(plan).digest("hex")}`;

  it("hashes the exact bytes, CRLF included", () => {
    expect(planHash(plan)).toBe(hash);
    expect(planHash(new TextEncoder().encode("# Phase 1\nplan text\n"))).not.toBe(hash);
  });

  it("accepts a matching hash silently", () => {
    expect(checkDrift(header(hash), plan)).toEqual({ state: "match", problems: [] });
  });

  it("reports a drifted plan with both hashes and the fix, at the hash's position", () => {
    const stale = `sha256:${"0".repeat(64)}`;
    const { state, problems } = checkDrift(header(stale), plan);
    expect(state).toBe("drifted");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: "plan-drift",
      severity: "error",
      line: 8,
      column: 23,
    });
    expect(problems[0]!.message).toContain(stale);
    expect(problems[0]!.message).toContain(hash);
    expect(problems[0]!.hint).toContain("contract-gate refresh-hash");
  });

  it("reports a missing plan when a hash is recorded", () => {
    const { state, problems } = checkDrift(header(hash), undefined);
    expect(state).toBe("plan-missing");
    expect(problems.map((p) => [p.code, p.severity])).toEqual([["plan-missing", "error"]]);
  });

  it("warns that drift checking is disabled for an empty or absent hash", () => {
    for (const h of ["", undefined]) {
      const { state, problems } = checkDrift(header(h), plan);
      expect(state).toBe("disabled");
      expect(problems.map((p) => [p.code, p.severity])).toEqual([
        ["drift-check-disabled", "warning"],
      ]);
      expect(problems[0]!.message).toContain("drift check disabled");
    }
  });

  it("refuses a malformed hash", () => {
    for (const h of ["sha256:ABC", hash.toUpperCase(), hash.slice(7), "md5:00"]) {
      expect(checkDrift(header(h), plan).problems.map((p) => p.code)).toEqual([
        "invalid-plan-hash",
      ]);
    }
  });
});
