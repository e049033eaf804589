import type { CommandPolicy } from "../run/engine.js";
import type { SandboxInfo } from "../sandbox/index.js";
import type { UntrustedCommands } from "./inputs.js";

/**
 * What the engine does with command checks and oracles. Trusted code runs
 * them. For untrusted code, `sandbox` runs them only when this run's sandbox
 * boundary is active (proved by its probe): without one a fork's command
 * would run beside this job's token and secrets, so it is blocked instead.
 */
export function commandPolicy(
  untrusted: boolean,
  setting: UntrustedCommands,
  sandbox: SandboxInfo,
): CommandPolicy {
  if (!untrusted) return "run";
  if (setting !== "sandbox") return setting;
  return sandbox.mechanism === "none" ? "block" : "run";
}

/** The one warning a run with untrusted code logs: what happens to its commands, and why. */
export function untrustedWarning(
  event: string,
  setting: UntrustedCommands,
  policy: CommandPolicy,
): string {
  const head = `PR code comes from another repository and this job holds a privileged token (${event}): `;
  if (setting === "sandbox") {
    return (
      head +
      (policy === "run"
        ? "command checks and oracles run inside the sandbox (untrusted-commands: sandbox); they can still use the network and CPU time."
        : "no sandbox boundary is active, so command checks and oracles are not run and block (untrusted-commands: sandbox behaves as block); file checks and evidence still run.")
    );
  }
  return (
    head +
    (policy === "run"
      ? "command checks and oracles WILL run (untrusted-commands: run)."
      : `command checks and oracles are not run (untrusted-commands: ${policy}); file checks and evidence still are.`)
  );
}
