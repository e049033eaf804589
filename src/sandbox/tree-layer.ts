/**
 * A layer the sandbox lays over the working tree inside a check's view
 * (docs/security.md, "A private tree"): files whose bytes replace the
 * tree's, and paths the view leaves out. The gate writes it as one file
 * (one file on disk, however many paths: creating a file each is what a
 * copy of the tree costs), the host reads it into the overlay's upper layer
 * on its private tmpfs.
 *
 * The format: one JSON line (`{"files":[{"path","size","mode"}…],"hide":[…]}`),
 * then each file's bytes in that order. Pure: bytes in, bytes out.
 */

export interface LayerFile {
  /** Relative to the tree, `/`-separated. */
  path: string;
  /** `0o644` or `0o755`: git's two modes for a regular file. */
  mode: number;
  bytes: Uint8Array;
}

/** A symbolic link the layer puts where the tree has something else (an ignored entry's link, made real). */
export interface LayerLink {
  path: string;
  /** Absolute. */
  target: string;
}

export interface TreeLayer {
  files: LayerFile[];
  /** Relative paths left out of the view (files, or whatever the tree has there). */
  hide: string[];
  links?: LayerLink[];
}

export function encodeLayer(layer: TreeLayer): Buffer {
  const head = JSON.stringify({
    files: layer.files.map((f) => ({ path: f.path, size: f.bytes.length, mode: f.mode })),
    hide: layer.hide,
    links: layer.links ?? [],
  });
  return Buffer.concat([Buffer.from(`${head}\n`, "utf8"), ...layer.files.map((f) => f.bytes)]);
}

/**
 * Reads a layer back; throws with what is wrong. Every path must be a plain
 * relative path (no `.`, `..` or empty component, no NUL, not `.git` at any
 * depth): the host writes them as root, and git metadata is never replaced.
 */
export function decodeLayer(bytes: Uint8Array): TreeLayer {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eol = buf.indexOf(10);
  if (eol < 0) throw new Error("the tree layer has no header line");
  const head = JSON.parse(buf.subarray(0, eol).toString("utf8")) as unknown;
  if (typeof head !== "object" || head === null)
    throw new Error("the tree layer's header is not an object");
  const { files, hide, links } = head as { files?: unknown; hide?: unknown; links?: unknown };
  if (!Array.isArray(files) || !Array.isArray(hide) || !Array.isArray(links))
    throw new Error("the tree layer's header needs files, hide and links lists");
  const out: TreeLayer = { files: [], hide: [], links: [] };
  let at = eol + 1;
  for (const f of files as unknown[]) {
    const { path, size, mode } = (f ?? {}) as { path?: unknown; size?: unknown; mode?: unknown };
    if (typeof path !== "string" || !plainPath(path))
      throw new Error(`the tree layer names a path it may not write: ${JSON.stringify(path)}`);
    if (
      typeof size !== "number" ||
      !Number.isSafeInteger(size) ||
      size < 0 ||
      at + size > buf.length
    )
      throw new Error(`the tree layer's size for ${path} does not fit the file`);
    if (mode !== 0o644 && mode !== 0o755)
      throw new Error(`the tree layer's mode for ${path} is not a regular file's`);
    out.files.push({ path, mode, bytes: buf.subarray(at, at + size) });
    at += size;
  }
  if (at !== buf.length) throw new Error("the tree layer has bytes past its last file");
  for (const p of hide as unknown[]) {
    if (typeof p !== "string" || !plainPath(p))
      throw new Error(`the tree layer hides a path it may not touch: ${JSON.stringify(p)}`);
    out.hide.push(p);
  }
  for (const l of links as unknown[]) {
    const { path, target } = (l ?? {}) as { path?: unknown; target?: unknown };
    if (typeof path !== "string" || !plainPath(path))
      throw new Error(`the tree layer links a path it may not write: ${JSON.stringify(path)}`);
    if (typeof target !== "string" || !target.startsWith("/") || target.includes("\0"))
      throw new Error(`the tree layer's link ${path} has no absolute target`);
    out.links?.push({ path, target });
  }
  return out;
}

/** A relative path of plain components, none of them git's own directory. */
export function plainPath(p: string): boolean {
  if (p === "" || p.includes("\0")) return false;
  return p.split("/").every((c) => c !== "" && c !== "." && c !== ".." && c !== ".git");
}
