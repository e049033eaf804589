/**
 * A behaviour test per form of every row of the tamper tables, generated from
 * the tables themselves: each row's backticked forms (the text docs/proof.md
 * shows) must each have an example here, so a new row or a new form without
 * one fails. Each example is added to (markers, environment checks) or
 * removed from (assertions) a real file of its language and read through
 * `tamperFindings`; the honest twin adds or removes a neutral line in the
 * same place and finds nothing, so the finding is the form's doing.
 */
import { describe, expect, it } from "vitest";
import type { SourceLanguage } from "../src/proof/source-text.js";
import { type TamperFinding, tamperFindings } from "../src/proof/tamper.js";
import {
  ASSERTION_ROWS,
  ENVIRONMENT_ROWS,
  MARKER_ROWS,
  type PatternRow,
} from "../src/proof/tamper-tables.js";

type Lang = Exclude<SourceLanguage, "other">;
/** A form's example: the lines it takes, in a file of `lang` (the row's first language when unset). */
type Example = string | { lang: Lang; code: string };

/** A test file and a source file per language, each with one test or function and one assertion of its own. */
const FILES: Record<Lang, { test: string; source: string; base: string; neutral: string }> = {
  js: {
    test: "test/login.test.ts",
    source: "src/login.ts",
    base: 'import { expect, it } from "vitest";\n\nit("logs in", () => {\n  expect(login()).toBe(true);\n});\n',
    neutral: "const unrelated = 1;\n",
  },
  python: {
    test: "tests/test_login.py",
    source: "app/login.py",
    base: "import os\nimport sys\nimport pytest\nimport unittest\n\ndef test_logs_in():\n    assert login()\n",
    neutral: "UNRELATED = 1\n",
  },
  go: {
    test: "login/login_test.go",
    source: "login/login.go",
    base: 'package login\n\nimport "testing"\n\nfunc TestLogsIn(t *testing.T) {\n\tif !Login() {\n\t\tt.Error("no")\n\t}\n}\n',
    neutral: "var unrelated = 1\n",
  },
  rust: {
    test: "tests/login.rs",
    source: "src/login.rs",
    base: "#[test]\nfn logs_in() {\n    assert!(login());\n}\n",
    neutral: "const UNRELATED: u8 = 1;\n",
  },
  jvm: {
    test: "test/LoginTest.java",
    source: "src/Login.java",
    base: "class LoginTest {\n  @Test\n  void logsIn() {\n    assertTrue(login());\n  }\n}\n",
    neutral: "// unrelated\n",
  },
};

/**
 * Backticked text in a row's `forms` that describes the pattern instead of
 * being a form one writes (each with why).
 */
const DESCRIPTIONS: Record<string, Record<string, string>> = {
  "node-options": { false: "the one value that does not skip" },
  "env-is-test": {
    "…ENV": "the name shapes the examples above cover",
    "…env": "the name shapes the examples above cover",
    MODE: "covered by import.meta.env.MODE",
    "…_event": "covered by npm_lifecycle_event",
    test: "the compared value, in every example",
    testing: "the compared value, in the os.getenv example",
  },
  "go-testing": { ".test": "the suffix the os.Args[0] example compares with" },
  raises: {
    assertRaises: "counted by the assert row (the form says: above)",
    "assert.throws(": "JavaScript's, counted by the assert row",
  },
};

const js = (s: string): Example => ({ lang: "js", code: s });
const py = (s: string): Example => ({ lang: "python", code: s });
const java = (s: string): Example => ({ lang: "jvm", code: s });

/** Markers: added to the test file, each is `test-marker-added` naming its row. */
const MARKERS: Record<string, Record<string, Example>> = {
  "js-skip": {
    "it.skip": 'it.skip("logs out", () => {});\n',
    "describe.skip": 'describe.skip("logout", () => {});\n',
    "test.skipIf(…)": 'test.skipIf(true)("logs out", () => {});\n',
    "it.runIf(…)": 'it.runIf(false)("logs out", () => {});\n',
  },
  "js-only": {
    "it.only": 'it.only("logs out", () => {});\n',
    "describe.only": 'describe.only("logout", () => {});\n',
    "test.only(": 'test.only("logs out", () => {});\n',
  },
  "js-todo": {
    "it.todo": 'it.todo("logs out");\n',
    "test.todo": 'test.todo("logs out");\n',
  },
  "js-x-f": {
    xit: 'xit("logs out", () => {});\n',
    xdescribe: 'xdescribe("logout", () => {});\n',
    xtest: 'xtest("logs out", () => {});\n',
    fit: 'fit("logs out", () => {});\n',
    fdescribe: 'fdescribe("logout", () => {});\n',
  },
  "node-options": {
    "{ skip: true }": 'test("logs out", { skip: true }, () => {});\n',
    "{ only: true }": 'test("logs out", { only: true }, () => {});\n',
    "{ todo: true }": 'test("logs out", { todo: "later" }, () => {});\n',
  },
  "context-skip": {
    "t.skip()": 'test("logs out", (t) => {\n  t.skip();\n});\n',
    "t.todo()": 'test("logs out", (t) => {\n  t.todo();\n});\n',
    "ctx.skip()": 'it("logs out", (ctx) => {\n  ctx.skip();\n});\n',
  },
  "pytest-mark": {
    "@pytest.mark.skip": "@pytest.mark.skip\ndef test_logs_out():\n    pass\n",
    "@pytest.mark.skipif":
      "@pytest.mark.skipif(True, reason='x')\ndef test_logs_out():\n    pass\n",
    "@pytest.mark.xfail": "@pytest.mark.xfail\ndef test_logs_out():\n    pass\n",
    "pytestmark = …": "pytestmark = pytest.mark.skip\n",
    "marks=…":
      "@pytest.mark.parametrize('n', [pytest.param(1, marks=pytest.mark.xfail)])\ndef test_logs_out(n):\n    pass\n",
    "@mark.skip": "from pytest import mark\n\n@mark.skip\ndef test_logs_out():\n    pass\n",
  },
  "pytest-call": {
    "pytest.skip(": "def test_logs_out():\n    pytest.skip('later')\n",
    "pytest.xfail(": "def test_logs_out():\n    pytest.xfail('later')\n",
    "pytest.importorskip(": "ldap = pytest.importorskip('ldap')\n",
  },
  "unittest-skip": {
    "@unittest.skip": "@unittest.skip('later')\ndef test_logs_out():\n    pass\n",
    "@unittest.skipIf": "@unittest.skipIf(True, 'later')\ndef test_logs_out():\n    pass\n",
    "@unittest.skipUnless":
      "@unittest.skipUnless(False, 'later')\ndef test_logs_out():\n    pass\n",
    "@unittest.expectedFailure": "@unittest.expectedFailure\ndef test_logs_out():\n    pass\n",
    "self.skipTest(": "def test_logs_out(self):\n    self.skipTest('later')\n",
    "raise SkipTest": "def test_logs_out():\n    raise SkipTest('later')\n",
  },
  "go-skip": {
    "t.Skip(": 'func TestLogsOut(t *testing.T) {\n\tt.Skip("later")\n}\n',
    "t.Skipf(": 'func TestLogsOut(t *testing.T) {\n\tt.Skipf("later %d", 1)\n}\n',
    "t.SkipNow(": "func TestLogsOut(t *testing.T) {\n\tt.SkipNow()\n}\n",
  },
  "rust-ignore": {
    "#[ignore]": "#[test]\n#[ignore]\nfn logs_out() {}\n",
    '#[ignore = "…"]': '#[test]\n#[ignore = "later"]\nfn logs_out() {}\n',
  },
  "junit-disabled": {
    "@Disabled": "class LogoutTest {\n  @Disabled\n  @Test\n  void logsOut() {}\n}\n",
    "@DisabledIf…":
      'class LogoutTest {\n  @DisabledIfEnvironmentVariable(named = "CI", matches = "true")\n  @Test\n  void logsOut() {}\n}\n',
    "@Ignore": "class LogoutTest {\n  @Ignore\n  @Test\n  void logsOut() {}\n}\n",
    "assumeTrue(":
      "class LogoutTest {\n  @Test\n  void logsOut() {\n    assumeTrue(false);\n  }\n}\n",
    "assumeFalse(":
      "class LogoutTest {\n  @Test\n  void logsOut() {\n    assumeFalse(true);\n  }\n}\n",
    "assumeThat(":
      "class LogoutTest {\n  @Test\n  void logsOut() {\n    assumeThat(1, is(2));\n  }\n}\n",
  },
};

/** Environment checks: added to non-test source, each is `test-environment-branch` naming its row. */
const ENVIRONMENT: Record<string, Record<string, Example>> = {
  "runner-variable": {
    VITEST: "if (process.env.VITEST) skipAuth = true;\n",
    "VITEST_*": "if (process.env.VITEST_POOL_ID) skipAuth = true;\n",
    JEST_WORKER_ID: 'if (process.env["JEST_WORKER_ID"]) skipAuth = true;\n',
    NODE_TEST_CONTEXT: "if (process.env.NODE_TEST_CONTEXT) skipAuth = true;\n",
    PYTEST_CURRENT_TEST: py("if os.environ.get('PYTEST_CURRENT_TEST'):\n    SKIP_AUTH = True\n"),
    PYTEST_XDIST_WORKER: py("if 'PYTEST_XDIST_WORKER' in os.environ:\n    SKIP_AUTH = True\n"),
    PYTEST_VERSION: py("if os.getenv('PYTEST_VERSION'):\n    SKIP_AUTH = True\n"),
    "import.meta.vitest": "if (import.meta.vitest) skipAuth = true;\n",
  },
  "env-is-test": {
    "NODE_ENV === 'test'": "if (process.env.NODE_ENV === 'test') skipAuth = true;\n",
    'import.meta.env.MODE == "test"': 'if (import.meta.env.MODE == "test") skipAuth = true;\n',
    'os.getenv("APP_ENV") == "testing"': py(
      'if os.getenv("APP_ENV") == "testing":\n    SKIP_AUTH = True\n',
    ),
    npm_lifecycle_event: 'if ("test" === process.env.npm_lifecycle_event) skipAuth = true;\n',
  },
  "runner-globals": {
    "typeof jest": 'if (typeof jest !== "undefined") skipAuth = true;\n',
    "typeof vi": 'if (typeof vi === "object") skipAuth = true;\n',
    "typeof describe": 'if (typeof describe === "function") skipAuth = true;\n',
    "globalThis.vi": "if (globalThis.vi) skipAuth = true;\n",
    "globalThis.jest": "if (globalThis.jest) skipAuth = true;\n",
    "__vitest_…__": "if (globalThis.__vitest_worker__) skipAuth = true;\n",
  },
  "python-modules": {
    '"pytest" in sys.modules': 'if "pytest" in sys.modules:\n    SKIP_AUTH = True\n',
    'sys.modules.get("pytest")': 'if sys.modules.get("pytest"):\n    SKIP_AUTH = True\n',
    unittest: "if 'unittest' in sys.modules:\n    SKIP_AUTH = True\n",
  },
  "go-testing": {
    "testing.Testing()": "func init() {\n\tif testing.Testing() {\n\t\tskipAuth = true\n\t}\n}\n",
    'flag.Lookup("test.v")':
      'func init() {\n\tif flag.Lookup("test.v") != nil {\n\t\tskipAuth = true\n\t}\n}\n',
    "os.Args[0]":
      'func init() {\n\tif strings.HasSuffix(os.Args[0], ".test") {\n\t\tskipAuth = true\n\t}\n}\n',
  },
  "rust-cfg-test": {
    "cfg!(test)": "fn skip_auth() -> bool {\n    cfg!(test)\n}\n",
  },
};

/** Assertions: removed from the test file, each is the warning `assertions-fewer`. */
const ASSERTIONS: Record<string, Record<string, Example>> = {
  expect: {
    "expect(": "expect(logout()).toBe(true);\n",
    "expect.": "expect.assertions(1);\n",
    ".should": "logout().should.equal(true);\n",
  },
  assert: {
    assert: py("assert logout()\n"),
    "assert.equal(": js("assert.equal(logout(), true);\n"),
    "assertEquals(": java(
      "class LogoutTest {\n  void logsOut() {\n    assertEquals(1, logout());\n  }\n}\n",
    ),
    "self.assertEqual(": py("def test_logs_out(self):\n    self.assertEqual(logout(), True)\n"),
    "assert_eq!": {
      lang: "rust",
      code: "#[test]\nfn logs_out() {\n    assert_eq!(logout(), true);\n}\n",
    },
    "assertThat(": java(
      "class LogoutTest {\n  void logsOut() {\n    assertThat(logout()).isTrue();\n  }\n}\n",
    ),
  },
  "go-fail": {
    "t.Error(": 'func TestLogsOut(t *testing.T) {\n\tt.Error("no")\n}\n',
    "t.Errorf(": 'func TestLogsOut(t *testing.T) {\n\tt.Errorf("no %d", 1)\n}\n',
    "t.Fatal(": 'func TestLogsOut(t *testing.T) {\n\tt.Fatal("no")\n}\n',
    "t.Fatalf(": 'func TestLogsOut(t *testing.T) {\n\tt.Fatalf("no %d", 1)\n}\n',
    "t.Fail(": "func TestLogsOut(t *testing.T) {\n\tt.Fail()\n}\n",
    "require.X(": "func TestLogsOut(t *testing.T) {\n\trequire.True(t, Logout())\n}\n",
  },
  raises: {
    "pytest.raises(":
      "def test_logs_out():\n    with pytest.raises(ValueError):\n        logout()\n",
  },
};

/** The backticked forms of a row, less those that only describe it. */
function formsOf(row: PatternRow): string[] {
  const described = DESCRIPTIONS[row.id] ?? {};
  return [...row.forms.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((f) => !(f in described));
}

function exampleOf(row: PatternRow, example: Example): { lang: Lang; code: string } {
  return typeof example === "string" ? { lang: row.languages[0] as Lang, code: example } : example;
}

const codes = (fs: readonly TamperFinding[]) => fs.map((f) => `${f.code} ${f.message}`);

/** `base` → `head` of one file: the test file, or the source file. */
function read(path: string, base: string, head: string): TamperFinding[] {
  return tamperFindings([{ basePath: path, base, headPath: path, head }]);
}

function tableTests(
  title: string,
  rows: readonly PatternRow[],
  examples: Record<string, Record<string, Example>>,
  run: (row: PatternRow, lang: Lang, code: string) => void,
) {
  describe(title, () => {
    it("every row has examples, and no example names a row that is gone", () => {
      expect(Object.keys(examples).sort()).toEqual(rows.map((r) => r.id).sort());
    });
    for (const row of rows) {
      it(`${row.id}: an example for every form (${formsOf(row).length}), each found`, () => {
        const mine = examples[row.id] ?? {};
        expect(Object.keys(mine).sort(), `${row.id}: forms without an example`).toEqual(
          formsOf(row).sort(),
        );
        for (const [form, example] of Object.entries(mine)) {
          const { lang, code } = exampleOf(row, example);
          expect(row.languages, `${row.id} ${form}: a language the row reads`).toContain(lang);
          run(row, lang, code);
        }
      });
    }
  });
}

tableTests(
  "marker rows: a new marker in a test file blocks",
  MARKER_ROWS,
  MARKERS,
  (row, lang, code) => {
    const f = FILES[lang];
    expect(codes(read(f.test, f.base, `${f.base}\n${f.neutral}`)), "honest twin").toEqual([]);
    const found = codes(read(f.test, f.base, `${f.base}\n${code}`));
    expect(
      found.filter((c) => c.startsWith(`test-marker-added new skip/only/todo marker (${row.id}:`)),
      code,
    ).toHaveLength(1);
  },
);

tableTests(
  "environment rows: source that newly recognizes a test runner blocks",
  ENVIRONMENT_ROWS,
  ENVIRONMENT,
  (row, lang, code) => {
    const f = FILES[lang];
    const base = f.neutral;
    expect(codes(read(f.source, base, `${base}${f.neutral}`)), "honest twin").toEqual([]);
    const found = codes(read(f.source, base, `${base}${code}`));
    expect(
      found.filter((c) =>
        c.startsWith(`test-environment-branch new test-environment check (${row.id}:`),
      ),
      code,
    ).toHaveLength(1);
  },
);

tableTests(
  "assertion rows: an assertion removed warns",
  ASSERTION_ROWS,
  ASSERTIONS,
  (_row, lang, code) => {
    const f = FILES[lang];
    const base = `${f.base}\n${code}`;
    expect(
      codes(read(f.test, base, `${f.base}\n${f.neutral}`)).map((c) => c.split(" ")[0]),
      code,
    ).toContain("assertions-fewer");
    // Honest twin: the assertion kept, a neutral line added.
    expect(codes(read(f.test, base, `${base}${f.neutral}`)), "honest twin").toEqual([]);
  },
);
