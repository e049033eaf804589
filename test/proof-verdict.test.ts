import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { undeclaredCase } from "../src/proof/run/declared.js";
import { proveTests } from "../src/proof/run/index.js";
import { soloTemplate } from "../src/proof/run/solo.js";
import type { TestProof } from "../src/proof/types.js";
import { cleanEnv, proofRepo, proveInput } from "./helpers/proof-run-repo.js";

/**
 * The measured process does not write its verdict (docs/proof.md, "The
 * verdict is the exit status"): a source file the tests import renames a
 * forged JUnit file over the runner's results path, read from its parent's
 * command line, with a decoy failing case so the runner's exit 1 looks honest.
 */

const PKG = JSON.stringify({ type: "module", scripts: { test: "node --test tests/" } });
const ADD_TEST = `import { test } from "node:test";
import assert from "node:assert";
import { add } from "../src/add.mjs";
test("adds", () => assert.equal(add(1, 2), 3));
test("decoy", () => {});
`;

/** Reads `--test-reporter-destination` from the parent's argv, renames `xml` over it. */
const forger = (xml: string) => `import { readFileSync, renameSync, writeFileSync } from "node:fs";
const argv = readFileSync("/proc/" + process.ppid + "/cmdline", "utf8").split("\\0");
const dest = argv.find((a) => a.startsWith("--test-reporter-destination="))?.split("=")[1];
if (dest) { writeFileSync(dest + ".tmp", ${JSON.stringify(xml)}); renameSync(dest + ".tmp", dest); }
`;

const FORGED = (decoy: string) =>
  `<?xml version="1.0"?><testsuites><testcase name="adds" classname="test"/><testcase name="${decoy}" classname="test"><failure message="x"/></testcase></testsuites>`;

async function prove(root: string, base: string): Promise<TestProof> {
  const git = openGit(root);
  const input = proveInput([["FR-001", "tests/add.test.mjs", "adds"]], []);
  const out = await proveTests([input], {
    root,
    git,
    base,
    changed: await git.changedBetween(base, "HEAD"),
    env: cleanEnv(),
    signal: new AbortController().signal,
  });
  return out.get(input.contract)!;
}

function brokenWithForger(forge: string | undefined) {
  return proofRepo(
    {
      "package.json": PKG,
      "src/add.mjs": "export const add = (a, b) => a + b;\n",
      "tests/add.test.mjs": ADD_TEST,
    },
    {
      // The PR breaks FR-001 and, in the same source file, forges the runner's results.
      "src/add.mjs": `${forge ?? ""}export const add = (a, b) => a - b;\n`,
    },
  );
}

describe("a forged results file with a decoy failing case", () => {
  it("is not an invariant that holds: the exit status decides, alone if need be", async () => {
    const { root, base } = brokenWithForger(forger(FORGED("decoy")));
    const proof = await prove(root, base);
    const t = proof.tests[0]!;
    expect(t.verdict).toBe("invariant-broken");
    expect(t.head).toBe("failed");
    // The mapped test ran alone because its run's results and exit status disagreed.
    expect(proof.runs.some((r) => r.solo?.name === "adds" && r.exitCode === 1)).toBe(true);
  });

  it("naming a case no test file declares is an execution error naming it", async () => {
    const { root, base } = brokenWithForger(forger(FORGED("a case nobody wrote")));
    const proof = await prove(root, base);
    const t = proof.tests[0]!;
    expect(t.verdict).toBe("execution-error");
    expect(t.reason).toContain('"a case nobody wrote", a test no run file declares');
  });

  it("positive control: the forger does forge (the results file names a pass the test never had)", async () => {
    const { root, base } = brokenWithForger(forger(FORGED("decoy")));
    const { spawnSync } = await import("node:child_process");
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const out = join(mkdtempSync(join(tmpdir(), "cg-forge-")), "r.xml");
    const run = spawnSync(
      "node",
      [
        "--test",
        "--test-reporter=junit",
        `--test-reporter-destination=${out}`,
        "tests/add.test.mjs",
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(run.status).toBe(1);
    expect(readFileSync(out, "utf8")).toBe(FORGED("decoy"));
    void base;
  });

  it("honest twin: exit 1 from a real failing unmapped test grades the mapped test as before", async () => {
    const { root, base } = proofRepo(
      {
        "package.json": PKG,
        "src/add.mjs": "export const add = (a, b) => a + b;\n",
        "tests/add.test.mjs": ADD_TEST,
      },
      {
        "tests/add.test.mjs": ADD_TEST.replace(
          'test("decoy", () => {});',
          'test("decoy", () => assert.equal(1, 2));',
        ),
      },
    );
    const proof = await prove(root, base);
    const t = proof.tests[0]!;
    expect([t.head, t.verdict]).toEqual(["passed", "invariant-holds"]);
    expect(proof.runs.find((r) => r.side === "head" && r.solo === undefined)?.exitCode).toBe(1);
    expect(proof.runs.some((r) => r.solo?.name === "adds" && r.exitCode === 0)).toBe(true);
  });
});

describe("undeclaredCase", () => {
  const files = ["t/a.test.ts", "t/test_b.py"];
  const texts: Record<string, string> = {
    "t/a.test.ts":
      'describe("trim", () => { it("trims", () => {}); it.each([1])("case %s", () => {}); it(`row $' +
      '{1}`, () => {}); });\n// it("commented")\n',
    "t/test_b.py": "class TestX:\n    def test_y(self):\n        pass\n",
  };
  const read = (f: string) => texts[f];
  const c = (name: string, file?: string) => ({
    name,
    outcome: "passed" as const,
    ...(file !== undefined && { files: [file] }),
  });

  it("takes declared, parametrised and template names; names the first case nobody declares", () => {
    const ok = [
      c("trim > trims", "t/a.test.ts"),
      c("trim > case 7", "t/a.test.ts"),
      c("trim > row 1", "t/a.test.ts"),
      c("TestX > test_y[param]", "t/test_b.py"),
    ];
    expect(undeclaredCase(ok, files, read)).toBeUndefined();
    expect(undeclaredCase([...ok, c("commented", "t/a.test.ts")], files, read)?.name).toBe(
      "commented",
    );
    expect(undeclaredCase([c("nobody")], ["t/a.test.ts"], read)?.name).toBe("nobody");
  });

  it("checks nothing in a file that names a test from a variable, or cannot be read", () => {
    const open = { "t/a.test.ts": "for (const n of names) it(n, () => {});\n" };
    expect(
      undeclaredCase([c("anything", "t/a.test.ts")], files, (f) => open[f as "t/a.test.ts"]),
    ).toBeUndefined();
    expect(
      undeclaredCase([c("anything", "t/gone.test.ts")], files, () => undefined),
    ).toBeUndefined();
  });
});

describe("soloTemplate", () => {
  const cmd = (preset: "vitest" | "jest" | "node" | "pytest" | "go" | "custom") => ({
    preset,
    template: "x {junit} {files}",
    chosenBy: "",
  });
  it("filters by the runner's own name pattern, anchored, with the name's regex characters escaped", () => {
    expect(soloTemplate(cmd("vitest"), "trim > keeps $1 (x)")).toContain(
      "-t '^trim keeps \\$1 \\(x\\)$'".replace(/\\\\/g, "\\"),
    );
    expect(soloTemplate(cmd("node"), "s > t")).toContain("--test-name-pattern='^(?:s t|t)$' ");
    expect(soloTemplate(cmd("pytest"), "TestX::test_y")).toContain("{files}::'TestX'::'test_y'");
    expect(soloTemplate(cmd("go"), "TestX/sub")).toContain("-run '^TestX$/^sub$' ");
    expect(soloTemplate(cmd("custom"), "t")).toBeUndefined();
  });
});
