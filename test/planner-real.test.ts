import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { loadContract } from "../src/load/index.js";
import { discoverContracts } from "../src/scope/discover.js";

/**
 * Planner files in the shapes the planner's own code writes (its pydantic
 * models, and the plans and QR files found in public repositories):
 * `rejection_reason`, `reasoning_chain`, `decision_log`, object constraints,
 * object milestone tests, `documentation`, a context without `user_quotes`.
 * They validate with no problem at all; the same files with one injected
 * defect still fail, naming the value, its JSON path, line and column.
 */
const ROOT = join(import.meta.dirname, "fixtures", "planner-real");
const encode = (text: string) => new TextEncoder().encode(text);
const text = (name: string) => readFileSync(join(ROOT, "plans", name), "utf8");

function plan(source: string) {
  return parseContract("planner-plan", "plans/cleanup-plan.json", encode(source));
}

/** 1-based line and column of the `n`th occurrence of `needle`. */
function position(source: string, needle: string, n = 1): { line: number; column: number } {
  let at = -1;
  for (let k = 0; k < n; k++) at = source.indexOf(needle, at + 1);
  expect(at, needle).toBeGreaterThanOrEqual(0);
  const before = source.slice(0, at);
  return { line: before.split("\n").length, column: at - before.lastIndexOf("\n") };
}

describe("planner files as the planner writes them", () => {
  it("validate with no problem, under default discovery", async () => {
    const paths = (await discoverContracts({ root: ROOT })).sort();
    expect(paths).toEqual([
      "plans/cleanup-plan.json",
      "plans/context.json",
      "plans/qr-plan-design.json",
      "plans/v2-plan.json",
    ]);
    for (const path of paths) {
      const c = await loadContract(ROOT, path);
      expect(c.problems, path).toEqual([]);
    }
  });

  it("a schema-v2 tests object: its files are file-exists criteria, its scenarios manual", () => {
    const c = parseContract("planner-plan", "plans/v2-plan.json", encode(text("v2-plan.json")));
    expect(c.criteria.map((k) => [k.id, k.title, k.checks.map((x) => x.type)])).toEqual([
      ["M-001.1", "file:test/ratelimit.test.ts", ["file-exists"]],
      ["M-001.2", "scenario:normal Under the limit, requests succeed", []],
      ["M-001.3", "scenario:edge Exactly at the limit", []],
      ["M-001.4", "scenario:error Over the limit returns 429", []],
    ]);
    const check = c.criteria[0]!.checks[0]!;
    expect(check.type === "file-exists" && check.path).toBe("test/ratelimit.test.ts");
    expect(check.location.line).toBe(
      position(text("v2-plan.json"), '"test/ratelimit.test.ts"', 2).line,
    );
  });

  it("the QR file's items are settled by their status, the file itself in progress", () => {
    const c = parseContract(
      "planner-qr",
      "plans/qr-plan-design.json",
      encode(text("qr-plan-design.json")),
    );
    expect(c.criteria.map((k) => [k.id, k.settled?.status])).toEqual([
      ["qa-001", "met"],
      ["qa-002", "unmet"],
      ["qa-003", "unmet"],
      ["in-progress", "unmet"],
    ]);
  });

  const source = text("cleanup-plan.json");
  const defects: {
    name: string;
    edit: (s: string) => string;
    code: string;
    path: string;
    value: string;
    /** The text whose first character the problem points at, and which occurrence. */
    at: [string, number];
  }[] = [
    {
      name: "a dangling decision_ref in a code intent",
      edit: (s) =>
        s.replace('"decision_refs": ["DL-001", "DL-002"]', '"decision_refs": ["DL-001", "DL-404"]'),
      code: "unresolved-reference",
      path: "milestones[1].code_intents[1].decision_refs[1]",
      value: "DL-404",
      at: ['"DL-404"', 1],
    },
    {
      name: "a dangling decision_ref in a rejected alternative (rejection_reason spelling)",
      edit: (s) =>
        s.replace(
          '"decision_ref": "DL-001"\n      }\n    ],\n    "constraints"',
          '"decision_ref": "DL-009"\n      }\n    ],\n    "constraints"',
        ),
      code: "unresolved-reference",
      path: "planning_context.rejected_alternatives[0].decision_ref",
      value: "DL-009",
      at: ['"DL-009"', 1],
    },
    {
      name: "a dangling decision_ref in a milestone's documentation",
      edit: (s) =>
        s.replace('"decision_ref": "DL-002", "source"', '"decision_ref": "DL-777", "source"'),
      code: "unresolved-reference",
      path: "milestones[1].documentation.inline_comments[0].decision_ref",
      value: "DL-777",
      at: ['"DL-777"', 1],
    },
    {
      name: "an intent_ref to another milestone's intent",
      edit: (s) => s.replace('"intent_ref": "CI-M-002-001"', '"intent_ref": "CI-M-001-001"'),
      code: "unresolved-reference",
      path: "milestones[1].code_changes[0].intent_ref",
      value: "CI-M-001-001",
      at: ['"CI-M-001-001"', 2],
    },
    {
      name: "an edge to a missing node",
      edit: (s) => s.replace('"target": "node-002"', '"target": "node-003"'),
      code: "unresolved-reference",
      path: "diagram_graphs[0].edges[0].target",
      value: "node-003",
      at: ['"node-003"', 1],
    },
    {
      name: "a wave naming a missing milestone",
      edit: (s) =>
        s.replace(
          '"wave": 2, "milestones": ["M-002"]',
          '"wave": 2, "milestones": ["M-002", "M-003"]',
        ),
      code: "unresolved-reference",
      path: "waves[1].milestones[1]",
      value: "M-003",
      at: ['"M-003"', 1],
    },
    {
      name: "a duplicate milestone id",
      edit: (s) => s.replace('"id": "M-002"', '"id": "M-001"'),
      code: "duplicate-id",
      path: "milestones[1].id",
      value: "M-001",
      at: ['"M-001"', 2],
    },
  ];

  for (const d of defects) {
    it(`still fails with ${d.name}`, () => {
      const edited = d.edit(source);
      expect(edited, "the edit applies").not.toBe(source);
      expect(plan(source).problems, "control: the unedited plan is clean").toEqual([]);
      const found = plan(edited).problems.filter((p) => p.code === d.code);
      expect(found.length, JSON.stringify(plan(edited).problems)).toBeGreaterThan(0);
      const p = found[0]!;
      expect(p.severity).toBe("error");
      expect(p.message).toContain(d.path);
      expect(p.message).toContain(`"${d.value}"`);
      expect({ line: p.line, column: p.column }).toEqual(position(edited, ...d.at));
    });
  }

  it("both spellings of the decision list at once is an error (which one resolves would be a guess)", () => {
    const edited = source.replace('"decisions": [', '"decision_log": [], "decisions": [');
    const codes = plan(edited).problems.map((p) => `${p.code} ${p.message}`);
    expect(codes).toContainEqual(
      expect.stringMatching(/^invalid-value both `decisions` and `decision_log`/),
    );
  });

  it("a rejected alternative with neither spelling of its reason is one missing-key naming both", () => {
    const edited = source.replace(
      '"rejection_reason": "No one reads it; an archive branch is one more thing to keep",',
      "",
    );
    const missing = plan(edited).problems.filter((p) => p.code === "missing-key");
    expect(missing.map((p) => p.message)).toEqual([
      "planning_context.rejected_alternatives[0] has no `reason` (or `rejection_reason`)",
    ]);
  });

  it("context.json reads user_quotes when present and requires the planner's fields", () => {
    const ctx = text("context.json");
    const withQuotes = ctx.replace(
      '"reference_docs": []',
      '"reference_docs": [], "user_quotes": ["keep CLAUDE.md"]',
    );
    const read = (s: string) =>
      parseContract("planner-context", "plans/context.json", encode(s)).problems.map((p) => p.code);
    expect(read(withQuotes)).toEqual([]);
    expect(
      read(
        ctx
          .replace('"user_quotes"', '"x"')
          .replace('"reference_docs": []', '"reference_docs": [], "user_quotes": [1]'),
      ),
    ).toEqual(["wrong-type"]);
    expect(read(ctx.replace('"assumptions"', '"assumption"'))).toEqual([
      "missing-key",
      "planner-unknown-key",
    ]);
  });
});
