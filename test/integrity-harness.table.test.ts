import { describe, expect, it } from "vitest";
import { entryName, entryText } from "../src/integrity/harness-entry.js";
import { resolveHarness, shellCheck } from "../src/integrity/harness-resolve.js";

// What a check runs, resolved statically over an in-memory tree: table rows
// over the pure resolver and the entry comparison. The CLI cases with real
// git repositories are in test/integrity-harness-cli.test.ts.

type Files = Record<string, string>;

/** Resolve `line` over `files` (every other path absent), as the edge does: read until nothing is needed. */
function resolve(line: string, files: Files, changed: string[] = []) {
  const tree = (p: string) => files[p] ?? null;
  return resolveHarness(shellCheck(line), tree, changed);
}
const named = (r: ReturnType<typeof resolve>) =>
  r.parts.map((p) => `${p.file} ${entryName(p.entry)}`);

/** Whether the head `after` changes what `line` runs over the base `before`. */
function changes(line: string, before: Files, after: Files, changed?: string[]): string[] {
  const r = resolve(line, before, changed ?? Object.keys({ ...before, ...after }));
  return r.parts
    .filter((p) => entryText(p.entry, before[p.file]) !== entryText(p.entry, after[p.file]))
    .map((p) => `${p.file} ${entryName(p.entry)}`);
}

const pkg = (scripts: Record<string, string>, extra: object = {}) =>
  JSON.stringify({ name: "x", scripts, ...extra });

describe("the resolution table", () => {
  it.each([
    ["npm test", { "package.json": pkg({ test: "exit 1" }) }, "package.json scripts.test"],
    ["pnpm run check", { "package.json": pkg({ check: "exit 1" }) }, "package.json scripts.check"],
    ["pnpm check", { "package.json": pkg({ check: "exit 1" }) }, "package.json scripts.check"],
    ["yarn verify", { "package.json": pkg({ verify: "exit 1" }) }, "package.json scripts.verify"],
    ["bun run ci", { "package.json": pkg({ ci: "exit 1" }) }, "package.json scripts.ci"],
    [
      "npm --prefix app run t2",
      { "app/package.json": pkg({ t2: "exit 1" }) },
      "app/package.json scripts.t2",
    ],
    [
      "cd app && npm test",
      { "app/package.json": pkg({ test: "exit 1" }) },
      "app/package.json scripts.test",
    ],
    ["make check", { Makefile: "check:\n\texit 1\n" }, "Makefile target check"],
    ["make", { Makefile: ".PHONY: all\nall:\n\texit 1\n" }, "Makefile target all"],
    ["make -C sub t", { "sub/Makefile": "t:\n\texit 1\n" }, "sub/Makefile target t"],
    ["bash scripts/v.sh", { "scripts/v.sh": "exit 1" }, "scripts/v.sh the whole file"],
    ["./v.sh --strict", { "v.sh": "exit 1" }, "v.sh the whole file"],
    ["python3 tools/check.py", { "tools/check.py": "" }, "tools/check.py the whole file"],
    ["node -r ./hook.js run.js", { "hook.js": "", "run.js": "" }, "hook.js the whole file"],
    [
      "npx vitest run",
      { "vitest.config.ts": "export default {}" },
      "vitest.config.ts the whole file",
    ],
    [
      "pytest -q tests/unit",
      { "tests/unit/conftest.py": "" },
      "tests/unit/conftest.py the whole file",
    ],
    [
      "python -m pytest",
      { "pyproject.toml": "[tool.pytest.ini_options]\naddopts='-q'\n" },
      "pyproject.toml [tool.pytest]",
    ],
    ["cargo test", { ".cargo/config.toml": "" }, ".cargo/config.toml the whole file"],
    ["tox -e py312", { "tox.ini": "[testenv:py312]\n" }, "tox.ini [testenv:py312]"],
  ] as [string, Files, string][])("`%s` resolves to its entry", (line, files, part) => {
    expect(named(resolve(line, files))).toContain(part);
  });

  it("a script's own commands are resolved in turn (a script calling a script calling a file)", () => {
    const r = resolve("npm test", {
      "package.json": pkg({ test: "npm run unit && sh ci/after.sh", unit: "vitest run" }),
      "ci/after.sh": "true",
    });
    expect(named(r)).toEqual(
      expect.arrayContaining([
        "package.json scripts.test",
        "package.json scripts.unit",
        "ci/after.sh the whole file",
        "vitest.config.ts the whole file",
      ]),
    );
  });

  it("a vitest config's setupFiles are part of the harness", () => {
    const r = resolve("npx vitest", {
      "vitest.config.ts": "export default { test: { setupFiles: ['./test/setup.ts'] } }",
      "test/setup.ts": "",
    });
    expect(named(r)).toContain("test/setup.ts the whole file");
  });

  it.each([
    ['eval "$CHECK"', "`eval` runs text"],
    ["$RUNNER test", "chosen at run time"],
    ["tsc --noEmit", "`tsc` is no command the gate's resolution table knows"],
    ["pnpm -r test", "workspace packages"],
    ["cd $DIR && make", "cannot know"],
  ])("`%s` cannot be resolved: it says why", (line, why) => {
    expect(resolve(line, {}).unresolved.join(" ")).toContain(why);
  });

  it("static commands resolve to nothing and warn of nothing", () => {
    const r = resolve("grep -q ok src/a.js && test -f b && echo OK", {});
    expect(r).toEqual({ parts: [], unresolved: [], needs: [] });
  });
});

describe("wrappers and programs given as files (attacks that were silent or a mere warning)", () => {
  // Each line runs a file of the tree, so a PR rewriting that file changes
  // the check. Before these rows, `timeout 60 sh v.sh` read `60` as the
  // command (a warning, never blocking), `env -C sub` resolved the wrong
  // directory, and `grep -f`/`sed -f`/`awk -f`/`jq -f`/`find -exec` were
  // static commands that resolved to nothing, in silence.
  it.each([
    ["timeout 60 sh scripts/v.sh", "scripts/v.sh"],
    ["timeout -k 5 -s KILL 2m bash scripts/v.sh", "scripts/v.sh"],
    ["env CI=1 sh scripts/v.sh", "scripts/v.sh"],
    ["env -u HOME sh scripts/v.sh", "scripts/v.sh"],
    ["env -C sub sh v.sh", "sub/v.sh"],
    ["nice -n 5 ionice -c 3 sh scripts/v.sh", "scripts/v.sh"],
    ["grep -qf rules/forbidden.txt src/a.js", "rules/forbidden.txt"],
    ["grep -q -f rules/forbidden.txt src/a.js", "rules/forbidden.txt"],
    ["grep -frules/forbidden.txt src/a.js", "rules/forbidden.txt"],
    ["grep --file=rules/forbidden.txt src", "rules/forbidden.txt"],
    ["rg --file rules/forbidden.txt src", "rules/forbidden.txt"],
    ["sed -n -f fix.sed src/a.js", "fix.sed"],
    ["awk -F, -f prog.awk data.csv", "prog.awk"],
    ["jq --from-file filter.jq data.json", "filter.jq"],
    ["jq -e -f filter.jq data.json", "filter.jq"],
    ["find src -name '*.js' -exec node scripts/lint.js {} +", "scripts/lint.js"],
    ["find . -type f -execdir sh scripts/v.sh {} ;", "scripts/v.sh"],
  ])("`%s` resolves to %s, so rewriting it is a finding", (line, file) => {
    const before = { [file]: "exit 1" };
    expect(changes(line, before, { [file]: "exit 0" })).toEqual([`${file} the whole file`]);
  });

  it.each([
    // Controls: the same tools reading the file as data, or a value that only looks like a file.
    ["grep -q forbidden rules/forbidden.txt", "rules/forbidden.txt"],
    ["grep -e f -q rules/forbidden.txt", "rules/forbidden.txt"],
    ["grep -efoo rules/forbidden.txt", "rules/forbidden.txt"],
    ["sed -E 's/a/b/' fix.sed", "fix.sed"],
    ["awk -F f '{print}' prog.awk", "prog.awk"],
    ["timeout 60 grep -q ok scripts/v.sh", "scripts/v.sh"],
  ])("`%s` reads %s as data: no part (control)", (line, file) => {
    const r = resolve(line, { [file]: "x" });
    expect(r.parts).toEqual([]);
    expect(r.unresolved).toEqual([]);
  });

  it.each([
    ["find . -name '*.sh' -exec {} ;", "runs each file it finds as a program"],
    ["env -C $DIR sh v.sh", "cannot know"],
  ])("`%s` cannot be resolved: it says why", (line, why) => {
    expect(resolve(line, {}).unresolved.join(" ")).toContain(why);
  });
});

describe("entries compared, not files (attack and twin)", () => {
  const base = { "package.json": pkg({ test: "vitest run", lint: "biome check ." }) };
  it.each([
    [
      "scripts.test rewritten",
      { "package.json": pkg({ test: "exit 0", lint: "biome check ." }) },
      ["package.json scripts.test"],
    ],
    [
      "another script changed (twin)",
      { "package.json": pkg({ test: "vitest run", lint: "eslint ." }) },
      [],
    ],
    [
      "a posttest hook added",
      { "package.json": pkg({ test: "vitest run", posttest: "true" }) },
      ["package.json scripts.posttest"],
    ],
    [
      "package.json broken",
      { "package.json": "{" },
      [
        "package.json scripts.pretest",
        "package.json scripts.test",
        "package.json scripts.posttest",
      ],
    ],
    [
      "a vitest config added",
      { ...base, "vitest.config.ts": "export default { test: { passWithNoTests: true } }" },
      ["vitest.config.ts the whole file"],
    ],
    [".npmrc added", { ...base, ".npmrc": "ignore-scripts=true" }, [".npmrc the whole file"]],
  ] as [string, Files, string[]][])("%s", (_case, after, expected) => {
    expect(changes("npm test", base, after)).toEqual(expected);
  });

  it("a make target's recipe changed blocks; another target's does not (twin); an include counts", () => {
    const mk = "include rules.mk\ncheck: deps\n\t./run.sh\ndeps:\n\techo deps\nother:\n\techo o\n";
    const b = { Makefile: mk, "rules.mk": "X=1\n" };
    expect(changes("make check", b, { ...b, Makefile: mk.replace("./run.sh", "true") })).toEqual([
      "Makefile target check",
    ]);
    expect(changes("make check", b, { ...b, Makefile: mk.replace("echo deps", "exit 0") })).toEqual(
      ["Makefile target deps"],
    );
    expect(changes("make check", b, { ...b, Makefile: mk.replace("echo o", "exit 0") })).toEqual(
      [],
    );
    expect(changes("make check", b, { ...b, "rules.mk": "check:\n\ttrue\n" })).toEqual([
      "rules.mk the whole file",
    ]);
  });

  it("pytest: a new pytest.ini, a conftest.py in a subdirectory on the tests' path; one off the path is no part (twin)", () => {
    const b = { "tests/unit/test_a.py": "def test_a(): assert 1" };
    expect(
      changes("pytest tests/unit", b, {
        ...b,
        "pytest.ini": "[pytest]\naddopts = -k 'not strict'\n",
      }),
    ).toEqual(["pytest.ini the whole file"]);
    expect(
      changes("pytest tests/unit", b, {
        ...b,
        "tests/conftest.py": "def pytest_runtest_makereport(): pass",
      }),
    ).toEqual(["tests/conftest.py the whole file"]);
    expect(changes("pytest tests/unit", b, { ...b, "docs/conftest.py": "x = 1" })).toEqual([]);
  });
});
