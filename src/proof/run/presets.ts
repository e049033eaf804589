import { posix } from "node:path";
import type { JunitDialect } from "./junit.js";

/** The runners the gate knows by name (`test-command: vitest`). */
export const TEST_PRESETS = ["vitest", "jest", "pytest", "go", "node"] as const;
export type TestPreset = (typeof TEST_PRESETS)[number];

/** The test command a proof runs: a preset or the repository's own template. */
export interface TestCommand {
  preset: TestPreset | "custom";
  /** `sh -c` text with `{junit}`, `{files}` (and, for Go, `{packages}`) still in it. */
  template: string;
  /** Why this command: `test-command input`, or what detection found. */
  chosenBy: string;
}

/**
 * Each preset's command. Every one writes its results to `{junit}` and runs
 * only `{files}`; each setting below is there because the reading needs it:
 * - vitest: its junit reporter beside the default one (the log stays readable);
 * - jest: jest-junit with the file attribute, suite errors as cases, and the
 *   describe blocks joined by ` > ` (environment settings beat the
 *   repository's own jest-junit options);
 * - pytest: a module that fails to import must not stop the others
 *   (`--continue-on-collection-errors`: the base run is exactly that case),
 *   and no cache or bytecode left in the tree;
 * - go: `go test -json` (read natively) over the mapped files' packages;
 * - node: the junit reporter, one mapped file per run (it names no file).
 */
export const PRESET_TEMPLATES: Readonly<Record<TestPreset, string>> = {
  vitest:
    "npx --no vitest run --reporter=default --reporter=junit --outputFile.junit={junit} {files}",
  jest:
    "JEST_JUNIT_OUTPUT_FILE={junit} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true JEST_JUNIT_REPORT_TEST_SUITE_ERRORS=true " +
    "JEST_JUNIT_CLASSNAME='{classname}' JEST_JUNIT_TITLE='{title}' JEST_JUNIT_ANCESTOR_SEPARATOR=' > ' " +
    "npx --no jest --ci --runTestsByPath {files} --reporters=default --reporters=jest-junit",
  pytest:
    "PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -p no:cacheprovider --continue-on-collection-errors " +
    "-o junit_family=xunit2 --junitxml={junit} {files}",
  go: "go test -json {packages} > {junit}",
  node: "node --test --test-reporter=junit --test-reporter-destination={junit} {files}",
};

/** How a preset's results are read. */
export function readerOf(
  preset: TestCommand["preset"],
): { format: "junit"; dialect: JunitDialect } | { format: "go-json" } {
  return preset === "go" ? { format: "go-json" } : { format: "junit", dialect: preset };
}

/** The command `test-command` names: a preset, or a template that must write `{junit}`. */
export function commandFromInput(
  value: string,
): { ok: true; command: TestCommand } | { ok: false; message: string; hint: string } {
  const v = value.trim();
  if ((TEST_PRESETS as readonly string[]).includes(v)) {
    const preset = v as TestPreset;
    return {
      ok: true,
      command: { preset, template: PRESET_TEMPLATES[preset], chosenBy: "the test-command input" },
    };
  }
  if (!v.includes("{junit}")) {
    return {
      ok: false,
      message: `test-command '${v}' is neither a preset (${TEST_PRESETS.join(", ")}) nor a template that writes {junit}`,
      hint: "Name a preset, or write a command that saves JUnit XML to {junit} and runs {files}, e.g. `npx mocha --reporter mocha-junit-reporter --reporter-options mochaFile={junit} {files}`.",
    };
  }
  return {
    ok: true,
    command: { preset: "custom", template: v, chosenBy: "the test-command input" },
  };
}

/** POSIX shell single quotes: the value is one word, whatever it holds. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The template with `{junit}`, `{files}` and `{packages}` replaced by
 * shell-quoted words. A path starting with `-` gets `./` so no runner takes
 * it for an option.
 */
export function substitute(template: string, junit: string, files: readonly string[]): string {
  const word = (p: string) => shellQuote(p.startsWith("-") ? `./${p}` : p);
  const packages = [...new Set(files.map((f) => posix.dirname(f)))].map((d) =>
    shellQuote(d === "." ? "." : `./${d}`),
  );
  return template.replace(/\{(junit|files|packages)\}/g, (_, key: string) =>
    key === "junit"
      ? shellQuote(junit)
      : key === "files"
        ? files.map(word).join(" ")
        : packages.join(" "),
  );
}

/** Which runs a side needs: one for all files, or one per file for Node (its results name no file). */
export function batches(preset: TestCommand["preset"], files: readonly string[]): string[][] {
  if (preset === "node") return files.map((f) => [f]);
  return files.length === 0 ? [] : [[...files]];
}
