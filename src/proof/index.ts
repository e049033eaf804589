import { parseContract } from "../formats/index.js";
import type { ChangedFile } from "../github/types.js";
import type { Finding } from "../integrity/types.js";
import {
  type Contract,
  type Criterion,
  isInvalid,
  type MapEntry,
  type RequirementModel,
  type SpecHeader,
} from "../model/contract.js";
import { type FileSide, fileChanges } from "../sides/diff-files.js";
import { changedRequirements } from "./changed-requirements.js";
import { proofFindings } from "./findings.js";
import { guardrailCriteria, guardrailFindings, guardrailRules } from "./guardrails.js";
import {
  DEFAULT_TEST_PROVER,
  type ProofOptions,
  type ProverContext,
  type TestProver,
} from "./prover.js";
import { pythonTreeReader } from "./python/tamper-reader.js";
import { type TamperFinding, tamperFindings } from "./tamper.js";
import { TREE_READERS } from "./tamper-tree.js";
import { DEFAULT_TEST_FILE_GLOBS } from "./test-files.js";
import type { ProveInput, SpecProof } from "./types.js";

export type { FileSide } from "../sides/diff-files.js";
export { diskSide, gitSide } from "../sides/diff-files.js";
export type { ProofOptions, ProverContext, TestProver } from "./prover.js";
export { DEFAULT_PROOF_OPTIONS, DEFAULT_TEST_PROVER } from "./prover.js";

/** The PR's diff the proof reads: the merge base, the changed files and both sides' text. */
export interface ProofDiff {
  base: string;
  /** Relative to the root the contracts are. */
  changed: readonly ChangedFile[];
  readBase: FileSide;
  readHead: FileSide;
}

export interface ProofArgs {
  /** The contracts in scope, loaded; the spec contracts among them are proved. */
  contracts: readonly Contract[];
  /** Absent when there is no base (no PR, `run` without `--base`): nothing is read from a diff. */
  diff?: ProofDiff;
  options: ProofOptions;
  /** The test-running half; the default runs no test (mapped requirements stay awaiting proof). */
  prover?: TestProver;
  /** What the prover needs besides the diff (the sandbox's runner, the environment). */
  context: Omit<ProverContext, "base" | "changed" | "options">;
}

export interface ProofResult {
  /** One per spec contract in scope (a valid `spec` or `speckit-spec` with its model). */
  specs: SpecProof[];
  /** The PR's tamper findings (empty when the reading did not apply). */
  tamper: TamperFinding[];
  /** Tamper and guardrail findings as integrity findings: they block unless approved. */
  findings: Finding[];
  /** The contracts as the engine should run them: guardrail criteria added, proofs settled. */
  contracts: Contract[];
}

const SPEC_LIMIT = 1024 * 1024;

/**
 * The requirement proof (docs/proof.md; the seed's evaluator, steps C to E)
 * for the contracts in scope: the tamper reading of the PR's test diff
 * (whenever a spec contract is in scope, or with `test-tamper: on`), each
 * spec's guardrails against the diff, and its mapped tests run by the
 * injected prover at head and against the base. The diff readings need no
 * test run. Throws `GitReadError` when the base cannot be read: fail closed.
 */
export async function proveRequirements(args: ProofArgs): Promise<ProofResult> {
  const { options, diff } = args;
  const prover = args.prover ?? DEFAULT_TEST_PROVER;
  const specs = args.contracts.filter(isProvable);
  const globs = options.testFiles.length > 0 ? options.testFiles : DEFAULT_TEST_FILE_GLOBS;
  // An invalid spec in scope counts too: it blocks on its own, and the test diff is still shown.
  const anySpec = args.contracts.some((c) => c.kind === "spec" || c.kind === "speckit-spec");
  const changes =
    diff && (anySpec || options.testTamper)
      ? await fileChanges(diff.changed, diff.readBase, diff.readHead)
      : [];
  // Python's tree reader parses the diff's Python files first (python3 is a process).
  const tamper =
    diff && (anySpec || options.testTamper)
      ? tamperFindings(changes, {
          testFiles: globs,
          treeReaders: {
            ...TREE_READERS,
            python: await pythonTreeReader(changes, args.context.env, args.context.signal),
          },
        })
      : [];

  const inputs: ProveInput[] = [];
  const proofs: SpecProof[] = [];
  const baseModels = diff ? await baseSpecs(specs, diff) : new Map<string, RequirementModel>();
  for (const c of specs) {
    const model = (c.header as SpecHeader).model!;
    const rules = guardrailRules(model);
    const entries = (model.map?.entries ?? []).filter(
      (e): e is MapEntry & { target: { kind: "test" } } => e.target.kind === "test",
    );
    proofs.push({
      contract: c.path,
      enabled: options.requirementProof,
      runs: [],
      tests: [],
      tamper,
      guardrails: diff ? guardrailFindings(model, changes) : [],
      guardrailRules: rules,
      ...(diff && { base: diff.base }),
    });
    if (entries.length > 0)
      inputs.push({
        contract: c.path,
        model,
        entries,
        changed: changedRequirements(baseModels.get(c.path), model),
      });
  }

  const proved =
    options.requirementProof && diff && inputs.length > 0
      ? await prover.prove(inputs, {
          ...args.context,
          base: diff.base,
          changed: diff.changed,
          options,
        })
      : new Map();

  const contracts = args.contracts.map((c) => {
    const proof = proofs.find((p) => p.contract === c.path);
    if (!proof) return c;
    const input = inputs.find((i) => i.contract === c.path);
    const result = input ? proved.get(c.path) : undefined;
    const unproved = input ? whyUnproved(options, diff, result !== undefined) : undefined;
    if (unproved !== undefined) proof.unproved = unproved;
    if (result) {
      proof.runs = result.runs;
      proof.tests = result.tests;
    }
    const criteria = result && input ? prover.settle(c.criteria, input, result) : [...c.criteria];
    const model = (c.header as SpecHeader).model!;
    return {
      ...c,
      criteria: [
        ...criteria,
        ...(options.requirementMap === "required" ? mapRequired(c.path, model, options) : []),
        ...guardrailCriteria(proof.guardrailRules),
      ],
    };
  });

  const kindOf = (path: string) =>
    specs.find((c) => c.path === path)?.kind === "speckit-spec" ? "speckit-spec" : "spec";
  return { specs: proofs, tamper, findings: proofFindings(tamper, proofs, kindOf), contracts };
}

/**
 * With `requirement-map: required`, a spec with requirements and no
 * `## Requirement Map` blocks (the spec kinds warn, `no-requirement-map`):
 * nothing would say which test proves each requirement. Optional (the
 * default), its requirements show as unmapped and nothing blocks: the map is
 * contract-gate's own section, which no spec-kit template has.
 */
function mapRequired(path: string, model: RequirementModel, options: ProofOptions): Criterion[] {
  const live = model.requirements.filter((r) => r.tag !== "REMOVED");
  if (model.map !== undefined || live.length === 0) return [];
  return [
    {
      id: "MAP",
      title: "every requirement is mapped to the test that proves it",
      location: { path, line: 1, column: 1 },
      checks: [],
      settled: {
        status: "unmet",
        blocking: true,
        reason: `no ## Requirement Map while ${options.surface === "cli" ? "--requirement-map required is given" : "requirement-map is required"}: add one line per requirement (\`- FR-001 → tests/x.test.ts > <test name>\`), or ${options.surface === "cli" ? "leave out --requirement-map required" : "set requirement-map: optional (the default)"}`,
      },
    },
  ];
}

/** A spec contract the proof can read: valid, with its requirement model. */
function isProvable(c: Contract): boolean {
  return (
    (c.kind === "spec" || c.kind === "speckit-spec") &&
    !isInvalid(c) &&
    (c.header as SpecHeader).model !== undefined
  );
}

function whyUnproved(
  options: ProofOptions,
  diff: ProofDiff | undefined,
  ran: boolean,
): string | undefined {
  if (!options.requirementProof)
    return options.surface === "cli"
      ? "--requirement-proof off: mapped requirements stay awaiting proof"
      : "requirement-proof is off: mapped requirements stay awaiting proof";
  if (!diff)
    return "no base to prove against (a pull request, or `run --base <rev>`): mapped requirements stay awaiting proof";
  if (!ran) return "no test run reported on this spec's mapped tests: they stay awaiting proof";
  return undefined;
}

/** Each spec's model at the merge base (absent: the spec is new, every requirement is changed). */
async function baseSpecs(
  specs: readonly Contract[],
  diff: ProofDiff,
): Promise<Map<string, RequirementModel>> {
  const renamed = new Map(
    diff.changed
      .filter((f) => f.status === "renamed" && f.previousPath !== undefined)
      .map((f) => [f.path, f.previousPath!]),
  );
  const added = new Set(
    diff.changed.filter((f) => f.status === "added" || f.status === "copied").map((f) => f.path),
  );
  const wanted = specs.filter((c) => !added.has(c.path));
  const paths = wanted.map((c) => renamed.get(c.path) ?? c.path);
  const texts = await diff.readBase(paths);
  const out = new Map<string, RequirementModel>();
  wanted.forEach((c, k) => {
    const text = texts.get(paths[k]!);
    if (text === undefined || text.length > SPEC_LIMIT) return;
    const base = parseContract(c.kind, paths[k]!, new TextEncoder().encode(text));
    const model = (base.header as SpecHeader).model;
    if (model && base.kind === c.kind) out.set(c.path, model);
  });
  return out;
}
