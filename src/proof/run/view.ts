import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Git } from "../../git/index.js";
import { runGit } from "../../git/run.js";
import type { ChangedFile } from "../../github/types.js";

/**
 * The two trees the proof runs in, both temporary copies beside the
 * checkout, so the checkout and its git index are never written, whatever
 * happens to the gate (the seed's evaluator swaps files in place and must
 * restore them; a copy has nothing to restore):
 * - head: the checkout's files as they are;
 * - base: the same, with every non-test file the PR changed replaced by its
 *   merge-base version, added non-test files left out and deleted ones
 *   restored; test files (and every mapped test file) stay as at head.
 * Both get the checkout's ignored entries (`node_modules`, `.venv`, build
 * output) as symlinks, so what the checkout installed serves both runs and
 * the two trees differ only where the PR's source does.
 */

/** What the checkout holds: files git tracks or would add, and ignored entries (not descended into). */
export interface TreeListing {
  files: string[];
  ignored: string[];
}

export async function listTree(root: string): Promise<TreeListing> {
  const split = (b: Buffer) =>
    b
      .toString("utf8")
      .split("\0")
      .filter((p) => p !== "");
  const files = split(
    await runGit(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]),
  );
  const ignored = split(
    await runGit(root, [
      "ls-files",
      "-z",
      "--others",
      "--ignored",
      "--exclude-standard",
      "--directory",
    ]),
  ).map((p) => p.replace(/\/$/, ""));
  return { files: [...new Set(files)], ignored };
}

/** Which changed paths the base view takes from the merge base, and which it leaves out. */
export interface BasePlan {
  restore: string[];
  hide: string[];
}

/** The base view's changes, from the PR's changed files: each path judged by whether it is a test. */
export function planBase(
  changed: readonly ChangedFile[],
  keep: (path: string) => boolean,
): BasePlan {
  const restore = new Set<string>();
  const hide = new Set<string>();
  for (const f of changed) {
    const gone = (p: string) => {
      if (!keep(p)) restore.add(p);
    };
    const added = (p: string) => {
      if (!keep(p)) hide.add(p);
    };
    switch (f.status) {
      case "added":
      case "copied":
        added(f.path);
        break;
      case "removed":
        gone(f.path);
        break;
      case "renamed":
        added(f.path);
        if (f.previousPath !== undefined) gone(f.previousPath);
        break;
      case "unchanged":
        break;
      default:
        gone(f.path);
    }
  }
  for (const p of restore) hide.delete(p);
  return { restore: [...restore].sort(), hide: [...hide].sort() };
}

/** The most bytes one restored base file may have: past it the base view is not built. */
export const MAX_BASE_FILE_BYTES = 64 * 1024 * 1024;

export interface ProofViews {
  /** The directory holding both trees. */
  dir: string;
  head: string;
  base?: string;
  /** Real paths the symlinked ignored entries point at: a sandbox must let checks read them. */
  reads: string[];
  close(): void;
}

/**
 * Builds the head tree and (when `base` is given) the base tree in a new
 * temporary directory. Throws with a message naming the file when a base
 * version cannot be read (a symlink or submodule at base, too large).
 */
export async function buildViews(opts: {
  checkout: string;
  listing: TreeListing;
  base?: { git: Git; commit: string; plan: BasePlan };
  parent?: string;
}): Promise<ProofViews> {
  const dir = mkdtempSync(join(opts.parent ?? tmpdir(), "contract-gate-proof-"));
  const close = () => rmSync(dir, { recursive: true, force: true });
  try {
    const head = join(dir, "head");
    materialize(opts.checkout, head, opts.listing, new Map(), new Set());
    let base: string | undefined;
    if (opts.base) {
      const bytes = await readBase(opts.base.git, opts.base.commit, opts.base.plan.restore);
      base = join(dir, "base");
      materialize(opts.checkout, base, opts.listing, bytes, new Set(opts.base.plan.hide));
    }
    const reads = opts.listing.ignored.map((p) => join(opts.checkout, p));
    return { dir, head, ...(base !== undefined && { base }), reads, close };
  } catch (e) {
    close();
    throw e;
  }
}

async function readBase(
  git: Git,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  if (paths.length === 0) return out;
  const read = await git.readAt(
    commit,
    paths.map((path) => ({ path, limit: MAX_BASE_FILE_BYTES })),
  );
  for (const p of paths) {
    const r = read.get(p);
    if (r?.kind === "file") {
      if (r.size > MAX_BASE_FILE_BYTES)
        throw new Error(
          `${p} is ${r.size} bytes at the base, over the ${MAX_BASE_FILE_BYTES}-byte limit of the base view`,
        );
      out.set(p, r.bytes);
    } else if (r?.kind === "not-a-file") {
      throw new Error(
        `${p} is not a regular file at the base (mode ${r.mode}): the base view cannot restore it`,
      );
    }
    // Missing at the base (a change the diff reports but the merge base does not hold): left out.
  }
  return out;
}

/** Writes one tree: the listing's files copied (or replaced, or left out), ignored entries linked. */
function materialize(
  checkout: string,
  dest: string,
  listing: TreeListing,
  replace: ReadonlyMap<string, Uint8Array>,
  hide: ReadonlySet<string>,
): void {
  const made = new Set<string>();
  const dirOf = (p: string) => {
    const d = dirname(p);
    if (!made.has(d)) {
      mkdirSync(d, { recursive: true });
      made.add(d);
    }
  };
  mkdirSync(dest, { recursive: true });
  made.add(dest);
  for (const rel of listing.files) {
    if (hide.has(rel) || replace.has(rel)) continue;
    const from = join(checkout, rel);
    const to = join(dest, rel);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(from);
    } catch {
      continue; // listed by the index but deleted in the working tree
    }
    dirOf(to);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (st.isDirectory())
      symlinkSync(from, to); // a submodule's work tree
    else copyFileSync(from, to);
  }
  for (const [rel, bytes] of replace) {
    const to = join(dest, rel);
    dirOf(to);
    writeFileSync(to, bytes);
  }
  for (const rel of listing.ignored) link(join(checkout, rel), join(dest, rel), dirOf);
}

function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Links an ignored entry; where tracked files already made it a directory, links what is inside. */
function link(from: string, to: string, dirOf: (p: string) => void): void {
  if (!present(to)) {
    dirOf(to);
    symlinkSync(from, to);
    return;
  }
  if (!lstatSync(to).isDirectory() || !lstatSync(from).isDirectory()) return;
  for (const name of readdirSync(from)) link(join(from, name), join(to, name), dirOf);
}
