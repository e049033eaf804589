import { constants, type Dirent } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { FoundReport } from "./merge.js";
import { MAX_SHARD_REPORT_BYTES, parseShardReport, shardOfFileName } from "./report.js";

/** Why the reports' directory cannot be read at all (not a directory): the caller's mistake. */
export class ShardDirError extends Error {}

/**
 * Every shard report under `dir`: in it (`merge-multiple: true`) and one
 * level down (one directory per artifact without it). A missing directory
 * holds no report (every leg died before uploading: the merge says so); a
 * file that cannot be read, a link or one over the cap is a failed report,
 * never an exception. Other files are listed in `ignored`.
 */
export async function readShardReports(
  dir: string,
): Promise<{ found: FoundReport[]; ignored: string[] }> {
  const found: FoundReport[] = [];
  const ignored: string[] = [];
  const top = await entries(dir, true);
  for (const e of top) {
    if (e.isDirectory()) {
      for (const inner of await entries(join(dir, e.name), false)) {
        await take(dir, `${e.name}/${inner.name}`, inner, found, ignored);
      }
    } else await take(dir, e.name, e, found, ignored);
  }
  return { found, ignored };
}

type Entry = Dirent;

async function entries(dir: string, top: boolean): Promise<Entry[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && top) return [];
    if (code === "ENOTDIR" && top) throw new ShardDirError(`${dir} is not a directory`);
    if (!top) return [];
    throw new ShardDirError(`cannot read ${dir}: ${(e as Error).message}`);
  }
}

async function take(
  dir: string,
  file: string,
  entry: Entry,
  found: FoundReport[],
  ignored: string[],
): Promise<void> {
  if (shardOfFileName(entry.name) === undefined) {
    ignored.push(file);
    return;
  }
  if (!entry.isFile()) {
    found.push({
      file,
      read: { ok: false, why: "it is not a regular file (a link or a directory)" },
    });
    return;
  }
  found.push({ file, read: await readBounded(join(dir, file), file) });
}

async function readBounded(path: string, file: string): Promise<FoundReport["read"]> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // O_NOFOLLOW: the entry was a file when listed; a link swapped in since is refused, not followed.
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const { size } = await handle.stat();
    if (size > MAX_SHARD_REPORT_BYTES) {
      return {
        ok: false,
        why: `it is over ${MAX_SHARD_REPORT_BYTES / 1024 / 1024} MiB (${size} bytes)`,
      };
    }
    const bytes = await handle.readFile();
    return parseShardReport(file.split("/").pop()!, bytes);
  } catch (e) {
    return { ok: false, why: `it cannot be read (${(e as Error).message})` };
  } finally {
    await handle?.close();
  }
}

/** Whether `path` is an existing directory (a `--report-file` given as one gets the shard's own name inside). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
