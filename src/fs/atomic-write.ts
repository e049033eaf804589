import { randomBytes } from "node:crypto";
import { chmod, open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Write a file atomically: a temp file beside it, flushed to disk, then renamed
 * over the target. A crash leaves the old file or the new one, never a mix.
 * An existing file keeps its permissions. (write-file-atomic does the same but
 * relies on `__filename`, which an ESM bundle does not define.)
 */
export async function writeFileAtomic(
  path: string,
  // An iterable of strings is written piece by piece (a large report, streamed).
  data: string | Uint8Array | Iterable<string>,
): Promise<void> {
  const tmp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const mode = await stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const handle = await open(tmp, "wx", mode ?? 0o666);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
    // Each writeFile continues from the handle's current position.
    else for (const chunk of data) await handle.writeFile(chunk);
    await handle.sync();
    await handle.close();
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, path);
  } catch (e) {
    await handle.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
}
