import { CHECK_UID } from "./check-user.js";
import type { CheckEnvNames, SandboxInfo, SandboxView } from "./info.js";

/**
 * How a run's sandbox reads in the log, the check run, the comment and the
 * job summary: one line always, and a warning when commands ran without the
 * boundary (or were refused for lack of it) or without caps. The line names
 * what the view holds, so a maintainer can see the boundary.
 */
export function describeSandbox(info: SandboxInfo): { line: string; warning?: string } {
  const described = describeBoundary(info);
  const env = info.checkEnv ? ` ${describeEnv(info.checkEnv)}` : "";
  const trees = info.trees ? ` Each contract's commands ran in ${info.trees}.` : "";
  return { ...described, line: `${described.line}${trees}${env}` };
}

/** How many withheld names the line lists; the JSON report has them all. */
const WITHHELD_SHOWN = 30;

/** The environment's names, never a value: what was granted, what checks did not get. */
export function describeEnv(names: CheckEnvNames): string {
  const granted =
    names.granted.length > 0
      ? `Checks got the built environment and, granted by check-env, ${names.granted.join(", ")}.`
      : "Checks got the built environment (no check-env grant).";
  if (names.withheld.length === 0) return granted;
  const shown = names.withheld.slice(0, WITHHELD_SHOWN);
  const more =
    names.withheld.length > shown.length ? ` and ${names.withheld.length - shown.length} more` : "";
  return `${granted} Withheld from checks: ${shown.join(", ")}${more}.`;
}

function describeBoundary(info: SandboxInfo): { line: string; warning?: string } {
  if (info.mode === "off")
    return {
      line: "Sandbox: off (commands ran unsandboxed, as configured); checks could reach the network.",
    };
  if (info.error !== undefined)
    return {
      line: `Sandbox: ${info.mode}, not built.`,
      warning: `No command ran: ${info.error}`,
    };
  if (info.mechanism === "none") {
    const why = info.warning ?? "no boundary available";
    return {
      line: `Sandbox: ${info.mode}, none available${info.mode === "required" ? "" : "; checks could reach the network"}.`,
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
  const view = info.view ? ` ${describeView(info.view)}` : "";
  return {
    line: `Sandbox: ${info.mechanism}, ${info.executor === "lane executor" ? "one executor per lane (PID 1 of the lane's PID and mount namespace), nothing a check starts outlives it" : "a PID and mount namespace per check"}, ${caps}.${view}`,
    ...(info.warning !== undefined && { warning: `Sandbox: ${info.warning}.` }),
  };
}

/** "Checks saw: …": the allowlist, as docs/security.md describes it. */
export function describeView(view: SandboxView): string {
  const parts = [
    `the working tree (read-write; ${view.gitDirs === 1 ? "its git directory" : `${view.gitDirs} git directories`} read-only)`,
    `${view.system.join(", ")} (read-only)`,
    view.toolchains.length > 0
      ? `a private $HOME with ${view.toolchains.join(", ")} (read-only)`
      : "an empty private $HOME",
    "private /tmp",
  ];
  if (view.extraReads.length > 0)
    parts.push(`sandbox-read ${view.extraReads.join(", ")} (read-only)`);
  const hidden =
    view.hiddenCredentials > 0 ? ` ${view.hiddenCredentials} credential file(s) hidden.` : "";
  const net =
    view.network === "none"
      ? "no network (loopback only; check-network: none)"
      : "the runner's network (check-network: host): checks could reach the network";
  const uid =
    view.uid === undefined
      ? ""
      : view.uid === 0
        ? " Checks ran as uid 0 (root without capabilities: the gate runs as root and the tree could not be idmapped)."
        : view.uid === CHECK_UID
          ? ` Checks ran as uid ${view.uid} (the dedicated check user; the working tree shown as its own).`
          : ` Checks ran as uid ${view.uid}.`;
  return `Checks saw ${parts.join(", ")}, and ${net}.${hidden}${uid}`;
}
