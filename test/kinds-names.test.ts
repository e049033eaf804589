import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { kindOf } from "../src/formats/kinds/index.js";
import { confirmShape, jsonKindOf, qrPhaseOfName } from "../src/formats/kinds/json.js";
import { citationsIn } from "../src/formats/workphase/citations.js";

describe("a JSON file's kind follows from its name and place", () => {
  it.each([
    [".planning/phase-1-contract.json", "plan-contract"],
    ["contracts/anything.json", "plan-contract"],
    ["plans/auth-plan.json", "planner-plan"],
    ["plans/plan.json", "planner-plan"],
    [".planner/state/plan.json", "planner-plan"],
    ["plans/qr-plan-code.json", "planner-qr"],
    ["plans/auth-qr-impl-docs.json", "planner-qr"],
    ["plans/context.json", "planner-context"],
    ["plans/auth-context.json", "planner-context"],
    [".workphase/auth/research.json", "workphase-research"],
    [".workphase/auth/plan.json", "workphase-plan"],
    // Not directly under .workphase/<name>/: a planner plan by its name.
    [".workphase/plan.json", "planner-plan"],
    ["docs/a.md", "oracle-contract"],
  ])("%s → %s", (path, kind) => {
    expect(kindOf(path)).toBe(kind);
  });

  it("reads the phase from qr-<phase>.json, with or without a slug", () => {
    expect(qrPhaseOfName("qr-plan-design.json")).toBe("plan-design");
    expect(qrPhaseOfName("auth-qr-impl-code.json")).toBe("impl-code");
    expect(qrPhaseOfName("qr-.json")).toBeUndefined();
    expect(qrPhaseOfName("quarter.json")).toBeUndefined();
    expect(jsonKindOf("plans/qr-.json")).toBe("plan-contract");
  });

  it("confirms the kind by any of its distinct top-level keys", () => {
    expect(confirmShape("planner-plan", { milestones: [] })).toEqual({ kind: "match" });
    // One key of the shape left is enough: deleting `milestones` does not make a plan unknown.
    expect(confirmShape("planner-plan", { waves: [] })).toEqual({ kind: "match" });
    expect(confirmShape("planner-qr", { milestones: [] })).toEqual({
      kind: "other",
      shape: "planner-plan",
    });
    expect(confirmShape("planner-plan", { name: "x" })).toEqual({ kind: "none" });
  });

  it("a file named as no kind but shaped as one is refused, naming both", () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ findings: [] }));
    const c = parseContract("plan-contract", "contracts/notes.json", bytes);
    expect(c.problems.map((p) => [p.code, p.message])).toEqual([
      [
        "kind-mismatch",
        "contracts/notes.json is read as a phase contract (its name says no other kind) but has the shape of a workphase research artifact; it is read as neither",
      ],
    ]);
  });
});

describe("research:<id> citations", () => {
  it.each([
    ["per research:r12, validate", ["r12"]],
    ["research:a-b_c and research:d", ["a-b_c", "d"]],
    ["(research:r1-)", ["r1"]],
    ["research: prose, research:R1, research:-x", []],
    ["research:research:r2", ["research", "r2"]],
  ])("%s", (text, ids) => {
    expect(citationsIn(text)).toEqual(ids);
  });
});
