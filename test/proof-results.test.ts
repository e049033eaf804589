import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { goModulePath, readGoJson } from "../src/proof/run/go-json.js";
import { readJunit } from "../src/proof/run/junit.js";
import { canonicalName, type RunResults } from "../src/proof/run/results.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const FIXTURES = join(import.meta.dirname, "fixtures/proof/results");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const VITEST = join(import.meta.dirname, "../node_modules/.bin/vitest");

/** name → outcome, for one file (or `*` for cases the runner gave no file). */
function table(r: RunResults): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of r.cases) out[`${c.files?.join("|") ?? "*"} > ${c.name}`] = c.outcome;
  for (const f of r.loadFailed) out[`${f} (load)`] = "failed to load";
  return out;
}

function ok(r: ReturnType<typeof readJunit>): RunResults {
  if (!r.ok) throw new Error(r.message);
  return r.results;
}

const JS_A = `describe("trim", () => {
  it("trims surrounding spaces", () => { expect(" a ".trim()).toBe("a"); });
  describe("nested", () => { it("fails & <x>", () => { expect(1).toBe(2); }); });
  it.skip("skipped one", () => {});
});
test("top level", () => {});
`;
const JS_B = `import { nope } from "../src/missing.js";\nit("uses nope", () => { nope(); });\n`;

describe("canonical names", () => {
  it("writes every runner's levels one way", () => {
    expect(canonicalName("trim > nested > x")).toBe("trim > nested > x");
    expect(canonicalName("TestTrim::test_spaces")).toBe("TestTrim > test_spaces");
    expect(canonicalName("trim › nested  ›  x")).toBe("trim > nested > x");
    expect(canonicalName("TestTable/fails/deep")).toBe("TestTable/fails/deep");
    expect(canonicalName("a>b")).toBe("a>b");
  });
});

describe("vitest's junit reporter, run for real", () => {
  it("reads classname as the file, `suite > test` as the name, a load failure as the file's", () => {
    const dir = tempDir();
    writeTree(dir, {
      "tests/a.test.ts": `import { describe, it, expect, test } from "vitest";\n${JS_A}`,
      "tests/b.test.ts": `import { it } from "vitest";\n${JS_B}`,
    });
    spawnSync(
      VITEST,
      ["run", "--root", dir, "--reporter=junit", "--outputFile.junit=out.xml", "tests/"],
      {
        cwd: dir,
        stdio: "ignore",
      },
    );
    const r = ok(
      readJunit(readFileSync(join(dir, "out.xml"), "utf8"), "vitest", [
        "tests/a.test.ts",
        "tests/b.test.ts",
      ]),
    );
    expect(table(r)).toEqual({
      "tests/a.test.ts > trim > trims surrounding spaces": "passed",
      "tests/a.test.ts > trim > nested > fails & <x>": "failed",
      "tests/a.test.ts > trim > skipped one": "skipped",
      "tests/a.test.ts > top level": "passed",
      "tests/b.test.ts (load)": "failed to load",
    });
    // The same through `custom`: the convention is told from the case.
    expect(
      table(
        ok(
          readJunit(readFileSync(join(dir, "out.xml"), "utf8"), "custom", [
            "tests/a.test.ts",
            "tests/b.test.ts",
          ]),
        ),
      ),
    ).toEqual(table(r));
  });
});

describe("node --test's junit reporter, run for real", () => {
  it("joins nested suites into the name; one file per run owns every case; a failing path is a load failure", () => {
    const dir = tempDir();
    writeTree(dir, {
      "tests/a.test.mjs": `import { describe, it, test } from "node:test";\nimport assert from "node:assert";\n${JS_A.replace('it.skip("skipped one", () => {})', 'it("skipped one", { skip: true }, () => {})').replace(/expect\((.+?)\)\.toBe\((.+?)\)/g, "assert.equal($1, $2)")}test("with sub", async (t) => { await t.test("sub one", () => {}); });\n`,
      "tests/b.test.mjs": JS_B.replace("missing.js", "missing.mjs").replace(
        "import {",
        'import { it } from "node:test";\nimport {',
      ),
    });
    const run = (file: string) => {
      spawnSync(
        process.execPath,
        ["--test", "--test-reporter=junit", `--test-reporter-destination=${file}.xml`, file],
        { cwd: dir, stdio: "ignore" },
      );
      return readFileSync(join(dir, `${file}.xml`), "utf8");
    };
    expect(table(ok(readJunit(run("tests/a.test.mjs"), "node", ["tests/a.test.mjs"])))).toEqual({
      "tests/a.test.mjs > trim > trims surrounding spaces": "passed",
      "tests/a.test.mjs > trim > nested > fails & <x>": "failed",
      "tests/a.test.mjs > trim > skipped one": "skipped",
      "tests/a.test.mjs > top level": "passed",
      "tests/a.test.mjs > with sub > sub one": "passed",
    });
    expect(table(ok(readJunit(run("tests/b.test.mjs"), "node", ["tests/b.test.mjs"])))).toEqual({
      "tests/b.test.mjs (load)": "failed to load",
    });
    // Two mapped files in one run: Node names no file, so cases carry none (matched by unique name).
    expect(
      table(
        ok(readJunit(run("tests/a.test.mjs"), "node", ["tests/a.test.mjs", "tests/b.test.mjs"])),
      )["* > top level"],
    ).toBe("passed");
  });
});

const hasPytest =
  spawnSync("python3", ["-m", "pytest", "--version"], { stdio: "ignore" }).status === 0;

describe("pytest's junitxml, run for real", () => {
  it.skipIf(!hasPytest)(
    "reads the dotted classname as file + class, a collection error as a load failure",
    () => {
      const dir = tempDir();
      writeTree(dir, {
        "tests/test_a.py": readFileSync(join(FIXTURES, "test_a.py"), "utf8"),
        "tests/test_b.py": "from src.missing import nope\ndef test_uses():\n    nope()\n",
      });
      spawnSync(
        "python3",
        [
          "-m",
          "pytest",
          "-p",
          "no:cacheprovider",
          "--continue-on-collection-errors",
          "--junitxml=p.xml",
          "tests/test_a.py",
          "tests/test_b.py",
        ],
        { cwd: dir, stdio: "ignore", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } },
      );
      const r = ok(
        readJunit(readFileSync(join(dir, "p.xml"), "utf8"), "pytest", [
          "tests/test_a.py",
          "tests/test_b.py",
        ]),
      );
      expect(table(r)).toEqual(PYTEST_TABLE);
    },
  );

  it("reads the committed sample the same way", () => {
    expect(
      table(
        ok(
          readJunit(fixture("pytest-junit.xml"), "pytest", ["tests/test_a.py", "tests/test_b.py"]),
        ),
      ),
    ).toEqual(PYTEST_TABLE);
  });
});

const PYTEST_TABLE = {
  "tests/test_a.py > test_top": "passed",
  "tests/test_a.py > TestTrim > test_spaces": "passed",
  "tests/test_a.py > TestTrim > test_fails": "failed",
  "tests/test_a.py > TestTrim > test_skipped": "skipped",
  "tests/test_a.py > TestTrim > test_param[1]": "passed",
  "tests/test_a.py > TestTrim > test_param[2]": "passed",
  "tests/test_a.py > test_error": "errored",
  "tests/test_b.py (load)": "failed to load",
};

describe("committed samples of real runners", () => {
  it("jest-junit (the preset's settings): file attribute, classname levels, a suite that failed to run", () => {
    expect(
      table(
        ok(readJunit(fixture("jest-junit.xml"), "jest", ["tests/a.test.js", "tests/b.test.js"])),
      ),
    ).toEqual({
      "tests/a.test.js > trim > trims surrounding spaces": "passed",
      "tests/a.test.js > trim > nested > fails & <x>": "failed",
      "tests/a.test.js > trim > skipped one": "skipped",
      "tests/a.test.js > top level": "passed",
      "tests/b.test.js (load)": "failed to load",
    });
  });

  it("go test -json: TestX/sub names, the package's mapped files, a package that did not build", () => {
    const r = readGoJson(fixture("go-test.json"), "example.com/trim", [
      "pkg/trim_test.go",
      "broken/b_test.go",
    ]);
    expect(table(ok(r))).toEqual({
      "pkg/trim_test.go > TestTrim": "passed",
      "pkg/trim_test.go > TestFails": "failed",
      "pkg/trim_test.go > TestSkipped": "skipped",
      "pkg/trim_test.go > TestTable": "failed",
      "pkg/trim_test.go > TestTable/empty_string": "passed",
      "pkg/trim_test.go > TestTable/fails/deep": "failed",
      "broken/b_test.go (load)": "failed to load",
    });
    expect(goModulePath("// x\nmodule example.com/trim // c\n\ngo 1.19\n")).toBe(
      "example.com/trim",
    );
  });

  it("the committed vitest and node samples read as the live runs do", () => {
    expect(
      table(
        ok(
          readJunit(fixture("vitest-junit.xml"), "vitest", ["tests/a.test.ts", "tests/b.test.ts"]),
        ),
      )["tests/b.test.ts (load)"],
    ).toBe("failed to load");
    expect(
      table(
        ok(readJunit(fixture("node-junit.xml"), "node", ["ntest/a.test.mjs", "ntest/b.test.mjs"])),
      ),
    ).toMatchObject({
      "* > trim > nested > fails & <x>": "failed",
      "ntest/b.test.mjs (load)": "failed to load",
    });
  });
});

describe("what is not JUnit", () => {
  it.each([
    ["plain text", "PASSED 3 tests", /not well-formed XML|no <testsuites>/],
    ["another XML", "<html><body/></html>", /no <testsuites>/],
    ["truncated", '<testsuites><testsuite name="a"><testcase name="x">', /not well-formed/],
    ["a DOCTYPE", '<!DOCTYPE x [<!ENTITY a "b">]><testsuites/>', /DOCTYPE/],
  ])("%s is refused with why", (_what, xml, why) => {
    const r = readJunit(xml, "vitest", []);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(why);
  });

  it("a go output line that is broken JSON is refused with its line", () => {
    const r = readGoJson('{"Action":"pass","Package":"m","Test":"T"}\n{"Action":', "m", []);
    expect(r).toEqual({ ok: false, message: "line 2 is not a go test -json event" });
  });

  it("an empty <testsuites> reads as zero cases (the run, not the reader, calls that an error)", () => {
    expect(ok(readJunit("<testsuites/>", "vitest", [])).cases).toEqual([]);
  });
});
