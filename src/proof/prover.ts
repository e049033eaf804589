import type { Git } from "../git/index.js";
import type { ChangedFile } from "../github/types.js";
import type { Criterion } from "../model/contract.js";
import type { ProcessRunner } from "../process/run-process.js";
import type { CommandPolicy } from "../run/engine.js";
import type { ProveInput, TestProof } from "./types.js";

/** The proof's settings, from the action's inputs or the CLI's flags (docs/proof.md). */
export interface ProofOptions {
  /** `requirement-proof` is not `off`: off leaves mapped requirements awaiting proof. */
  requirementProof: boolean;
  /**
   * `requirement-proof: mutation|fail-to-pass` (`on`, the default, is `mutation`): with
   * mutation, a proven requirement's tests must also kill a mutant of the changed code.
   */
  proofMode?: "mutation" | "fail-to-pass";
  /** `mutants-per-requirement` (default 8). */
  mutantsPerRequirement?: number;
  /** `mutation-timeout-seconds`: the mutation step's whole budget (default 300). */
  mutationTimeoutSeconds?: number;
  /** How many mutants run at once: the run's `max-parallel` (default 1). */
  mutationLanes?: number;
  /**
   * `requirement-map: optional|required` (default optional): the map is the
   * gate's offer (spec-kit's templates have none), so a spec without one is
   * gated on everything else and its requirements show as unmapped; required,
   * a spec with requirements and no map blocks (criterion `MAP`).
   */
  requirementMap: "optional" | "required";
  /** Where the settings came from: every hint names the setting as that surface spells it. */
  surface: "action" | "cli";
  /** `test-tamper: on` reads every PR's test diff; off, only a PR with a spec contract in scope. */
  testTamper: boolean;
  /** `test-command`: a template (`{junit}`, `{files}`) or a preset name; undefined: detected. */
  testCommand?: string;
  /** `test-files`: which paths are tests (the documented defaults when empty). */
  testFiles: readonly string[];
  /** `test-timeout-seconds`: each runner invocation's limit (default 600). */
  testTimeoutSeconds: number;
}

export const DEFAULT_TEST_TIMEOUT_SECONDS = 600;

export const DEFAULT_PROOF_OPTIONS: ProofOptions = {
  requirementProof: true,
  requirementMap: "optional",
  surface: "action",
  testTamper: false,
  testFiles: [],
  testTimeoutSeconds: DEFAULT_TEST_TIMEOUT_SECONDS,
};

/** What the test-running half gets besides the specs: where, against what, and how to run. */
export interface ProverContext {
  /** The root contract paths (and map entries' files) are relative to. */
  root: string;
  git: Git;
  /** The merge base the base run restores changed non-test files from. */
  base: string;
  /** The PR's changed files, relative to `root`. */
  changed: readonly ChangedFile[];
  options: ProofOptions;
  /** The credential-free environment commands get. */
  env: NodeJS.ProcessEnv;
  /** The run's sandbox (plain processes when absent). */
  runProcess?: ProcessRunner;
  /**
   * What the trust policy lets the PR's commands do (the action's
   * `untrusted-commands` applied to the sandbox, as for every check): a test
   * run is the PR's code; `block`/`skip` make each proof an execution error.
   */
  commands?: CommandPolicy;
  signal?: AbortSignal;
}

/**
 * The test-running half of the requirement proof, injected so this wiring
 * does not depend on how tests are run: `prove` runs every spec's mapped
 * tests at head and against the base and returns each spec's TestProof by
 * contract path; `settle` decides the spec's `awaiting-proof` criteria from
 * it. A spec `prove` returns nothing for keeps its criteria awaiting proof.
 */
export interface TestProver {
  prove(inputs: ProveInput[], ctx: ProverContext): Promise<Map<string, TestProof>>;
  settle(criteria: readonly Criterion[], input: ProveInput, proof: TestProof): Criterion[];
}

/**
 * The prover that runs no test: every mapped requirement stays awaiting
 * proof (never green, not blocking) and every surface says no test run
 * reported on it. The merge job of a sharded run uses it (its legs ran the
 * checks and the mapped tests); the action and the CLI otherwise inject `proof/run/`'s.
 */
export const DEFAULT_TEST_PROVER: TestProver = {
  prove: async () => new Map(),
  settle: (criteria) => [...criteria],
};
