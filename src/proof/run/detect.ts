import { PRESET_TEMPLATES, type TestCommand, type TestPreset } from "./presets.js";

/** Reads a repository file's text at head; `undefined` when there is none. */
export type ReadText = (path: string) => string | undefined;

const JS = /\.(?:[cm]?[jt]sx?)$/;
const fits: Record<TestPreset, (file: string) => boolean> = {
  vitest: (f) => JS.test(f),
  jest: (f) => JS.test(f),
  node: (f) => JS.test(f),
  pytest: (f) => f.endsWith(".py"),
  go: (f) => f.endsWith(".go"),
};

/**
 * The test command when `test-command` is unset, from what the repository
 * declares (docs/proof.md, "Choosing the runner"), in this order: package.json
 * test dependencies (vitest; jest with jest-junit), a `test` script that runs
 * `node --test`, pytest configuration (`pytest.ini`, `pyproject.toml`'s
 * `[tool.pytest…]` or a pytest dependency, `setup.cfg`'s `[tool:pytest]`,
 * `conftest.py`, `tox.ini`'s `[pytest]`), `go.mod`. The first that fits every
 * mapped file wins. Nothing found, or nothing that fits: no command, and why.
 */
export function detectTestCommand(
  read: ReadText,
  files: readonly string[],
): { ok: true; command: TestCommand } | { ok: false; message: string; hint: string } {
  const found: { preset: TestPreset; why: string }[] = [];
  const notes: string[] = [];
  const pkgText = read("package.json");
  if (pkgText !== undefined) {
    let pkg: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(pkgText);
      if (parsed !== null && typeof parsed === "object") pkg = parsed as Record<string, unknown>;
    } catch {
      notes.push("package.json does not parse");
    }
    const dep = (name: string) => {
      for (const section of ["devDependencies", "dependencies"]) {
        const m = pkg?.[section];
        if (m !== null && typeof m === "object" && name in (m as object))
          return `package.json ${section}.${name}`;
      }
      return undefined;
    };
    const vitest = dep("vitest");
    if (vitest) found.push({ preset: "vitest", why: vitest });
    const jest = dep("jest");
    if (jest) {
      if (dep("jest-junit")) found.push({ preset: "jest", why: `${jest} with jest-junit` });
      else notes.push(`${jest} without jest-junit (the jest preset reads its results)`);
    }
    const scripts = pkg?.scripts;
    const test =
      scripts !== null && typeof scripts === "object"
        ? (scripts as Record<string, unknown>).test
        : undefined;
    if (typeof test === "string" && /\bnode\s+(?:[^|;&]*\s)?--test\b/.test(test)) {
      found.push({ preset: "node", why: "package.json scripts.test runs node --test" });
    }
  }
  const pytest = pytestEvidence(read);
  if (pytest) found.push({ preset: "pytest", why: pytest });
  if (read("go.mod") !== undefined) found.push({ preset: "go", why: "go.mod" });

  const fit = found.find((c) => files.every(fits[c.preset]));
  if (fit) {
    return {
      ok: true,
      command: { preset: fit.preset, template: PRESET_TEMPLATES[fit.preset], chosenBy: fit.why },
    };
  }
  const seen = [...found.map((c) => `${c.preset} (${c.why})`), ...notes];
  return {
    ok: false,
    message:
      found.length === 0
        ? `no test runner detected for the mapped tests${notes.length ? ` (${notes.join("; ")})` : ""}`
        : `no detected test runner runs every mapped test (${files.join(", ")}); found ${seen.join(", ")}`,
    hint: "Set the test-command input (CLI --test-command) to a preset (vitest, jest, pytest, go, node) or a command template that writes JUnit XML to {junit} and runs {files}.",
  };
}

function pytestEvidence(read: ReadText): string | undefined {
  if (read("pytest.ini") !== undefined) return "pytest.ini";
  const pyproject = read("pyproject.toml");
  if (pyproject !== undefined) {
    if (/^\s*\[tool\.pytest/m.test(pyproject)) return "pyproject.toml [tool.pytest.ini_options]";
    if (/["'\s]pytest\b/.test(pyproject)) return "pyproject.toml names pytest";
  }
  if (/^\s*\[tool:pytest\]/m.test(read("setup.cfg") ?? "")) return "setup.cfg [tool:pytest]";
  if (/^\s*\[pytest\]/m.test(read("tox.ini") ?? "")) return "tox.ini [pytest]";
  if (read("conftest.py") !== undefined) return "conftest.py";
  return undefined;
}
