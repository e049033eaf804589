import picomatch from "picomatch";
import { normalizeRepoPath, unsafePathReason } from "../../formats/paths.js";
import type { Git, TreeEntry } from "../../git/index.js";
import type { BlobSource, RepoTree } from "../types.js";
import { gitDirRule, inGitDir, type Resolved } from "./confine.js";
import { type FileList, literalOrGlob, sortPaths, unsafeGlob } from "./glob.js";

/** How many links one path may pass through before it is a loop (Linux's MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

/** The listing of a commit, opened once: entries by path, the directories they imply, link targets. */
interface Snapshot {
  entries: Map<string, TreeEntry>;
  dirs: Set<string>;
  /** Each symlink's target, read from its blob. */
  targets: Map<string, string>;
  /** Regular files in path order: what a glob matches. */
  files: string[];
}

/**
 * The head commit as the static checks see it (issue 32): `file-exists`,
 * `grep-match` and citations read the commit's objects, never the disk, so
 * nothing a command wrote during the run — nor what a step before the gate
 * left in the checkout — changes their verdict. One tree listing per run
 * (`Git.filesAt`, on first use) and blobs read in batches by the file
 * service (`blobs`). The confinement rules are the working tree's: symlinks
 * (mode 120000) are followed only while they stay inside the root, never out
 * of it and never into `.git`; globs skip them; a submodule is a directory.
 */
export function commitTree(git: Git, commit: string): RepoTree & { blobs: BlobSource } {
  let opened: Promise<Snapshot> | undefined;
  const open = () => {
    opened ??= snapshot(git, commit);
    return opened;
  };
  let sizes: Map<string, number> | undefined;
  const blobs: BlobSource = {
    async sizes() {
      if (sizes === undefined) {
        const snap = await open();
        sizes = new Map();
        for (const [path, e] of snap.entries) if (e.size !== undefined) sizes.set(path, e.size);
      }
      return sizes;
    },
    async read(keys) {
      const snap = await open();
      const objects = keys.map((k) => snap.entries.get(k)?.object ?? "");
      return git.readObjects(objects);
    },
  };
  const resolve = async (path: string): Promise<Resolved> => {
    const unsafe = unsafePathReason(path);
    if (unsafe)
      return { kind: "error", rel: path, message: `path ${JSON.stringify(path)} ${unsafe}` };
    const rel = normalizeRepoPath(path);
    if (inGitDir(rel)) return { kind: "error", rel, message: gitDirRule(rel) };
    let snap: Snapshot;
    try {
      snap = await open();
    } catch (e) {
      return { kind: "error", rel, message: `${rel}: ${(e as Error).message}` };
    }
    return resolveIn(snap, rel);
  };
  return {
    source: { kind: "commit", commit },
    resolve,
    async list(path) {
      return literalOrGlob(path, resolve, async (pattern) => {
        if (inGitDir(pattern)) return { ok: false, error: gitDirRule(pattern) };
        if (unsafeGlob(pattern)) {
          return { ok: false, error: `glob ${pattern} could reach outside the repository` };
        }
        let snap: Snapshot;
        try {
          snap = await open();
        } catch (e) {
          return { ok: false, error: `could not list ${pattern}: ${(e as Error).message}` };
        }
        const match = picomatch(pattern, { dot: true });
        const files = snap.files.filter((f) => match(f) && !inGitDir(f));
        return { ok: true, glob: true, files: files.map((rel) => ({ rel, abs: rel })) } as FileList;
      });
    },
    blobs,
  };
}

async function snapshot(git: Git, commit: string): Promise<Snapshot> {
  const entries = new Map<string, TreeEntry>();
  const dirs = new Set<string>();
  const files: string[] = [];
  const links: TreeEntry[] = [];
  for (const e of await git.filesAt(commit)) {
    entries.set(e.path, e);
    for (let i = e.path.indexOf("/"); i !== -1; i = e.path.indexOf("/", i + 1)) {
      dirs.add(e.path.slice(0, i));
    }
    if (e.mode === "120000") links.push(e);
    else if (e.type === "blob") files.push(e.path);
  }
  const targets = new Map<string, string>();
  if (links.length > 0) {
    const read = await git.readObjects(links.map((l) => l.object));
    links.forEach((l, i) => {
      const [start, end] = read.spans[i]!;
      targets.set(l.path, Buffer.from(read.data.subarray(start, end)).toString("utf8"));
    });
  }
  return { entries, dirs, targets, files: sortPaths(files) };
}

/**
 * Where `rel` leads in the commit, following links component by component
 * as `realpath` does on disk. The real path is the file's key for reading.
 */
function resolveIn(snap: Snapshot, rel: string): Resolved {
  const brokenLink = snap.entries.get(rel)?.mode === "120000";
  let rest = rel === "." ? [] : rel.split("/");
  const done: string[] = [];
  let hops = 0;
  while (rest.length > 0) {
    const name = rest.shift()!;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (done.length === 0) {
        return { kind: "outside", rel, target: ["..", ...rest].join("/") };
      }
      done.pop();
      continue;
    }
    const here = [...done, name].join("/");
    const entry = snap.entries.get(here);
    if (entry?.mode === "120000") {
      if (++hops > MAX_LINK_HOPS) {
        return { kind: "error", rel, message: `${rel}: too many levels of symbolic links` };
      }
      const target = snap.targets.get(here) ?? "";
      if (target.startsWith("/")) return { kind: "outside", rel, target };
      rest = [...target.split("/"), ...rest];
      continue;
    }
    if (entry !== undefined) {
      // A file (or a submodule) with more path after it: ENOTDIR, missing as on disk.
      if (rest.some((r) => r !== "" && r !== ".") && entry.mode !== "160000") {
        return { kind: "missing", rel, brokenLink };
      }
      done.push(name);
      continue;
    }
    if (!snap.dirs.has(here)) return { kind: "missing", rel, brokenLink };
    done.push(name);
  }
  const real = done.join("/");
  if (real !== "" && inGitDir(real)) return { kind: "error", rel, message: gitDirRule(rel, real) };
  const entry = snap.entries.get(real);
  if (real === "" || entry === undefined) return { kind: "directory", rel, abs: real };
  if (entry.mode === "160000") return { kind: "directory", rel, abs: real };
  if (entry.type === "blob") return { kind: "file", rel, abs: real };
  return { kind: "other", rel, abs: real };
}
