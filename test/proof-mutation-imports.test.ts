import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { jsImports, loadedFiles } from "../src/proof/mutate/imports.js";
import { mutantsOf } from "../src/proof/mutate/operators.js";
import { sampleMutants } from "../src/proof/mutate/sample.js";
import { proveTests } from "../src/proof/run/index.js";
import { cleanEnv, proofRepo, proveInput } from "./helpers/proof-run-repo.js";

const reader = (files: Record<string, string>) => (p: string) => files[p];

describe("the static import graph orders the mutants", () => {
  it("follows relative imports, re-exports, require and import(), .js spelled as .ts, and index files", () => {
    const files = {
      "tests/a.test.ts": `import { a } from "../src/a.js";\nimport "vitest";\n// import "../src/never.js"\nconst s = "../src/never.js";\n`,
      "src/a.ts": `export * from "./b";\nconst c = require("./c.cjs");\nexport const a = () => import("./lib");\n`,
      "src/b.ts": "export const b = 1;\n",
      "src/c.cjs": "module.exports = 1;\n",
      "src/lib/index.ts": "export {};\n",
      "src/never.ts": "export {};\n",
    };
    expect([...loadedFiles(["tests/a.test.ts"], reader(files))].sort()).toEqual([
      "src/a.ts",
      "src/b.ts",
      "src/c.cjs",
      "src/lib/index.ts",
      "tests/a.test.ts",
    ]);
    // Comments and strings are not imports: the tree has none of them.
    expect(jsImports(files["tests/a.test.ts"])).toEqual(["../src/a.js", "vitest"]);
  });

  it("Python: absolute modules from the test's directories or src/, relative ones from the package", () => {
    const files = {
      "tests/test_calc.py": "import pkg.calc as c, os\nfrom helpers import (\n  thing,\n)\n",
      "src/pkg/__init__.py": "",
      "src/pkg/calc.py": "from . import util\nfrom .deep.mod import x\n",
      "src/pkg/util.py": "",
      "src/pkg/deep/mod.py": "",
      "tests/helpers.py": "",
      "src/pkg/unused.py": "",
    };
    expect([...loadedFiles(["tests/test_calc.py"], reader(files))].sort()).toEqual([
      "src/pkg/__init__.py",
      "src/pkg/calc.py",
      "src/pkg/deep/mod.py",
      "src/pkg/util.py",
      "tests/helpers.py",
      "tests/test_calc.py",
    ]);
  });

  it("the mutants of the files the tests load are chosen first, the rest after; the same on every call", () => {
    const pool = [
      ...mutantsOf("src/a.js", "export const a = (x) => x > 1;\n", new Set([1])),
      ...mutantsOf("src/b.js", "export const b = (x) => x < 2;\n", new Set([1])),
    ];
    const loaded = new Set(["src/a.js"]);
    const chosen = sampleMutants(pool, 3, "FR-001", loaded);
    const inA = pool.filter((m) => m.file === "src/a.js").length;
    expect(chosen.slice(0, Math.min(3, inA)).every((m) => m.file === "src/a.js")).toBe(true);
    expect(chosen).toHaveLength(3);
    expect(sampleMutants(pool, 3, "FR-001", loaded)).toEqual(chosen);
  });
});

const PKG = JSON.stringify({ type: "module", scripts: { test: "node --test tests/" } });

/** Two changed modules; FR-001's real test loads only the first, whose mutants it kills. */
const repo = () =>
  proofRepo(
    { "package.json": PKG },
    {
      "src/b.mjs": "export function b(x) {\n  if (x > 1) return 1;\n  return 0;\n}\n",
      "src/z.mjs": "export function z(x) {\n  if (x > 9) return 9;\n  return 8;\n}\n",
      "tests/z.test.mjs": `import { test } from "node:test";\nimport assert from "node:assert";\nimport { z } from "../src/z.mjs";\ntest("zeds", () => {\n  assert.equal(z(10), 9);\n  assert.equal(z(1), 8);\n});\n`,
    },
  );

async function prove(root: string, base: string, perRequirement: number) {
  const git = openGit(root);
  const input = proveInput([["FR-001", "tests/z.test.mjs", "zeds"]], ["FR-001"]);
  const out = await proveTests([input], {
    root,
    git,
    base,
    changed: await git.changedBetween(base, "HEAD"),
    env: cleanEnv(),
    signal: new AbortController().signal,
    mutantsPerRequirement: perRequirement,
  });
  return out.get(input.contract)!.tests[0]!;
}

describe("with node's test runner", () => {
  it("a real test of one of two changed modules is proven by that module's mutants, whatever the unloaded one sorts as", async () => {
    const { root, base } = repo();
    // Control: by the pool alone, the hunks take turns from src/b.mjs (sorted first, not
    // loaded by the test).
    const pool = [
      ...mutantsOf(
        "src/b.mjs",
        "export function b(x) {\n  if (x > 1) return 1;\n  return 0;\n}\n",
        new Set([1, 2, 3, 4]),
      ),
      ...mutantsOf(
        "src/z.mjs",
        "export function z(x) {\n  if (x > 9) return 9;\n  return 8;\n}\n",
        new Set([1, 2, 3, 4]),
      ),
    ];
    // Without the graph, the first of two would be src/b.mjs's: tried 2, one wasted run.
    expect(sampleMutants(pool, 2, "FR-001")[0]!.file).toBe("src/b.mjs");
    const t = await prove(root, base, 2);
    expect(t.verdict).toBe("proven");
    expect(t.mutants).toMatchObject({ tried: 1, killed: 1, survived: 0 });
  });
});
