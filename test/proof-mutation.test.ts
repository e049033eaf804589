import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { mutantsOf } from "../src/proof/mutate/operators.js";
import { allLines, sampleMutants } from "../src/proof/mutate/sample.js";
import { proveTests } from "../src/proof/run/index.js";
import type { TestProof } from "../src/proof/types.js";
import { cleanEnv, proofRepo, proveInput } from "./helpers/proof-run-repo.js";

const PKG = JSON.stringify({ type: "module", scripts: { test: "node --test tests/" } });

async function prove(
  root: string,
  base: string,
  mode?: "mutation" | "fail-to-pass",
): Promise<TestProof> {
  const git = openGit(root);
  const input = proveInput([["FR-002", "tests/sub.test.mjs", "subtracts"]], ["FR-002"]);
  const out = await proveTests([input], {
    root,
    git,
    base,
    changed: await git.changedBetween(base, "HEAD"),
    env: cleanEnv(),
    signal: new AbortController().signal,
    ...(mode !== undefined && { requirementProof: mode }),
  });
  return out.get(input.contract)!;
}

const repo = (test: string) =>
  proofRepo(
    { "package.json": PKG, "src/add.mjs": "export const add = (a, b) => a + b;\n" },
    {
      "src/sub.mjs": "export function sub(a, b) {\n  if (b > a) return 0;\n  return a - b;\n}\n",
      "tests/sub.test.mjs": `import { test } from "node:test";\nimport assert from "node:assert";\nimport { sub } from "../src/sub.mjs";\ntest("subtracts", () => {\n${test}\n});\n`,
    },
  );

describe("mutation adequacy, with node's test runner", () => {
  it("attack: ok(true) importing the module the PR adds is not proven, and lists survivors", async () => {
    const { root, base } = repo("  assert.ok(true);");
    const t = (await prove(root, base)).tests[0]!;
    expect(t.verdict).toBe("survives-mutants");
    expect(t.reason).toMatch(
      /^proves nothing: no mutant of the changed code makes these tests fail/,
    );
    expect(t.reason).toContain("src/sub.mjs:2");
    expect(t.mutants).toMatchObject({ killed: 0 });
    expect(t.mutants!.tried).toBeGreaterThan(0);
  });

  it("control: with requirement-proof fail-to-pass the same test is proven (the attack works without mutation)", async () => {
    const { root, base } = repo("  assert.ok(true);");
    expect((await prove(root, base, "fail-to-pass")).tests[0]!.verdict).toBe("proven");
  });

  it("honest twin: a real test of the new module kills a mutant and is proven", async () => {
    const { root, base } = repo("  assert.equal(sub(5, 3), 2);\n  assert.equal(sub(1, 3), 0);");
    const t = (await prove(root, base)).tests[0]!;
    expect(t.verdict).toBe("proven");
    expect(t.mutants!.killed).toBeGreaterThan(0);
  });
});

describe("mutants and the sampler", () => {
  it("mutates changed lines only, never keys, imports or types", () => {
    const text =
      'import { x } from "./y.js";\ntype T = { a: 1 };\nexport const f = (o: { k: number }, n: number): boolean => o["k"] < n;\nconst z = { key: 2 };\n';
    const all = mutantsOf("a.ts", text, new Set([1, 2, 3, 4]));
    const shown = all.map((m) => `${m.line} ${m.operator} ${m.before} -> ${m.after}`);
    expect(shown).toEqual([
      '3 empty-return o["k"] < n -> undefined',
      "3 flip-comparison < -> >=",
      "3 off-by-one < -> <=",
      "4 change-literal 2 -> 0",
    ]);
    expect(mutantsOf("a.ts", text, new Set([4])).map((m) => m.line)).toEqual([4]);
  });

  it("makes no mutant that leaves the text as it was (a returned empty value emptied)", () => {
    const ops = (text: string) =>
      mutantsOf("a.js", text, new Set([1])).map((m) => `${m.operator} ${m.before} -> ${m.after}`);
    expect(ops('const f = () => { return ""; };\n')).toEqual([]);
    expect(ops("const f = () => { return 0; };\n")).toEqual(["change-literal 0 -> 1"]);
    // Control: a returned value that is not empty is emptied.
    expect(ops("const f = (x) => { return x; };\n")).toEqual(["empty-return x -> undefined"]);
  });

  it("a file the merge base lacks is all changed, blank lines aside", () => {
    expect([...allLines("a\n\nb")]).toEqual([1, 3]);
  });

  it("samples the same mutants for the same seed, spread over hunks", () => {
    const pool = mutantsOf(
      "a.js",
      "const a = 1;\nconst b = 2;\n\n\nconst c = 3 < 4;\n",
      new Set([1, 2, 5]),
    );
    const one = sampleMutants(pool, 2, "FR-001");
    expect(sampleMutants(pool, 2, "FR-001")).toEqual(one);
    expect(new Set(one.map((m) => (m.line <= 2 ? "first" : "second")))).toEqual(
      new Set(["first", "second"]),
    );
  });
});
