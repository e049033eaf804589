import { type TamperFinding, tamperFinding } from "./tamper-codes.js";

/** The test runners' configuration and plugin files, by name: what decides which tests run and how they count. */
const RUNNER_CONFIG =
  /(?:^|\/)(?:pytest\.ini|\.pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini|conftest\.py|(?:vitest|vite|jest|playwright)\.config\.[cm]?[jt]s|vitest\.workspace\.[cm]?[jt]s|\.mocharc\.(?:js|cjs|json|jsonc|ya?ml)|jest\.config\.json)$/;

/** What, in a runner's configuration, narrows the tests that run or changes how their result counts. */
export const CONFIG_ROWS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(?:^|[\s"'=[,])-k\b|--keyword\b/, what: "a `-k` selection" },
  { pattern: /(?:^|[\s"'=[,])-m\b/, what: "a `-m` marker selection" },
  { pattern: /--deselect\b|--ignore(?:-glob)?\b/, what: "a deselection" },
  { pattern: /^\s*addopts\s*=/, what: "`addopts`" },
  {
    pattern:
      /\b(?:testPathIgnorePatterns|modulePathIgnorePatterns|testMatch|testRegex|testIgnore)\b/,
    what: "the test file patterns",
  },
  { pattern: /\bexclude\b/, what: "an `exclude`" },
  { pattern: /\bpassWithNoTests\b/, what: "`passWithNoTests`" },
  { pattern: /\bbail\b/, what: "`bail`" },
  { pattern: /\breporters?\b/, what: "a reporter" },
  {
    pattern:
      /\bpytest_(?:runtest_makereport|collection_modifyitems|runtest_call|runtest_protocol|pyfunc_call|report_teststatus|runtest_logreport|sessionfinish|collect_file|ignore_collect)\b/,
    what: "a pytest hook that rewrites collection or results",
  },
  {
    pattern:
      /\b(?:vi|jest)\.mock\(\s*["'](?:vitest|@jest\/globals|expect|assert|node:assert|chai|node:test)["']|sys\.modules\[\s*["'](?:pytest|_pytest|unittest)/,
    what: "a replacement of the assertion or runner module",
  },
  { pattern: /\bsetupFiles(?:AfterEnv)?\b|\bglobalSetup\b|\brequire\s*[:=]/, what: "a setup file" },
];

/**
 * `test-config-changed`: lines a PR adds to a test runner's configuration or
 * plugin file (pytest.ini, `[tool.pytest]`, conftest.py, vitest/jest/mocha/
 * playwright configs) that narrow what runs or rewrite how it counts. Each
 * added line (one not in the base version, counted as a multiset) matching
 * a row is a blocking finding at file:line. Pure.
 */
export function configFindings(
  path: string,
  base: string | undefined,
  head: string,
): TamperFinding[] {
  if (!RUNNER_CONFIG.test(path)) return [];
  const seen = new Map<string, number>();
  for (const l of (base ?? "").split("\n")) seen.set(l.trim(), (seen.get(l.trim()) ?? 0) + 1);
  const out: TamperFinding[] = [];
  head.split("\n").forEach((line, i) => {
    const key = line.trim();
    const n = seen.get(key) ?? 0;
    if (n > 0) {
      seen.set(key, n - 1);
      return;
    }
    if (key === "" || (key.startsWith("#") && !path.endsWith(".py"))) return;
    const row = CONFIG_ROWS.find((r) => r.pattern.test(line));
    if (row === undefined) return;
    out.push(
      tamperFinding(
        "test-config-changed",
        path,
        i + 1,
        `${path}:${i + 1} adds ${row.what} to the test runner's configuration: \`${key.slice(0, 120)}\``,
      ),
    );
  });
  return out;
}
