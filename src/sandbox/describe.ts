import type { SandboxInfo } from "./index.js";

/**
 * How a run's sandbox reads in the log, the check run, the comment and the
 * job summary: one line always, and a warning when commands ran without the
 * boundary (or were refused for lack of it) or without caps.
 */
export function describeSandbox(info: SandboxInfo): { line: string; warning?: string } {
  if (info.mode === "off")
    return { line: "Sandbox: off (commands ran unsandboxed, as configured)." };
  if (info.mechanism === "none") {
    const why = info.warning ?? "no boundary available";
    return {
      line: `Sandbox: ${info.mode}, none available.`,
      warning:
        info.mode === "required"
          ? `No command ran: sandbox is required but no boundary is available (${why}).`
          : `Commands ran UNSANDBOXED: they could read this job's secrets from other processes and outlive the gate (${why}). Set sandbox: required to refuse instead.`,
    };
  }
  const caps =
    info.cgroup === "none"
      ? "no memory or process caps"
      : `cgroup ${info.cgroup}, ${info.memoryMb} MiB per check`;
  return {
    line: `Sandbox: ${info.mechanism}, a PID and mount namespace per check, ${caps}.`,
    ...(info.warning !== undefined && { warning: `Sandbox: ${info.warning}.` }),
  };
}
