import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";

/**
 * Read a file without ever loading more than `limit + 1` bytes: enough for
 * the parser to see that a file is over its limit, never a whole huge file.
 * Synchronous on purpose: contracts are small and many, and a thread-pool
 * round trip per open/stat/read/close costs more than the read itself.
 */
export async function readBounded(
  absPath: string,
  limit = MAX_CONTRACT_BYTES,
): Promise<{ bytes: Uint8Array } | { error: string }> {
  return readBoundedSync(absPath, limit);
}

/** `readBounded`, for callers that are synchronous themselves. */
export function readBoundedSync(
  absPath: string,
  limit = MAX_CONTRACT_BYTES,
): { bytes: Uint8Array } | { error: string } {
  let fd: number | undefined;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (regular files are unaffected).
    fd = openSync(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { error: "is not a regular file" };
    const size = Math.min(stat.size, limit + 1);
    const buf = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const bytesRead = readSync(fd, buf, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buf.subarray(0, filled) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      error:
        code === "ENOENT"
          ? "does not exist"
          : code === "EACCES"
            ? "is not readable (permission denied)"
            : code === "EISDIR"
              ? "is a directory"
              : `could not be read (${code ?? (e as Error).message})`,
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
