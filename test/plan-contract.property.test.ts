import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePlanContract } from "../src/formats/plan-contract/index.js";
import type { Contract } from "../src/model/contract.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";
import { sortProblems } from "../src/model/problems.js";

const RUNS = 200;
/** Generous: a parse of these small inputs takes milliseconds; this catches blow-ups. */
const MAX_PARSE_MS = 1000;

// ---------------------------------------------------------------------------
// Arbitrary valid v1 contracts, built to satisfy every rule by construction.

/** Any text with a non-blank character, including astral and escaped characters. */
const prose = fc
  .oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }))
  .filter((s) => s.trim() !== "");

const segment = fc
  .stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,11}$/)
  .filter((s) => s !== "." && s !== "..");
const safePath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
const glob = fc.oneof(
  safePath,
  safePath.map((p) => `${p}/**/*.ts`),
);

/** A regex that compiles: an arbitrary non-empty string with metacharacters escaped. */
const regex = fc
  .string({ minLength: 1, maxLength: 20 })
  .map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));

const command = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/);

const fileExists = fc.record(
  { type: fc.constant("file-exists"), path: safePath, must_contain: fc.string({ minLength: 1 }) },
  { requiredKeys: ["type", "path"] },
);
const grepMatch = fc.record({
  type: fc.constant("grep-match"),
  path: glob,
  pattern: regex,
  expect: fc.constantFrom("present", "absent"),
});
const commandExit = fc.record(
  {
    type: fc.constant("command-exit"),
    command,
    args: fc.array(fc.string(), { maxLength: 4 }),
    cwd: safePath,
    expected_exit: fc.integer({ min: 0, max: 255 }),
    timeout_ms: fc.integer({ min: 1, max: 600_000 }),
    expect_stdout_match: regex,
  },
  { requiredKeys: ["type", "command", "args", "expected_exit"] },
);
const behavioral = fc.record({
  type: fc.constant("behavioral"),
  description: prose,
  evidence_required: fc.array(
    fc.record(
      { path: safePath, matcher: regex, description: prose },
      { requiredKeys: ["path", "description"] },
    ),
    { minLength: 1, maxLength: 3 },
  ),
});
const check = fc.oneof(fileExists, grepMatch, commandExit, behavioral);

const PERSONAS = ["security", "architect", "ux", "frontend", "backend", "performance", "none"];

/** Task fields that do not depend on other tasks. */
const taskBody = fc.record(
  {
    title: prose,
    persona: fc.constantFrom(...PERSONAS),
    files: fc.uniqueArray(fc.tuple(safePath, fc.integer({ min: 0, max: 2 })), {
      maxLength: 6,
      selector: ([path]) => path,
    }),
    acceptance_criteria: fc.array(prose, { maxLength: 3 }),
    action: prose,
    context_files: fc.array(safePath, { maxLength: 3 }),
    verification: fc.array(check, { minLength: 1, maxLength: 4 }),
    extraWave: fc.integer({ min: 0, max: 2 }),
    dependencyPicks: fc.array(fc.nat(), { maxLength: 3 }),
  },
  {
    requiredKeys: [
      "title",
      "files",
      "acceptance_criteria",
      "action",
      "context_files",
      "verification",
      "extraWave",
      "dependencyPicks",
    ],
  },
);

const validContract = fc
  .record(
    {
      phase: fc.integer({ min: 1, max: 40 }),
      goal: prose,
      why: prose,
      generated_at: fc
        .date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2099-12-31T23:59:59Z"),
          noInvalidDate: true,
        })
        .map((d) =>
          d.getUTCMilliseconds() % 2 ? d.toISOString() : d.toISOString().replace(/\.\d+Z$/, "Z"),
        ),
      generated_by: fc.constantFrom("planner", "compile-plan", "manual"),
      source_plan_hash: fc.string(),
      ids: fc.uniqueArray(fc.nat({ max: 999 }), { minLength: 1, maxLength: 6 }),
      bodies: fc.array(taskBody, { minLength: 6, maxLength: 6 }),
      success_criteria: fc.array(prose, { minLength: 1, maxLength: 3 }),
    },
    {
      requiredKeys: [
        "phase",
        "goal",
        "why",
        "generated_at",
        "generated_by",
        "ids",
        "bodies",
        "success_criteria",
      ],
    },
  )
  .map(({ ids, bodies, ...root }) => {
    const tasks: Record<string, unknown>[] = [];
    const waves: number[] = [];
    ids.forEach((n, i) => {
      const { files, extraWave, dependencyPicks, ...body } = bodies[i]!;
      // Dependencies only on earlier tasks, waves strictly after them: rules 3–5 hold.
      const deps = i === 0 ? [] : [...new Set(dependencyPicks.map((p) => p % i))];
      const wave = Math.max(0, ...deps.map((d) => waves[d]!)) + 1 + extraWave;
      waves.push(wave);
      tasks.push({
        id: `T${n}`,
        ...body,
        wave,
        depends_on: deps.map((d) => `T${ids[d]}`),
        // Each file lands in exactly one list: rule 7 holds.
        files_modify: files.filter(([, list]) => list === 0).map(([p]) => p),
        files_create: files.filter(([, list]) => list === 1).map(([p]) => p),
        files_delete: files.filter(([, list]) => list === 2).map(([p]) => p),
      });
    });
    return { version: 1, ...root, tasks };
  });

/** Valid JSON layouts: any indentation, optional CRLF and BOM. */
const layout: fc.Arbitrary<Layout> = fc.record({
  indent: fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: 0, max: 8 }),
    fc.constantFrom("\t", " \t", "\t\t"),
  ),
  crlf: fc.boolean(),
  bom: fc.boolean(),
});

type Layout = { indent: number | string | undefined; crlf: boolean; bom: boolean };

function render(value: unknown, { indent, crlf, bom }: Layout): Uint8Array {
  let text = JSON.stringify(value, null, indent);
  if (crlf) text = text.replace(/\n/g, "\r\n");
  return new TextEncoder().encode(bom ? `\uFEFF${text}` : text);
}

// ---------------------------------------------------------------------------
// The expected model, derived independently of the implementation.

type Json = Record<string, unknown>;

function expectedCheck(c: Json): Json {
  switch (c.type) {
    case "file-exists":
      return {
        type: c.type,
        path: c.path,
        ...(c.must_contain === undefined ? {} : { mustContain: c.must_contain }),
      };
    case "grep-match":
      return { type: c.type, path: c.path, pattern: c.pattern, expect: c.expect };
    case "command-exit":
      return {
        type: c.type,
        command: c.command,
        args: c.args,
        expectedExit: c.expected_exit,
        timeoutMs: c.timeout_ms ?? 30000,
        ...(c.cwd === undefined ? {} : { cwd: c.cwd }),
        ...(c.expect_stdout_match === undefined
          ? {}
          : { expectStdoutMatch: c.expect_stdout_match }),
      };
    default:
      return {
        type: c.type,
        description: c.description,
        evidenceRequired: (c.evidence_required as Json[]).map((e) => ({ ...e })),
      };
  }
}

function expectedCriteria(contract: Json) {
  return (contract.tasks as Json[]).flatMap((t) =>
    (t.verification as Json[]).map((c, k) => ({
      id: `${t.id}.${k + 1}`,
      group: t.id,
      checks: [expectedCheck(c)],
    })),
  );
}

function actualCriteria(contract: Contract) {
  return contract.criteria.map((c) => ({
    id: c.id,
    group: c.group,
    checks: c.checks.map(({ location: _, ...rest }) => rest),
  }));
}

// ---------------------------------------------------------------------------
// Invariants every result must keep, whatever the input.

function timedParse(path: string, bytes: Uint8Array): Contract {
  const started = performance.now();
  const contract = parsePlanContract(path, bytes);
  expect(performance.now() - started).toBeLessThan(MAX_PARSE_MS);
  return contract;
}

function expectWellFormed(contract: Contract, path: string, bytes: Uint8Array) {
  expect(contract.kind).toBe("plan-contract");
  expect(contract.problems).toEqual(sortProblems(contract.problems));
  const lines = new TextDecoder().decode(bytes).split(/\r\n|\r|\n/).length;
  for (const p of contract.problems) {
    expect(Object.hasOwn(PROBLEM_CODES, p.code)).toBe(true);
    expect(p.path).toBe(path);
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(lines);
    expect(p.column).toBeGreaterThanOrEqual(1);
    expect(p.message).not.toBe("");
  }
  const ids = contract.criteria.map((c) => c.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const c of contract.criteria) expect(c.checks).toHaveLength(1);
}

const VALID_EXAMPLE = readFileSync(
  new URL("fixtures/plan-contract/valid/phase-2-contract.json", import.meta.url),
);

describe("plan-contract properties", () => {
  it("parses any valid contract, in any layout, without problems and with one criterion per check", () => {
    fc.assert(
      fc.property(validContract, layout, (contract, how) => {
        const path = `.planning/phase-${contract.phase}-contract.json`;
        const bytes = render(contract, how);
        const parsed = timedParse(path, bytes);
        expect(parsed.problems).toEqual([]);
        expect(actualCriteria(parsed)).toEqual(expectedCriteria(contract));
        if (parsed.header.kind !== "plan-contract") throw new Error("wrong header kind");
        expect(parsed.header.tasks.map((t) => [t.id, t.wave, t.dependsOn])).toEqual(
          contract.tasks.map((t) => [t.id, t.wave, t.depends_on]),
        );
        expect(parsed.header.successCriteria).toEqual(contract.success_criteria);
        expect(parsed.header.sourcePlanHash).toBe(contract.source_plan_hash);
        // Layout must not matter: compact LF without BOM gives the same model.
        const compact = parsePlanContract(
          path,
          render(contract, { indent: how.indent, crlf: false, bom: false }),
        );
        expect(parsed).toEqual(compact);
      }),
      { numRuns: RUNS },
    );
  });

  it("never throws on random byte mutations of a valid contract", () => {
    const mutation = fc.oneof(
      fc.record({
        op: fc.constant("set" as const),
        at: fc.nat(),
        byte: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({
        op: fc.constant("insert" as const),
        at: fc.nat(),
        byte: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({ op: fc.constant("delete" as const), at: fc.nat(), byte: fc.constant(0) }),
      fc.record({ op: fc.constant("truncate" as const), at: fc.nat(), byte: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 8 }), (mutations) => {
        let bytes = [...VALID_EXAMPLE];
        for (const { op, at, byte } of mutations) {
          const i = bytes.length === 0 ? 0 : at % (bytes.length + (op === "insert" ? 1 : 0));
          if (op === "set" && bytes.length > 0) bytes[i] = byte;
          else if (op === "insert") bytes.splice(i, 0, byte);
          else if (op === "delete") bytes.splice(i, 1);
          else if (op === "truncate") bytes = bytes.slice(0, i);
        }
        const path = ".planning/phase-2-contract.json";
        const input = Uint8Array.from(bytes);
        expectWellFormed(timedParse(path, input), path, input);
      }),
      { numRuns: RUNS },
    );
  });

  it("never throws on random structural mutations, and still reports what is wrong", () => {
    const edit = fc.record({
      op: fc.constantFrom("delete", "replace", "rename", "duplicate"),
      pick: fc.nat(),
      value: fc.jsonValue({ maxDepth: 3 }),
      key: fc.string({ maxLength: 12 }),
    });
    fc.assert(
      fc.property(
        validContract,
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        (contract, edits) => {
          const value = structuredClone(contract) as unknown;
          for (const e of edits) applyEdit(value, e);
          const path = `.planning/phase-${contract.phase}-contract.json`;
          const bytes = new TextEncoder().encode(JSON.stringify(value, null, 2));
          const parsed = timedParse(path, bytes);
          expectWellFormed(parsed, path, bytes);
          // Whatever survived the edits is judged the same way it would be fresh:
          // a contract that reports no problem must match its own expected model.
          if (parsed.problems.every((p) => p.severity === "warning")) {
            expect(actualCriteria(parsed)).toEqual(expectedCriteria(value as Json));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/** Every container in a JSON value, with its path, for picking an edit target. */
function containers(value: unknown): (Json | unknown[])[] {
  const out: (Json | unknown[])[] = [];
  const visit = (v: unknown) => {
    if (v === null || typeof v !== "object") return;
    out.push(v as Json | unknown[]);
    for (const child of Object.values(v)) visit(child);
  };
  visit(value);
  return out;
}

function applyEdit(
  root: unknown,
  e: { op: string; pick: number; value: unknown; key: string },
): void {
  const all = containers(root);
  const target = all[e.pick % all.length];
  if (target === undefined) return;
  const keys = Object.keys(target);
  if (keys.length === 0) return;
  const key = keys[e.pick % keys.length]!;
  if (Array.isArray(target)) {
    const i = Number(key);
    if (e.op === "delete") target.splice(i, 1);
    else if (e.op === "duplicate") target.splice(i, 0, structuredClone(target[i]));
    else target[i] = e.value;
    return;
  }
  if (e.op === "delete") delete target[key];
  else if (e.op === "rename") {
    const moved = target[key];
    delete target[key];
    target[e.key] = moved;
  } else target[key] = e.value;
}
