import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeRepoPath, unsafePathReason } from "../src/formats/paths.js";
import { unsafeCommandChars } from "../src/formats/plan-contract/command-safety.js";
import { conformsToSchema } from "../src/formats/plan-contract/fast-schema.js";
import { parsePlanContract } from "../src/formats/plan-contract/index.js";
import {
  type JsonDocument,
  parseJsonDocument,
  parseJsonFast,
  parseJsonFull,
} from "../src/formats/plan-contract/json-document.js";
import type { JsonPath } from "../src/formats/plan-contract/json-path.js";
import { fileKey, pathReason, regexReason } from "../src/formats/plan-contract/memo.js";
import {
  BehavioralSchema,
  CommandExitSchema,
  EvidenceSchema,
  FileExistsSchema,
  GrepMatchSchema,
  PlanContractSchema,
  TaskSchema,
} from "../src/formats/plan-contract/schema.js";
import { regexError } from "../src/formats/regex.js";
import { decodeContract, decodeContractText, isProblem } from "../src/formats/text.js";

// The fast paths of the plan-contract parser (JSON.parse with a light
// position index, and a quick schema conformance test) must give exactly
// what the full paths (jsonc-parser's tree, zod) give: same problems at the
// same positions, same model. These tests compare the two on every fixture
// and on generated and mutated contracts.

const encode = (text: string) => new TextEncoder().encode(text);

/** Every JSON file under the test fixtures and the examples. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

const FILES = [...jsonFiles("test/fixtures"), ...jsonFiles("examples")];

/** What a parse yields, minus the document's internals (its position walkers). */
function outcome(parsed: ReturnType<typeof parseJsonFull>) {
  return { problems: parsed.problems, value: parsed.document?.value };
}

/** Every path to a value in `value`, root first. */
function valuePaths(value: unknown, base: JsonPath = []): JsonPath[] {
  const out: JsonPath[] = [base];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push(...valuePaths(item, [...base, i]));
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) out.push(...valuePaths(item, [...base, key]));
  }
  return out;
}

/** Paths that miss: past the end, unknown keys, a key on an array, an index on an object. */
function missingPaths(paths: JsonPath[]): JsonPath[] {
  return paths.flatMap((p) => [
    [...p, "no such key"],
    [...p, 10_000],
    [...p, 0, "x"],
    [...p, "0"],
    [...p, -1],
  ]);
}

/** Both documents place every value and key, and every miss, identically. */
function expectSamePositions(fast: JsonDocument, full: JsonDocument, value: unknown) {
  const paths = valuePaths(value);
  for (const path of [...paths, ...missingPaths(paths.slice(0, 50))]) {
    expect(fast.valueAt(path)).toStrictEqual(full.valueAt(path));
    expect(fast.keyAt(path)).toStrictEqual(full.keyAt(path));
  }
}

// ---------------------------------------------------------------------------
// Generated contracts: valid ones, then mutated ones.

const text = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom("", " ", "\t", "a\\b", 'q"q', "ÿ", "😀", "\u2028", "../x", "/abs", "C:\\x"),
);
const prose = fc.oneof(text, fc.constantFrom("Do it.", "it works"));
const safePath = fc
  .array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 3 })
  .map((s) => s.join("/"));
const path = fc.oneof({ weight: 4, arbitrary: safePath }, { weight: 1, arbitrary: text });
const regex = fc.oneof(fc.constantFrom("fn\\(", "^x$", "a|b", "(", "[", "\\"), text);
const int = fc.oneof(fc.integer({ min: -2, max: 300 }), fc.constantFrom(0.5, 1.5e300, -0, 2 ** 53));

const check = fc.oneof(
  fc.record(
    { type: fc.constant("file-exists"), path, must_contain: text },
    { requiredKeys: ["type", "path"] },
  ),
  fc.record({
    type: fc.constant("grep-match"),
    path,
    pattern: regex,
    expect: fc.constantFrom("present", "absent", "maybe"),
  }),
  fc.record(
    {
      type: fc.constant("command-exit"),
      command: fc.oneof(fc.constantFrom("npm", "npx tsc", "a&&b", ""), text),
      args: fc.array(text, { maxLength: 3 }),
      cwd: path,
      expected_exit: int,
      timeout_ms: int,
      expect_stdout_match: regex,
    },
    { requiredKeys: ["type", "command", "args", "expected_exit"] },
  ),
  fc.record({
    type: fc.constant("behavioral"),
    description: prose,
    evidence_required: fc.array(
      fc.record({ path, matcher: regex, description: prose }, { requiredKeys: ["path"] }),
      { maxLength: 2 },
    ),
  }),
);

const task = fc.record(
  {
    id: fc.oneof(fc.constantFrom("T1", "T2", "T3", "T4"), text),
    title: prose,
    wave: int,
    depends_on: fc.array(fc.constantFrom("T1", "T2", "T3", "T9"), { maxLength: 3 }),
    persona: fc.constantFrom("backend", "data", "none", "chef"),
    files_modify: fc.array(path, { maxLength: 2 }),
    files_create: fc.array(path, { maxLength: 2 }),
    files_delete: fc.array(path, { maxLength: 2 }),
    acceptance_criteria: fc.array(prose, { maxLength: 2 }),
    action: fc.oneof(prose, fc.constant("x".repeat(501))),
    context_files: fc.array(path, { maxLength: 2 }),
    verification: fc.array(check, { maxLength: 3 }),
  },
  {
    requiredKeys: [
      "id",
      "title",
      "wave",
      "depends_on",
      "files_modify",
      "files_create",
      "files_delete",
      "acceptance_criteria",
      "action",
      "context_files",
      "verification",
    ],
  },
);

const contract = fc.record(
  {
    version: fc.constantFrom(1, 1, 1, 2),
    phase: int,
    goal: prose,
    why: prose,
    generated_at: fc.constantFrom(
      "2026-11-29T12:00:00Z",
      "2024-02-29T23:59:59.5Z",
      "2023-02-29T00:00:00Z",
      "2026-11-29T12:00:00+01:00",
      "yesterday",
    ),
    generated_by: fc.constantFrom("planner", "compile-plan", "manual", "robot"),
    source_plan_hash: fc.constantFrom(`sha256:${"0".repeat(64)}`, "", "sha256:nope"),
    tasks: fc.array(task, { maxLength: 4 }),
    success_criteria: fc.array(prose, { maxLength: 2 }),
  },
  {
    requiredKeys: [
      "version",
      "phase",
      "goal",
      "why",
      "generated_at",
      "generated_by",
      "tasks",
      "success_criteria",
    ],
  },
);

type Edit = (value: unknown) => unknown;

/** Change one thing deep inside a value: drop a key, add one, or replace a value. */
function mutation(): fc.Arbitrary<Edit> {
  return fc
    .record({
      pick: fc.nat(),
      how: fc.constantFrom("drop", "add", "replace", "null"),
      key: fc.constantFrom("extra", "must_contian", "type", "__proto__", "path"),
      replacement: fc.jsonValue({ maxDepth: 2 }),
    })
    .map(({ pick, how, key, replacement }) => (value: unknown) => {
      const copy = JSON.parse(JSON.stringify(value)) as unknown;
      const paths = valuePaths(copy).filter((p) => p.length > 0);
      if (paths.length === 0) return copy;
      const target = paths[pick % paths.length]!;
      let parent = copy as Record<string | number, unknown>;
      for (const segment of target.slice(0, -1)) {
        parent = parent[segment] as Record<string | number, unknown>;
      }
      const last = target[target.length - 1]!;
      if (how === "drop" && !Array.isArray(parent)) delete parent[last];
      else if (how === "add" && typeof parent === "object" && !Array.isArray(parent)) {
        Object.defineProperty(parent, key, { value: replacement, enumerable: true });
      } else parent[last] = how === "null" ? null : replacement;
      return copy;
    });
}

const layout = fc.constantFrom<(v: unknown) => string>(
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 2),
  (v) => JSON.stringify(v, null, "\t"),
  (v) => `\n  ${JSON.stringify(v, null, 1).replace(/\n/g, "\r\n")} \n`,
);

/** The contract, parsed both ways: they must agree on everything. */
function expectSameContract(path: string, bytes: Uint8Array) {
  expect(parsePlanContract(path, bytes)).toStrictEqual(
    parsePlanContract(path, bytes, { fast: false }),
  );
}

// ---------------------------------------------------------------------------

describe("plan-contract fast paths", () => {
  it("gives exactly the full result for every fixture and example", () => {
    expect(FILES.length).toBeGreaterThan(30);
    for (const file of FILES) {
      const bytes = readFileSync(file);
      for (const name of [file, "c/phase-2-contract.json", "c/phase-7-contract.json"]) {
        expectSameContract(name, bytes);
      }
    }
  });

  it("places every value and key of every fixture as jsonc-parser does", () => {
    for (const file of FILES) {
      const decoded = decodeContractText(file, readFileSync(file));
      if (typeof decoded !== "string") continue;
      const fast = parseJsonFast(file, decoded);
      const full = parseJsonFull(file, decoded);
      if (fast === undefined) continue;
      expect(full.problems).toEqual([]);
      expect(fast.document!.value).toStrictEqual(full.document!.value);
      expectSamePositions(fast.document!, full.document!, fast.document!.value);
    }
  });

  it("places every value and key of arbitrary JSON as jsonc-parser does", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), layout, (value, render) => {
        const source = render(value);
        const fast = parseJsonFast("a.json", source);
        const full = parseJsonFull("a.json", source);
        // Stringified JSON has no duplicate keys and stays shallow: the fast path takes it.
        expect(fast).toBeDefined();
        expect(fast!.problems).toEqual([]);
        expect(full.problems).toEqual([]);
        expect(fast!.document!.value).toStrictEqual(full.document!.value);
        expectSamePositions(fast!.document!, full.document!, value);
      }),
      { numRuns: 300 },
    );
  });

  it("finds keys written with escapes, as JSON.parse decodes them", () => {
    const source = '{\n  "a\\u0062": {"\\"q": [1, {"x\\\\y": 2}]},\n  "ab2": 3\n}';
    const fast = parseJsonFast("a.json", source)!.document!;
    const full = parseJsonFull("a.json", source).document!;
    for (const path of [["ab"], ["ab", '"q'], ["ab", '"q', 1, "x\\y"], ["ab2"], ["a\\u0062"]]) {
      expect(fast.valueAt(path)).toStrictEqual(full.valueAt(path));
      expect(fast.keyAt(path)).toStrictEqual(full.keyAt(path));
    }
    expect(fast.keyAt(["ab", '"q', 1, "x\\y"])).toEqual({ path: "a.json", line: 2, column: 27 });
  });

  it("keeps a document's positions right after other documents are parsed", () => {
    const first = '{\n  "a": [1, {"b": 2}]\n}';
    const kept = parseJsonFast("a.json", first)!.document!;
    for (let i = 0; i < 3; i++) parseJsonFast("b.json", `[${"[0],".repeat(i * 50)}{"b": 1}]`);
    const full = parseJsonFull("a.json", first).document!;
    expectSamePositions(kept, full, JSON.parse(first));
    expect(kept.keyAt(["a", 1, "b"])).toEqual({ path: "a.json", line: 2, column: 13 });
  });

  it("leaves duplicate keys to the full parser, which reports each at its exact position", () => {
    const source = [
      "{",
      '  "a": 1,',
      '  "b": {"c": 1, "\\u0063": {"d": [1]}},',
      '  "a": {"x": 1},',
      '  "__proto__": 1, "__proto__": 2',
      "}",
    ].join("\n");
    expect(parseJsonFast("d.json", source)).toBeUndefined();
    const parsed = parseJsonDocument("d.json", source);
    expect(outcome(parsed)).toStrictEqual(outcome(parseJsonFull("d.json", source)));
    expect(parsed.problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([
      '4:3 duplicate key "a"; it is already defined on line 2',
      '5:19 duplicate key "__proto__"; it is already defined on line 5',
      '3:17 duplicate key "c"; it is already defined on line 3',
    ]);
  });

  it("leaves a duplicate key hidden inside a dropped value to the full parser", () => {
    // The first "a" is dropped by JSON.parse; its own duplicate must still be reported.
    const source = '{"a": {"x": 1, "x": 2}, "a": {"x": 1, "y": 2, "z": 3}}';
    expect(parseJsonFast("d.json", source)).toBeUndefined();
    expect(parseJsonDocument("d.json", source).problems.map((p) => p.column)).toEqual([25, 16]);
  });

  it("finds every injected duplicate key, whatever the document", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), {
          minKeys: 1,
        }),
        fc.nat(),
        layout,
        (object, pick, render) => {
          const keys = Object.keys(object);
          const key = keys[pick % keys.length]!;
          const source = render(object).replace(/}\s*$/, () => `, ${JSON.stringify(key)}: 0}`);
          expect(parseJsonFast("d.json", source)).toBeUndefined();
          const parsed = parseJsonDocument("d.json", source);
          expect(outcome(parsed)).toStrictEqual(outcome(parseJsonFull("d.json", source)));
          expect(parsed.problems.some((p) => p.code === "json-duplicate-key")).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("leaves too deep nesting and invalid JSON to the full parser", () => {
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    expect(parseJsonFast("d.json", deep)).toBeUndefined();
    expect(parseJsonDocument("d.json", deep).problems[0]?.message).toBe(
      "JSON nests deeper than 64 levels",
    );
    expect(parseJsonFast("d.json", `${"[".repeat(64)}${"]".repeat(64)}`)).toBeDefined();
    for (const bad of ['{"a": 1,}', "{\u00a0}", "", "[1] 2", '{"a": 1} // x']) {
      expect(parseJsonFast("d.json", bad)).toBeUndefined();
      expect(outcome(parseJsonDocument("d.json", bad))).toStrictEqual(
        outcome(parseJsonFull("d.json", bad)),
      );
    }
  });

  it("gives exactly the full result for generated contracts", () => {
    fc.assert(
      fc.property(contract, layout, (value, render) => {
        expectSameContract("c/phase-2-contract.json", encode(render(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("gives exactly the full result for mutated contracts", () => {
    fc.assert(
      fc.property(contract, mutation(), layout, (value, edit, render) => {
        expectSameContract("c/phase-3-contract.json", encode(render(edit(value))));
      }),
      { numRuns: 300 },
    );
  });

  it("finds a duplicate key in a contract the quick schema test accepts", () => {
    fc.assert(
      fc.property(
        contract,
        layout,
        fc.constantFrom("root", "task", "check"),
        (value, render, where) => {
          const source = render(value);
          const injected =
            where === "root"
              ? source.replace("{", () => '{"goal": "first",')
              : where === "task"
                ? source.replace(/"id":/, () => '"title": "first", "id":')
                : source.replace(/"type":/, () => '"type": "first", "type":');
          if (injected === source) return;
          const bytes = encode(injected);
          const contract = parsePlanContract("c/phase-2-contract.json", bytes);
          expect(contract).toStrictEqual(
            parsePlanContract("c/phase-2-contract.json", bytes, { fast: false }),
          );
          expect(contract.problems.some((p) => p.code === "json-duplicate-key")).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("handles numbers JSON.parse turns into Infinity or -0 as the full path does", () => {
    const text = JSON.stringify(
      JSON.parse(
        readFileSync(FILES.find((f) => f.endsWith("valid/phase-2-contract.json"))!, "utf8"),
      ),
      null,
      2,
    )
      .replace(/"phase": 2/, '"phase": 1e400')
      .replace(/"expected_exit": 0/, '"expected_exit": -0');
    expectSameContract("c/phase-2-contract.json", encode(text));
  });

  it("decodes text exactly as decodeContract does", () => {
    for (const file of FILES) {
      const bytes = readFileSync(file);
      const full = decodeContract(file, bytes);
      const text = decodeContractText(file, bytes);
      expect(isProblem(full) ? full : full.text).toStrictEqual(text);
    }
    for (const sample of ["a\r\nb\rc\n", "\uFEFFx", "", "\r"]) {
      const full = decodeContract("s", encode(sample));
      expect(isProblem(full) ? full : full.text).toStrictEqual(
        decodeContractText("s", encode(sample)),
      );
    }
  });
});

describe("schema conformance test", () => {
  it("never accepts what zod refuses", () => {
    fc.assert(
      fc.property(contract, mutation(), (value, edit) => {
        for (const candidate of [value, edit(value)]) {
          if (conformsToSchema(candidate)) {
            expect(PlanContractSchema.safeParse(candidate).success).toBe(true);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts what zod accepts, for the contracts it is there for", () => {
    let accepted = 0;
    fc.assert(
      fc.property(contract, (generated) => {
        // As a file would give it: JSON has no -0 (which the fast test leaves to zod).
        const value: unknown = JSON.parse(JSON.stringify(generated));
        const zod = PlanContractSchema.safeParse(value).success;
        if (zod) accepted++;
        // The fast test may say no where zod says yes (then zod runs); on these it never does.
        expect(conformsToSchema(value)).toBe(zod);
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(10);
    for (const file of FILES) {
      const text = decodeContractText(file, readFileSync(file));
      if (typeof text !== "string") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        continue;
      }
      expect(conformsToSchema(value)).toBe(PlanContractSchema.safeParse(value).success);
    }
  });

  it("allows exactly the keys the schema allows, optional exactly where it is", async () => {
    const { ROOT, TASK, EVIDENCE, CHECKS } = await import(
      "../src/formats/plan-contract/fast-schema.js"
    );
    const pairs = [
      [ROOT, PlanContractSchema],
      [TASK, TaskSchema],
      [EVIDENCE, EvidenceSchema],
      [CHECKS["file-exists"], FileExistsSchema],
      [CHECKS["grep-match"], GrepMatchSchema],
      [CHECKS["command-exit"], CommandExitSchema],
      [CHECKS.behavioral, BehavioralSchema],
    ] as const;
    for (const [rule, schema] of pairs) {
      const shape = schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      const optional = Object.keys(shape).filter((k) => shape[k]!.safeParse(undefined).success);
      const required = Object.keys(shape).filter((k) => !optional.includes(k));
      expect(Object.keys(rule.required).sort()).toEqual(required.sort());
      expect(Object.keys(rule.optional).sort()).toEqual(optional.sort());
    }
  });
});

describe("rule helpers", () => {
  it("remember answers without changing them, however many strings they see", () => {
    const strings = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        "src/a.ts",
        "./src//a.ts",
        "../x",
        "/abs",
        "C:/x",
        "~/x",
        "a\\b",
        "(",
        "[a-",
        "",
      ),
      fc.string({ minLength: 250, maxLength: 300 }),
    );
    fc.assert(
      fc.property(fc.array(strings, { maxLength: 50 }), (values) => {
        for (const value of [...values, ...values]) {
          expect(pathReason(value)).toBe(unsafePathReason(value));
          expect(regexReason(value)).toBe(regexError(value));
          expect(fileKey(value)).toBe(unsafePathReason(value) ? value : normalizeRepoPath(value));
        }
      }),
      { numRuns: 200 },
    );
    // More distinct strings than the cache holds: it starts over, answers stay right.
    for (let i = 0; i < 10_000; i++) expect(pathReason(`src/f${i}.ts`)).toBeUndefined();
    expect(pathReason("../escape")).toBe(unsafePathReason("../escape"));
  });

  it("finds the same unsafe command characters as a full match", () => {
    const UNSAFE = /[\s;&|`$()<>*?[\]{}~!#'"\\]/gu;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.constantFrom("npm", "npx tsc", "a&&b", "x\u00a0y"),
        ),
        (command) => {
          expect(unsafeCommandChars(command)).toEqual([...new Set(command.match(UNSAFE) ?? [])]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
