import { describe, expect, it } from "vitest";
import { detectTestCommand } from "../src/proof/run/detect.js";
import { batches, commandFromInput, substitute } from "../src/proof/run/presets.js";

const repo = (files: Record<string, string>) => (p: string) => files[p];

describe("choosing the runner from the repository", () => {
  it.each<[string, Record<string, string>, string[], string, string]>([
    [
      "vitest in devDependencies",
      { "package.json": '{"devDependencies":{"vitest":"4"}}' },
      ["t/a.test.ts"],
      "vitest",
      "package.json devDependencies.vitest",
    ],
    [
      "jest with jest-junit",
      { "package.json": '{"dependencies":{"jest":"29"},"devDependencies":{"jest-junit":"16"}}' },
      ["a.test.js"],
      "jest",
      "package.json dependencies.jest with jest-junit",
    ],
    [
      "a test script running node --test",
      { "package.json": '{"scripts":{"test":"node --experimental-strip-types --test test/"}}' },
      ["test/a.test.mjs"],
      "node",
      "package.json scripts.test runs node --test",
    ],
    ["pytest.ini", { "pytest.ini": "[pytest]\n" }, ["tests/test_a.py"], "pytest", "pytest.ini"],
    [
      "pyproject's [tool.pytest.ini_options]",
      { "pyproject.toml": "[tool.pytest.ini_options]\n" },
      ["tests/test_a.py"],
      "pytest",
      "pyproject.toml [tool.pytest.ini_options]",
    ],
    ["go.mod", { "go.mod": "module x\n" }, ["pkg/a_test.go"], "go", "go.mod"],
    [
      "the first that fits every mapped file",
      { "package.json": '{"devDependencies":{"vitest":"4"}}', "go.mod": "module x\n" },
      ["pkg/a_test.go"],
      "go",
      "go.mod",
    ],
  ])("%s", (_what, files, mapped, preset, why) => {
    const r = detectTestCommand(repo(files), mapped);
    expect(r).toMatchObject({ ok: true, command: { preset, chosenBy: why } });
  });

  it.each<[string, Record<string, string>, string[], RegExp]>([
    ["nothing at all", {}, ["a.test.ts"], /no test runner detected/],
    [
      "jest without jest-junit",
      { "package.json": '{"devDependencies":{"jest":"29"}}' },
      ["a.test.js"],
      /without jest-junit/,
    ],
    [
      "a runner that fits no mapped file",
      { "go.mod": "module x\n" },
      ["tests/test_a.py"],
      /no detected test runner runs every mapped test/,
    ],
    [
      "a broken package.json",
      { "package.json": "{" },
      ["a.test.ts"],
      /package.json does not parse/,
    ],
  ])("%s: no command, naming the input", (_what, files, mapped, why) => {
    const r = detectTestCommand(repo(files), mapped);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(why);
      expect(r.hint).toMatch(/test-command input/);
    }
  });
});

describe("the test-command input", () => {
  it("a preset name is that preset; a template must write {junit}", () => {
    expect(commandFromInput(" pytest ")).toMatchObject({
      ok: true,
      command: { preset: "pytest", chosenBy: "the test-command input" },
    });
    expect(commandFromInput("make test {junit}")).toMatchObject({
      ok: true,
      command: { preset: "custom", template: "make test {junit}" },
    });
    expect(commandFromInput("npm test")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/neither a preset .* nor a template that writes \{junit\}/),
    });
  });

  it("substitutes shell-quoted words; a path starting with - is never an option", () => {
    const cmd = substitute("run --out={junit} {files} -- {packages}", "/tmp/a b/j.xml", [
      "tests/it's.test.ts",
      "-x.test.ts",
      "pkg/sub/a_test.go",
    ]);
    expect(cmd).toBe(
      `run --out='/tmp/a b/j.xml' 'tests/it'\\''s.test.ts' './-x.test.ts' 'pkg/sub/a_test.go' -- './tests' '.' './pkg/sub'`,
    );
  });

  it("Node runs one mapped file at a time; the others all at once", () => {
    expect(batches("node", ["a", "b"])).toEqual([["a"], ["b"]]);
    expect(batches("vitest", ["a", "b"])).toEqual([["a", "b"]]);
  });
});
