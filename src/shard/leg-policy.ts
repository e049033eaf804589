import type { SandboxInfo } from "../sandbox/index.js";

/**
 * Whether a leg of a sharded run may run the PR's commands (issue 32, item 3).
 * A leg's report is all the merge job sees of what ran, and a process a
 * command leaves behind on an unbounded runner can rewrite it before the
 * upload: so a leg runs commands only inside a boundary, or unsandboxed when
 * the maintainer said so (`sandbox: off`). Under `auto` on a runner without
 * one, every command check is refused — a failing row naming what the runner
 * lacks — and the merge fails closed. Pure.
 */
export function legRefusal(
  info: SandboxInfo,
  spelling: { auto: string; off: string },
): string | undefined {
  if (info.mechanism !== "none" || info.mode === "off") return undefined;
  const why = info.warning ?? "no sandbox boundary could be opened on this runner";
  return `not run: a shard leg runs the PR's commands only inside a sandbox boundary, and ${spelling.auto} found none (${why}); give the runner one (user namespaces, or passwordless sudo), or set ${spelling.off} to run them unsandboxed`;
}
