import { type ProcessRunner, runCollected, runProcess } from "../process/run-process.js";
import { proveBoundary } from "./boundary-probe.js";
import type { CredentialConfigs } from "./credential-configs.js";
import { HostConnection } from "./host-client.js";
import { hostConfig } from "./host-config.js";
import type { Sandbox } from "./info.js";
import { DEFAULT_CHECK_NETWORK, type SandboxOptions } from "./options.js";
import type { HostConfig } from "./protocol.js";
import { systemTool, untrustedReason } from "./system-tools.js";
import { openUnsandboxed } from "./unsandboxed.js";
import { resolveExtraReads, type ViewPlan } from "./view.js";

export type {
  CheckEnvNames,
  Sandbox,
  SandboxExecutor,
  SandboxInfo,
  SandboxView,
} from "./info.js";
export {
  CHECK_NETWORKS,
  type CheckNetwork,
  DEFAULT_CHECK_MEMORY_MB,
  DEFAULT_CHECK_NETWORK,
  DEFAULT_CHECK_PIDS,
  privateTreeFits,
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxOptions,
} from "./options.js";

/**
 * The one entry point: find a mechanism (root, then `sudo -n`), start the
 * sandbox host, prove the boundary with a probe, and hand back the runner
 * every command check uses. Never throws: no boundary is an `info` the
 * caller reports, and under `required` a runner that refuses every command.
 */
export async function openSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const memoryMb = opts.memoryMb;
  const unsandboxed = async (warning?: string): Promise<Sandbox> => {
    const local = opts.executor === "per-check" ? undefined : openUnsandboxed();
    return {
      info: {
        mode: opts.mode,
        mechanism: "none",
        executor: local ? await local.executor() : "gate",
        cgroup: "none",
        memoryMb,
        ...(warning && { warning }),
      },
      run: local?.run ?? runProcess,
      close: () => local?.close(),
    };
  };
  if (opts.mode === "off") return unsandboxed();
  /** No boundary, and no command may run: each refused with `reason`, the report saying why. */
  const refusing = (why: { error: string } | { warning: string }, reason: string): Sandbox => ({
    info: {
      mode: opts.mode,
      mechanism: "none",
      executor: "gate",
      cgroup: "none",
      memoryMb,
      ...why,
    },
    run: (o) => runCollected(o, async () => ({ kind: "boundary", reason })),
    close: () => {},
  });
  // A wrong sandbox-read is the workflow's mistake, not a missing boundary:
  // no mode runs a command past it.
  const extra = resolveExtraReads(opts.extraReads ?? [], opts.root, opts.env.HOME);
  if (!extra.ok) return refusing({ error: extra.error }, extra.error);
  const found = await findBoundary(opts, extra.paths);
  if (found.ok) return found.sandbox;
  if (opts.mode === "auto") return unsandboxed(found.error);
  const reason =
    `sandbox: required, but no boundary is available (${found.error}). ` +
    "Fix: run the gate as root or give the runner passwordless sudo (GitHub-hosted Linux runners have it), " +
    "or set sandbox: auto (or --sandbox auto) to run commands unsandboxed.";
  return refusing({ warning: found.error }, reason);
}

async function findBoundary(
  opts: SandboxOptions,
  extraReads: string[],
): Promise<{ ok: true; sandbox: Sandbox } | { ok: false; error: string }> {
  if (process.platform !== "linux")
    return {
      ok: false,
      error: `no supported sandbox on ${process.platform} (Linux namespaces are required)`,
    };
  if (!opts.hostCommand) return { ok: false, error: "this build cannot start a sandbox host" };
  const root = process.getuid?.() === 0 && opts.sudo === undefined;
  // By absolute paths from the system PATH, each root's and writable by no one
  // else: what the gate's PATH finds first may be the pull request's own.
  let unshare: string;
  let sudo: string | undefined;
  try {
    unshare = systemTool("unshare");
    if (!root) {
      sudo = opts.sudo ?? systemTool("sudo");
      const why = untrustedReason(sudo);
      if (why !== undefined) throw new Error(`sudo: ${why}`);
    }
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  let config: HostConfig;
  let plan: ViewPlan;
  let configs: CredentialConfigs;
  try {
    ({ config, plan, configs } = hostConfig(opts, extraReads));
  } catch (e) {
    return { ok: false, error: `cannot describe the boundary: ${(e as Error).message}` };
  }
  const launcher = sudo === undefined ? [] : [sudo, "-n", "--"];
  const mechanism = root ? "namespaces (root)" : "namespaces (sudo -n)";
  const started = await HostConnection.start(
    // The host is PID 1 of a namespace of its own: however it dies (even
    // SIGKILLed), the kernel kills every check with it; --kill-child does the
    // same if the unshare above it is killed.
    [
      ...launcher,
      unshare,
      "--mount",
      "--propagation",
      "private",
      "--pid",
      "--fork",
      "--kill-child",
      "--",
      ...opts.hostCommand,
    ],
    config,
  );
  if (!started.ok) return { ok: false, error: `${mechanism}: ${started.error}` };
  const host = started.host;
  const run: ProcessRunner = (o) => runCollected(o, host.supervise);
  const probe = await proveBoundary(run, config.root);
  if (probe !== undefined) {
    host.close();
    return { ok: false, error: `${mechanism}: the probe failed: ${probe}` };
  }
  const cgroupWarning =
    started.cgroup === "none"
      ? `no memory or process caps: ${started.cgroupError ?? "cgroups unavailable"}`
      : undefined;
  const executorNote =
    started.executor === "per-check" && started.executorError !== undefined
      ? `checks start per check, not from a lane executor (${started.executorError}): slower, same boundary`
      : undefined;
  const uid = started.uid ?? config.uid;
  const uidNote =
    started.uidError !== undefined
      ? `checks ran as uid ${uid}, not a dedicated unprivileged user (${started.uidError})`
      : undefined;
  const warning = [cgroupWarning, executorNote, uidNote].filter(Boolean).join("; ");
  return {
    ok: true,
    sandbox: {
      info: {
        mode: opts.mode,
        mechanism,
        executor: started.executor === "lane" ? "lane executor" : "per-check namespaces",
        cgroup: started.cgroup,
        memoryMb: opts.memoryMb,
        view: {
          tree: config.root,
          system: plan.system,
          toolchains: plan.toolchains,
          extraReads: plan.extraReads,
          gitDirs: plan.git.dirs.length,
          // The workspace's credential files and the tools' credential-bearing configs.
          hiddenCredentials: plan.git.credentialFiles.length + configs.hidden.length,
          network: opts.network ?? DEFAULT_CHECK_NETWORK,
          uid,
        },
        ...(warning && { warning }),
      },
      run,
      close: () => host.close(),
      ended: () => host.ended,
      ...(started.viewMs !== undefined && { viewMs: started.viewMs }),
      ...(started.treeMs !== undefined && { treeMs: started.treeMs }),
      ...(started.spawnMs !== undefined && {
        hostMs: {
          spawn: started.spawnMs,
          ...(started.startMs !== undefined && { host: started.startMs }),
        },
      }),
    },
  };
}
