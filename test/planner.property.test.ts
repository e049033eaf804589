import fc from "fast-check";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { parsePlannerPlan } from "../src/formats/planner/index.js";

const RUNS = 150;
type Json = Record<string, unknown>;
type Path = (string | number)[];

/**
 * Arbitrary valid planner plans, valid by construction: ids unique, every
 * reference chosen among existing ids (an intent of the same milestone, a
 * node of the same diagram), waves a partition of the milestones.
 */
const plan = fc
  .record({
    decisions: fc.integer({ min: 1, max: 4 }),
    milestones: fc.array(
      fc.record({
        intents: fc.integer({ min: 0, max: 3 }),
        changes: fc.array(fc.nat(), { maxLength: 3 }),
        refs: fc.array(fc.nat(), { maxLength: 2 }),
        tests: fc.array(
          fc.oneof(
            fc.stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}\.py$/).map((p) => `file:${p}`),
            fc.string({ maxLength: 20 }).map((s) => `scenario:${s}`),
            fc.string({ maxLength: 20 }).map((s) => `skip:${s}`),
          ),
          { maxLength: 3 },
        ),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    diagrams: fc.array(
      fc.record({
        nodes: fc.integer({ min: 1, max: 4 }),
        edges: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
        scope: fc.nat(),
      }),
      { maxLength: 3 },
    ),
    waveSize: fc.integer({ min: 1, max: 3 }),
    risks: fc.array(fc.option(fc.nat(), { nil: null }), { maxLength: 3 }),
    indent: fc.integer({ min: 0, max: 4 }),
  })
  .map((g) => {
    const decisions = Array.from({ length: g.decisions }, (_, i) => `DL-${i + 1}`);
    const pick = (list: string[], n: number) => list[n % list.length]!;
    const milestones = g.milestones.map((m, i) => {
      const id = `M-${i + 1}`;
      const intents = Array.from({ length: m.intents }, (_, k) => `CI-${id}-${k + 1}`);
      return {
        id,
        name: `milestone ${i + 1}`,
        files: [`src/m${i}.py`],
        requirements: [],
        acceptance_criteria: [],
        tests: m.tests,
        code_intents: intents.map((ci, k) => ({
          id: ci,
          file: `src/m${i}.py`,
          behavior: "does it",
          decision_refs: m.refs.map((r) => pick(decisions, r + k)),
        })),
        code_changes: m.changes.map((c, k) => ({
          id: `CC-${id}-${k + 1}`,
          intent_ref: intents.length === 0 ? null : pick(intents, c),
          file: `src/m${i}.py`,
          diff: "",
          comments: "",
        })),
      };
    });
    const ids = milestones.map((m) => m.id);
    const waves: Json[] = [];
    for (let w = 0; w < ids.length; w += g.waveSize) {
      waves.push({ milestones: ids.slice(w, w + g.waveSize) });
    }
    const value = {
      overview: { problem: "p", approach: "a" },
      planning_context: {
        decisions: decisions.map((id) => ({ id, decision: "d", reasoning: "a -> b" })),
        rejected_alternatives: [{ alternative: "x", reason: "y", decision_ref: decisions[0] }],
        constraints: [],
        risks: g.risks.map((r) => ({
          risk: "r",
          mitigation: "m",
          anchor: null,
          decision_ref: r === null ? null : pick(decisions, r),
        })),
      },
      diagram_graphs: g.diagrams.map((d, i) => {
        const nodes = Array.from({ length: d.nodes }, (_, k) => `node-${k + 1}`);
        return {
          id: `DIAG-${i + 1}`,
          type: "architecture",
          scope: d.scope % 3 === 0 ? "overview" : `milestone:${pick(ids, d.scope)}`,
          title: "t",
          nodes: nodes.map((id) => ({ id, label: id, type: null })),
          edges: d.edges.map(([s, t]) => ({
            source: pick(nodes, s),
            target: pick(nodes, t),
            label: "",
          })),
          ascii_render: null,
        };
      }),
      milestones,
      waves,
    };
    return { value, indent: g.indent };
  });

/** Every path at which the plan holds a reference, with a value that resolves nowhere. */
function referenceSites(value: Json): { path: Path; broken: string }[] {
  const out: { path: Path; broken: string }[] = [];
  const v = value as {
    planning_context: { risks: { decision_ref: string | null }[] };
    milestones: {
      code_intents: { decision_refs: string[] }[];
      code_changes: { intent_ref: string | null }[];
    }[];
    diagram_graphs: { scope: string; edges: unknown[] }[];
    waves: { milestones: string[] }[];
  };
  out.push({
    path: ["planning_context", "rejected_alternatives", 0, "decision_ref"],
    broken: "DL-404",
  });
  v.planning_context.risks.forEach((r, i) => {
    if (r.decision_ref !== null)
      out.push({ path: ["planning_context", "risks", i, "decision_ref"], broken: "DL-404" });
  });
  v.milestones.forEach((m, i) => {
    m.code_intents.forEach((ci, k) => {
      ci.decision_refs.forEach((_, j) => {
        out.push({
          path: ["milestones", i, "code_intents", k, "decision_refs", j],
          broken: "DL-404",
        });
      });
    });
    m.code_changes.forEach((c, k) => {
      if (c.intent_ref === null) return;
      // An intent of another milestone does not resolve: "within same milestone".
      const other = v.milestones.findIndex((o, oi) => oi !== i && o.code_intents.length > 0);
      const broken = other >= 0 ? `CI-M-${other + 1}-1` : "CI-404";
      out.push({ path: ["milestones", i, "code_changes", k, "intent_ref"], broken });
    });
  });
  v.diagram_graphs.forEach((d, i) => {
    if (d.scope.startsWith("milestone:"))
      out.push({ path: ["diagram_graphs", i, "scope"], broken: "milestone:M-404" });
    d.edges.forEach((_, e) => {
      out.push({ path: ["diagram_graphs", i, "edges", e, "source"], broken: "node-404" });
      out.push({ path: ["diagram_graphs", i, "edges", e, "target"], broken: "node-404" });
    });
  });
  v.waves.forEach((w, i) => {
    w.milestones.forEach((_, j) => {
      out.push({ path: ["waves", i, "milestones", j], broken: "M-404" });
    });
  });
  return out;
}

function setAt(value: Json, path: Path, to: unknown): Json {
  const copy = structuredClone(value);
  let node: Record<string | number, unknown> = copy;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = to;
  return copy;
}

/** Where jsonc-parser places the value at `path`: an oracle independent of the parser under test. */
function expectedPosition(text: string, path: Path): { line: number; column: number } {
  const offset = findNodeAtLocation(parseTree(text)!, path)!.offset;
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("planner plans (property)", () => {
  it("a generated valid plan validates with no problem, but says so when it has nothing to gate", () => {
    fc.assert(
      fc.property(plan, ({ value, indent }) => {
        const c = parsePlannerPlan("plans/p-plan.json", bytes(JSON.stringify(value, null, indent)));
        // Each test entry is a criterion: with none in any milestone, the plan gates nothing.
        const untested = (value.milestones as { tests: unknown[] }[]).every(
          (m) => m.tests.length === 0,
        );
        expect(c.problems.map((p) => [p.code, p.severity])).toEqual(
          untested ? [["nothing-to-gate", "warning"]] : [],
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("each single broken reference is reported once, at its exact path", () => {
    const withSite = plan.chain((p) => {
      const sites = referenceSites(p.value);
      return fc.record({ p: fc.constant(p), site: fc.constantFrom(...sites) });
    });
    fc.assert(
      fc.property(withSite, ({ p, site }) => {
        const text = JSON.stringify(setAt(p.value, site.path, site.broken), null, p.indent);
        const c = parsePlannerPlan("plans/p-plan.json", bytes(text));
        const found = c.problems.filter((x) => x.code === "unresolved-reference");
        expect(found).toHaveLength(1);
        expect({ line: found[0]!.line, column: found[0]!.column }).toEqual(
          expectedPosition(text, site.path),
        );
        // Only a wave's lost milestone may add one more error: it is then in no wave.
        // (An untested plan also says it has nothing to gate, a warning.)
        const others = c.problems.filter(
          (x) => x.code !== "unresolved-reference" && x.code !== "nothing-to-gate",
        );
        expect(others.every((x) => x.code === "milestone-wave")).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
