import picomatch from "picomatch";

/**
 * The `test-files` defaults: which repository paths are tests. The fail-to-pass
 * proof keeps these at head while every other changed file goes back to the
 * base (the seed's evaluator, step C: "leaving test files alone"), and the
 * tamper reading only looks for removed tests and markers in them.
 */
export const DEFAULT_TEST_FILE_GLOBS: readonly string[] = [
  "**/*.test.*",
  "**/*.spec.*",
  "**/test_*.py",
  "**/*_test.py",
  "**/*_test.go",
  "**/__tests__/**",
  "tests/**",
  "test/**",
];

const matchers = new Map<string, (path: string) => boolean>();

function matcherFor(globs: readonly string[]): (path: string) => boolean {
  const key = globs.join("\0");
  let m = matchers.get(key);
  if (!m) {
    // `dot: true`: a test under `.github/` or in a dot-folder is still a test; leaving it out
    // would let a PR hide a test file from the tamper reading by its folder name.
    m = picomatch([...globs], { dot: true });
    matchers.set(key, m);
  }
  return m;
}

/** Whether a repo-relative path (forward slashes) is a test file under `globs`. */
export function isTestFile(
  path: string,
  globs: readonly string[] = DEFAULT_TEST_FILE_GLOBS,
): boolean {
  const p = path.replace(/\\/g, "/").replace(/^\.\//, "");
  return globs.length > 0 && matcherFor(globs)(p);
}
