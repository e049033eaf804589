import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { lexists } from "../../fs/lexists.js";
import type { Git } from "../../git/index.js";
import type { ChangedFile } from "../../github/types.js";
import { encodeLayer } from "../../sandbox/tree-layer.js";

/**
 * The two trees the proof runs in, so the checkout and its git index are
 * never written, whatever happens to the gate (the seed's evaluator swaps
 * files in place and must restore them; these have nothing to restore):
 * - head: the checkout's files as they are;
 * - base: the same, with every non-test file the PR changed replaced by its
 *   merge-base version, added non-test files left out and deleted ones
 *   restored; test files (and every mapped test file) stay as at head.
 * Inside the sandbox each is a private tree over the checkout (the base's
 * changes as one layer file, `layer`); without one, a temporary copy beside
 * the checkout (`head`, `base`) whose ignored entries (`node_modules`,
 * `.venv`, build output) are symlinks, so what the checkout installed serves
 * both runs and the two trees differ only where the PR's source does.
 */

/** What the checkout holds: files git tracks or would add, and ignored entries (not descended into). */
export interface TreeListing {
  files: string[];
  ignored: string[];
}

export async function listTree(git: Git): Promise<TreeListing> {
  const files = await git.lsFiles(["--cached", "--others", "--exclude-standard"]);
  const ignored = (
    await git.lsFiles(["--others", "--ignored", "--exclude-standard", "--directory"])
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

/** What the base view changes: the merge-base versions of restored paths, and what it leaves out. */
export interface BaseContent {
  files: Map<string, { bytes: Uint8Array; mode: number }>;
  hide: Set<string>;
}

export interface ProofViews {
  /** The directory holding the trees, layers and results. */
  dir: string;
  /** Real paths the copies' symlinked ignored entries point at: a sandbox must let checks read them. */
  reads: string[];
  /** Of `reads`, those outside the checkout: what a private tree over the checkout must add. */
  readsOutside: string[];
  /** A fresh, empty directory for one side's results file, outside every tree. */
  results(side: string): string;
  /**
   * What the base view takes from the merge base. Throws with a message
   * naming the file when a base version cannot be read (a symlink or
   * submodule at base, too large).
   */
  readBase(from: { commit: string; plan: BasePlan }): Promise<BaseContent>;
  /** Writes the head tree as a copy; returns its path. */
  head(): string;
  /**
   * Writes the base tree as a copy; returns its path. Called after the head
   * run, so no head test can reach into it.
   */
  base(content: BaseContent): string;
  /**
   * Writes one side's layer for a private tree over the checkout (the base
   * view's files and left-out paths; for both sides, each ignored entry that
   * links out of the checkout linked to its real path, as the copies link it,
   * since a sandbox shows it at that path only); returns its path, or
   * `undefined` when there is nothing to lay.
   */
  layer(content?: BaseContent): string | undefined;
  /**
   * The head tree with `files` replaced (a mutant: docs/proof.md, "Mutation
   * adequacy"), named `name`: its layer for a private tree over the
   * checkout, or a copy where no sandbox can hold one. Nothing is written to
   * the checkout.
   */
  variant(
    name: string,
    files: ReadonlyMap<string, { bytes: Uint8Array; mode: number }>,
  ): { layer(): string; copy(): string };
  /** Removes everything. */
  close(): void;
}

/** A new temporary directory for the trees of one proof. */
export function openViews(opts: {
  checkout: string;
  /** The checkout's git: the base versions are read through it. */
  git: Git;
  listing: TreeListing;
  parent?: string;
}): ProofViews {
  const dir = mkdtempSync(join(opts.parent ?? tmpdir(), "contract-gate-proof-"));
  const reads = [...new Set(opts.listing.ignored.map((p) => realOr(join(opts.checkout, p))))];
  const top = realOr(opts.checkout);
  const outside = (r: string) => r !== top && !r.startsWith(`${top}/`);
  const links: { path: string; target: string }[] = [];
  for (const p of opts.listing.ignored) {
    const from = join(opts.checkout, p);
    const real = realOr(from);
    if (outside(real) && isLink(from) && readlinkSync(from) !== real)
      links.push({ path: p, target: real });
  }
  return {
    dir,
    reads,
    readsOutside: reads.filter(outside),
    results(side) {
      const at = join(dir, `${side}-results`);
      // Fresh: nothing an earlier run left there is read as this run's.
      rmSync(at, { recursive: true, force: true });
      mkdirSync(at);
      return at;
    },
    async readBase(from) {
      const files = await readBase(opts.git, from.commit, from.plan.restore);
      // A path to restore that the merge base does not hold is left out, as the base has it:
      // copied from head, the base run would run the PR's version of it.
      const hide = new Set(from.plan.hide);
      for (const p of from.plan.restore) if (!files.has(p)) hide.add(p);
      return { files, hide };
    },
    head() {
      const tree = join(dir, "head");
      materialize(opts.checkout, tree, opts.listing, new Map(), new Set());
      return tree;
    },
    base(content) {
      const tree = join(dir, "base");
      materialize(opts.checkout, tree, opts.listing, content.files, content.hide);
      return tree;
    },
    layer(content) {
      if (content === undefined && links.length === 0) return undefined;
      const at = join(dir, content === undefined ? "head.layer" : "base.layer");
      const files = [...(content?.files ?? [])].map(([path, f]) => ({
        path,
        mode: f.mode,
        bytes: f.bytes,
      }));
      const hide = [...(content?.hide ?? [])].sort();
      writeFileSync(at, encodeLayer({ files, hide, links }), { mode: 0o600 });
      return at;
    },
    variant(name, files) {
      return {
        layer() {
          const at = join(dir, `${name}.layer`);
          const laid = [...files].map(([path, f]) => ({ path, mode: f.mode, bytes: f.bytes }));
          writeFileSync(at, encodeLayer({ files: laid, hide: [], links }), { mode: 0o600 });
          return at;
        },
        copy() {
          const tree = join(dir, name);
          materialize(opts.checkout, tree, opts.listing, files, new Set());
          return tree;
        },
      };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Both copies at once (tests, benches): `openViews`, then head and (when `base` is given) base. */
export async function buildViews(opts: {
  checkout: string;
  git: Git;
  listing: TreeListing;
  /** The merge base and what to take from it. */
  base?: { commit: string; plan: BasePlan };
  parent?: string;
}): Promise<{ dir: string; head: string; base?: string; reads: string[]; close(): void }> {
  const views = openViews(opts);
  try {
    const head = views.head();
    const base = opts.base ? views.base(await views.readBase(opts.base)) : undefined;
    return {
      dir: views.dir,
      head,
      ...(base !== undefined && { base }),
      reads: views.reads,
      close: views.close,
    };
  } catch (e) {
    views.close();
    throw e;
  }
}

/**
 * The merge-base versions of `paths`: one `ls-tree -r` (modes and objects,
 * no sizes: a size costs a read of every object) and one `cat-file --batch --buffer`.
 * Hardened git (src/git/run.ts), like every git command the gate runs.
 */
async function readBase(
  git: Git,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, { bytes: Uint8Array; mode: number }>> {
  const out = new Map<string, { bytes: Uint8Array; mode: number }>();
  if (paths.length === 0) return out;
  const wanted = new Set(paths);
  const blobs: { path: string; object: string; mode: number }[] = [];
  for (const { path, mode, type, object } of await git.lsTree(commit)) {
    if (!wanted.has(path)) continue;
    if (type !== "blob" || mode === "120000") {
      throw new Error(
        `${path} is not a regular file at the base (mode ${mode}): the base view cannot restore it`,
      );
    }
    blobs.push({ path, object, mode: mode === "100755" ? 0o755 : 0o644 });
  }
  // Missing at the base (a change the diff reports but the merge base does not hold): left out.
  if (blobs.length === 0) return out;
  const all = await git.catObjects(blobs.map((b) => b.object));
  let at = 0;
  for (const b of blobs) {
    const eol = all.indexOf(10, at);
    const [oid, type, size] = (eol < 0 ? "" : all.subarray(at, eol).toString("utf8")).split(" ");
    if (
      oid !== b.object ||
      type !== "blob" ||
      size === undefined ||
      eol + 1 + Number(size) > all.length
    ) {
      throw new Error(`${b.path} cannot be read at the base (object ${b.object})`);
    }
    if (Number(size) > MAX_BASE_FILE_BYTES) {
      throw new Error(
        `${b.path} is ${size} bytes at the base, over the ${MAX_BASE_FILE_BYTES}-byte limit of the base view`,
      );
    }
    out.set(b.path, { bytes: all.subarray(eol + 1, eol + 1 + Number(size)), mode: b.mode });
    at = eol + 1 + Number(size) + 1;
  }
  return out;
}

/** Writes one tree: the listing's files copied (or replaced, or left out), ignored entries linked. */
function materialize(
  checkout: string,
  dest: string,
  listing: TreeListing,
  replace: ReadonlyMap<string, { bytes: Uint8Array; mode: number }>,
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
  for (const [rel, f] of replace) {
    const to = join(dest, rel);
    dirOf(to);
    writeFileSync(to, f.bytes, { mode: f.mode });
  }
  for (const rel of listing.ignored) link(join(checkout, rel), join(dest, rel), dirOf);
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Links an ignored entry; where tracked files already made it a directory, links what is inside. */
function link(from: string, to: string, dirOf: (p: string) => void): void {
  if (!lexists(to)) {
    dirOf(to);
    // To the real path: a sandbox shows the checkout's ignored entries at their real paths only.
    symlinkSync(realOr(from), to);
    return;
  }
  if (!lstatSync(to).isDirectory() || !lstatSync(from).isDirectory()) return;
  for (const name of readdirSync(from)) link(join(from, name), join(to, name), dirOf);
}
