/**
 * The trust-critical modules `npm run mutation` measures, each with the test
 * files that defend it: Stryker mutates `mutate` and runs only `tests` against
 * each mutant, so one module's run stays bounded (the whole suite per mutant
 * would take days on two cores). A survivor means none of these tests tells
 * the mutant from the real code. Keep a module's `tests` to the files a
 * developer changing it would run; add a file here when a new test defends
 * the module. Plain JavaScript: stryker.config.mjs and
 * vitest.mutation.config.mjs import it without a TypeScript loader.
 */

/**
 * A mutant that changes no behaviour, so no test can kill it: matched by its
 * file, mutator, the source text it replaces and its replacement (not by line,
 * which moves), and counted as ignored by `npm run mutation`, with why.
 * @typedef {{ file: string, mutator: string, original: string, replacement: string, why: string }} Equivalent
 */

/** @typedef {{ name: string, mutate: string[], tests: string[], why: string, equivalent?: Equivalent[] }} MutationModule */

/** @type {readonly MutationModule[]} */
export const MUTATION_MODULES = [
  {
    name: "verdict",
    mutate: ["src/verdict.ts"],
    tests: ["test/verdict-rules.test.ts", "test/verdict.test.ts", "test/scope-reason.test.ts"],
    why: "pass, fail, neutral: what the check run concludes",
    equivalent: [
      {
        file: "src/verdict.ts",
        mutator: "ConditionalExpression",
        original: 'contract.header.kind === "oracle-contract"',
        replacement: "true",
        why: "only an oracle contract's header has a status, so no other kind can read as aborted",
      },
      {
        file: "src/verdict.ts",
        mutator: "ConditionalExpression",
        original: "c.criteria.length === 0",
        replacement: "true",
        why: "a refused contract's criteria all block (refusedOutcome), so with criteria it already fails through them",
      },
    ],
  },
  {
    name: "fork-policy",
    mutate: ["src/action/trust.ts"],
    tests: ["test/trust-policy.test.ts", "test/action-unit.test.ts"],
    why: "whether a fork's commands run beside the write token",
  },
  {
    name: "approvals",
    mutate: ["src/action/approval.ts"],
    tests: ["test/integrity-approval.test.ts"],
    why: "which review clears a blocking integrity finding",
  },
  {
    name: "tamper-tables",
    mutate: ["src/proof/tamper-tables.ts", "src/proof/tamper.ts"],
    tests: ["test/tamper-rows.test.ts", "test/proof-tamper.test.ts"],
    why: "skip/only markers, test-environment branches, fewer assertions",
  },
  {
    name: "git-hardening",
    mutate: ["src/git/run.ts"],
    tests: ["test/git-module.test.ts", "test/git-replace-attack.test.ts"],
    why: "git run without the repository's hooks, replace refs or config programs",
  },
  {
    name: "process-env",
    mutate: ["src/process/env.ts"],
    tests: ["test/process.test.ts", "test/env-reach.test.ts"],
    why: "the job's credentials never reach a check",
  },
  {
    name: "committed",
    mutate: ["src/scope/committed.ts"],
    tests: ["test/worktree-modified-companions.test.ts", "test/worktree-modified.test.ts"],
    why: "run what was compared: files rewritten after checkout block",
  },
  {
    name: "discovery-audit",
    mutate: ["src/scope/discover-audit.ts"],
    tests: ["test/discover-lookalikes.test.ts", "test/discover-audit.test.ts"],
    why: "contracts out of the globs are never a silent green",
  },
  {
    name: "integrity",
    mutate: ["src/integrity/*.ts"],
    tests: [
      "test/integrity-compare.table.test.ts",
      "test/integrity-units.test.ts",
      "test/gates-diff.test.ts",
      "test/spec-diff.test.ts",
    ],
    why: "a weakened contract is found, whatever form the change took",
  },
  {
    name: "proof-grading",
    mutate: ["src/proof/run/grade.ts", "src/proof/findings.ts"],
    tests: ["test/proof-grade.test.ts", "test/proof-index.test.ts"],
    why: "a test proves a requirement only if it fails at base and passes at head",
  },
  {
    name: "shard-merge",
    mutate: ["src/shard/merge.ts", "src/shard/proof.ts"],
    tests: ["test/shard-merge.test.ts", "test/shard-proof.test.ts"],
    why: "a missing or forged shard never merges into a green",
  },
  {
    name: "sandbox",
    mutate: ["src/sandbox/view.ts", "src/sandbox/git-config.ts", "src/sandbox/host-mounts.ts"],
    tests: ["test/sandbox-units.test.ts", "test/sandbox-view.test.ts"],
    why: "what a check can read and write; slow (each mutant runs the sandboxed gate)",
  },
];

/** The module named `name`, or an error listing the names. */
export function mutationModule(name) {
  const found = MUTATION_MODULES.find((m) => m.name === name);
  if (found) return found;
  throw new Error(
    `no mutation module '${name}'; one of: ${MUTATION_MODULES.map((m) => m.name).join(", ")}`,
  );
}

/** Where a module's incremental report lives (committed: the next run re-tests only what changed). */
export const reportPath = (name) => `reports/mutation/${name}.json`;
