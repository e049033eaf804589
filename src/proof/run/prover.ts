import type { TestProver, ProverContext as WiringContext } from "../prover.js";
import { type ProverContext, proveTests, type RunnerFactory, settleWithProof } from "./index.js";

/**
 * The test prover the gate ships: `proveTests` behind the wiring's
 * injected `TestProver` seam (src/proof/prover.ts). The wiring's context
 * names the inputs and the trust policy; each tree gets a sandbox of its own
 * through `runners` (the action's and the CLI's sandbox settings, rooted at
 * the copy), plain processes when the caller has none.
 */
export function runningTestProver(runners?: RunnerFactory): TestProver {
  return {
    async prove(inputs, ctx: WiringContext) {
      const context: ProverContext = {
        root: ctx.root,
        git: ctx.git,
        base: ctx.base,
        changed: ctx.changed,
        ...(ctx.options.testCommand !== undefined && { testCommand: ctx.options.testCommand }),
        ...(ctx.options.testFiles.length > 0 && { testFiles: ctx.options.testFiles }),
        testTimeoutSeconds: ctx.options.testTimeoutSeconds,
        requirementProof: ctx.options.proofMode ?? "mutation",
        ...(ctx.options.mutantsPerRequirement !== undefined && {
          mutantsPerRequirement: ctx.options.mutantsPerRequirement,
        }),
        ...(ctx.options.mutationTimeoutSeconds !== undefined && {
          mutationTimeoutSeconds: ctx.options.mutationTimeoutSeconds,
        }),
        ...(ctx.options.mutationLanes !== undefined && {
          mutationLanes: ctx.options.mutationLanes,
        }),
        ...(runners && { runners }),
        env: ctx.env,
        signal: ctx.signal ?? new AbortController().signal,
        ...(ctx.commands !== undefined &&
          ctx.commands !== "run" && {
            refuse: {
              message: `the mapped tests are the pull request's code, and the trust policy ${ctx.commands === "block" ? "blocks" : "skips"} its commands`,
              hint: "Run the gate on a trusted pull request, or set untrusted-commands: run with the sandbox on (docs/security.md).",
            },
          }),
      };
      return proveTests(inputs, context);
    },
    settle: (criteria, input, proof) => settleWithProof(criteria, input.model, proof),
  };
}
