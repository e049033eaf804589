import fc from "fast-check";
import { parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SHAPE_PATHS, SHAPES, type Shape } from "../bench/parse-shapes.js";
import { parseEvidenceFile } from "../src/formats/evidence/index.js";
import { parseContract } from "../src/formats/index.js";
import { MAX_CONTRACT_BYTES } from "../src/formats/text.js";
import { refreshPlanHash } from "../src/load/refresh-hash.js";
import { measure } from "./helpers/work-meter.js";

// Issue 7, section 2: every JSON parser (and the markdown one, through
// parseContract) ends on 1 MiB adversarial inputs with problems, never a
// throw or a stack overflow. No timing here: the work a parse does is
// counted (test/helpers/work-meter.ts) at two sizes, and a quadratic parser
// shows as the count growing 16-fold when the input grows 4-fold. The time
// ratio for the same shapes is printed by the bench (bench/parse.ts).

/** Just under the cap, so the whole input is read rather than refused as too large. */
const SIZE = MAX_CONTRACT_BYTES - 64;
const encoder = new TextEncoder();

/** What the parser a shape targets said: its problems, or whether `refresh-hash` succeeded. */
type Read =
  | { problems: readonly { severity: string; line: number; column: number; message: string }[] }
  | { ok: boolean };

/** Parse a shape's input with the parser it targets (no assertion: `measure` counts this alone). */
function read(target: Shape["target"], bytes: Uint8Array): Read {
  switch (target) {
    case "plan-contract":
    case "oracle-contract": {
      const path = target === "plan-contract" ? ".planning/phase-2-contract.json" : "c/x.md";
      return parseContract(target, path, bytes);
    }
    case "gates-ledger":
    case "planner-plan":
    case "workphase-research":
    case "spec":
    case "speckit-tasks":
    case "kiro-spec":
    case "openspec-spec":
      return parseContract(target, SHAPE_PATHS[target], bytes);
    case "evidence":
      return parseEvidenceFile(".planning/phase-2-evidence.json", bytes);
    case "refresh-hash":
      return refreshPlanHash(bytes, encoder.encode("plan\n"));
  }
}

/** Parse a shape's input with the parser it targets; `invalid`: it reported an error. */
function parse(target: Shape["target"], bytes: Uint8Array): { invalid: boolean } {
  const result = read(target, bytes);
  if ("ok" in result) return { invalid: !result.ok };
  if (target === "plan-contract" || target === "oracle-contract") {
    for (const p of result.problems) {
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.column).toBeGreaterThanOrEqual(1);
      expect(p.message).not.toBe("");
    }
  }
  return { invalid: result.problems.some((p) => p.severity === "error") };
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

/** Input sizes of the work comparison: big enough that the template of a shape is noise. */
const SMALL = 64 * 1024;
/**
 * Shapes compared at larger sizes: past 4,000 entries a list is read by the
 * bounded schema, which checks each path once more (a constant step, not a
 * growing one), so both sizes must fall on the same side of that switch.
 */
const BASE_SIZE: Readonly<Record<string, number>> = { "overlapping file lists": 256 * 1024 };
/** Four times as much input may cost at most this many times the work (linear: about 4). */
const MAX_GROWTH = 5;

/** The work `run(size)` does at `base` and at 4 × `base`, and their ratio. */
function growth(
  run: (size: number) => unknown,
  base = SMALL,
): { small: number; large: number; ratio: number } {
  const small = measure(() => run(base));
  const large = measure(() => run(4 * base));
  return { small, large, ratio: large / small };
}

describe("adversarial inputs: every parser's work grows linearly with the input", () => {
  const cases = SHAPES.map((shape) => ({ ...shape, label: `${shape.target}: ${shape.name}` }));
  it.each(cases)("$label", (shape) => {
    const base = BASE_SIZE[shape.name] ?? SMALL;
    // Built before measuring: the count is the parse's alone.
    const inputs = new Map([base, 4 * base].map((n) => [n, encoder.encode(shape.build(n))]));
    const { ratio } = growth((size) => read(shape.target, inputs.get(size)!), base);
    expect(ratio).toBeLessThanOrEqual(MAX_GROWTH);
  });

  it("sees quadratic work: each line's number counted from the start, or a search from the start per line (positive controls)", () => {
    const text = (size: number) => "a line\n".repeat(size / 7);
    // The classic quadratic: each problem's line counted by splitting the text before it.
    const quadratic = (size: number) => {
      const t = text(size);
      const lines: number[] = [];
      for (let at = t.indexOf("\n"); at !== -1; at = t.indexOf("\n", at + 1)) {
        lines.push(t.slice(0, at).split("\n").length);
      }
      return lines;
    };
    const linear = (size: number) => {
      const t = text(size);
      let line = 1;
      for (let at = t.indexOf("\n"); at !== -1; at = t.indexOf("\n", at + 1)) line++;
      return line;
    };
    // And its regex twin: a search for a marker the text lacks, started over for every line.
    const rescan = (size: number) => {
      const t = text(size);
      const marker = /<!--/g;
      let hits = 0;
      for (let at = t.indexOf("\n"); at !== -1; at = t.indexOf("\n", at + 1)) {
        marker.lastIndex = 0;
        if (marker.exec(t)) hits++;
      }
      return hits;
    };
    // Small inputs: the quadratic ones walk about 20 million characters at 4 × 4 KiB.
    expect(growth(quadratic, 4096).ratio).toBeGreaterThan(12);
    expect(growth(rescan, 4096).ratio).toBeGreaterThan(12);
    expect(growth(linear, 4096).ratio).toBeLessThanOrEqual(MAX_GROWTH);
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
