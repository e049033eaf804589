import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { BASE_FILES, repo, SPEC, SPEC_PATH, TEST } from "./helpers/proof-repo.js";

interface JsonFinding {
  code: string;
  blocking: boolean;
  path: string;
  line: number;
}

async function run(head: Record<string, string | null>, ...flags: string[]) {
  return runOver(BASE_FILES, head, ...flags);
}

async function runOver(
  base: Record<string, string>,
  head: Record<string, string | null>,
  ...flags: string[]
) {
  const root = repo(head, base);
  const r = await runCli(
    ["run", "--base", "main", "--json", "--no-write", "--sandbox", "off", ...flags],
    root,
    // The proof runs vitest through npx, which needs a PATH (the harness's env is empty).
    { PATH: process.env.PATH },
  );
  const json = JSON.parse(r.stdout || "{}");
  const findings = (json.integrity?.findings ?? []) as JsonFinding[];
  return {
    ...r,
    json,
    codes: findings.map((f) => `${f.blocking ? "B" : "W"} ${f.code} ${f.path}:${f.line}`),
  };
}

const honest = { "src/trim.ts": "export const trim = (s: string) => s.trim();\n" };

describe("run --base: the requirement proof's diff findings block (the CLI has no approvals)", () => {
  it("an honest change: no proof finding, exit 0 (the control)", async () => {
    const r = await run(honest);
    expect(r.stderr).toBe("");
    expect(r.codes).toEqual([]);
    expect(r.code).toBe(0);
  });

  it.each([
    ["a new .only", { "tests/trim.test.ts": TEST.replace('it("keeps', 'it.only("keeps') }],
    ["a deleted test file", { "tests/trim.test.ts": null }],
    [
      "an environment-sniffing branch",
      {
        "src/trim.ts": "export const trim = (s: string) => (process.env.VITEST ? s.trim() : s);\n",
      },
    ],
    ["a protected path", { "src/api/index.ts": "export const api = 2;\n" }],
  ])("%s exits 1 with the finding in the JSON report", async (_what, head) => {
    const r = await run({ ...honest, ...head });
    expect(r.codes.filter((c) => c.startsWith("B"))).toHaveLength(1);
    expect(r.code).toBe(1);
  });

  it("without a spec in scope, --test-tamper is what reads the test diff", async () => {
    // The spec is not touched, so with --changed-since only the source is in scope.
    const head = { "tests/trim.test.ts": null, [SPEC_PATH]: SPEC };
    const plain = await run(head, "--changed-since", "main");
    expect(plain.codes).toEqual([]);
    const tamper = await run(head, "--changed-since", "main", "--test-tamper");
    expect(tamper.codes).toEqual(["B test-file-deleted tests/trim.test.ts:1"]);
    expect(tamper.code).toBe(1);
  });
});

describe("run --base --test-tamper: tampering read from the syntax tree (issue 34's attacks)", () => {
  // The spec is not touched: only the tamper reading gates, no proof run is needed.
  const tamper = (head: Record<string, string>) =>
    run({ [SPEC_PATH]: SPEC, ...head }, "--changed-since", "main", "--test-tamper");

  it.each([
    [
      "a computed skip option",
      {
        "tests/trim.test.ts": TEST.replace(
          'it("keeps inner spaces", ',
          'it("keeps inner spaces", { ["skip"]: true }, ',
        ),
      },
      "B test-marker-added tests/trim.test.ts:4",
    ],
    [
      "an early return before the assertion",
      {
        "tests/trim.test.ts": TEST.replace(
          '() => { expect(trim("a b"))',
          '() => { return; expect(trim("a b"))',
        ),
      },
      "B test-assertion-unreachable tests/trim.test.ts:4",
    ],
    [
      "node:assert's methods replaced in source",
      {
        "src/trim.ts":
          'import assert from "node:assert";\nassert.strictEqual = () => {};\nexport const trim = (s: string) => s.trim();\n',
      },
      "B assertion-library-patched src/trim.ts:2",
    ],
  ])("%s exits 1 with the finding at file:line", async (_what, head, finding) => {
    const r = await tamper(head);
    expect(r.codes).toEqual([finding]);
    expect(r.code).toBe(1);
  });

  it("the honest twin (the same files, the assertion edited, the source fixed) exits 0", async () => {
    const r = await tamper({
      ...honest,
      "tests/trim.test.ts": TEST.replace('toBe("a b")', 'toStrictEqual("a b")'),
    });
    expect(r.codes).toEqual([]);
    expect(r.code).toBe(0);
  });
});

const hasPython = spawnSync("python3", ["-c", "import ast"]).status === 0;

describe.skipIf(!hasPython)(
  `run --base --test-tamper: a Python test read from python3's syntax tree${hasPython ? "" : " (skipped: no python3 on the PATH)"}`,
  () => {
    const tamper = (head: Record<string, string>) =>
      run({ [SPEC_PATH]: SPEC, ...head }, "--changed-since", "main", "--test-tamper");

    it("os._exit in an added pytest test exits 1 at file:line; its honest twin exits 0", async () => {
      const attack = await tamper({
        "tests/test_trim.py": "import os\n\ndef test_trim():\n    os._exit(0)\n",
      });
      expect(attack.codes).toEqual(["B test-process-exit tests/test_trim.py:4"]);
      expect(attack.code).toBe(1);
      const twin = await tamper({
        "tests/test_trim.py": "def test_trim():\n    assert ' a '.strip() == 'a'\n",
      });
      expect(twin.codes).toEqual([]);
      expect(twin.code).toBe(0);
    });
  },
);

describe("run --base: the proof's test command is a check whose harness is compared (issue 33)", () => {
  const pkg = (test: string, lint: string) =>
    `${JSON.stringify({ name: "x", devDependencies: { vitest: "^4.0.0" }, scripts: { test, lint } }, null, 2)}\n`;
  const base = { ...BASE_FILES, "package.json": pkg("vitest run", "biome check .") };
  const command = ["--test-command", "npm test -- --reporter=junit --outputFile={junit} {files}"];

  it("the scripts.test entry the proof runs, rewritten: check-harness-changed, exit 1", async () => {
    const r = await runOver(
      base,
      { ...honest, "package.json": pkg("vitest run --silent", "biome check .") },
      ...command,
    );
    expect(r.codes.filter((c) => c.startsWith("B"))).toEqual([
      "B check-harness-changed package.json:7",
    ]);
    expect(r.code).toBe(1);
  });

  it("another script entry changed: no finding, exit 0 (the control)", async () => {
    const r = await runOver(
      base,
      { ...honest, "package.json": pkg("vitest run", "eslint .") },
      ...command,
    );
    expect(r.codes).toEqual([]);
    expect(r.code).toBe(0);
  });
});

describe("the proof's flags", () => {
  it.each([
    [
      ["--requirement-proof", "of"],
      "--requirement-proof 'of' is not one of mutation, fail-to-pass, off",
    ],
    [["--test-timeout-seconds", "0"], "--test-timeout-seconds"],
    [["--test-command", " "], "--test-command is empty"],
    [["--test-files", "/abs/**"], "--test-files '/abs/**' must be relative"],
  ])("%j is a usage error naming it", async (flags, message) => {
    const root = repo(honest);
    const r = await runCli(["run", "--no-write", "--sandbox", "off", ...flags], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it("--test-tamper without --base says to add one", async () => {
    const root = repo(honest);
    const r = await runCli(["run", "--test-tamper"], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--test-tamper reads the test diff against a base: add --base <rev>",
    );
  });
});

describe("turning the proof off in the PR's workflow is named in gate-config-changed", () => {
  it("requirement-proof: on → off is named; an unrelated edit names no input (the control)", async () => {
    const { workflowFindings } = await import("../src/integrity/workflow-diff.js");
    const wf = (proof: string, name = "gate") =>
      `name: ${name}\non: pull_request\njobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: contract-gate/contract-gate@v1\n        with:\n          requirement-proof: ${proof}\n`;
    const path = ".github/workflows/gate.yml";
    const [off] = workflowFindings(path, wf("on"), wf("off"));
    expect(off?.message).toContain("`requirement-proof`: `on` → `off`");
    const [renamed] = workflowFindings(path, wf("on"), wf("on", "gate2"));
    expect(renamed?.message).not.toContain("requirement-proof");
  });
});
