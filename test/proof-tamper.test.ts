import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type FileChange, TAMPER_CODES, tamperFindings } from "../src/proof/tamper.js";
import { DEFAULT_TEST_FILE_GLOBS, isTestFile } from "../src/proof/test-files.js";

const FIXTURES = join(import.meta.dirname, "fixtures/proof/tamper");

function tree(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      for (const [p, t] of tree(full, `${prefix}${name}/`)) out.set(p, t);
    } else {
      out.set(`${prefix}${name.replace(/\.fixture$/, "")}`, readFileSync(full, "utf8"));
    }
  }
  return out;
}

/** A case's base/ and head/ trees as the PR's changed files (see the fixtures' README). */
function changesOf(name: string): FileChange[] {
  const base = tree(join(FIXTURES, name, "base"));
  const head = tree(join(FIXTURES, name, "head"));
  let renames: Record<string, string> = {};
  try {
    renames = JSON.parse(readFileSync(join(FIXTURES, name, "renames.json"), "utf8"));
  } catch {}
  const changes: FileChange[] = [];
  const seenHead = new Set<string>();
  for (const [path, text] of base) {
    const to = renames[path] ?? (head.has(path) ? path : undefined);
    if (to !== undefined) seenHead.add(to);
    changes.push({
      basePath: path,
      base: text,
      headPath: to,
      head: to === undefined ? undefined : head.get(to),
    });
  }
  for (const [path, text] of head)
    if (!seenHead.has(path)) changes.push({ headPath: path, head: text });
  return changes;
}

const MAVEN = [...DEFAULT_TEST_FILE_GLOBS, "**/src/test/**"];

function found(name: string, testFiles?: readonly string[]) {
  return tamperFindings(changesOf(name), testFiles ? { testFiles } : {}).map(
    (f) => `${f.code} ${f.file}:${f.line}`,
  );
}

describe("tamper findings: each attack is found, its honest twin is not", () => {
  it.each([
    [
      "js",
      undefined,
      [
        "assertions-fewer test/cart.test.ts:1",
        "test-marker-added test/cart.test.ts:5",
        "test-removed test/cart.test.ts:9",
      ],
    ],
    [
      "node",
      undefined,
      [
        "test-marker-added test/focus.test.mjs:4",
        "test-marker-added test/parse.test.mjs:5",
        "test-marker-added test/parse.test.mjs:12",
      ],
    ],
    [
      "py",
      undefined,
      [
        "assertions-fewer tests/test_store.py:1",
        "test-removed tests/test_store.py:10",
        "test-marker-added tests/test_store.py:11",
      ],
    ],
    [
      "go",
      undefined,
      [
        "assertions-fewer calc_test.go:1",
        "test-marker-added calc_test.go:6",
        "test-removed calc_test.go:12",
      ],
    ],
    [
      "rust",
      undefined,
      [
        "assertions-fewer tests/parse.rs:1",
        "test-marker-added tests/parse.rs:4",
        "test-removed tests/parse.rs:9",
      ],
    ],
    [
      "junit",
      MAVEN,
      [
        "assertions-fewer src/test/java/CartTest.java:1",
        "test-marker-added src/test/java/CartTest.java:8",
        "test-removed src/test/java/CartTest.java:14",
      ],
    ],
    [
      "files",
      undefined,
      ["test-file-renamed-away test/moved.test.ts:1", "test-file-deleted test/old.test.ts:1"],
    ],
    [
      "env",
      undefined,
      [
        "test-environment-branch app/store.py:5",
        "test-environment-branch calc/calc.go:6",
        "test-environment-branch src/mode.ts:1",
        "test-environment-branch src/price.ts:2",
      ],
    ],
    ["asserts", undefined, ["assertions-fewer test/math.test.ts:1"]],
  ] as const)("%s", (name, globs, expected) => {
    expect(found(`${name}-attack`, globs)).toEqual(expected);
    expect(found(`${name}-honest`, globs)).toEqual([]);
  });

  it("names the removed test, its base line and the marker's line text", () => {
    const messages = tamperFindings(changesOf("js-attack")).map((f) => f.message);
    expect(messages).toContain(
      'test "rejects negative prices" (line 9 at base) is gone from test/cart.test.ts',
    );
    expect(messages.some((m) => m.includes('it.skip("sums prices"'))).toBe(true);
    const py = tamperFindings(changesOf("py-attack")).map((f) => f.message);
    expect(py.some((m) => m.includes('"TestStore::test_get_missing"'))).toBe(true);
    const go = tamperFindings(changesOf("go-attack")).map((f) => f.message);
    expect(go.some((m) => m.includes('"TestDiv/by zero"'))).toBe(true);
  });

  it("blocks except the assertion count, and every finding carries its code's hint", () => {
    for (const name of ["js", "node", "py", "go", "rust", "files", "env", "asserts"]) {
      for (const f of tamperFindings(changesOf(`${name}-attack`))) {
        expect(f.severity).toBe(f.code === "assertions-fewer" ? "warning" : "blocking");
        expect(f.hint).toBe(TAMPER_CODES[f.code].hint);
      }
    }
    for (const [code, row] of Object.entries(TAMPER_CODES))
      expect(row.hint.length, code).toBeGreaterThan(20);
  });

  it("a test file the caller could not read blocks instead of passing", () => {
    const f = tamperFindings([
      { basePath: "test/a.test.ts", headPath: "test/a.test.ts", base: "it('x', () => {})" },
    ]);
    expect(f.map((x) => `${x.code} ${x.file}`)).toEqual(["test-file-unreadable test/a.test.ts"]);
    expect(f[0]?.severity).toBe("blocking");
  });

  it("a marker moved within a file is not new; a second one is", () => {
    const base = "it.skip('a', () => {});\nit('b', () => {});\n";
    const moved = "it('a', () => {});\nit.skip('b', () => {});\n";
    const both = "it.skip('a', () => {});\nit.skip('b', () => {});\n";
    const change = (head: string): FileChange[] => [
      { basePath: "a.test.ts", headPath: "a.test.ts", base, head },
    ];
    expect(tamperFindings(change(moved))).toEqual([]);
    expect(tamperFindings(change(both)).map((f) => `${f.code}:${f.line}`)).toEqual([
      "test-marker-added:2",
    ]);
  });

  it("a test moved to another test file of the PR is no removal; one that went nowhere is", () => {
    const base = 'it("a", () => {});\nit("b", () => {});\n';
    const head = 'it("a", () => {});\n';
    const split = [
      { basePath: "test/x.test.ts", headPath: "test/x.test.ts", base, head },
      { headPath: "test/y.test.ts", head: 'it("b", () => {});\n' },
    ];
    expect(tamperFindings(split)).toEqual([]);
    // The control: without the new home, and with the test moved into source instead.
    expect(tamperFindings(split.slice(0, 1)).map((f) => `${f.code}:${f.line}`)).toEqual([
      "test-removed:2",
    ]);
    const intoSource = [
      split[0] as FileChange,
      { headPath: "src/y.ts", head: 'it("b", () => {});\n' },
    ];
    expect(tamperFindings(intoSource).map((f) => `${f.code}:${f.line}`)).toEqual([
      "test-removed:2",
    ]);
  });

  it("reads adversarial files in linear time (every pattern's repetition is bounded)", () => {
    // No timed assertion: before the bounds, the JUnit case alone did not end within minutes.
    for (const [path, unit] of [
      ["a.test.ts", 'it("'],
      ["a_test.go", '.Run("'],
      ["src/test/java/A.java", "@Test "],
      ["tests/a.rs", "#[test] "],
      ["tests/test_a.py", "'''"],
    ] as const) {
      const text = unit.repeat(50_000);
      const f = tamperFindings([{ basePath: path, headPath: path, base: text, head: `${text}x` }], {
        testFiles: ["**"],
      });
      // What the syntax tree cannot read is said, not passed: the spelling still ran.
      const unparsed = path.endsWith(".ts") ? ["file-unparsed"] : [];
      expect(f.filter((x) => x.severity === "blocking").map((x) => x.code)).toEqual(unparsed);
    }
  });

  it("a test file renamed into source loses no right: its sniffing is new source sniffing", () => {
    const text = "if (process.env.VITEST) {}\n";
    const f = tamperFindings([
      { basePath: "a.test.ts", headPath: "src/a.ts", base: text, head: text },
    ]);
    expect(f.map((x) => x.code)).toEqual(["test-file-renamed-away", "test-environment-branch"]);
  });
});

describe("tamper findings: the less common forms, each with its twin", () => {
  const one = (path: string, base: string | undefined, head: string) =>
    tamperFindings([
      { basePath: base === undefined ? undefined : path, base, headPath: path, head },
    ]).map((f) => `${f.code}:${f.line}`);
  it.each([
    [
      "test/a.test.mjs",
      'test("a", { skip: process.env.SLOW }, () => assert.ok(run()));',
      "test-marker-added:1",
    ],
    [
      "test/a.test.mjs",
      'test("a", { skip: false, only: false }, () => assert.ok(run()));',
      undefined,
    ],
    ["test/a.test.mjs", 'test("a", { skip: "" }, () => assert.ok(run()));', undefined],
    ["tests/test_a.py", "import pytest\npytestmark = pytest.mark.skip\n", "test-marker-added:2"],
    ["tests/test_a.py", "import pytest\n# pytestmark = pytest.mark.skip\n", undefined],
    [
      "tests/test_a.py",
      "from pytest import mark\n\n@mark.skipif(True, reason='x')\ndef test_a(): pass\n",
      "test-marker-added:3",
    ],
    [
      "src/env.ts",
      'export const t = import.meta.env.MODE === "test";',
      "test-environment-branch:1",
    ],
    ["src/env.ts", 'export const p = import.meta.env.MODE === "production";', undefined],
    [
      "src/env.ts",
      'export const t = "test" !== process.env.NODE_ENV;',
      "test-environment-branch:1",
    ],
    [
      "src/env.ts",
      'if (process.env.npm_lifecycle_event === "test") {}',
      "test-environment-branch:1",
    ],
    ["src/env.ts", 'if (typeof jest !== "undefined") {}', "test-environment-branch:1"],
    ["test/setup.ts", 'if (typeof jest !== "undefined") {}', undefined],
    [
      "app/env.py",
      'import os\nTEST = os.getenv("APP_ENV") == "testing"\n',
      "test-environment-branch:2",
    ],
    ["app/env.py", 'import os\nPROD = os.getenv("APP_ENV") == "production"\n', undefined],
    [
      "src/lib.rs",
      "pub fn f() -> u8 { if cfg!(test) { 1 } else { 2 } }\n",
      "test-environment-branch:1",
    ],
    ["src/lib.rs", "#[cfg(test)]\nmod tests {}\n", undefined],
  ] as const)("%s: %s", (path, head, expected) => {
    expect(one(path, "", head)).toEqual(expected === undefined ? [] : [expected]);
  });
});

describe("isTestFile and the default globs", () => {
  it.each([
    ["src/a.test.ts", true],
    ["pkg/x.spec.js", true],
    ["app/test_store.py", true],
    ["app/store_test.py", true],
    ["calc/calc_test.go", true],
    ["src/__tests__/a.ts", true],
    ["tests/parse.rs", true],
    ["test/helpers/x.ts", true],
    [".github/x.test.ts", true],
    ["src/contest.ts", false],
    ["src/testing.ts", false],
    ["src/test/java/CartTest.java", false],
    ["crates/a/tests/t.rs", false],
  ] as const)("%s → %s", (path, expected) => {
    expect(isTestFile(path)).toBe(expected);
  });

  it("honours the globs it is given; none match nothing", () => {
    expect(isTestFile("spec/a.rb", ["spec/**"])).toBe(true);
    expect(isTestFile("src/a.test.ts", ["spec/**"])).toBe(false);
    expect(isTestFile("src/a.test.ts", [])).toBe(false);
  });
});
