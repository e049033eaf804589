// A generated planner plan.json (seed 002) for the validate bench.

/** A valid plan: every id unique, every reference resolving, each milestone in one wave. */
export function plannerPlan(n, milestones = 20) {
  const decisions = [];
  for (let d = 1; d <= 5; d++) {
    decisions.push({
      id: `DL-${d}`,
      decision: `Decision ${d} of plan ${n}`,
      reasoning: "high call volume -> bcrypt too slow -> use HMAC-SHA256",
    });
  }
  const ms = [];
  for (let m = 1; m <= milestones; m++) {
    const id = `M-${m}`;
    const intents = [1].map((i) => ({
      id: `CI-${id}-${i}`,
      file: `src/m${m}/part${i}.py`,
      behavior: `part${i}(request) returns the claims`,
      decision_refs: [`DL-${((m + i) % 5) + 1}`],
    }));
    ms.push({
      id,
      name: `Milestone ${m}`,
      files: intents.map((i) => i.file),
      requirements: [`requirement ${m}.1`],
      acceptance_criteria: [`criterion ${m}.1 holds`],
      tests: [
        `file:tests/test_m${m}.py`,
        `scenario:EDGE milestone ${m} rejects bad input`,
        "skip:no integration environment",
      ],
      code_intents: intents,
      code_changes: intents.map((i, k) => ({
        id: `CC-${id}-${k + 1}`,
        intent_ref: i.id,
        file: i.file,
        diff: `--- a/${i.file}\n+++ b/${i.file}\n@@ -1,3 +1,5 @@\n+def part${k + 1}(request):\n+    """Validate the request (DL-1)."""\n     return claims\n`,
        comments: "Uses HMAC for speed (DL-1)",
        is_documentation_only: false,
        delegated_to: null,
      })),
    });
  }
  const waves = [];
  for (let w = 0; w < milestones; w += 4) {
    waves.push({ id: `W-${w / 4 + 1}`, milestones: ms.slice(w, w + 4).map((m) => m.id) });
  }
  return {
    schema_version: 2,
    overview: { problem: `Problem of plan ${n}`, approach: "Validate once, in middleware" },
    planning_context: {
      decisions,
      rejected_alternatives: [{ alternative: "bcrypt", reason: "too slow", decision_ref: "DL-1" }],
      constraints: ["MUST: support Python 3.9+"],
      risks: [
        { risk: "clock skew", mitigation: "30 s leeway", anchor: null, decision_ref: "DL-2" },
      ],
    },
    invisible_knowledge: {
      system: "Requests pass the middleware first",
      invariants: [],
      tradeoffs: [],
    },
    diagram_graphs: [
      {
        id: "DIAG-1",
        type: "architecture",
        scope: "milestone:M-1",
        title: "Flow",
        nodes: [
          { id: "n1", label: "API", type: "service" },
          { id: "n2", label: "Validator", type: null },
        ],
        edges: [{ source: "n1", target: "n2", label: "validates", protocol: null }],
        ascii_render: null,
      },
    ],
    milestones: ms,
    waves,
  };
}
