import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { checkDrift } from "./drift.js";
import { kindOf, parseContract } from "./formats/index.js";
import { MAX_CONTRACT_BYTES } from "./formats/text.js";
import type { Contract, ContractKind } from "./model.js";
import { problem, sortProblems } from "./problems.js";

type ReadResult = { bytes: Uint8Array } | { error: string };

/**
 * Read a file without ever loading more than `limit + 1` bytes: enough for
 * the parser to see that a file is over its limit, never a whole huge file.
 * Synchronous underneath on purpose: contracts are small and many, and a
 * thread-pool round trip per open/stat/read/close costs more than the read itself.
 */
export async function readBounded(
  absPath: string,
  limit = MAX_CONTRACT_BYTES,
): Promise<ReadResult> {
  return readBoundedSync(absPath, limit);
}

function readBoundedSync(absPath: string, limit: number): ReadResult {
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

/**
 * Read, parse and drift-check one contract. `relPath` is relative to `root`
 * with forward slashes; it is the path every problem reports. The work is
 * synchronous: a batch of calls (`Promise.all(paths.map(loadContract))`)
 * then holds one contract's bytes at a time, not every file at once.
 */
export async function loadContract(
  root: string,
  relPath: string,
  kind: ContractKind = kindOf(relPath) ?? "oracle-contract",
): Promise<Contract> {
  const read = readBoundedSync(join(root, relPath), MAX_CONTRACT_BYTES);
  if ("error" in read) {
    return {
      kind,
      path: relPath,
      header: emptyHeader(kind, relPath),
      criteria: [],
      problems: [
        problem(
          "file-unreadable",
          { path: relPath, line: 1, column: 1 },
          `${relPath} ${read.error}`,
        ),
      ],
    };
  }
  const contract = parseContract(kind, relPath, read.bytes);
  const header = contract.header;
  // Drift needs a well-formed hash field; a file that did not even parse as JSON has none.
  if (header.kind === "plan-contract" && !contract.problems.some((p) => p.code === "json-syntax")) {
    let planBytes: Uint8Array | undefined;
    if (header.planPath !== undefined) {
      const plan = readBoundedSync(join(root, header.planPath), Number.MAX_SAFE_INTEGER);
      planBytes = "bytes" in plan ? plan.bytes : undefined;
    }
    const drift = checkDrift(header, planBytes);
    contract.drift = drift.state;
    contract.problems = sortProblems([...contract.problems, ...drift.problems]);
  }
  return contract;
}

function emptyHeader(kind: ContractKind, path: string): Contract["header"] {
  return kind === "plan-contract"
    ? {
        kind,
        sourcePlanHashLocation: { path, line: 1, column: 1 },
        tasks: [],
        successCriteria: [],
      }
    : { kind };
}
