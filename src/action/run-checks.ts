import type { Git } from "../git/index.js";
import type { Contract } from "../model/contract.js";
import { type EngineResult, runContracts } from "../run/engine.js";
import { checkEnvIn, envHintsOf, withEnvNames } from "../sandbox/check-env.js";
import { describeSandbox } from "../sandbox/describe.js";
import { openSandbox, type Sandbox, type SandboxInfo } from "../sandbox/index.js";
import { isUntrusted, type Target } from "./event.js";
import type { ActionSettings } from "./inputs.js";
import type { ActionIO } from "./io.js";
import { commandPolicy, untrustedWarning } from "./trust.js";

/**
 * What the checks returned, and the sandbox they ran in (every surface names
 * it); no sandbox when there was no contract to run.
 */
export interface ChecksRun {
  result: EngineResult;
  sandbox?: SandboxInfo;
  sandboxText?: ReturnType<typeof describeSandbox>;
}

/**
 * Start the sandbox host for the checks (never rejects: no boundary is an
 * `info` the checks report). The caller hands it to runChecks, which closes it.
 */
export function startSandbox(args: {
  env: NodeJS.ProcessEnv;
  settings: ActionSettings;
  /** How to start the sandbox host; none: no sandbox. */
  sandboxHost: readonly string[] | undefined;
  /** The action's own files: read-only for commands. */
  protect: readonly string[] | undefined;
}): Promise<Sandbox> {
  const { env, settings, sandboxHost, protect } = args;
  return openSandbox({
    mode: settings.sandbox,
    root: settings.workingDirectory,
    env,
    hostCommand: sandboxHost,
    memoryMb: settings.checkMemoryMb,
    extraReads: settings.sandboxRead,
    network: settings.checkNetwork,
    ...(protect && { protect }),
  });
}

/**
 * Stage 6: take the sandbox startSandbox started, decide what untrusted code's commands get
 * (trust.ts), and run every contract's checks. The sandbox is closed however
 * the engine ends.
 */
export async function runChecks(args: {
  io: ActionIO;
  env: NodeJS.ProcessEnv;
  settings: ActionSettings;
  target: Target;
  contracts: readonly Contract[];
  /** From startSandbox; none only when there is no contract to run. */
  sandbox: Promise<Sandbox> | undefined;
  /** The checkout's commit, which the static checks read (issue 32). */
  commit?: { git: Git; sha: string };
  /** Why no command may run in the sandbox this run got (a shard leg without a boundary), if so. */
  refuse?: (info: SandboxInfo) => string | undefined;
}): Promise<ChecksRun> {
  const { io, env, settings, target, contracts } = args;
  if (args.sandbox === undefined) {
    if (contracts.length > 0) throw new Error("contracts to run, but no sandbox was started");
    // Nothing runs, so there is no boundary to name: the surfaces leave the sandbox line out.
    const result = await runContracts([], {
      root: settings.workingDirectory,
      maxParallel: settings.maxParallel,
      requireOracles: settings.requireOracles,
      oracleTimeoutMs: settings.timeoutSeconds * 1000,
      regexTimeoutMs: 10_000,
      env: {},
      commands: "block",
    });
    return { result };
  }
  const untrusted = isUntrusted(target);
  const started = await args.sandbox;
  // Built for this sandbox's view; the same for the proof's runs (proof.ts).
  const built = checkEnvIn(env, settings.checkEnv, started.info);
  const sandbox = withEnvNames(started, built);
  // From here on, however this ends, the sandbox host is closed (finally below).
  try {
    const sandboxText = describeSandbox(sandbox.info);
    io.info(sandboxText.line);
    if (sandboxText.warning) io.warning(`contract-gate: ${sandboxText.warning}`);
    const refused = args.refuse?.(sandbox.info);
    const commands =
      refused === undefined
        ? commandPolicy(untrusted, settings.untrustedCommands, sandbox.info)
        : "block";
    if (refused !== undefined) io.warning(`contract-gate: ${refused}`);
    if (untrusted) io.warning(untrustedWarning(target.event, settings.untrustedCommands, commands));
    let lastProgress = Date.now();
    const result = await runContracts(contracts, {
      root: settings.workingDirectory,
      ...(args.commit && { commit: args.commit }),
      maxParallel: settings.maxParallel,
      requireOracles: settings.requireOracles,
      oracleTimeoutMs: settings.timeoutSeconds * 1000,
      regexTimeoutMs: 10_000,
      env: built.env,
      envHints: envHintsOf(built, sandbox.info, "action"),
      runProcess: sandbox.run,
      commands,
      ...(refused !== undefined && { commandsReason: refused }),
      ...(settings.untrustedCommands === "sandbox" &&
        commands === "block" && {
          commandsSetting: "untrusted-commands: sandbox, and no sandbox boundary is active",
        }),
      onProgress: (p) => {
        if (Date.now() - lastProgress < 10_000 && p.done < p.total) return;
        lastProgress = Date.now();
        io.info(
          `[${p.done}/${p.total}] checks done${p.running.length ? `; running ${p.running.length}` : ""}`,
        );
      },
    });
    return { result, sandbox: sandbox.info, sandboxText };
  } finally {
    sandbox.close();
  }
}
