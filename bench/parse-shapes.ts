/**
 * Adversarial input shapes for the parsers, each built to a given size: the
 * shapes that once cost more than linear time. Shared by
 * the parse bench (bench/parse.ts) and the property test that proves every
 * parser ends with problems and without a throw on each, and that its work
 * grows linearly with the input (test/plan-contract.linear.test.ts).
 */

/** Who reads a shape: a contract kind, the evidence parser, or `refresh-hash`. */
export type ShapeTarget =
  | "plan-contract"
  | "oracle-contract"
  | "gates-ledger"
  | "planner-plan"
  | "workphase-research"
  | "spec"
  | "speckit-tasks"
  | "kiro-spec"
  | "openspec-spec"
  | "evidence"
  | "refresh-hash";

/** The path a contract kind's shapes are read as (the name decides the kind). */
export const SHAPE_PATHS = {
  "plan-contract": ".planning/phase-2-contract.json",
  "oracle-contract": ".claude/tasks/contracts/bench.md",
  "gates-ledger": "GATES.md",
  "planner-plan": "plans/bench-plan.json",
  "workphase-research": ".workphase/bench/research.json",
  spec: "specs/001-bench/spec.md",
  "speckit-tasks": "specs/001-bench/tasks.md",
  "kiro-spec": ".kiro/specs/bench/requirements.md",
  "openspec-spec": "openspec/specs/bench/spec.md",
} as const;

export interface Shape {
  name: string;
  target: ShapeTarget;
  /** The input, close to `size` characters (all ASCII, so as many bytes). */
  build: (size: number) => string;
  /**
   * The input is valid (no error, or `refresh-hash` succeeds). Unset: it is
   * invalid; for the markdown kinds, whose rules are changing, not asserted.
   */
  valid?: boolean;
}

/** `unit` repeated until `size` characters, whole units only. */
function fill(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

/** The fields of the template's one task, as raw JSON text. */
const TASK: Readonly<Record<string, string>> = {
  id: '"T1"',
  title: '"t"',
  wave: "1",
  depends_on: "[]",
  files_modify: '["a.ts"]',
  files_create: "[]",
  files_delete: "[]",
  acceptance_criteria: '["a"]',
  action: '"x"',
  context_files: "[]",
  verification: '[{"type":"file-exists","path":"a.ts"}]',
};

/**
 * A v1 contract of one task, valid but for `task` (fields replaced or
 * added, raw JSON text), `tasks` (replacing the task list) and `root`
 * (fields added to the root).
 */
function contract(
  parts: { task?: Record<string, string>; tasks?: string; root?: Record<string, string> } = {},
): string {
  const fields = (o: Record<string, string>) =>
    Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}:${v}`);
  const task = `{${fields({ ...TASK, ...parts.task }).join(",")}}`;
  const root = fields({
    version: "1",
    phase: "2",
    goal: '"g"',
    why: '"w"',
    generated_at: '"2026-11-29T12:00:00Z"',
    generated_by: '"planner"',
    source_plan_hash: '""',
    success_criteria: '["s"]',
    tasks: parts.tasks ?? `[${task}]`,
    ...parts.root,
  });
  return `{${root.join(",")}}`;
}

/** Room left for the variable part of a shape: the template takes about 500 characters. */
const room = (size: number) => size - 600;

/** `[unit,unit,…]` of about `size` characters. */
function list(unit: string, size: number): string {
  return `[${fill(`${unit},`, size).slice(0, -1)}]`;
}

const oracleHead = "# CONTRACT — bench\n- status: active\n\n## ACCEPTANCE CRITERIA\n";

/** Runs of one character: in a JSON string, as raw JSON text, and after a markdown title. */
const RUNS: readonly [string, string][] = [
  ["spaces", " "],
  ["tabs", "\t"],
  ["hashes", "#"],
  ["backticks", "`"],
  ["comment openers", "<!--"],
  ["brackets", "["],
  ["braces", "{"],
  ["digits", "7"],
];

/** Ledger lines `line(0)`, `line(1)`, … up to about `size` characters. */
function ledger(size: number, line: (i: number) => string): string {
  const out: string[] = ["# Gates: bench\n\n"];
  for (let i = 0, used = 16; ; i++) {
    const next = line(i);
    if (used + next.length > size) break;
    out.push(next);
    used += next.length;
  }
  return out.join("");
}
/** Runs that stress the spec grammar's line patterns. */
const SPEC_RUNS: readonly [string, string][] = [
  ["requirement bullets without a colon", "- **FR-001** [ADDED "],
  ["open parentheses", "Scenario: ((((("],
  ["status look-alikes", "SPEC STATUS: ready\n"],
  ["comment openers", "<!-- FR-001 "],
  ["wrapped statement lines", "  and more\n"],
];

/** Distinct keys `k0`, `k1`, … with value 0, about `size` characters as JSON. */
function manyKeys(size: number): Record<string, string> {
  const keys: Record<string, string> = {};
  for (let i = 0, used = 0; used < size; i++) {
    keys[`k${i}`] = "0";
    used += `,"k${i}":0`.length;
  }
  return keys;
}

export const SHAPES: readonly Shape[] = [
  ...RUNS.flatMap(([label, unit]): Shape[] => [
    { name: `raw run of ${label}`, target: "plan-contract", build: (n) => fill(unit, n) },
    {
      name: `run of ${label} in a value`,
      target: "plan-contract",
      // A tab is written `\t` in JSON: fill by the escaped length.
      build: (n) => {
        const escaped = JSON.stringify(unit).length - 2;
        return contract({
          root: { why2: JSON.stringify(fill(unit, (room(n) * unit.length) / escaped)) },
        });
      },
    },
    {
      name: `title then a run of ${label}`,
      target: "oracle-contract",
      // A section heading below keeps the file a contract (not one foreign-file error).
      build: (n) => `# x${fill(unit, n - 24)}\n## REQUEST\n`,
    },
    {
      name: `criterion then a run of ${label}`,
      target: "oracle-contract",
      build: (n) => `${oracleHead}1. a${fill(unit, n - 80)}\n`,
    },
    {
      name: `gate then a run of ${label}`,
      target: "gates-ledger",
      build: (n) => `# Gates: bench\n- [ ] G1: a${fill(unit, n - 40)}\n`,
    },
    {
      name: `gate attribute then a run of ${label}`,
      target: "gates-ledger",
      build: (n) => `# Gates: bench\n- [ ] G1: a\n  CHECK: ${fill(unit, n - 60)}\n  EXPECT: ok\n`,
    },
    { name: `raw run of ${label}`, target: "evidence", build: (n) => fill(unit, n) },
    { name: `raw run of ${label}`, target: "refresh-hash", build: (n) => fill(unit, n) },
  ]),
  {
    name: "many gates",
    target: "gates-ledger",
    valid: true,
    build: (n) =>
      ledger(
        n,
        (i) =>
          `- [ ] G${i}: outcome ${i}\n  CHECK: echo ok\n  EXPECT: /^ok$/m\n  EVIDENCE: pending\n\n`,
      ),
  },
  {
    // Each list marker or `>` before a box is one more step of the misplaced-gate scan.
    name: "list markers and quotes before a box",
    target: "gates-ledger",
    build: (n) => `# Gates: bench\n${"- > 1. ".repeat(Math.floor((n - 40) / 7))}[ ] G1: a\n`,
  },
  {
    name: "many ABANDON lines naming no gate",
    target: "gates-ledger",
    valid: false,
    build: (n) => `- [ ] G0: x\n${ledger(n - 20, (i) => `ABANDON: G${i + 1} gone\n`)}`,
  },
  {
    name: "many gates hidden in one comment",
    target: "gates-ledger",
    valid: false,
    build: (n) => `- [ ] G0: x\n<!--\n${ledger(n - 40, (i) => `- [ ] G${i + 1}: hidden\n`)}-->\n`,
  },
  {
    name: "many boxes without an id",
    target: "gates-ledger",
    valid: false,
    // Titled a ledger: id-less boxes alone are no ledger at all (`not-a-ledger`, a warning).
    build: (n) => `# Gates: adversarial\n\n${fill("- [ ] no id here\n", n - 24)}`,
  },
  {
    name: "many unknown keys in a task",
    target: "plan-contract",
    build: (n) => contract({ task: manyKeys(room(n)) }),
  },
  {
    name: "many wrong-type list elements",
    target: "plan-contract",
    build: (n) => contract({ task: { context_files: list("1", room(n)) } }),
  },
  {
    name: "many wrong-type tasks",
    target: "plan-contract",
    build: (n) => contract({ tasks: list("{}", room(n)) }),
  },
  {
    name: "10k+ checks in one task",
    target: "plan-contract",
    valid: true,
    build: (n) =>
      contract({
        task: { verification: list('{"type":"file-exists","path":"a.ts"}', room(n)) },
      }),
  },
  {
    name: "10k+ bad checks in one task",
    target: "plan-contract",
    build: (n) =>
      contract({ task: { verification: list('{"type":"file-exist","pat":1}', room(n)) } }),
  },
  {
    name: "overlapping file lists",
    target: "plan-contract",
    build: (n) => {
      const files: string[] = [];
      for (let i = 0, used = 0; used < room(n) / 3; i++) {
        const file = `"src/f${i}.ts"`;
        files.push(file);
        used += file.length + 1;
      }
      const all = `[${files.join(",")}]`;
      return contract({ task: { files_modify: all, files_create: all, files_delete: all } });
    },
  },
  {
    name: "many citations",
    target: "evidence",
    build: (n) => {
      const unit = '{"task":"T1","check":0,"evidence":0,"path":"src/a.ts","line":1,"snippet":"x"},';
      return `{"version":1,"phase":2,"citations":[${fill(unit, n - 60).slice(0, -1)}]}`;
    },
  },
  {
    name: "many wrong-type citations",
    target: "evidence",
    build: (n) => `{"version":1,"phase":2,"citations":[${fill("1,", n - 60).slice(0, -1)}]}`,
  },
  {
    name: "many unknown keys in a citation",
    target: "evidence",
    build: (n) => {
      const keys = Object.entries(manyKeys(room(n))).map(([k, v]) => `,"${k}":${v}`);
      return `{"version":1,"phase":2,"citations":[{"task":"T1","check":0,"evidence":0,"path":"a","line":1,"snippet":"x"${keys.join("")}}]}`;
    },
  },
  {
    // Unknown keys are warnings in a planner plan: the plan is valid.
    name: "many unknown keys in a milestone",
    target: "planner-plan",
    valid: true,
    build: (n) => {
      const keys = Object.entries(manyKeys(room(n))).map(([k, v]) => `,"${k}":${v}`);
      return `{"overview":{"problem":"p","approach":"a"},"planning_context":{"decisions":[]},"milestones":[{"id":"M-1","name":"n","files":[]${keys.join("")}}],"waves":[{"milestones":["M-1"]}]}`;
    },
  },
  {
    name: "many unknown keys in a finding",
    target: "workphase-research",
    build: (n) => {
      const keys = Object.entries(manyKeys(room(n))).map(([k, v]) => `,"${k}":${v}`);
      return `{"findings":[{"id":"r1","claim":"c","evidence":"e","confidence":"fact"${keys.join("")}}]}`;
    },
  },
  {
    name: "long valid contract",
    target: "refresh-hash",
    valid: true,
    build: (n) => contract({ root: { why2: JSON.stringify(fill("x", room(n))) } }),
  },
  {
    name: "many keys before the hash",
    target: "refresh-hash",
    valid: true,
    build: (n) => {
      const keys = Object.keys(manyKeys(room(n))).map((k) => `"${k}":0,`);
      return `{${keys.join("")}"source_plan_hash":""}`;
    },
  },
  // Requirement specs: the line grammar, markers, status lines and task paths.
  ...SPEC_RUNS.map(
    ([label, unit]): Shape => ({
      name: `spec: a run of ${label}`,
      target: "spec",
      build: (n) => `# Specification: bench\n\n## Requirements\n\n${fill(unit, n - 48)}`,
    }),
  ),
  {
    name: "spec: many requirements, scenarios and map lines",
    target: "spec",
    build: (n) => {
      // About 82 bytes per requirement: its line, a scenario and a map line.
      const k = Math.floor((n - 200) / 82);
      const ids = Array.from({ length: k }, (_, i) => `FR-${String(i + 1).padStart(5, "0")}`);
      return [
        "# Specification: bench",
        "## Requirements",
        ...ids.map((id) => `- ${id}: the system SHALL do it`),
        "## Behavior Scenarios",
        ...ids.map((id) => `Scenario: s (${id})`),
        "## Verification",
        "- `true` — proves AC-1",
        "## Requirement Map",
        ...ids.map((id) => `- ${id} → t.ts > t`),
        "SPEC STATUS: READY",
      ].join("\n");
    },
  },
  {
    name: "spec: one line of backtick runs and a marker",
    target: "spec",
    build: (n) => `# Specification: b\n\n[NEEDS CLARIFICATION: x] ${fill("` `` ``` ", n - 40)}\n`,
  },
  {
    name: "tasks: many done tasks naming paths",
    target: "speckit-tasks",
    build: (n) =>
      `# Tasks: b\n\n## Phase 1\n\n${fill("- [X] T001 [P] [US1] Create src/a/b.ts and tests/c.test.ts\n", n - 30)}`,
  },
  // Kiro and OpenSpec (issue 36): many requirements, as their tools write them.
  {
    name: "kiro: many requirements with EARS criteria",
    target: "kiro-spec",
    build: (n) =>
      `# Requirements Document\n\n## Requirements\n\n${fill(
        "### Requirement 1: R\n\n**User Story:** As a user, I want x, so that y.\n\n#### Acceptance Criteria\n\n1. WHEN a user does x THEN the System SHALL do y\n2. IF z, THEN THE System SHALL refuse it\n\n",
        n - 60,
      )}`,
  },
  {
    name: "kiro: one requirement with a long run of criteria",
    target: "kiro-spec",
    build: (n) =>
      `# Requirements Document\n\n### Requirement 1\n\n#### Acceptance Criteria\n\n${fill("1. WHEN x THEN the System SHALL y\n", n - 80)}`,
  },
  {
    name: "openspec: many requirements with scenarios",
    target: "openspec-spec",
    build: (n) =>
      `# bench Specification\n\n## Purpose\nBench.\n\n## Requirements\n${fill(
        "### Requirement: R\nThe system SHALL do it.\n\n#### Scenario: S\n- **WHEN** x\n- **THEN** y\n\n",
        n - 80,
      )}`,
  },
  {
    name: "tasks: one task naming a long run of path tokens",
    target: "speckit-tasks",
    build: (n) => `# Tasks: b\n\n## Phase 1\n\n- [X] T001 ${fill("a/b.ts ", n - 40)}\n`,
  },
];
