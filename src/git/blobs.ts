import type { GitRunner } from "./run.js";

/** A file at a commit: its bytes, or why there are none. */
export type BlobRead =
  | { kind: "file"; bytes: Uint8Array; size: number }
  | { kind: "missing" }
  /** A symlink, a directory or a submodule at that path: never read, as on disk. */
  | { kind: "not-a-file"; mode: string };

/** One file to read at a commit: its path (relative to the root) and the most bytes wanted. */
export interface BlobRequest {
  path: string;
  limit: number;
}

/**
 * Each requested path as it is at `commit`, keyed by path. A blob larger than
 * its `limit` is reported with its size and no bytes. Two git processes in all
 * — one `ls-tree` per 500 paths, one `cat-file --batch` — however many paths.
 * Throws (the runner's error) when git cannot read the tree or a blob.
 */
export async function readBlobs(
  git: GitRunner,
  root: string,
  commit: string,
  requests: readonly BlobRequest[],
): Promise<Map<string, BlobRead>> {
  const out = new Map<string, BlobRead>();
  const wanted = new Map(requests.map((r) => [r.path, r.limit]));
  if (wanted.size === 0) return out;
  const blobs: { path: string; object: string }[] = [];
  for (const chunk of chunks([...wanted.keys()], 500)) {
    // Literal: a file the PR names `:(top)x` or `*.json` is that file, never a pattern.
    const args = ["--literal-pathspecs", "ls-tree", "-l", "-z", commit, "--", ...chunk];
    const listing = (await git(root, args)).toString("utf8");
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
  const all = await git(root, ["cat-file", "--batch"], blobs.map((b) => `${b.object}\n`).join(""));
  const contents = splitBatch(
    all,
    blobs.map((b) => b.object),
  );
  blobs.forEach((b, i) => {
    const read = out.get(b.path);
    if (read?.kind === "file") read.bytes = contents[i] ?? new Uint8Array();
  });
  return out;
}

/** `cat-file --batch` output → each blob's bytes, in order; throws when any is missing. */
function splitBatch(all: Buffer, objects: readonly string[]): Uint8Array[] {
  return batchSpans(all, objects).map(([start, end]) => new Uint8Array(all.subarray(start, end)));
}

/** `cat-file --batch` output → where each blob's bytes lie in it, in order; throws when any is missing. */
export function batchSpans(all: Buffer, objects: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  let at = 0;
  for (const object of objects) {
    const eol = all.indexOf(10, at);
    const header = eol < 0 ? "" : all.subarray(at, eol).toString("utf8");
    // "<oid> <type> <size>", or "<oid> missing".
    const [oid, type, size] = header.split(" ");
    if (oid !== object || type !== "blob" || size === undefined) {
      throw new Error(`object ${object} is not readable: ${header || "no answer"}`);
    }
    const end = eol + 1 + Number(size);
    if (end > all.length) throw new Error(`object ${object} was cut short`);
    out.push([eol + 1, end]);
    at = end + 1; // the newline after each blob
  }
  return out;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
