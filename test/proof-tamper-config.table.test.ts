import { describe, expect, it } from "vitest";
import { tamperFindings } from "../src/proof/tamper.js";

// Test tampering reaches the runner's configuration: each attack row beside its
// honest twin, over the pure tamper reading (base text, head text → findings).

const found = (path: string, base: string | undefined, head: string) =>
  tamperFindings([
    { ...(base !== undefined ? { basePath: path, base } : {}), headPath: path, head },
  ])
    .filter((f) => f.code === "test-config-changed")
    .map((f) => `${f.file}:${f.line}`);

describe("test-config-changed", () => {
  it.each([
    [
      "a new pytest.ini with addopts -k",
      "pytest.ini",
      undefined,
      '[pytest]\naddopts = -k "not strict"\n',
      ["pytest.ini:2"],
    ],
    [
      "a -m selection in pyproject",
      "pyproject.toml",
      '[project]\nname = "x"\n',
      '[project]\nname = "x"\n[tool.pytest.ini_options]\naddopts = "-m smoke"\n',
      ["pyproject.toml:4"],
    ],
    [
      "a --deselect in tox.ini",
      "tox.ini",
      "[pytest]\n",
      "[pytest]\naddopts = --deselect tests/test_a.py::test_strict\n",
      ["tox.ini:2"],
    ],
    [
      "a conftest hook that rewrites failures",
      "tests/api/conftest.py",
      "import pytest\n",
      "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    yield\n",
      ["tests/api/conftest.py:4"],
    ],
    [
      "collection rewritten in a root conftest",
      "conftest.py",
      undefined,
      "def pytest_collection_modifyitems(items):\n    items.clear()\n",
      ["conftest.py:1"],
    ],
    [
      "passWithNoTests in vitest",
      "vitest.config.ts",
      "export default { test: {} };\n",
      "export default { test: {\n  passWithNoTests: true,\n} };\n",
      ["vitest.config.ts:2"],
    ],
    [
      "testPathIgnorePatterns in jest",
      "jest.config.js",
      "module.exports = {};\n",
      "module.exports = {\n  testPathIgnorePatterns: ['strict'],\n};\n",
      ["jest.config.js:2"],
    ],
    [
      "an exclude in vitest",
      "vitest.config.mts",
      "export default {};\n",
      "export default { test: { exclude: ['**/strict/**'] } };\n",
      ["vitest.config.mts:1"],
    ],
    [
      "bail and a reporter in mocha",
      ".mocharc.yml",
      "spec: test\n",
      "spec: test\nbail: true\nreporter: dot\n",
      [".mocharc.yml:2", ".mocharc.yml:3"],
    ],
    [
      "a setup file added to the vitest configuration",
      "vitest.config.ts",
      "export default {};\n",
      "export default { test: { setupFiles: ['./fake.ts'] } };\n",
      ["vitest.config.ts:1"],
    ],
  ])("%s blocks", (_c, path, base, head, expected) => {
    expect(found(path, base, head)).toEqual(expected);
  });

  it.each([
    [
      "a timeout changed in pytest.ini",
      "pytest.ini",
      "[pytest]\ntimeout = 10\n",
      "[pytest]\ntimeout = 20\n",
    ],
    [
      "an unrelated pyproject edit",
      "pyproject.toml",
      '[project]\nversion = "1"\n',
      '[project]\nversion = "2"\n',
    ],
    [
      "a conftest fixture added",
      "conftest.py",
      "import pytest\n",
      "import pytest\n\n@pytest.fixture\ndef db():\n    return 1\n",
    ],
    [
      "the same addopts moved down a line",
      "pytest.ini",
      "[pytest]\naddopts = -q\n",
      "[pytest]\n\naddopts = -q\n",
    ],
    ["-k in a file no runner reads", "docs/howto.md", "", "run `pytest -k smoke`\n"],
  ])("%s is no finding (twin)", (_c, path, base, head) => {
    expect(found(path, base, head)).toEqual([]);
  });

  it("is blocking, with a hint, like every tamper finding", () => {
    const [f] = tamperFindings([{ headPath: "pytest.ini", head: "[pytest]\naddopts = -k fast\n" }]);
    expect(f).toMatchObject({
      code: "test-config-changed",
      severity: "blocking",
      file: "pytest.ini",
      line: 2,
    });
  });
});
