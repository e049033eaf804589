import type { SandboxView } from "./index.js";

/**
 * Whether `path` lies inside what a sandboxed check sees (docs/security.md,
 * "What a check sees"): the tree, the system directories, the private home
 * and the toolchains bound into it, the tool cache, the `sandbox-read` paths.
 * Pure: the checks' PATH and toolchain variables keep only such entries, so a
 * check never goes looking in a directory that is not there.
 */
export function viewContains(
  view: SandboxView,
  env: { HOME?: string; RUNNER_TOOL_CACHE?: string; AGENT_TOOLSDIRECTORY?: string },
  path: string,
): boolean {
  const p = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const under = (dir: string | undefined) =>
    dir !== undefined && dir !== "" && (p === dir || p.startsWith(`${dir}/`));
  const home = env.HOME && env.HOME !== "/" ? env.HOME.replace(/\/+$/, "") : undefined;
  return (
    under(view.tree) ||
    view.system.some(under) ||
    view.extraReads.some(under) ||
    under(env.RUNNER_TOOL_CACHE) ||
    under(env.AGENT_TOOLSDIRECTORY) ||
    // The private home itself is there (empty); under it, only the bound toolchains.
    (home !== undefined &&
      (p === home || view.toolchains.some((t) => under(`${home}/${t.replace(/^~\//, "")}`))))
  );
}
