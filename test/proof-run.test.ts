import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { runProcess } from "../src/process/run-process.js";
import {
  type ProverContext,
  proveTests,
  type RunnerFactory,
  sandboxRunners,
} from "../src/proof/run/index.js";
import type { TestProof } from "../src/proof/types.js";
import { cleanEnv, proofRepo, proveInput, snapshot } from "./helpers/proof-run-repo.js";
import { HOST_FROM_SOURCE } from "./helpers/sandbox.js";
import { tempDir } from "./helpers/tmp.js";

const PKG = JSON.stringify({ name: "t", type: "module", devDependencies: { vitest: "4" } });
const TRIM_TEST = `import { describe, expect, it } from "vitest";
import { trim } from "../src/trim.js";
describe("trim", () => {
  it("trims surrounding spaces", () => expect(trim(" a ")).toBe("a"));
  it("keeps inner spaces", () => expect(trim("a b")).toBe("a b"));
  it("returns strings", () => expect(typeof trim("x")).toBe("string"));
});
`;

/** Base: a trim that trims nothing. Head: it trims, and a new slug module with its test. */
function repo() {
  return proofRepo(
    {
      "package.json": PKG,
      "src/trim.ts": "export const trim = (s: string): string => s;\n",
      "tests/trim.test.ts": TRIM_TEST,
    },
    {
      "src/trim.ts": "export const trim = (s: string): string => s.trim();\n",
      "src/slug.ts":
        "export const slug = (s: string): string => s.toLowerCase().replace(/ /g, '-');\n",
      "tests/slug.test.ts": `import { expect, it } from "vitest";\nimport { slug } from "../src/slug.js";\nit("slugifies", () => expect(slug("A b")).toBe("a-b"));\n`,
    },
  );
}

async function prove(
  root: string,
  base: string,
  lines: [string, string, string][],
  changed: string[],
  extra: Partial<ProverContext> = {},
): Promise<TestProof> {
  const git = openGit(root);
  const ctx: ProverContext = {
    root,
    git,
    base,
    changed: await git.changedBetween(base, "HEAD"),
    env: cleanEnv(),
    signal: new AbortController().signal,
    ...extra,
  };
  const input = proveInput(lines, changed);
  const out = await proveTests([input], ctx);
  return out.get(input.contract)!;
}

const verdicts = (p: TestProof) =>
  Object.fromEntries(
    p.tests.map((t) => [`${t.requirement} ${t.name}`, [t.base, t.head, t.verdict]]),
  );

describe("proveTests, end to end with vitest in a real repository", () => {
  it("proves a fixed bug and a new module, says a test that passes at base proves nothing, and never touches the checkout", async () => {
    const { root, base } = repo();
    const before = snapshot(root);
    const temp = tempDir();
    const proof = await prove(
      root,
      base,
      [
        ["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"],
        ["FR-002", "tests/slug.test.ts", "slugifies"],
        ["FR-003", "tests/trim.test.ts", "trim > keeps inner spaces"],
        ["FR-004", "tests/trim.test.ts", "trim::returns strings"],
        ["FR-005", "tests/trim.test.ts", "trim > is not there"],
      ],
      ["FR-001", "FR-002", "FR-003", "FR-005"],
      { tempDir: temp },
    );
    expect(verdicts(proof)).toEqual({
      "FR-001 trim > trims surrounding spaces": ["failed", "passed", "proven"],
      "FR-002 slugifies": ["absent", "passed", "proven"],
      "FR-003 trim > keeps inner spaces": ["passed", "passed", "passes-at-base"],
      "FR-004 trim::returns strings": ["passed", "passed", "invariant-holds"],
      "FR-005 trim > is not there": ["absent", "absent", "execution-error"],
    });
    expect(proof.tests[1]!.reason).toBe(
      "proven: its file failed to load on the code before this change, passes at head",
    );
    expect(proof.tests[2]!.reason).toBe("proves nothing: passes on the code before this change");
    expect(proof.tests[4]!.reason).toMatch(
      /no run reports tests\/trim\.test\.ts > trim > is not there \(map line specs\/001-x\/spec\.md:44\)/,
    );
    expect(proof.runs.map((r) => [r.side, r.preset, r.chosenBy, r.error])).toEqual([
      ["head", "vitest", "package.json devDependencies.vitest", undefined],
      ["base", "vitest", "package.json devDependencies.vitest", undefined],
    ]);
    expect(proof.runs[0]!.command).toMatch(
      /^npx --no vitest run .*'tests\/slug\.test\.ts' 'tests\/trim\.test\.ts'$/,
    );
    expect(snapshot(root)).toEqual(before);
    expect(readdirSync(temp)).toEqual([]);
  });

  it("positive control: with the base view's swap switched off (the test-files globs match every file), the fixed bug passes at base", async () => {
    const { root, base } = repo();
    const proof = await prove(
      root,
      base,
      [["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"]],
      ["FR-001"],
      {
        testFiles: ["**"],
      },
    );
    expect(proof.tests[0]!.verdict).toBe("passes-at-base");
  });

  it("a runner that prints PASSED and exits 1 is an execution error, never a pass", async () => {
    const { root, base } = repo();
    const proof = await prove(
      root,
      base,
      [["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"]],
      ["FR-001"],
      {
        testCommand:
          "npx --no vitest run --reporter=junit --outputFile.junit={junit} {files} >/dev/null; echo PASSED; exit 1",
      },
    );
    expect(proof.tests[0]!.verdict).toBe("execution-error");
    expect(proof.tests[0]!.reason).toMatch(
      /execution error at head: the runner exited 1 while no test failed/,
    );
    expect(proof.runs[0]!.outputTail).toContain("PASSED");
  });

  it("zero test cases is an execution error, from a real vitest run and from an empty results file", async () => {
    const { root, base } = repo();
    const real = await prove(
      root,
      base,
      [["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"]],
      ["FR-001"],
      {
        testCommand:
          "npx --no vitest run --reporter=junit --outputFile.junit={junit} --passWithNoTests no-such-file",
      },
    );
    expect(real.tests[0]!.reason).toMatch(/the head run reported zero test cases/);
    const empty = await prove(
      root,
      base,
      [["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"]],
      ["FR-001"],
      {
        testCommand: "printf '<testsuites/>' > {junit}",
      },
    );
    expect(empty.tests[0]).toMatchObject({
      verdict: "execution-error",
      reason: expect.stringMatching(/zero test cases/),
    });
  });

  it("no results, results that are not JUnit, a command that does not exist, a timeout: each an execution error naming why", async () => {
    const { root, base } = repo();
    const line: [string, string, string][] = [
      ["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"],
    ];
    const cases: [string, RegExp][] = [
      ["true {junit}", /wrote no results file/],
      [
        "echo PASSED > {junit}",
        /results cannot be read: it is not well-formed XML|no <testsuites>/,
      ],
      ["no-such-runner-xyz {junit}", /not found or not executable \(exit 127\)/],
    ];
    for (const [testCommand, why] of cases) {
      const p = await prove(root, base, line, ["FR-001"], { testCommand });
      expect(p.tests[0]!.verdict, testCommand).toBe("execution-error");
      expect(p.tests[0]!.reason, testCommand).toMatch(why);
      expect(p.runs[0]!.error!.hint).toMatch(/test-command|test-timeout-seconds/);
    }
    const slow = await prove(root, base, line, ["FR-001"], {
      testCommand: "sleep 5; : {junit}",
      testTimeoutSeconds: 0.2,
    });
    expect(slow.tests[0]!.reason).toMatch(/the head run timed out after 0 s/);
  });

  it("an undetectable runner makes every mapped test an execution error naming the input", async () => {
    const { root, base } = proofRepo(
      { "src/a.ts": "x\n", "tests/a.test.ts": "y\n" },
      { "src/a.ts": "z\n" },
    );
    const proof = await prove(root, base, [["FR-001", "tests/a.test.ts", "works"]], ["FR-001"]);
    expect(proof.tests[0]).toMatchObject({
      verdict: "execution-error",
      reason: expect.stringMatching(/no test runner detected/),
    });
    expect(proof.runs[0]!.error!.hint).toMatch(/Set the test-command input \(CLI --test-command\)/);
  });

  it("a results file the pull request committed where the gate reads is never taken as the run's", async () => {
    const forged = `<testsuites><testsuite name="x"><testcase classname="tests/trim.test.ts" name="trim &gt; trims surrounding spaces"/></testsuite></testsuites>`;
    const { root, base } = proofRepo(
      {
        "package.json": PKG,
        "tests/trim.test.ts": TRIM_TEST,
        "src/trim.ts": "export const trim = (s: string) => s;\n",
      },
      {
        ".contract-gate-proof/head-1.xml": forged,
        ".contract-gate-proof/base-1.xml": forged,
      },
    );
    const proof = await prove(
      root,
      base,
      [["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"]],
      ["FR-001"],
      { testCommand: "true {junit}" },
    );
    expect(proof.tests[0]!.reason).toMatch(/wrote no results file/);
  });
});

describe("proveTests with node --test (one run per mapped file)", () => {
  it("detects the runner from the test script and proves a new function", async () => {
    const { root, base } = proofRepo(
      {
        "package.json": JSON.stringify({ type: "module", scripts: { test: "node --test tests/" } }),
        "src/add.mjs": "export const add = (a, b) => a + b;\n",
        "tests/add.test.mjs": `import { test } from "node:test";\nimport assert from "node:assert";\nimport { add } from "../src/add.mjs";\ntest("adds", () => assert.equal(add(1, 2), 3));\n`,
      },
      {
        "src/sub.mjs": "export const sub = (a, b) => a - b;\n",
        "tests/sub.test.mjs": `import { describe, it } from "node:test";\nimport assert from "node:assert";\nimport { sub } from "../src/sub.mjs";\ndescribe("sub", () => { it("subtracts", () => assert.equal(sub(3, 2), 1)); });\n`,
      },
    );
    const proof = await prove(
      root,
      base,
      [
        ["FR-001", "tests/add.test.mjs", "adds"],
        ["FR-002", "tests/sub.test.mjs", "sub > subtracts"],
      ],
      ["FR-002"],
    );
    expect(verdicts(proof)).toEqual({
      "FR-001 adds": ["passed", "passed", "invariant-holds"],
      "FR-002 sub > subtracts": ["absent", "passed", "proven"],
    });
    expect(proof.runs.map((r) => `${r.side} ${r.preset} ${r.chosenBy}`)).toEqual([
      "head node package.json scripts.test runs node --test",
      "head node package.json scripts.test runs node --test",
      "base node package.json scripts.test runs node --test",
      "base node package.json scripts.test runs node --test",
    ]);
  });
});

describe("proveTests inside the sandbox (each tree its own boundary)", () => {
  const sandboxed = () =>
    sandboxRunners({
      mode: "required",
      env: { PATH: process.env.PATH, HOME: tempDir("cg-home-") },
      hostCommand: HOST_FROM_SOURCE,
      memoryMb: 4096,
    });

  it("grades as without it, with vitest reading the linked node_modules", async () => {
    const { root, base } = repo();
    const before = snapshot(root);
    const proof = await prove(
      root,
      base,
      [
        ["FR-001", "tests/trim.test.ts", "trim > trims surrounding spaces"],
        ["FR-002", "tests/slug.test.ts", "slugifies"],
        ["FR-003", "tests/trim.test.ts", "trim > keeps inner spaces"],
      ],
      ["FR-001", "FR-002", "FR-003"],
      { runners: sandboxed() },
    );
    expect(proof.runs.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(proof.tests.map((t) => t.verdict)).toEqual(["proven", "proven", "passes-at-base"]);
    expect(snapshot(root)).toEqual(before);
  });

  it("a head test cannot write into the checkout through a linked ignored folder (it can without the sandbox)", async () => {
    const writer = `import { test } from "node:test";\nimport { writeFileSync } from "node:fs";\ntest("writes", () => { try { writeFileSync("cache/pwned", "x"); } catch {} });\n`;
    const make = () => {
      const r = proofRepo(
        {
          ".gitignore": "node_modules\ncache/\n",
          "package.json": JSON.stringify({ type: "module" }),
          "tests/w.test.mjs": writer,
        },
        { "src/x.mjs": "export {};\n" },
      );
      mkdirSync(join(r.root, "cache"));
      return r;
    };
    const inside = make();
    await prove(inside.root, inside.base, [["FR-001", "tests/w.test.mjs", "writes"]], [], {
      runners: sandboxed(),
      testCommand: "node",
    });
    expect(existsSync(join(inside.root, "cache/pwned"))).toBe(false);
    const outside = make();
    await prove(outside.root, outside.base, [["FR-001", "tests/w.test.mjs", "writes"]], [], {
      testCommand: "node",
    });
    expect(existsSync(join(outside.root, "cache/pwned"))).toBe(true);
  });
});

describe("a side whose sandbox cannot start after an earlier side had one", () => {
  // A host that starts until `mark` exists: the base side's host failing (it starts while
  // the head's tests run) must not run the pull request's tests without the boundary.
  const flaky = (mark: string) => [
    "/bin/sh",
    "-c",
    `if [ -e '${mark}' ]; then exit 1; fi; exec "$@"`,
    "sh",
    ...HOST_FROM_SOURCE,
  ];
  const side = (root: string, results: string): Parameters<RunnerFactory>[0] => ({
    side: "base",
    checkout: realpathSync(root),
    layer: () => undefined,
    copy: () => root,
    reads: { privateTree: [], copy: [] },
    results,
    invocations: 1,
  });
  const options = (mark: string) => ({
    mode: "auto" as const,
    env: { PATH: process.env.PATH, HOME: tempDir("cg-home-") },
    hostCommand: flaky(mark),
    memoryMb: 4096,
  });
  const attempt = async (factory: RunnerFactory, root: string) => {
    const runner = await factory(side(root, tempDir("cg-results-")));
    try {
      return await runner.run({
        file: "sh",
        args: ["-c", "echo ran"],
        cwd: runner.root,
        env: { PATH: "/usr/bin:/bin" },
        timeoutMs: 60_000,
      });
    } finally {
      runner.close();
    }
  };

  it("is refused, never run unsandboxed (control: a first side without a boundary runs unsandboxed under auto)", async () => {
    const root = tempDir("cg-flaky-");
    const mark = join(tempDir("cg-mark-"), "fail");
    const factory = sandboxRunners(options(mark));
    expect((await attempt(factory, root)).kind).toBe("exited");
    writeFileSync(mark, "");
    expect((await attempt(factory, root)).kind).toBe("boundary");
    // Control: nothing proven yet, `auto` falls back to no boundary and the command runs.
    const fresh = sandboxRunners(options(mark));
    const out = await attempt(fresh, root);
    expect(out.kind === "exited" && out.stdout.trim()).toBe("ran");
  });
});

describe("the head run's writes never reach the base run", () => {
  // Passes the first time it runs and fails every time after: were the head run's marker
  // still there at base, a test that passes on the old code would read as proven.
  const marker = `import { test } from "node:test";\nimport assert from "node:assert";\nimport { existsSync, writeFileSync } from "node:fs";\ntest("marks", () => { assert.ok(!existsSync("tests/.seen"), "seen"); writeFileSync("tests/.seen", "x"); });\n`;
  const make = () =>
    proofRepo(
      { "package.json": JSON.stringify({ type: "module" }), "tests/m.test.mjs": marker },
      { "src/x.mjs": "export {};\n" },
    );
  const marks = (root: string, base: string, extra: Partial<ProverContext>) =>
    prove(root, base, [["FR-001", "tests/m.test.mjs", "marks"]], ["FR-001"], {
      testCommand: "node",
      ...extra,
    });

  it("inside the sandbox (a private tree per side) and without it (a copy per side)", async () => {
    const inside = make();
    const sandboxed = sandboxRunners({
      mode: "required",
      env: { PATH: process.env.PATH, HOME: tempDir("cg-home-") },
      hostCommand: HOST_FROM_SOURCE,
      memoryMb: 4096,
    });
    const roots: string[] = [];
    const spied: RunnerFactory = async (t) => {
      const r = await sandboxed(t);
      roots.push(r.root);
      return r;
    };
    expect(verdicts(await marks(inside.root, inside.base, { runners: spied }))).toEqual({
      "FR-001 marks": ["passed", "passed", "passes-at-base"],
    });
    // Both sides ran in the checkout's own path: private trees, not copies.
    expect(roots).toEqual([realpathSync(inside.root), realpathSync(inside.root)]);
    expect(existsSync(join(inside.root, "tests/.seen"))).toBe(false);
    const copies = make();
    expect(verdicts(await marks(copies.root, copies.base, {}))).toEqual({
      "FR-001 marks": ["passed", "passed", "passes-at-base"],
    });
  });

  it("positive control: both sides run in the checkout itself, the marker survives and the test reads as proven", async () => {
    const { root, base } = make();
    const inPlace: RunnerFactory = async (t) => ({
      run: runProcess,
      close: () => {},
      root: t.checkout,
    });
    expect(verdicts(await marks(root, base, { runners: inPlace }))).toEqual({
      "FR-001 marks": ["failed", "passed", "proven"],
    });
  });
});

const has = (cmd: string, ...args: string[]) =>
  spawnSync(cmd, args, { stdio: "ignore" }).status === 0;

describe("proveTests with pytest and go, run for real where installed", () => {
  it.skipIf(!has("python3", "-m", "pytest", "--version"))(
    "pytest: a fixed bug proven, a new module's test proven though its import fails at base",
    async () => {
      const { root, base } = proofRepo(
        {
          "pytest.ini": "[pytest]\npythonpath = .\n",
          "src/__init__.py": "",
          "src/trim.py": "def trim(s):\n    return s\n",
          "tests/test_trim.py":
            "from src.trim import trim\n\nclass TestTrim:\n    def test_spaces(self):\n        assert trim(' a ') == 'a'\n\n    def test_inner(self):\n        assert trim('a b') == 'a b'\n",
        },
        {
          "src/trim.py": "def trim(s):\n    return s.strip()\n",
          "src/slug.py": "def slug(s):\n    return s.lower()\n",
          "tests/test_slug.py":
            "from src.slug import slug\n\ndef test_slug():\n    assert slug('A') == 'a'\n",
        },
      );
      const proof = await prove(
        root,
        base,
        [
          ["FR-001", "tests/test_trim.py", "TestTrim::test_spaces"],
          ["FR-002", "tests/test_slug.py", "test_slug"],
          ["FR-003", "tests/test_trim.py", "TestTrim > test_inner"],
        ],
        ["FR-001", "FR-002", "FR-003"],
      );
      expect(proof.runs[0]!.chosenBy).toBe("pytest.ini");
      expect(verdicts(proof)).toEqual({
        "FR-001 TestTrim::test_spaces": ["failed", "passed", "proven"],
        "FR-002 test_slug": ["absent", "passed", "proven"],
        "FR-003 TestTrim > test_inner": ["passed", "passed", "passes-at-base"],
      });
    },
  );

  // A package is Go's unit of loading: at base, a new test file that does not build fails its whole
  // package, and every test in it counts as failing there (the seed: "or a compile error").
  it.skipIf(!has("go", "version"))(
    "go: a new package's test proven (it does not build at base), a subtest that passes at base proves nothing",
    async () => {
      const { root, base } = proofRepo(
        {
          "go.mod": "module example.com/p\n\ngo 1.19\n",
          "pkg/trim.go": "package pkg\n\nfunc Trim(s string) string { return s }\n",
          "pkg/trim_test.go":
            'package pkg\n\nimport "testing"\n\nfunc TestTrim(t *testing.T) {\n\tt.Run("keeps words", func(t *testing.T) {\n\t\tif Trim("a") != "a" {\n\t\t\tt.Fatal("x")\n\t\t}\n\t})\n}\n',
        },
        {
          "slug/slug.go":
            'package slug\n\nimport "strings"\n\nfunc Slug(s string) string { return strings.ToLower(s) }\n',
          "slug/slug_test.go":
            'package slug\n\nimport "testing"\n\nfunc TestSlug(t *testing.T) {\n\tif Slug("A") != "a" {\n\t\tt.Fatal("x")\n\t}\n}\n',
        },
      );
      const home = tempDir("cg-gohome-");
      const proof = await prove(
        root,
        base,
        [
          ["FR-001", "slug/slug_test.go", "TestSlug"],
          ["FR-002", "pkg/trim_test.go", "TestTrim/keeps_words"],
        ],
        ["FR-001", "FR-002"],
        {
          env: {
            ...cleanEnv(),
            HOME: home,
            GOCACHE: join(home, "cache"),
            GOFLAGS: "-mod=mod",
            GOTOOLCHAIN: "local",
          },
        },
      );
      expect(proof.runs[0]!.chosenBy).toBe("go.mod");
      expect(verdicts(proof)).toEqual({
        "FR-001 TestSlug": ["absent", "passed", "proven"],
        "FR-002 TestTrim/keeps_words": ["passed", "passed", "passes-at-base"],
      });
    },
  );
});
