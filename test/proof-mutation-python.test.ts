import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { applyMutant } from "../src/proof/mutate/operators.js";
import { pythonMutantsOf } from "../src/proof/python/mutants.js";
import { readPythonTrees } from "../src/proof/python/tree.js";
import { proveTests } from "../src/proof/run/index.js";
import type { TestProof } from "../src/proof/types.js";
import { cleanEnv, proofRepo, proveInput } from "./helpers/proof-run-repo.js";
import { tempDir } from "./helpers/tmp.js";

const hasPytest = spawnSync("python3", ["-m", "pytest", "--version"]).status === 0;

/** The mutants of `text` on `lines` (all when omitted), as `line operator before -> after`. */
async function mutants(text: string, lines?: number[]): Promise<string[]> {
  const dir = tempDir("cg-py-mutants-");
  const path = join(dir, "m.py");
  writeFileSync(path, text);
  const tree = (await readPythonTrees([path], cleanEnv())).get(path);
  const all = new Set(lines ?? text.split("\n").map((_, k) => k + 1));
  return pythonMutantsOf("m.py", text, tree, all).map((m) => {
    const mutated = applyMutant(text, m);
    // Every mutant is the original text with one span replaced, and still parses.
    expect(
      spawnSync("python3", ["-c", "import ast,sys; ast.parse(sys.stdin.read())"], {
        input: mutated,
      }).status,
    ).toBe(0);
    return `${m.line} ${m.operator} ${m.before} -> ${m.after}`;
  });
}

describe("Python mutants, read by Python's own ast", () => {
  it("applies the operators by offsets, multi-byte text included", async () => {
    const text = [
      '"""Module docstring: never mutated."""',
      "import os  # imports: never",
      "from typing import List",
      "",
      "def clamp(xs: List[int], lo: int = 0) -> List[int]:",
      '    """Docstring."""',
      "    out = []  # é a comment with and/or < >",
      "    for x in xs:",
      "        if x < lo and x is not None:",
      '            log("café")',
      "            continue",
      "        out.append(x)",
      '    cfg = {"key": 1}',
      '    return out if cfg["key"] in (1, 2) else []',
    ].join("\n");
    expect(await mutants(text)).toEqual([
      "5 change-literal 0 -> 1",
      "9 negate-condition x < lo and x is not None -> not (x < lo and x is not None)",
      "9 flip-comparison < -> >=",
      "9 off-by-one < -> <=",
      "9 swap-logical and -> or",
      "9 flip-comparison is not -> is",
      '10 remove-call log("café") -> pass',
      '10 change-literal "café" -> ""',
      "12 remove-call out.append(x) -> pass",
      "13 change-literal 1 -> 0",
      '14 empty-return out if cfg["key"] in (1, 2) else [] -> None',
      '14 negate-condition cfg["key"] in (1, 2) -> not (cfg["key"] in (1, 2))',
      "14 flip-comparison in -> not in",
      "14 change-literal 1 -> 0",
      "14 change-literal 2 -> 0",
    ]);
  });

  it("mutates only the changed lines, and a file that does not parse has none", async () => {
    expect(await mutants("a = 1\nb = 2\n", [2])).toEqual(["2 change-literal 2 -> 0"]);
    expect(await mutants("def (:\n")).toEqual([]);
  });
});

async function prove(
  root: string,
  base: string,
  mode?: "mutation" | "fail-to-pass",
): Promise<TestProof> {
  const git = openGit(root);
  const input = proveInput([["FR-002", "tests/test_sub.py", "test_subtracts"]], ["FR-002"]);
  const out = await proveTests([input], {
    root,
    git,
    base,
    changed: await git.changedBetween(base, "HEAD"),
    testCommand: "pytest",
    env: cleanEnv(),
    signal: new AbortController().signal,
    ...(mode !== undefined && { requirementProof: mode }),
  });
  return out.get(input.contract)!;
}

const repo = (body: string) =>
  proofRepo(
    { "calc/__init__.py": "", "calc/add.py": "def add(a, b):\n    return a + b\n" },
    {
      "calc/sub.py": "def sub(a, b):\n    if b > a:\n        return 0\n    return a - b\n",
      "tests/test_sub.py": `from calc.sub import sub\n\n\ndef test_subtracts():\n${body}\n`,
    },
  );

describe.runIf(hasPytest)("mutation adequacy, with pytest", () => {
  it("attack: `assert True` importing the module the PR adds is not proven, and lists survivors", async () => {
    const { root, base } = repo("    assert True");
    const t = (await prove(root, base)).tests[0]!;
    expect(t.verdict).toBe("survives-mutants");
    expect(t.reason).toMatch(
      /^proves nothing: no mutant of the changed code makes these tests fail/,
    );
    expect(t.reason).toContain("calc/sub.py:2");
    expect(t.mutants).toMatchObject({ killed: 0 });
    expect(t.mutants!.tried).toBeGreaterThan(0);
  });

  it("control: with requirement-proof fail-to-pass the same test is proven (the attack works without mutation)", async () => {
    const { root, base } = repo("    assert True");
    expect((await prove(root, base, "fail-to-pass")).tests[0]!.verdict).toBe("proven");
  });

  it("honest twin: a real test of the new module kills a mutant and is proven", async () => {
    const { root, base } = repo("    assert sub(5, 3) == 2\n    assert sub(1, 3) == 0");
    const t = (await prove(root, base)).tests[0]!;
    expect(t.verdict).toBe("proven");
    expect(t.mutants!.killed).toBeGreaterThan(0);
  });
});
