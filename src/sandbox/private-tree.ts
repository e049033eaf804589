import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { posix } from "node:path";
import type { PrivateTreeMount } from "./host-mounts.js";
import type { HostConfig } from "./protocol.js";
import { decodeLayer } from "./tree-layer.js";

/**
 * The upper layer of a private tree (docs/security.md, "A private tree"),
 * laid out by the host, as root, in its private stage (a tmpfs no one else
 * can reach) before the overlay is mounted: the layer's files written, and
 * every directory above a written or left-out path made here, so the
 * overlay shows the upper's own directory at each of them and nothing in
 * the tree on disk (a symbolic link where a directory was) can steer a
 * write or a removal elsewhere.
 *
 * Each directory the upper makes wears what the tree's directory wears
 * (mode, owner), or is the check's own where the tree has none: the overlay
 * shows the upper's attributes, and a root-owned directory would be one the
 * check cannot write in. Files are the check's own, as a copy the gate
 * writes would be. `lower`: the tree as the overlay's lower layer, idmapped
 * when checks run as the dedicated user (host.ts), so what the upper wears is
 * what the check sees the tree wear.
 */
export function layPrivateTree(
  config: HostConfig,
  stage: string,
  lower = config.root,
): PrivateTreeMount {
  const privateDir = posix.join(stage, "private");
  const upper = posix.join(privateDir, "tree-upper");
  const work = posix.join(privateDir, "tree-work");
  mkdirSync(work);
  mkdirSync(upper);
  wear(upper, lowerDir(lower), config);
  const layerPath = config.privateTree?.layer;
  if (layerPath === undefined) return { upper, work, hide: [], hideList: "" };
  const layer = decodeLayer(readFileSync(layerPath));
  /** Directories made in the upper, relative; `""` is the upper itself. */
  const made = new Set<string>([""]);
  /** Of those, the ones the tree has as real directories all the way down from its top. */
  const plainLower = new Set<string>([""]);
  const ensure = (dir: string): void => {
    if (made.has(dir)) return;
    const parent = posix.dirname(dir) === "." ? "" : posix.dirname(dir);
    ensure(parent);
    // Below a path that is no directory in the tree, the tree is left unread: a link leads anywhere.
    const like = plainLower.has(parent) ? lowerDir(posix.join(lower, dir)) : undefined;
    if (like !== undefined) plainLower.add(dir);
    const at = posix.join(upper, dir);
    mkdirSync(at);
    wear(at, like, config);
    made.add(dir);
  };
  for (const f of layer.files) {
    const dir = posix.dirname(f.path);
    ensure(dir === "." ? "" : dir);
    const at = posix.join(upper, f.path);
    // wx: a path written twice (or a file where the layer made a directory) is an error, not an overwrite.
    writeFileSync(at, f.bytes, { flag: "wx", mode: f.mode });
    chmodSync(at, f.mode);
    chownSync(at, config.uid, config.gid);
  }
  for (const l of layer.links ?? []) {
    const dir = posix.dirname(l.path);
    ensure(dir === "." ? "" : dir);
    // Never followed here: a link in the upper only shadows what the tree has at its path.
    symlinkSync(l.target, posix.join(upper, l.path));
    lchownSync(posix.join(upper, l.path), config.uid, config.gid);
  }
  /** Paths the layer put a file or link at: the upper's entry hides all the tree has below. */
  const laid = new Set([
    ...layer.files.map((f) => f.path),
    ...(layer.links ?? []).map((l) => l.path),
  ]);
  const underLaid = (p: string): boolean => {
    for (let d = posix.dirname(p); d !== "."; d = posix.dirname(d)) if (laid.has(d)) return true;
    return false;
  };
  const hide: string[] = [];
  for (const p of layer.hide) {
    // Below a restored file (the PR turned the file into a directory): gone with it already.
    if (underLaid(p)) continue;
    if (made.has(p)) {
      // A left-out path the layer also writes below (the PR made a directory a link or a
      // file): the upper's own directory already shadows what the tree has there, and
      // removing it would take the layer's files with it. Where the tree has a real
      // directory there the two cannot both hold: refused, and the side is copied instead.
      if (plainLower.has(p))
        throw new Error(`the tree layer both writes below and leaves out ${JSON.stringify(p)}`);
      continue;
    }
    const dir = posix.dirname(p);
    ensure(dir === "." ? "" : dir);
    hide.push(p);
  }
  return { upper, work, hide, hideList: hide.length > 0 ? writeHideList(stage, config, hide) : "" };
}

/** The tree's directory at `path` (mode, owner), unless it is none (absent, a link, a file). */
function lowerDir(path: string): { mode: number; uid: number; gid: number } | undefined {
  try {
    const st = lstatSync(path);
    return st.isDirectory() ? { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid } : undefined;
  } catch {
    return undefined;
  }
}

function wear(
  at: string,
  like: { mode: number; uid: number; gid: number } | undefined,
  config: HostConfig,
): void {
  chmodSync(at, like?.mode ?? 0o755);
  chownSync(at, like?.uid ?? config.uid, like?.gid ?? config.gid);
}

/** Writes `hide` as the view's absolute paths, NUL-ended, for `xargs -0`; returns the file. */
function writeHideList(stage: string, config: { root: string }, hide: readonly string[]): string {
  const file = posix.join(stage, "private", "tree-hide");
  const R = `${stage}/root`;
  writeFileSync(file, hide.map((p) => `${posix.join(R, config.root, p)}\0`).join(""), {
    mode: 0o600,
  });
  return file;
}
