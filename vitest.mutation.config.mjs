// @ts-check
/**
 * The suite's vitest configuration, narrowed to the test files of the module
 * Stryker is mutating (MUTATION_MODULE, scripts/mutation-modules.mjs). Not
 * mergeConfig: it would append to `include` instead of replacing it.
 */
import { mutationModule } from "./scripts/mutation-modules.mjs";
import base from "./vitest.config.ts";

const mod = mutationModule(process.env.MUTATION_MODULE ?? "");

export default {
  ...base,
  // One worker: Stryker runs one mutant at a time on a shared machine.
  test: { ...base.test, include: mod.tests, maxWorkers: 1 },
};
