import { realpathSync } from "node:fs";
import type { Git } from "../git/index.js";
import type { Contract } from "../model/contract.js";
import {
  type ContractTrees,
  FOLDER_ITSELF,
  openContractTrees,
  torndown,
} from "../run/contract-trees.js";
import { type EngineResult, runContracts } from "../run/engine.js";
import { checkEnvIn, envHintsOf, withEnvNames } from "../sandbox/check-env.js";
import { describeSandbox } from "../sandbox/describe.js";
import {
  openSandbox,
  type Sandbox,
  type SandboxInfo,
  type SandboxOptions,
} from "../sandbox/index.js";
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
  /** Whether every process the checks started had ended (hosts exited) when the run returned. */
  ended?: boolean;
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
  return openSandbox({ ...sandboxOptionsOf(args), root: args.settings.workingDirectory });
}

/** How the run's sandbox is asked for; each contract's private tree asks the same way. */
function sandboxOptionsOf(args: {
  env: NodeJS.ProcessEnv;
  settings: ActionSettings;
  sandboxHost: readonly string[] | undefined;
  protect: readonly string[] | undefined;
}): Omit<SandboxOptions, "root" | "privateTree"> {
  const { env, settings, sandboxHost, protect } = args;
  return {
    mode: settings.sandbox,
    env,
    hostCommand: sandboxHost,
    memoryMb: settings.checkMemoryMb,
    extraReads: settings.sandboxRead,
    network: settings.checkNetwork,
    ...(protect && { protect }),
  };
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
  /** How the sandbox host starts, and the action's own files: each contract's tree is a sandbox too. */
  sandboxHost?: readonly string[] | undefined;
  protect?: readonly string[] | undefined;
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
  let sandbox = withEnvNames(started, built);
  let trees: ContractTrees | undefined;
  let ran: ChecksRun;
  // From here on, however this ends, the sandbox host is closed (finally below).
  try {
    // Each contract's commands in a private tree of the commit (issue 32).
    trees = args.commit
      ? await openContractTrees({
          git: args.commit.git,
          sha: args.commit.sha,
          root: realpathSync(settings.workingDirectory),
          sandbox,
          options: sandboxOptionsOf({
            env,
            settings,
            sandboxHost: args.sandboxHost,
            protect: args.protect,
          }),
        })
      : undefined;
    sandbox = { ...sandbox, info: { ...sandbox.info, trees: trees?.isolation ?? FOLDER_ITSELF } };
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
      ...(trees && { trees }),
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
    ran = { result, sandbox: sandbox.info, sandboxText };
  } finally {
    sandbox.close();
    trees?.close();
  }
  // Nothing is reported from the checks before every process they started has ended.
  return { ...ran, ended: await torndown(sandbox, trees) };
}
