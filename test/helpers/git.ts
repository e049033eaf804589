import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Run git in `root` with a fixed identity and no user or system config; returns stdout. */
export function git(root: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: root,
    stdio: "pipe",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  }).toString();
}

/** `git init` and one commit of everything under `root`. */
export function commitAll(root: string, message = "base"): void {
  if (!existsSync(join(root, ".git"))) git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-q", "--allow-empty", "-m", message);
}

/**
 * `git init` and an empty first commit: the base a change is judged against
 * when everything after it (the fixture's tasks.md included) is the change.
 * Returns its sha, for `--base`.
 */
export function emptyBase(root: string): string {
  if (!existsSync(join(root, ".git"))) git(root, "init", "-q");
  git(root, "commit", "-q", "--allow-empty", "-m", "empty base");
  return git(root, "rev-parse", "HEAD").trim();
}
