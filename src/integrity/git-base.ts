import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mergeBaseDeepening, parseNameStatus } from "../action/git.js";
import type { ChangedFile } from "../github/types.js";

const exec = promisify(execFile);

/** The base of a comparison could not be read: the gate blocks, and the message says how to fix it. */
export class BaseUnreadableError extends Error {}

async function git(cwd: string, args: string[]): Promise<Buffer> {
  const { stdout } = await exec("git", args, {
    cwd,
    encoding: "buffer",
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

async function gitText(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return (await git(cwd, args)).toString("utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * The merge base of `base` and `head` (revisions or shas), deepening a shallow
 * clone in bounded steps. Throws `BaseUnreadableError` with the fix when
 * either revision is unknown or there is no merge base.
 */
export async function findMergeBase(root: string, base: string, head: string): Promise<string> {
  const resolve = async (rev: string) => {
    const sha = await gitText(root, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
    // An unknown sha may still be fetched by the deepening below; a name cannot.
    if (sha === undefined && !/^[0-9a-f]{40}$/.test(rev)) {
      throw new BaseUnreadableError(
        `${rev} is not a commit in ${root}: fetch it first (e.g. \`git fetch origin ${rev}\`).`,
      );
    }
    return sha ?? rev;
  };
  const [b, h] = [await resolve(base), await resolve(head)];
  const found = await mergeBaseDeepening(root, b, h);
  if (found === undefined) {
    throw new BaseUnreadableError(
      `No merge base between ${base} and ${head}, even after deepening the clone, so the contracts ` +
        "cannot be compared with their base versions and the gate fails closed. " +
        "Fetch the history: actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`.",
    );
  }
  return found;
}

/** A file at a commit: its bytes, or why there are none. */
export type BlobRead =
  | { kind: "file"; bytes: Uint8Array; size: number }
  | { kind: "missing" }
  /** A symlink or a submodule at that path: never read, as on disk. */
  | { kind: "not-a-file"; mode: string };

/**
 * `path` (relative to `root`, which may be a subdirectory of the repository)
 * as it is at `commit`. Reads at most `limit` bytes' worth (a larger blob is
 * reported with its size and no bytes). Throws `BaseUnreadableError` when git
 * cannot read the tree (a shallow clone missing the objects).
 */
export async function readAtCommit(
  root: string,
  commit: string,
  path: string,
  limit: number,
): Promise<BlobRead> {
  let listing: string;
  try {
    listing = (await git(root, ["ls-tree", "-l", "-z", commit, "--", path])).toString("utf8");
  } catch (e) {
    throw new BaseUnreadableError(
      `Cannot read ${path} at the merge base ${commit} (${firstLine(e)}). ` +
        "Fetch the history: actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`.",
    );
  }
  const entry = listing.split("\0").find((l) => l !== "");
  if (entry === undefined) return { kind: "missing" };
  const [meta = ""] = entry.split("\t");
  const [mode = "", type = "", object = "", size = "0"] = meta.split(/\s+/);
  if (type !== "blob" || mode === "120000") return { kind: "not-a-file", mode };
  const bytes = Number(size) > limit ? new Uint8Array() : await blob(root, object, path, commit);
  return { kind: "file", bytes, size: Number(size) };
}

async function blob(root: string, object: string, path: string, commit: string) {
  try {
    return new Uint8Array(await git(root, ["cat-file", "blob", object]));
  } catch (e) {
    throw new BaseUnreadableError(
      `Cannot read ${path} at the merge base ${commit} (${firstLine(e)}). ` +
        "Fetch the history: actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`.",
    );
  }
}

/**
 * What differs between `commit` and the working tree under `root`: tracked
 * changes with renames, plus untracked files that are not ignored (added).
 * Paths relative to `root`. For `run --base` / `validate --base`.
 */
export async function changedSinceCommit(root: string, commit: string): Promise<ChangedFile[]> {
  try {
    const diff = await git(root, [
      "diff",
      "--name-status",
      "-z",
      "--find-renames",
      "--relative",
      commit,
      "--",
    ]);
    const untracked = await git(root, ["ls-files", "--others", "--exclude-standard", "-z"]);
    const files = parseNameStatus(diff.toString("utf8"));
    for (const path of untracked.toString("utf8").split("\0")) {
      if (path !== "") files.push({ path, status: "added" });
    }
    return files;
  } catch (e) {
    throw new BaseUnreadableError(`git diff against ${commit} failed: ${firstLine(e)}`);
  }
}

function firstLine(e: unknown): string {
  const stderr = (e as { stderr?: Buffer | string }).stderr;
  const text = stderr ? stderr.toString().trim() : (e as Error).message;
  return text.split("\n")[0] ?? "git failed";
}
