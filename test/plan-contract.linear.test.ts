import fc from "fast-check";
import { parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SHAPE_PATHS, SHAPES, type Shape } from "../bench/parse-shapes.js";
import { parseEvidenceFile } from "../src/formats/evidence/index.js";
import { parseContract } from "../src/formats/index.js";
import { MAX_CONTRACT_BYTES } from "../src/formats/text.js";
import { refreshPlanHash } from "../src/load/refresh-hash.js";

// Issue 7, section 2: every JSON parser (and the markdown one, through
// parseContract) ends on 1 MiB adversarial inputs with problems, never a
// throw or a stack overflow. No timing here (bench/parse.ts measures);
// a quadratic parser shows as this file timing out.

/** Just under the cap, so the whole input is read rather than refused as too large. */
const SIZE = MAX_CONTRACT_BYTES - 64;
const encoder = new TextEncoder();

/** Parse a shape's input with the parser it targets; `invalid`: it reported an error. */
function parse(target: Shape["target"], bytes: Uint8Array): { invalid: boolean } {
  switch (target) {
    case "plan-contract":
    case "oracle-contract": {
      const path = target === "plan-contract" ? ".planning/phase-2-contract.json" : "c/x.md";
      const contract = parseContract(target, path, bytes);
      for (const p of contract.problems) {
        expect(p.line).toBeGreaterThanOrEqual(1);
        expect(p.column).toBeGreaterThanOrEqual(1);
        expect(p.message).not.toBe("");
      }
      return { invalid: contract.problems.some((p) => p.severity === "error") };
    }
    case "gates-ledger":
    case "planner-plan":
    case "workphase-research":
    case "spec":
    case "speckit-tasks": {
      const contract = parseContract(target, SHAPE_PATHS[target], bytes);
      return { invalid: contract.problems.some((p) => p.severity === "error") };
    }
    case "evidence": {
      const file = parseEvidenceFile(".planning/phase-2-evidence.json", bytes);
      return { invalid: file.problems.some((p) => p.severity === "error") };
    }
    case "refresh-hash":
      return { invalid: !refreshPlanHash(bytes, encoder.encode("plan\n")).ok };
  }
}

describe("1 MiB adversarial inputs: every parser ends, with problems, without throwing", () => {
  const cases = SHAPES.map((shape) => ({ ...shape, label: `${shape.target}: ${shape.name}` }));
  it.each(cases)("$label", (shape) => {
    const bytes = encoder.encode(shape.build(SIZE));
    expect(bytes.length).toBeGreaterThan(SIZE - 1024);
    expect(bytes.length).toBeLessThanOrEqual(MAX_CONTRACT_BYTES);
    const { invalid } = parse(shape.target, bytes);
    // Which markdown shapes are valid is the markdown tests' business
    // (test/oracle-contract.property.test.ts); here only "ends, no throw".
    const markdown = ["oracle-contract", "gates-ledger", "spec", "speckit-tasks"].includes(
      shape.target,
    );
    if (!markdown || shape.valid !== undefined) expect(invalid).toBe(!shape.valid);
  });

  it("uses shapes that break the readers these parsers replaced (positive controls)", () => {
    const shape = (name: string, target: Shape["target"]) =>
      SHAPES.find((s) => s.name === name && s.target === target)!.build(SIZE);
    // jsonc-parser's recursive tree, which refresh-hash used, overflows on `[[[[…`.
    expect(() => parseTree(shape("raw run of brackets", "refresh-hash"))).toThrow(RangeError);
    // Plain zod arrays overflow on a task whose list has 500,000 wrong-type entries
    // (the task array spreads the task's issues into its own).
    const value = JSON.parse(shape("many wrong-type list elements", "plan-contract"));
    const plain = z.object({ tasks: z.array(z.object({ context_files: z.array(z.string()) })) });
    expect(() => plain.safeParse(value)).toThrow(RangeError);
  });

  it("ends on runs of any mix of the adversarial tokens, in any JSON position", () => {
    const token = fc.constantFrom(" ", "\t", "#", "`", "<!--", "[", "{", "7", '"', ",", "\\", ":");
    const place = fc.constantFrom("raw", "value", "key", "after title");
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 4 }), place, (tokens, where) => {
        const unit = tokens.join("");
        const run = unit.repeat(Math.floor((SIZE - 200) / unit.length));
        const text =
          where === "raw"
            ? run
            : where === "value"
              ? `{"version":1,"goal":"${run}"}`
              : where === "key"
                ? `{"version":1,"${run}":1}`
                : `# x${run}\n`;
        const bytes = encoder.encode(text);
        expect(parse("plan-contract", bytes).invalid).toBe(true);
        expect(parse("evidence", bytes).invalid).toBe(true);
        expect(parse("refresh-hash", bytes).invalid).toBe(true);
        // The markdown kind reads JSON-shaped text (never a title line, a known slow shape).
        if (where !== "after title") parse("oracle-contract", bytes);
      }),
      { numRuns: 12 },
    );
  });
});

describe("problem caps: a thousand per list or object, then one summary", () => {
  const contract = (tasks: unknown[]) =>
    encoder.encode(
      JSON.stringify({
        version: 1,
        phase: 2,
        goal: "g",
        why: "w",
        generated_at: "2026-11-29T12:00:00Z",
        generated_by: "planner",
        tasks,
        success_criteria: ["s"],
      }),
    );
  const task = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    title: "t",
    wave: 1,
    depends_on: [],
    files_modify: [],
    files_create: [],
    files_delete: [],
    acceptance_criteria: [],
    action: "a",
    context_files: [],
    verification: [{ type: "file-exists", path: "a" }],
    ...extra,
  });
  const parsePlan = (bytes: Uint8Array) =>
    parseContract("plan-contract", ".planning/phase-2-contract.json", bytes).problems;

  it("stops the schema and the rules at the same entry of a long broken list", () => {
    // Over 4,000 list entries (so the bounded schema reads it): 1,000 wrong-type
    // tasks, then a duplicate task id past the point where the schema stopped.
    const late = [task("T1"), ...Array(1000).fill(1), task("T1"), ...Array(4000).fill(1)];
    const problems = parsePlan(contract(late));
    expect(problems.filter((p) => p.code === "wrong-type")).toHaveLength(1000);
    expect(problems.some((p) => p.message.includes("the other 4001 were not checked"))).toBe(true);
    expect(problems.some((p) => p.code === "duplicate-task-id")).toBe(false);
    // Positive control: one wrong-type task fewer before it, and the duplicate is found.
    const early = [task("T1"), ...Array(999).fill(1), task("T1"), ...Array(4001).fill(1)];
    const found = parsePlan(contract(early));
    expect(found.some((p) => p.message.includes("the other 4000 were not checked"))).toBe(true);
    expect(found.some((p) => p.code === "duplicate-task-id")).toBe(true);
  });

  it("reads a small document with the plain schema: every problem listed", () => {
    const problems = parsePlan(contract([task("T1"), ...Array(1500).fill(1)]));
    expect(problems.filter((p) => p.code === "wrong-type")).toHaveLength(1500);
  });

  it("lists a thousand unknown keys, unsafe paths and overlaps, then one more for the rest", () => {
    const keys = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, 0]));
    const files = Array.from({ length: 1500 }, (_, i) => `/abs/f${i}.ts`);
    const same = Array.from({ length: 1500 }, (_, i) => `src/f${i}.ts`);
    const problems = parsePlan(
      contract([
        task("T1", keys),
        task("T2", { files_modify: files, wave: 2 }),
        task("T3", { files_modify: same, files_create: same, wave: 3 }),
      ]),
    );
    const count = (code: string) => problems.filter((p) => p.code === code).length;
    expect(count("unknown-key")).toBe(1001);
    expect(problems.some((p) => p.message.includes("500 more unknown keys"))).toBe(true);
    expect(count("unsafe-path")).toBe(1001);
    expect(count("file-list-overlap")).toBe(1001);
  });

  it("lists a thousand unknown keys of a planner or workphase object, then one more", () => {
    const keys = Array.from({ length: 1500 }, (_, i) => `,"k${i}":0`).join("");
    const files = [
      [
        "planner-plan",
        `{"overview":{"problem":"p","approach":"a"},"planning_context":{"decisions":[]},"milestones":[{"id":"M-1","name":"n","files":[]${keys}}],"waves":[{"milestones":["M-1"]}]}`,
        "planner-unknown-key",
      ],
      [
        "workphase-research",
        `{"findings":[{"id":"r1","claim":"c","evidence":"e","confidence":"fact"${keys}}]}`,
        "unknown-key",
      ],
    ] as const;
    for (const [kind, text, code] of files) {
      const problems = parseContract(kind, SHAPE_PATHS[kind], encoder.encode(text)).problems;
      const unknown = problems.filter((p) => p.code === code);
      expect(unknown).toHaveLength(1001);
      expect(unknown.filter((p) => p.message.includes('"k999"'))).toHaveLength(1);
      expect(unknown.some((p) => p.message.includes('"k1000"'))).toBe(false);
      expect(unknown.filter((p) => p.message.includes("500 more keys"))).toHaveLength(1);
    }
  });
});
