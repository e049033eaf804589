/**
 * Why a contract is in a run's scope, said on every surface: under
 * `scope: changed` a contract the PR never touched can still judge it (one
 * bound to its head branch), and a reviewer reading a green check needs to know
 * which contracts were asked at all, and why those.
 */
export type ScopeReason =
  /** The PR (or the queued commit) changed the contract or a file it reads (`file`). */
  | { reason: "changed"; file: string }
  /** Its header binds it to the PR's head branch (an oracle contract's `branch:`). */
  | { reason: "branch"; branch: string }
  /** Every contract is gated: `by` says what asked for that (`scope: all`, a push). */
  | { reason: "all"; by: string }
  /** The CLI's `--changed-since <ref>`: it or a file it reads (`file`) changed since `ref`. */
  | { reason: "changed-since"; ref: string; file: string }
  /** Named as a path on the CLI's command line. */
  | { reason: "argument" };

export const SCOPE_REASONS = ["changed", "branch", "all", "changed-since", "argument"] as const;

/**
 * The reason as one clause, e.g. "the PR changed `specs/001-x/tasks.md`, which it
 * reads". `code` formats each path, branch, ref and setting (a markdown code
 * span; as it is in a terminal): they may come from the PR's author.
 */
export function scopeText(
  path: string,
  r: ScopeReason,
  code: (s: string) => string = (s) => s,
): string {
  switch (r.reason) {
    case "changed":
      return r.file === path
        ? "changed by the PR"
        : `the PR changed ${code(r.file)}, which it reads`;
    case "branch":
      return `its header binds it to the PR's head branch ${code(r.branch)}`;
    case "all":
      return `every contract is gated (${code(r.by)})`;
    case "changed-since":
      return r.file === path
        ? `changed since ${code(r.ref)}`
        : `${code(r.file)}, which it reads, changed since ${code(r.ref)}`;
    case "argument":
      return "named on the command line";
  }
}

/** The outcomes with the reason each is in scope attached (a path with none is left as it is). */
export function withScope<C extends { path: string }>(
  outcomes: readonly C[],
  reasons: ReadonlyMap<string, ScopeReason> | undefined,
): (C & { inScope?: ScopeReason })[] {
  if (reasons === undefined) return [...outcomes];
  return outcomes.map((c) => {
    const r = reasons.get(c.path);
    return r === undefined ? c : { ...c, inScope: r };
  });
}
