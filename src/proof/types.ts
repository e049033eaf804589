import type { Location, MapEntry, RequirementModel } from "../model/contract.js";
import type { TamperFinding } from "./tamper-codes.js";

/**
 * The requirement proof's shared vocabulary: what the test runs report
 * (`proof/run/`), what the diff-only findings report (tamper, guardrails),
 * and what the surfaces render. Seed 004 (the evaluator, steps C to E) is
 * the source; SWE-bench's harness is the reference for grading.
 */

/** One mapped test's result in one run, after each runner's names are normalised. */
export type TestOutcome = "passed" | "failed" | "errored" | "skipped" | "absent";

/** How a mapped test's pair of results decides its requirement. */
export type ProofVerdict =
  /** New or changed requirement: failed/errored (or absent: file failed to load) at base, passed at head. */
  | "proven"
  /** Proven by the two runs, but no sampled mutant of the changed code makes its tests fail. */
  | "survives-mutants"
  /** Passed at base: "proves nothing: passes on the code before this change". */
  | "passes-at-base"
  /** Skipped at base: not proven. */
  | "skipped-at-base"
  /** Absent, skipped, failed or errored at head. */
  | "not-passing-at-head"
  /** Unchanged requirement (an invariant): passes at head. */
  | "invariant-holds"
  /** An invariant that does not pass at head. */
  | "invariant-broken"
  /** The run could not decide (no results, zero tests, runner exit without a failing test, timeout, no run reports the test). */
  | "execution-error";

export interface ProvedTest {
  /** The requirement id (`FR-001`). */
  requirement: string;
  /** The map entry's test, as written. */
  file: string;
  name: string;
  /** The `## Requirement Map` line. */
  mapLocation: Location;
  /** The requirement is new or changed since the base (or its spec is new): it must fail at base. */
  changed: boolean;
  /** Absent when the base run was not needed (an invariant) or could not run. */
  base?: TestOutcome;
  head: TestOutcome;
  verdict: ProofVerdict;
  /** One sentence for the check run row: why this verdict. */
  reason: string;
  /** Not blocking, shown with the row: an invariant that fails on the code before this change. */
  warning?: string;
  /** Mutation adequacy of its requirement's mapped tests, where mutants were run. */
  mutants?: MutantTally;
}

/** What the mutants of the changed code did to one requirement's mapped tests. */
export interface MutantTally {
  tried: number;
  killed: number;
  survived: number;
  /** Up to 5 surviving mutants: `file:line operator: before → after`. */
  survivors: string[];
}

/** One runner invocation (head or base). */
export interface ProofRun {
  side: "head" | "base";
  /** The command as run (the template with `{junit}`/`{files}` substituted). */
  command: string;
  /** `vitest`, `jest`, `pytest`, `go`, `node`, or `custom`. */
  preset: string;
  /** Why this preset: `input`, or what detection found (`package.json devDependencies.vitest`). */
  chosenBy: string;
  exitCode?: number;
  /** The runner's last lines of output (stdout and stderr together). */
  outputTail?: string;
  /** A run of one mapped test alone, made because its run's results and exit status disagreed. */
  solo?: { file: string; name: string };
  /** Set when the run decides nothing: every test of this run is an execution error. */
  error?: { message: string; hint: string };
  durationMs: number;
}

/** A guardrail bullet's effect (spec layout, `## Guardrails`). */
export interface GuardrailFinding {
  /** `guardrail-manifest-unreadable`: a manifest under "no new dependencies" that does not read or parse (fail closed). */
  code: "guardrail-protected-path" | "guardrail-new-dependency" | "guardrail-manifest-unreadable";
  /** The guardrail bullet. */
  guardrail: Location;
  /** The changed file (and line where there is one) that breaks it. */
  file: string;
  line?: number;
  message: string;
}

/** How the gate reads one `## Guardrails` bullet (docs/proof.md, "Guardrails"). */
export interface GuardrailRule {
  location: Location;
  text: string;
  /** Checked from the diff (`protected-paths`, `no-new-dependencies`), or a manual criterion. */
  rule: "protected-paths" | "no-new-dependencies" | "manual";
}

/** Everything the proof decided for one spec contract. */
export interface SpecProof {
  /** The spec contract's path. */
  contract: string;
  /** `requirement-proof: off`: mapped requirements stay awaiting proof; every surface says so. */
  enabled: boolean;
  runs: ProofRun[];
  tests: ProvedTest[];
  tamper: TamperFinding[];
  guardrails: GuardrailFinding[];
  /** Each guardrail bullet and how it was read (added with the wiring). */
  guardrailRules: GuardrailRule[];
  /**
   * Why the mapped requirements stay awaiting proof, when they do: the proof
   * is off, there is no base to run against, or no test run reported on them.
   */
  unproved?: string;
  /** The merge base the diff readings used; absent without one. */
  base?: string;
}

/**
 * What the test-running half needs for one spec: its model, which of its
 * requirements are new or changed since the base, the repository root and
 * the base commit. The sandbox and the git reader come in as dependencies.
 */
export interface ProveInput {
  contract: string;
  model: RequirementModel;
  /** Map entries that name a test (not `manual:`). */
  entries: MapEntry[];
  /** Requirement ids new or changed since the base (all of them when the spec is new). */
  changed: ReadonlySet<string>;
}

/** What the test-running half (`proof/run/`) returns for one spec. */
export interface TestProof {
  runs: ProofRun[];
  tests: ProvedTest[];
}
