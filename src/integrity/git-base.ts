import { execFile, spawn } from "node:child_process";
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

/** One file to read at a commit: its path (relative to `root`) and the most bytes wanted. */
export interface BlobRequest {
  path: string;
  limit: number;
}

/**
 * Each requested path (relative to `root`, which may be a subdirectory of the
 * repository) as it is at `commit`, keyed by path. A blob larger than its
 * `limit` is reported with its size and no bytes. Two git processes in all —
 * one `ls-tree` for the entries, one `cat-file --batch` for the blobs — however
 * many paths. Throws `BaseUnreadableError` when git cannot read the tree or a
 * blob (a shallow clone missing the objects).
 */
export async function readAtCommit(
  root: string,
  commit: string,
  requests: readonly BlobRequest[],
): Promise<Map<string, BlobRead>> {
  const out = new Map<string, BlobRead>();
  const wanted = new Map(requests.map((r) => [r.path, r.limit]));
  if (wanted.size === 0) return out;
  const unreadable = (e: unknown) => {
    const paths = [...wanted.keys()];
    const what = paths.length === 1 ? paths[0] : `${paths[0]} (and ${paths.length - 1} more)`;
    return new BaseUnreadableError(
      `Cannot read ${what} at commit ${commit} (${firstLine(e)}). ` +
        "Fetch the history: actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`.",
    );
  };
  const blobs: { path: string; object: string }[] = [];
  for (const chunk of chunks([...wanted.keys()], 500)) {
    let listing: string;
    try {
      // Literal: a file the PR names `:(top)x` or `*.json` is that file, never a pattern.
      const args = ["--literal-pathspecs", "ls-tree", "-l", "-z", commit, "--", ...chunk];
      listing = (await git(root, args)).toString("utf8");
    } catch (e) {
      throw unreadable(e);
    }
    for (const entry of listing.split("\0")) {
      const tab = entry.indexOf("\t");
      if (tab < 0) continue;
      const path = entry.slice(tab + 1);
      const limit = wanted.get(path);
      // A directory named like a request lists its own entry (or, when the batch also
      // asks for a path inside it, only that path): either way, not a file there.
      if (limit === undefined || out.has(path)) continue;
      const [mode = "", type = "", object = "", size = "0"] = entry.slice(0, tab).split(/\s+/);
      if (type !== "blob" || mode === "120000") {
        out.set(path, { kind: "not-a-file", mode });
      } else {
        out.set(path, { kind: "file", bytes: new Uint8Array(), size: Number(size) });
        // An unknown size ("-": the object is not in the clone) is read, and fails closed there.
        if (!(Number(size) > limit)) blobs.push({ path, object });
      }
    }
  }
  for (const path of wanted.keys()) if (!out.has(path)) out.set(path, { kind: "missing" });
  if (blobs.length === 0) return out;
  let contents: Uint8Array[];
  try {
    contents = await catFileBatch(
      root,
      blobs.map((b) => b.object),
    );
  } catch (e) {
    throw unreadable(e);
  }
  blobs.forEach((b, i) => {
    const read = out.get(b.path);
    if (read?.kind === "file") read.bytes = contents[i] ?? new Uint8Array();
  });
  return out;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The blobs' bytes, in order, from one `git cat-file --batch`; throws when any is missing. */
function catFileBatch(root: string, objects: readonly string[]): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], {
      cwd: root,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => stdout.push(c));
    child.stderr.on("data", (c: Buffer) => stderr.push(c));
    child.stdin.on("error", () => {}); // git exited early: 'close' reports it
    child.on("error", reject);
    child.on("close", (code) => {
      const fail = (why: string) =>
        reject(Object.assign(new Error(why), { stderr: Buffer.concat(stderr) }));
      if (code !== 0) return fail(`git cat-file exited with ${code}`);
      const all = Buffer.concat(stdout);
      const out: Uint8Array[] = [];
      let at = 0;
      for (const object of objects) {
        const eol = all.indexOf(10, at);
        const header = eol < 0 ? "" : all.subarray(at, eol).toString("utf8");
        // "<oid> <type> <size>", or "<oid> missing".
        const [oid, type, size] = header.split(" ");
        if (oid !== object || type !== "blob" || size === undefined) {
          return fail(`object ${object} is not readable: ${header || "no answer"}`);
        }
        const end = eol + 1 + Number(size);
        if (end > all.length) return fail(`object ${object} was cut short`);
        out.push(new Uint8Array(all.subarray(eol + 1, end)));
        at = end + 1; // the newline after each blob
      }
      resolve(out);
    });
    child.stdin.end(objects.map((o) => `${o}\n`).join(""));
  });
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
