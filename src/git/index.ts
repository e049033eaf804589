import { copyFile, mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ChangedFile } from "../model/changed-file.js";
import { type BlobRead, type BlobRequest, batchSpans, readBlobs } from "./blobs.js";
import { parseChangedLines } from "./diff-lines.js";
import { GitReadError, noMergeBase, noSuchRef, notARepository } from "./errors.js";
import { parseNameStatus } from "./name-status.js";
import { GitCommandError, runGit } from "./run.js";

export type { BlobRead, BlobRequest } from "./blobs.js";
export { GitReadError } from "./errors.js";

/**
 * Everything the gate asks of git, behind one small interface so the logic
 * takes it as a parameter and tests hand it a plain object. Every command
 * runs hardened (src/git/run.ts): what the repository configures, replaces
 * or grafts never changes an answer, and nothing in it runs.
 */
export interface Git {
  /** The directory git runs in: the root contract paths are relative to. */
  readonly root: string;
  /** The work tree's top level; `undefined` outside a repository. */
  topLevel(): Promise<string | undefined>;
  /** The commit `rev` names; `undefined` when it names none. */
  resolveCommit(rev: string): Promise<string | undefined>;
  /** A commit's parents, from its raw object (a shallow clone's commits have none otherwise). */
  parents(commit: string): Promise<string[] | undefined>;
  /**
   * The merge base of two revisions, deepening a shallow clone in bounded
   * steps. Throws `GitReadError`: not a repository, no such ref (with the
   * fetch for the remotes present), shallow, or unrelated histories.
   */
  mergeBase(base: string, head: string): Promise<string>;
  /** Files at a commit, in one batch (see `readBlobs`). Throws `GitReadError` ("unreadable"). */
  readAt(commit: string, requests: readonly BlobRequest[]): Promise<Map<string, BlobRead>>;
  /**
   * Every path under `root` at a commit — files, directories, symlinks and
   * submodules — relative to `root`, in one listing. Throws `GitReadError`.
   */
  pathsAt(commit: string): Promise<Set<string>>;
  /** `base...head`, with renames; paths relative to the repository's top level. Deepens like `mergeBase`. */
  changedBetween(base: string, head: string): Promise<ChangedFile[]>;
  /**
   * What differs between `commit` and the working tree, plus untracked files
   * that are not ignored (as added); paths relative to `root`.
   */
  worktreeChanges(commit: string, opts?: { renames?: boolean }): Promise<ChangedFile[]>;
  /**
   * The lines (1-based) of each of `paths` (relative to `root`) that the working
   * tree adds or changes against `commit`: `git diff --unified=0`, read from the
   * hunk headers. A path with no entry has no changed line (or no version at
   * `commit`: an untracked file is not diffed). Throws `GitReadError`.
   */
  changedLines(commit: string, paths: readonly string[]): Promise<Map<string, Set<number>>>;
  /** `git ls-files -z` with `options` (e.g. `--cached`, `--others`): the paths, relative to `root`. */
  lsFiles(options: readonly string[]): Promise<string[]>;
  /** Every entry of a commit's whole tree (`ls-tree -r --full-tree`), blobs, links and submodules alike. */
  lsTree(commit: string): Promise<TreeEntry[]>;
  /**
   * Every entry under `root` at a commit (`ls-tree -r -l`), relative to `root`, with blob
   * sizes: the tree the static checks read (one listing per run). Throws `GitReadError`.
   */
  filesAt(commit: string): Promise<TreeEntry[]>;
  /** `cat-file --batch` of `objects`, in order: each header line and body, as git prints them. */
  catObjects(objects: readonly string[]): Promise<Buffer>;
  /**
   * Blobs `objects`, in one `cat-file --batch`: the output and where each blob's bytes lie in
   * it, in order. Throws `GitReadError` when any is missing or not a blob.
   */
  readObjects(objects: readonly string[]): Promise<{ data: Uint8Array; spans: [number, number][] }>;
}

/** One line of `git ls-tree`: `mode` as git prints it (`100644`, `120000`, `160000`). */
export interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  path: string;
  /** Bytes of a blob, from `filesAt` (`ls-tree -l`); absent for links' targets unknown, trees, submodules. */
  size?: number;
}

/** The git of the repository at (or above) `root`. */
export function openGit(root: string): Git {
  const git = (
    args: readonly string[],
    input?: string,
    extra?: readonly string[],
    env?: Readonly<Record<string, string>>,
  ) => runGit(root, args, input, extra, env);
  const text = async (args: readonly string[]) => {
    try {
      return (await git(args)).toString("utf8").trim();
    } catch {
      return undefined;
    }
  };
  const resolveCommit = (rev: string) =>
    text(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`]);
  const remotes = async () => (await text(["remote"]))?.split("\n").filter(Boolean) ?? [];
  const shallow = async () => (await text(["rev-parse", "--is-shallow-repository"])) === "true";
  const unreadable = (what: string, e: unknown) =>
    new GitReadError(
      "unreadable",
      `Cannot read ${what} (${e instanceof GitCommandError ? e.stderr : (e as Error).message}). ` +
        "Fetch the history: actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`.",
    );

  async function mergeBase(base: string, head: string): Promise<string> {
    if ((await text(["rev-parse", "--git-dir"])) === undefined) throw notARepository(root);
    const ctx = async () => ({ root, remotes: await remotes(), shallow: await shallow() });
    const resolve = async (rev: string) => {
      const sha = await resolveCommit(rev);
      // An unknown sha may still be fetched by the deepening below; a name cannot.
      if (sha === undefined && !/^[0-9a-f]{40}$/.test(rev)) throw noSuchRef(rev, await ctx());
      return sha ?? rev;
    };
    const [b, h] = [await resolve(base), await resolve(head)];
    const found = await deepenUntil(b, h);
    if (found !== undefined) return found;
    // A shallow clone may simply not hold the commit yet: the history is what is missing.
    const isShallow = await shallow();
    for (const rev of isShallow ? [] : [base, head]) {
      if ((await resolveCommit(rev)) === undefined) throw noSuchRef(rev, await ctx());
    }
    throw noMergeBase(base, head, isShallow);
  }

  /** The merge base, fetching both commits and then deeper history (bounded) until there is one. */
  async function deepenUntil(b: string, h: string): Promise<string | undefined> {
    const find = () => text(["merge-base", b, h]);
    let found = await find();
    if (found !== undefined) return found;
    const all = await remotes();
    const remote = all.includes("origin") ? "origin" : all[0];
    if (remote === undefined) return undefined;
    const fetch = (extra: string[]) =>
      text([
        "-c",
        `remote.${remote}.uploadpack=git-upload-pack`,
        "fetch",
        "--no-tags",
        "--quiet",
        "--no-recurse-submodules",
        "--no-write-fetch-head",
        ...extra,
        remote,
        b,
        h,
      ]);
    await fetch([]);
    for (const depth of [50, 200, 1000, 5000]) {
      found = await find();
      if (found !== undefined) return found;
      await fetch([`--deepen=${depth}`]);
    }
    return find();
  }

  return {
    root,
    topLevel: () => text(["rev-parse", "--show-toplevel"]),
    resolveCommit,
    async parents(commit) {
      const raw = await text(["cat-file", "commit", commit]);
      if (raw === undefined) return undefined;
      const head = raw.split("\n\n")[0] ?? "";
      return [...head.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]!);
    },
    mergeBase,
    async readAt(commit, requests) {
      try {
        return await readBlobs((_cwd, args, input) => git(args, input), root, commit, requests);
      } catch (e) {
        const paths = requests.map((r) => r.path);
        const what = paths.length === 1 ? paths[0] : `${paths[0]} (and ${paths.length - 1} more)`;
        throw unreadable(`${what} at commit ${commit}`, e);
      }
    },
    async pathsAt(commit) {
      try {
        // -t: the directories too (a task may name one); run in `root`, so relative to it.
        const out = await git(["ls-tree", "-r", "-t", "-z", "--name-only", commit]);
        return new Set(
          out
            .toString("utf8")
            .split("\0")
            .filter((p) => p !== "" && p !== "./"),
        );
      } catch (e) {
        throw unreadable(`the paths at commit ${commit}`, e);
      }
    },
    async changedBetween(base, head) {
      await mergeBase(base, head);
      try {
        const out = await git([
          "diff",
          "--name-status",
          "-z",
          "--find-renames",
          "--no-ext-diff",
          "--no-textconv",
          `${base}...${head}`,
          "--",
        ]);
        return parseNameStatus(out.toString("utf8"));
      } catch (e) {
        throw unreadable(`the changes ${base}...${head}`, e);
      }
    },
    async worktreeChanges(commit, opts = {}) {
      try {
        // A diff against the working tree may hash files through the filter drivers the
        // repository configures (`filter.<name>.clean`): each one defined is switched off.
        const off = await filtersOff();
        // `git diff` against the working tree refreshes the index's stat data and writes it
        // back, GIT_OPTIONAL_LOCKS=0 or not: it reads and writes a private copy instead, so
        // the checkout's `.git/index` is byte-identical after the gate (issue 32).
        const diff = await withPrivateIndex((env) =>
          git(
            [
              "diff",
              "--name-status",
              "-z",
              opts.renames === false ? "--no-renames" : "--find-renames",
              "--no-ext-diff",
              "--no-textconv",
              "--relative",
              "--end-of-options",
              commit,
              "--",
            ],
            undefined,
            off,
            env,
          ),
        );
        const untracked = await git(["ls-files", "--others", "--exclude-standard", "-z"]);
        const files = parseNameStatus(diff.toString("utf8"));
        for (const path of untracked.toString("utf8").split("\0")) {
          if (path !== "") files.push({ path, status: "added" });
        }
        return files;
      } catch (e) {
        throw unreadable(`the working tree's changes since ${commit}`, e);
      }
    },
    async changedLines(commit, paths) {
      if (paths.length === 0) return new Map();
      try {
        const off = await filtersOff();
        const out = await withPrivateIndex((env) =>
          git(
            [
              "diff",
              "--unified=0",
              "--no-renames",
              "--no-ext-diff",
              "--no-textconv",
              "--no-color",
              "--src-prefix=a/",
              "--dst-prefix=b/",
              "--relative",
              "--end-of-options",
              commit,
              "--",
              // Literal: a path holding `*` or `:(` is that path, not a pattern.
              ...paths.map((p) => `:(literal)${p}`),
            ],
            undefined,
            off,
            env,
          ),
        );
        return parseChangedLines(out.toString("utf8"));
      } catch (e) {
        throw unreadable(`the lines changed since ${commit}`, e);
      }
    },
    async lsFiles(options) {
      const out = await git(["ls-files", "-z", ...options]);
      return out
        .toString("utf8")
        .split("\0")
        .filter((p) => p !== "");
    },
    async lsTree(commit) {
      const out = await git(["ls-tree", "-r", "-z", "--full-tree", commit]);
      const entries: TreeEntry[] = [];
      for (const entry of out.toString("utf8").split("\0")) {
        const tab = entry.indexOf("\t");
        if (tab < 0) continue;
        const [mode = "", type = "", object = ""] = entry.slice(0, tab).split(" ");
        entries.push({ mode, type, object, path: entry.slice(tab + 1) });
      }
      return entries;
    },
    async filesAt(commit) {
      let out: Buffer;
      try {
        out = await git(["ls-tree", "-r", "-l", "-z", "--end-of-options", commit]);
      } catch (e) {
        throw unreadable(`the files at commit ${commit}`, e);
      }
      const entries: TreeEntry[] = [];
      for (const entry of out.toString("utf8").split("\0")) {
        const tab = entry.indexOf("\t");
        if (tab < 0) continue;
        const [mode = "", type = "", object = "", size = "-"] = entry.slice(0, tab).split(/\s+/);
        const e: TreeEntry = { mode, type, object, path: entry.slice(tab + 1) };
        if (/^\d+$/.test(size)) e.size = Number(size);
        entries.push(e);
      }
      return entries;
    },
    // --buffer: one write per pipe-full, not a flush (and a wake-up of the gate) per object.
    catObjects: (objects) =>
      git(["cat-file", "--batch", "--buffer"], objects.map((o) => `${o}\n`).join("")),
    async readObjects(objects) {
      if (objects.length === 0) return { data: new Uint8Array(), spans: [] };
      try {
        const data = await git(
          ["cat-file", "--batch", "--buffer"],
          objects.map((o) => `${o}\n`).join(""),
        );
        return { data, spans: batchSpans(data, objects) };
      } catch (e) {
        throw unreadable(`${objects.length} objects`, e);
      }
    },
  };

  /**
   * Run `fn` with `GIT_INDEX_FILE` naming a private copy of the repository's
   * index (absent when the repository has none: git reads that as empty),
   * removed afterwards.
   */
  async function withPrivateIndex<T>(
    fn: (env: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<T> {
    const indexPath = resolve(
      root,
      (await git(["rev-parse", "--git-path", "index"])).toString("utf8").trim(),
    );
    const dir = await mkdtemp(join(tmpdir(), "contract-gate-index-"));
    const copy = join(dir, "index");
    try {
      await copyFile(indexPath, copy).then(
        () => keepIndexTime(indexPath, copy),
        (e: NodeJS.ErrnoException) => {
          if (e.code !== "ENOENT") throw e;
        },
      );
      return await fn({ GIT_INDEX_FILE: copy });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Give the copy the index's own mtime, cut to the whole second. Git trusts an
   * entry whose stat data match only when the entry is older than the index
   * file ("racy git"): a fresh copy's mtime made a file edited in the same
   * second as the last index write, to the same size, look unchanged (a
   * tasks.md un-checking `[x]` → `[ ]` right after a commit escaped `--base`).
   * An earlier time only makes git re-hash more files, never fewer.
   */
  async function keepIndexTime(indexPath: string, copy: string): Promise<void> {
    const { atimeNs, mtimeNs } = await stat(indexPath, { bigint: true });
    // Never 0: git switches the racy check off for an index dated the epoch.
    const seconds = (ns: bigint) => Math.max(1, Number(ns / 1_000_000_000n));
    await utimes(copy, seconds(atimeNs), seconds(mtimeNs));
  }

  /** Configuration that switches off every filter driver the repository defines. */
  async function filtersOff(): Promise<string[]> {
    return (await filterDrivers()).flatMap((n) => [
      `filter.${n}.clean=`,
      `filter.${n}.smudge=`,
      `filter.${n}.process=`,
      `filter.${n}.required=false`,
    ]);
  }

  /** The filter drivers the repository's own config defines (includes followed). */
  async function filterDrivers(): Promise<string[]> {
    let out: string;
    try {
      out = (await git(["config", "-z", "--get-regexp", "^filter\\."])).toString("utf8");
    } catch {
      return []; // exit 1: none defined
    }
    const names = new Set<string>();
    for (const entry of out.split("\0")) {
      const key = entry.split("\n")[0] ?? "";
      const last = key.lastIndexOf(".");
      if (key.startsWith("filter.") && last > "filter.".length) names.add(key.slice(7, last));
    }
    return [...names];
  }
}
