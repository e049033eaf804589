import { type Git, GitReadError } from "../git/index.js";
import type { GitHubApi } from "../github/types.js";
import type { IntegrityReport } from "../integrity/types.js";
import type { Contract } from "../model/contract.js";
import { withProofFindings } from "../proof/findings.js";
import { gitSide, type ProofResult, proveRequirements, type TestProver } from "../proof/index.js";
import { sandboxRunners } from "../proof/run/index.js";
import { runningTestProver } from "../proof/run/prover.js";
import { checkEnvIn } from "../sandbox/check-env.js";
import type { Sandbox } from "../sandbox/index.js";
import { findApproval } from "./approval.js";
import type { Scope } from "./collect.js";
import { isUntrusted } from "./event.js";
import type { Gated } from "./head.js";
import type { ActionSettings } from "./inputs.js";
import { StopRun } from "./io.js";
import { commandPolicy } from "./trust.js";

/** What the requirement proof of some contracts needs: the stage's arguments without the base comparison. */
export interface ProveArgs {
  git: Git;
  env: NodeJS.ProcessEnv;
  settings: ActionSettings;
  gated: Gated;
  scope: Scope;
  /** The merge base the diff is read against; undefined without a PR base (nothing read). */
  base: string | undefined;
  contracts: readonly Contract[];
  sandbox: Promise<Sandbox> | undefined;
  prover?: TestProver;
  /** How to start the sandbox host, and the action's own files: each proof run gets a sandbox of its own. */
  sandboxHost?: readonly string[] | undefined;
  protect?: readonly string[] | undefined;
}

/**
 * Stage 5b: the requirement proof (src/proof/) of the loaded contracts
 * against the merge base the base comparison used, the head read from the
 * gated commit; its findings join the base comparison, looking up an
 * approval when they bring the first blocking one. Without a PR base
 * (push, merge queue) there is no diff to read. Throws StopRun when the
 * diff cannot be read: fail closed.
 */
export async function proveStage(
  args: Omit<ProveArgs, "base"> & { api: GitHubApi; integrity: IntegrityReport },
): Promise<{ proof: ProofResult; integrity: IntegrityReport }> {
  const { integrity, gated } = args;
  const proof = await proveContracts({
    ...args,
    base: integrity.applies ? integrity.base : undefined,
  });
  const target = gated.target;
  const lookup =
    target.kind === "pull-request"
      ? () => findApproval(args.api, { number: target.number }, gated.headSha)
      : undefined;
  return { proof, integrity: await withProofFindings(integrity, proof.findings, lookup) };
}

/**
 * The requirement proof alone (what a shard leg runs for its contracts, the
 * base comparison being the merge's): the tamper and guardrail readings of
 * the diff and the mapped tests, run by the test prover with the sandbox and
 * the trust policy every check gets. Throws StopRun when the diff cannot be
 * read: fail closed.
 */
export async function proveContracts(args: ProveArgs): Promise<ProofResult> {
  const { git, settings, gated, scope, base } = args;
  const local = (p: string) =>
    scope.prefix === ""
      ? p
      : p.startsWith(`${scope.prefix}/`)
        ? p.slice(scope.prefix.length + 1)
        : undefined;
  // Paths outside the working directory are outside what the contracts there gate.
  const changed = scope.changed.flatMap((f) => {
    const path = local(f.path);
    if (path === undefined) return [];
    const previous = f.previousPath === undefined ? undefined : local(f.previousPath);
    return [{ ...f, path, ...(previous !== undefined && { previousPath: previous }) }];
  });
  const sandbox = args.sandbox && (await args.sandbox);
  try {
    return await proveRequirements({
      contracts: args.contracts,
      ...(base !== undefined && {
        diff: {
          base,
          changed,
          readBase: gitSide(git, base),
          readHead: gitSide(git, gated.headSha),
        },
      }),
      options: settings.proof,
      // Each run in a sandbox of its own, as checks are: a private tree over the checkout (a copy without a boundary).
      prover:
        args.prover ??
        runningTestProver(
          sandboxRunners({
            mode: settings.sandbox,
            env: args.env,
            hostCommand: args.sandboxHost,
            memoryMb: settings.checkMemoryMb,
            extraReads: settings.sandboxRead,
            network: settings.checkNetwork,
            ...(args.protect && { protect: args.protect }),
          }),
        ),
      context: {
        root: settings.workingDirectory,
        git,
        env: checkEnvIn(args.env, settings.checkEnv, sandbox?.info).env,
        ...(sandbox && {
          runProcess: sandbox.run,
          commands: commandPolicy(
            isUntrusted(gated.target),
            settings.untrustedCommands,
            sandbox.info,
          ),
        }),
      },
    });
  } catch (e) {
    if (!(e instanceof GitReadError)) throw e;
    throw new StopRun(`contract-gate: the requirement proof could not read the diff: ${e.message}`);
  }
}
