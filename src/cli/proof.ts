import { type Git, GitReadError } from "../git/index.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { Contract } from "../model/contract.js";
import type { ProcessRunner } from "../process/run-process.js";
import { withProofFindings } from "../proof/findings.js";
import { diskSide, gitSide, type ProofResult, proveRequirements } from "../proof/index.js";
import { DEFAULT_TEST_PROVER, type ProofOptions, type TestProver } from "../proof/prover.js";
import { UsageError } from "../scope/discover.js";

/**
 * `run`'s requirement proof: against `--base` (the merge base the base
 * comparison found), the working tree as the head, as `--base` reads
 * contracts. Without `--base` there is no diff: no tamper or guardrail
 * reading, and mapped requirements stay awaiting proof, said so. The
 * proof's findings join the base comparison (no approval in the CLI).
 */
export async function cliProof(args: {
  /** The command's git, opened once at its root. */
  git: Git;
  integrity: IntegrityReport | undefined;
  contracts: readonly Contract[];
  options: ProofOptions;
  prover?: TestProver;
  env: NodeJS.ProcessEnv;
  runProcess?: ProcessRunner;
  signal?: AbortSignal;
}): Promise<{ proof: ProofResult; integrity: IntegrityReport | undefined }> {
  const { git } = args;
  const base = args.integrity?.applies ? args.integrity.base : undefined;
  try {
    const proof = await proveRequirements({
      contracts: args.contracts,
      ...(base !== undefined && {
        diff: {
          base,
          changed: await git.worktreeChanges(base),
          readBase: gitSide(git, base),
          readHead: diskSide(git.root),
        },
      }),
      options: args.options,
      prover: args.prover ?? DEFAULT_TEST_PROVER,
      context: {
        root: git.root,
        git,
        env: args.env,
        ...(args.runProcess && { runProcess: args.runProcess }),
        ...(args.signal && { signal: args.signal }),
      },
    });
    const integrity = args.integrity && (await withProofFindings(args.integrity, proof.findings));
    return { proof, integrity };
  } catch (e) {
    if (e instanceof GitReadError) throw new UsageError(`--base: ${e.message}`);
    throw e;
  }
}
