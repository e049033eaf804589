// @ts-check
/**
 * Stryker over one trust-critical module at a time (scripts/mutation-modules.mjs),
 * chosen by MUTATION_MODULE; `npm run mutation` runs each in turn. Incremental:
 * the module's committed report (reports/mutation/<name>.json) says which mutants
 * were killed by which tests, so a run after a change re-tests only the mutants
 * in changed code or covered by changed tests. See CONTRIBUTING.md, "Mutation testing".
 */
import { mutationModule, reportPath } from "./scripts/mutation-modules.mjs";

const mod = mutationModule(process.env.MUTATION_MODULE ?? "");

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // The module's own test files only (vitest.mutation.config.mjs reads the same table).
  vitest: { configFile: "vitest.mutation.config.mjs", related: false },
  mutate: mod.mutate,
  // perTest: each mutant runs only the tests that reach its code.
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: reportPath(mod.name),
  // Two cores shared with the rest of CI: one mutant at a time.
  concurrency: 1,
  // The tests spawn git, the CLI and the sandbox: slow but not hung.
  timeoutMS: 60_000,
  timeoutFactor: 3,
  // A score under 90 fails the run (issue 37's "score to hold").
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ["clear-text", "progress"],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  ignorePatterns: ["dist", "bench", "reports", ".bench-tmp", "coverage"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
