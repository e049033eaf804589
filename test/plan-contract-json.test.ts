import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { type Node, parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { type JsonDocument, parseJsonDocument } from "../src/formats/json/document.js";
import type { JsonPath } from "../src/formats/json/path.js";
import { fileKey, pathReason, regexReason } from "../src/formats/memo.js";
import { normalizeRepoPath, unsafePathReason } from "../src/formats/paths.js";
import { unsafeCommandChars } from "../src/formats/plan-contract/command-safety.js";
import { parsePlanContract } from "../src/formats/plan-contract/index.js";
import { PlanContractSchema, planContractSchemaFor } from "../src/formats/plan-contract/schema.js";
import { regexError } from "../src/formats/regex.js";
import { decodeContract, decodeContractText, isProblem, LineIndex } from "../src/formats/text.js";

// The plan-contract JSON reader (JSON.parse + one scan into a tape) against
// an independent one: jsonc-parser's syntax tree places every value and key
// of fixtures and generated JSON as the tape does, and the whole parser
// stays total and consistent on generated and mutated contracts.

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

/**
 * The oracle: where jsonc-parser's tree puts the value at `path` (the nearest
 * present ancestor when absent) and its key (the value's place for array
 * items and absent keys), as offsets. The last of equal keys wins, as in JSON.parse.
 */
function treeOffsets(root: Node, path: JsonPath): { value: number; key: number } {
  const child = (node: Node, segment: string | number): Node | undefined => {
    if (node.type === "array") {
      return typeof segment === "number" ? node.children?.[segment] : undefined;
    }
    if (node.type !== "object") return undefined;
    const props = (node.children ?? []).filter((p) => p.children?.[0]?.value === String(segment));
    return props[props.length - 1];
  };
  let node = root;
  let reached = 0;
  for (const segment of path) {
    const prop = child(node, segment);
    const next = prop?.type === "property" ? prop.children?.[1] : prop;
    if (next === undefined) break;
    node = next;
    reached++;
  }
  let key = node.offset;
  const last = path[path.length - 1];
  if (reached === path.length && typeof last === "string") key = node.parent!.children![0]!.offset;
  return { value: node.offset, key };
}

/** The document places every value and key, and every miss, where jsonc-parser does. */
function expectTreePositions(doc: JsonDocument, source: string, value: unknown) {
  const root = parseTree(source)!;
  const lines = new LineIndex(source);
  const at = (offset: number) => ({ path: doc.path, ...lines.position(offset) });
  const paths = valuePaths(value);
  for (const path of [...paths, ...missingPaths(paths.slice(0, 50))]) {
    const expected = treeOffsets(root, path);
    expect(doc.valueAt(path)).toStrictEqual(at(expected.value));
    expect(doc.keyAt(path)).toStrictEqual(at(expected.key));
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

/** Invariants of any parse: total, every problem placed in the file, criteria only when valid. */
function expectConsistent(path: string, bytes: Uint8Array) {
  const contract = parsePlanContract(path, bytes);
  const lines = new TextDecoder().decode(bytes).split("\n").length;
  for (const p of contract.problems) {
    expect(p.path).toBe(path);
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(lines);
    expect(p.column).toBeGreaterThanOrEqual(1);
  }
  const errors = contract.problems.filter((p) => p.severity === "error");
  if (errors.length === 0) {
    // A valid contract: the schema agrees, and every check is a criterion.
    const value = JSON.parse(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));
    const checks = (value.tasks as { verification: unknown[] }[]).reduce(
      (n, t) => n + t.verification.length,
      0,
    );
    expect(contract.criteria).toHaveLength(checks);
    expect(PlanContractSchema.safeParse(value).success || contract.problems.length > 0).toBe(true);
  }
  return contract;
}

// ---------------------------------------------------------------------------

describe("plan-contract JSON reader", () => {
  it("places every value and key of every fixture as jsonc-parser does", () => {
    expect(FILES.length).toBeGreaterThan(30);
    for (const file of FILES) {
      const decoded = decodeContractText(file, readFileSync(file));
      if (typeof decoded !== "string") continue;
      const parsed = parseJsonDocument(file, decoded);
      if (parsed.document === undefined) continue;
      expectTreePositions(parsed.document, decoded, parsed.document.value);
    }
  });

  it("places every value and key of arbitrary JSON as jsonc-parser does", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), layout, (value, render) => {
        const source = render(value);
        const parsed = parseJsonDocument("a.json", source);
        // Stringified JSON has no duplicate keys and stays shallow.
        expect(parsed.problems).toEqual([]);
        expect(parsed.document!.value).toStrictEqual(JSON.parse(source));
        expectTreePositions(parsed.document!, source, value);
      }),
      { numRuns: 300 },
    );
  });

  it("places entries of large containers, which it indexes, as jsonc-parser does", () => {
    const value = {
      list: Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? { k: i } : i)),
      keys: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, [i]])),
    };
    const source = JSON.stringify(value, null, 1);
    const parsed = parseJsonDocument("a.json", source);
    expectTreePositions(parsed.document!, source, value);
    // Positive control: the index answers differ for different entries.
    expect(parsed.document!.valueAt(["list", 199]).line).toBeGreaterThan(
      parsed.document!.valueAt(["list", 1]).line,
    );
  });

  it("places keys of a large object that repeats keys at their last occurrence", () => {
    // Lookups stop at the first matching key only when no key repeats: here
    // every tenth key comes back at the end, where JSON.parse takes its value.
    const keys = Array.from({ length: 200 }, (_, i) => `"k${i}": [${i}]`);
    const again = Array.from({ length: 20 }, (_, i) => `"k${i * 10}": {"again": ${i}}`);
    const source = `{\n${[...keys, ...again].join(",\n")}\n}`;
    const parsed = parseJsonDocument("a.json", source);
    expect(parsed.problems).toHaveLength(20);
    expectTreePositions(parsed.document!, source, parsed.document!.value);
    expect(parsed.document!.keyAt(["k190"]).line).toBe(221);
  });

  it("finds keys written with escapes, as JSON.parse decodes them", () => {
    const source = '{\n  "a\\u0062": {"\\"q": [1, {"x\\\\y": 2}]},\n  "ab2": 3\n}';
    const doc = parseJsonDocument("a.json", source).document!;
    expectTreePositions(doc, source, JSON.parse(source));
    expect(doc.keyAt(["ab", '"q', 1, "x\\y"])).toEqual({ path: "a.json", line: 2, column: 27 });
  });

  it("keeps a document's positions right after other documents are parsed", () => {
    const first = '{\n  "a": [1, {"b": 2}]\n}';
    const kept = parseJsonDocument("a.json", first).document!;
    for (let i = 0; i < 3; i++) parseJsonDocument("b.json", `[${"[0],".repeat(i * 50)}{"b": 1}]`);
    expectTreePositions(kept, first, JSON.parse(first));
    expect(kept.keyAt(["a", 1, "b"])).toEqual({ path: "a.json", line: 2, column: 13 });
  });

  it("reports every duplicate key at its exact position, keeping the last value", () => {
    const source = [
      "{",
      '  "a": 1,',
      '  "b": {"c": 1, "\\u0063": {"d": [1]}},',
      '  "a": {"x": 1},',
      '  "__proto__": 1, "__proto__": 2',
      "}",
    ].join("\n");
    const parsed = parseJsonDocument("d.json", source);
    expect(parsed.document!.value).toStrictEqual(JSON.parse(source));
    expect(parsed.problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([
      '4:3 duplicate key "a"; it is already defined on line 2',
      '5:19 duplicate key "__proto__"; it is already defined on line 5',
      '3:17 duplicate key "c"; it is already defined on line 3',
    ]);
  });

  it("reports a duplicate key hidden inside a dropped value", () => {
    // The first "a" is dropped by JSON.parse; its own duplicate must still be reported.
    const source = '{"a": {"x": 1, "x": 2}, "a": {"x": 1, "y": 2, "z": 3}}';
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
          const parsed = parseJsonDocument("d.json", source);
          const duplicates = parsed.problems.filter((p) => p.code === "json-duplicate-key");
          expect(
            duplicates.some((p) => p.message.startsWith(`duplicate key ${JSON.stringify(key)};`)),
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses too deep nesting and invalid JSON with one placed syntax problem", () => {
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    expect(parseJsonDocument("d.json", deep).problems.map((p) => p.message)).toEqual([
      "JSON nests deeper than 64 levels",
    ]);
    expect(parseJsonDocument("d.json", `${"[".repeat(64)}${"]".repeat(64)}`).problems).toEqual([]);
    const cases: [string, string][] = [
      ['{"a": 1,}', "1:9 invalid JSON: property name expected"],
      ["{\u00a0}", "1:2 invalid JSON: invalid symbol"],
      ["", "1:1 the file is empty"],
      ["[1] 2", "1:5 invalid JSON: end of file expected"],
      ['{"a": 1} // x', "1:10 invalid JSON: invalid comment token"],
    ];
    for (const [bad, expected] of cases) {
      const parsed = parseJsonDocument("d.json", bad);
      expect(parsed.document).toBeUndefined();
      expect(parsed.problems).toHaveLength(1);
      const [p] = parsed.problems;
      expect(`${p!.line}:${p!.column} ${p!.message}`.startsWith(expected), bad).toBe(true);
    }
  });

  it("places a syntax error after long whitespace runs where it is in the file", () => {
    // jsonc-parser, which words syntax errors, reads each long run as one space.
    const text = `{"a": 1,${" ".repeat(100)}\n${"\t".repeat(200)}}${"\n".repeat(70)}`;
    const [p] = parseJsonDocument("w.json", text).problems;
    expect(`${p!.line}:${p!.column} ${p!.message}`).toBe(
      "2:201 invalid JSON: property name expected",
    );
    const after = parseJsonDocument("w.json", `[1 ${" ".repeat(80)}\n  x]`).problems[0]!;
    expect(`${after.line}:${after.column}`).toBe("2:3");
  });

  it("stays total and consistent on generated contracts", () => {
    fc.assert(
      fc.property(contract, layout, (value, render) => {
        expectConsistent("c/phase-2-contract.json", encode(render(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("reads a long document's lists as the plain schema does, issue for issue", () => {
    // Documents with many list entries are read by the bounded schema
    // (bounded-list.ts); below its cap it must say exactly what the plain one says.
    const bounded = planContractSchemaFor(Number.POSITIVE_INFINITY);
    expect(bounded).not.toBe(PlanContractSchema);
    const issues = (schema: typeof PlanContractSchema, value: unknown) => {
      const result = schema.safeParse(value);
      return result.success ? [] : result.error.issues;
    };
    fc.assert(
      fc.property(contract, mutation(), (value, edit) => {
        const doc = edit(value);
        expect(issues(bounded, doc)).toEqual(issues(PlanContractSchema, doc));
      }),
      { numRuns: 300 },
    );
  });

  it("stays total and consistent on mutated contracts", () => {
    fc.assert(
      fc.property(contract, mutation(), layout, (value, edit, render) => {
        expectConsistent("c/phase-3-contract.json", encode(render(edit(value))));
      }),
      { numRuns: 300 },
    );
  });

  it("finds a duplicate key wherever it is injected in a contract", () => {
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
          const parsed = expectConsistent("c/phase-2-contract.json", encode(injected));
          expect(parsed.problems.some((p) => p.code === "json-duplicate-key")).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads numbers JSON.parse turns into Infinity or -0 as values with problems", () => {
    const text = JSON.stringify(
      JSON.parse(
        readFileSync(FILES.find((f) => f.endsWith("valid/phase-2-contract.json"))!, "utf8"),
      ),
      null,
      2,
    )
      .replace(/"phase": 2/, '"phase": 1e400')
      .replace(/"expected_exit": 0/, '"expected_exit": -0');
    const parsed = expectConsistent("c/phase-2-contract.json", encode(text));
    expect(parsed.problems.map((p) => p.message)).toContain(
      "phase must be a finite number, got Infinity",
    );
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

describe("rule helpers", () => {
  it("normalise every short path as its definition does, unchanged ones included", () => {
    // The definition: split at `/`, drop empty and `.` segments, join ("." when none is left).
    const byDefinition = (value: string) => {
      const parts = value.split("/").filter((s) => s !== "" && s !== ".");
      return parts.length === 0 ? "." : parts.join("/");
    };
    const units = ["a", ".", "/", "..", "\\"];
    let paths = [""];
    for (let length = 0; length < 6; length++) {
      for (const p of paths) expect(normalizeRepoPath(p)).toBe(byDefinition(p));
      paths = paths.flatMap((p) => units.map((u) => p + u));
    }
    expect(normalizeRepoPath("./src//a.ts/.")).toBe("src/a.ts");
  });

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
