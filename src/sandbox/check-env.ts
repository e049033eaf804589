import { type CheckEnv, checkEnv } from "../process/env.js";
import type { EnvHintContext } from "../process/env-hints.js";
import type { Sandbox, SandboxInfo } from "./index.js";
import { viewContains } from "./view-contains.js";

/**
 * The environment every command the gate starts gets in `sandbox` (checks,
 * oracles, Verification commands, the proof's test runs): built from the
 * job's, PATH and toolchain directories kept only where the view holds them.
 */
export function checkEnvIn(
  jobEnv: NodeJS.ProcessEnv,
  grant: readonly string[],
  info: SandboxInfo | undefined,
): CheckEnv {
  const view = info?.view;
  return checkEnv(jobEnv, {
    grant,
    ...(view && { visible: (p: string) => viewContains(view, jobEnv, p) }),
  });
}

/** The sandbox with the environment's names on its info, for every surface. */
export function withEnvNames(sandbox: Sandbox, built: CheckEnv): Sandbox {
  return {
    ...sandbox,
    info: { ...sandbox.info, checkEnv: { granted: built.granted, withheld: built.withheld } },
  };
}

/** What a failing check's hint needs: the withheld names and the network checks had. */
export function envHintsOf(
  built: CheckEnv,
  info: SandboxInfo | undefined,
  surface: "action" | "cli",
): EnvHintContext {
  // Without a boundary checks share the runner's network whatever check-network says.
  return { withheld: built.withheld, network: info?.view?.network ?? "host", surface };
}
