import type { SourceLanguage } from "./source-text.js";

/**
 * The patterns the tamper reading counts, one table each (docs/proof.md's
 * "Tampering" tables are generated from them). The seed's evaluator (004, step D)
 * fails "new skip, ignore, or only markers" and "any source branch that recognizes
 * a test environment"; a marker is new when the head has more occurrences of its
 * row than the base in that file, so moving a skip within a file changes nothing
 * and adding one anywhere is found.
 */
export interface PatternRow {
  id: string;
  /** The forms this row finds, as docs/proof.md shows them. */
  forms: string;
  languages: readonly SourceLanguage[];
  /** Global; matched against the view `tamperView` names. */
  pattern: RegExp;
}

const JS: readonly SourceLanguage[] = ["js"];
const PY: readonly SourceLanguage[] = ["python"];
// Languages with a reader; a README or a workflow naming `JEST_WORKER_ID` branches on nothing.
const ALL: readonly SourceLanguage[] = ["js", "python", "go", "rust", "jvm"];

const JS_CALLEE = "(?:it|test|describe|suite|context|bench)";

/**
 * Skip, only and todo markers in test files, matched with comments and string
 * contents blanked (`it("handles it.skip")` names no marker).
 */
export const MARKER_ROWS: readonly PatternRow[] = [
  {
    id: "js-skip",
    forms: "`it.skip`, `describe.skip`, `test.skipIf(…)`, `it.runIf(…)`",
    languages: JS,
    pattern: new RegExp(`(?<![\\w$.])${JS_CALLEE}(?:\\.\\w+)*\\.(?:skip|skipIf|runIf)\\b`, "g"),
  },
  {
    id: "js-only",
    forms: "`it.only`, `describe.only`, `test.only(`",
    languages: JS,
    pattern: new RegExp(`(?<![\\w$.])${JS_CALLEE}(?:\\.\\w+)*\\.only\\b`, "g"),
  },
  {
    id: "js-todo",
    forms: "`it.todo`, `test.todo`",
    languages: JS,
    pattern: new RegExp(`(?<![\\w$.])${JS_CALLEE}(?:\\.\\w+)*\\.todo\\b`, "g"),
  },
  {
    id: "js-x-f",
    forms: "`xit`, `xdescribe`, `xtest`, `fit`, `fdescribe`",
    languages: JS,
    pattern: /(?<![\w$.])(?:xit|xdescribe|xtest|xcontext|fit|fdescribe|ftest)\s*\(/g,
  },
  {
    id: "node-options",
    forms:
      "Node's `{ skip: true }`, `{ only: true }`, `{ todo: true }` (any value but a literal `false`: Node skips on any truthy one)",
    languages: JS,
    pattern:
      /(?<![\w$.])(?:skip|todo|only)\s*:\s*(?!false\b|undefined\b|null\b|0\b|["'`]["'`])(?=[^\s,}])/g,
  },
  {
    id: "context-skip",
    forms: "`t.skip()`, `t.todo()`, `ctx.skip()` (Node's test context, vitest's)",
    languages: JS,
    pattern: /(?<![\w$.])(?:t|ctx|context)\.(?:skip|todo)\s*\(/g,
  },
  {
    id: "pytest-mark",
    forms:
      "`@pytest.mark.skip`, `@pytest.mark.skipif`, `@pytest.mark.xfail`, also as `pytestmark = …`, `marks=…` and `@mark.skip`",
    languages: PY,
    pattern: /(?:\bpytest\.|@)mark\.(?:skip|skipif|xfail)\b/g,
  },
  {
    id: "pytest-call",
    forms: "`pytest.skip(`, `pytest.xfail(`, `pytest.importorskip(`",
    languages: PY,
    pattern: /\bpytest\.(?:skip|xfail|importorskip)\s*\(/g,
  },
  {
    id: "unittest-skip",
    forms:
      "`@unittest.skip`, `@unittest.skipIf`, `@unittest.skipUnless`, `@unittest.expectedFailure`, `self.skipTest(`, `raise SkipTest`",
    languages: PY,
    pattern:
      /@(?:unittest\.)?(?:skip|skipIf|skipUnless|expectedFailure)\b|\.skipTest\s*\(|\braise\s+(?:unittest\.)?SkipTest\b/g,
  },
  {
    id: "go-skip",
    forms: "`t.Skip(`, `t.Skipf(`, `t.SkipNow(`",
    languages: ["go"],
    pattern: /\.(?:Skip|Skipf|SkipNow)\s*\(/g,
  },
  {
    id: "rust-ignore",
    forms: '`#[ignore]`, `#[ignore = "…"]`',
    languages: ["rust"],
    pattern: /#\[\s*ignore\b/g,
  },
  {
    id: "junit-disabled",
    forms: "`@Disabled`, `@DisabledIf…`, `@Ignore`, `assumeTrue(`/`assumeFalse(`/`assumeThat(`",
    languages: ["jvm"],
    pattern: /@(?:Disabled\w*|Ignore)\b|\bassume(?:True|False|That)\s*\(/g,
  },
];

/**
 * Non-test source that recognizes a test environment, matched with comments
 * blanked but strings kept (`process.env["VITEST"]`, `"pytest" in sys.modules`).
 * A runner's own variables are named in any language (a Python script reading
 * `JEST_WORKER_ID` sniffs as well as JS does). `CI` is not here: branching on CI
 * is ordinary build logic, not a test-only path. Rust's `#[cfg(test)]` is not
 * here either: it is how Rust writes unit tests inside source files; the
 * expression form `cfg!(test)` is.
 */
export const ENVIRONMENT_ROWS: readonly PatternRow[] = [
  {
    id: "runner-variable",
    forms:
      "`VITEST`, `VITEST_*`, `JEST_WORKER_ID`, `NODE_TEST_CONTEXT`, `PYTEST_CURRENT_TEST`, `PYTEST_XDIST_WORKER`, `PYTEST_VERSION`, `import.meta.vitest`",
    languages: ALL,
    pattern:
      /(?<![\w$])(?:VITEST(?:_\w+)?|JEST_WORKER_ID|NODE_TEST_CONTEXT|PYTEST_CURRENT_TEST|PYTEST_XDIST_WORKER|PYTEST_VERSION)(?![\w$])|import\.meta\.vitest\b/g,
  },
  {
    id: "env-is-test",
    forms:
      '`NODE_ENV === \'test\'`, `import.meta.env.MODE == "test"`, `os.getenv("APP_ENV") == "testing"`, `npm_lifecycle_event`: any `…ENV`, `…env`, `MODE` or `…_event` name compared with `test`/`testing`, either order',
    languages: ALL,
    pattern:
      /(?:ENV|env|MODE|_event)\b[\])"'`]{0,3}\s*(?:===?|!==?)\s*["'`]test(?:ing)?["'`]|["'`]test(?:ing)?["'`]\s*(?:===?|!==?)\s*[\w$.[\]()"'`]{0,200}?(?:ENV|env|MODE|_event)\b/g,
  },
  {
    id: "runner-globals",
    forms:
      "`typeof jest`, `typeof vi`, `typeof describe` compared, `globalThis.vi`, `globalThis.jest`, `__vitest_…__`",
    languages: JS,
    pattern:
      /\btypeof\s+(?:jest|vi|describe|it|test|expect|beforeEach)\b|\bglobalThis\.(?:vi|jest)\b|__vitest_\w+__/g,
  },
  {
    id: "python-modules",
    forms: '`"pytest" in sys.modules`, `sys.modules.get("pytest")` (also `unittest`)',
    languages: PY,
    pattern:
      /["'](?:pytest|_pytest|unittest)["']\s+(?:not\s+)?in\s+sys\.modules|sys\.modules\.get\(\s*["'](?:pytest|_pytest|unittest)["']/g,
  },
  {
    id: "go-testing",
    forms: '`testing.Testing()`, `flag.Lookup("test.v")`, `os.Args[0]` ending in `.test`',
    languages: ["go"],
    pattern:
      /\btesting\.Testing\s*\(\s*\)|flag\.Lookup\(\s*"test\.\w+"|os\.Args\[0\][^\n]*"\.test"/g,
  },
  {
    id: "rust-cfg-test",
    forms: "`cfg!(test)`",
    languages: ["rust"],
    pattern: /\bcfg!\s*\(\s*test\s*\)/g,
  },
];

/**
 * Assertions in test files, counted with comments and strings blanked; fewer at
 * head than at base is a warning (a loosened assertion can keep its count, a
 * deleted one cannot).
 */
export const ASSERTION_ROWS: readonly PatternRow[] = [
  {
    id: "expect",
    forms: "`expect(`, `expect.`, `.should`",
    languages: ALL,
    pattern: /(?<![\w$.])expect\s*[(.]|\.should\b/g,
  },
  {
    id: "assert",
    forms:
      "`assert`, `assert.equal(`, `assertEquals(`, `self.assertEqual(`, `assert_eq!`, `assertThat(`",
    languages: ALL,
    pattern: /(?<![\w$])(?:self\.)?assert\w*\b/g,
  },
  {
    id: "go-fail",
    forms: "`t.Error(`, `t.Errorf(`, `t.Fatal(`, `t.Fatalf(`, `t.Fail(`, `require.X(`",
    languages: ["go"],
    pattern: /\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\brequire\.\w+\s*\(/g,
  },
  {
    id: "raises",
    forms: "`pytest.raises(`, `assertRaises` (above), `assert.throws(`",
    languages: PY,
    pattern: /\bpytest\.raises\s*\(/g,
  },
];

/** Occurrence offsets of `row` in `text` (the row's view). */
export function occurrences(row: PatternRow, text: string): number[] {
  const out: number[] = [];
  row.pattern.lastIndex = 0;
  for (const m of text.matchAll(row.pattern)) out.push(m.index);
  return out;
}
