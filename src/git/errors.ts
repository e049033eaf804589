/** Why git could not give the gate what it needs; each says how to fix it. */
export type GitReadProblem =
  | "not-a-repository"
  | "no-such-ref"
  | "shallow"
  | "no-merge-base"
  | "unreadable";

/**
 * Git could not read what a comparison needs: the gate fails closed, and the
 * message (a full sentence with the fix) is shown as it is.
 */
export class GitReadError extends Error {
  constructor(
    readonly problem: GitReadProblem,
    message: string,
  ) {
    super(message);
  }
}

/** What the repository looks like where a revision was not found: its remotes, and whether it is shallow. */
export interface RefContext {
  root: string;
  remotes: readonly string[];
  shallow: boolean;
}

/**
 * "No such ref", with the fetch that would bring it for the remotes this
 * clone actually has: `origin/main` with an `origin` remote is `git fetch
 * origin main`; a name whose first part is no remote is never told to fetch
 * from one that does not exist. Pure.
 */
export function noSuchRef(rev: string, ctx: RefContext): GitReadError {
  const lead = `${rev} is not a commit in ${ctx.root}`;
  const slash = rev.indexOf("/");
  const remote = slash > 0 ? rev.slice(0, slash) : undefined;
  let fix: string;
  if (/^[0-9a-f]{7,40}$/.test(rev)) {
    fix =
      ctx.remotes.length > 0
        ? `fetch it: \`git fetch ${ctx.remotes.includes("origin") ? "origin" : ctx.remotes[0]} ${rev}\`${ctx.shallow ? " (this clone is shallow: `git fetch --unshallow` brings the whole history)" : ""}`
        : "this repository has no remote to fetch it from; pass a commit that is in it";
  } else if (remote !== undefined && ctx.remotes.includes(remote)) {
    fix = `fetch it: \`git fetch ${remote} ${rev.slice(slash + 1)}\``;
  } else if (ctx.remotes.length === 0) {
    fix =
      "this repository has no remote, so there is nothing to fetch; name a local branch or commit (`git branch --list` shows them)";
  } else {
    const r = ctx.remotes.includes("origin") ? "origin" : ctx.remotes[0]!;
    fix = `if it is a branch of the remote \`${r}\`, fetch it and name the remote branch: \`git fetch ${r} ${rev}\`, then \`--base ${r}/${rev}\``;
  }
  return new GitReadError("no-such-ref", `${lead}: ${fix}.`);
}

/** Not inside a git work tree at all. */
export function notARepository(root: string): GitReadError {
  return new GitReadError(
    "not-a-repository",
    `${root} is not a git repository, so there is no base to compare the contracts with: run inside a clone, or pass --root <clone>.`,
  );
}

/** No merge base even after deepening: a shallow clone, or unrelated histories. */
export function noMergeBase(base: string, head: string, shallow: boolean): GitReadError {
  return shallow
    ? new GitReadError(
        "shallow",
        `No merge base between ${base} and ${head}: the clone is shallow and deepening it did not reach one, so the contracts cannot be compared with their base versions and the gate fails closed. Fetch the history: actions/checkout with \`fetch-depth: 0\`, or \`git fetch --unshallow\`.`,
      )
    : new GitReadError(
        "no-merge-base",
        `No merge base between ${base} and ${head}: their histories share no commit, so the contracts cannot be compared with their base versions and the gate fails closed. Compare against a branch this one was made from.`,
      );
}
