import { companionsOf } from "../formats/kinds/companions.js";
import { planHash } from "../formats/plan-hash.js";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import { readRepoFile } from "../fs/repo-file.js";
import type { BlobRead, Git } from "../git/index.js";
import type { Contract } from "../model/contract.js";
import { problem, sortProblems } from "../model/problems.js";

/** The most bytes compared per file: a plan may be larger than a contract. */
const LIMIT = 16 * MAX_CONTRACT_BYTES;

/**
 * Run what was compared: the comparison reads the commit, the checks run the
 * working tree. A contract whose files on disk differ from the commit (a step
 * before the gate ran PR code — an `npm ci` `postinstall` — and rewrote one
 * after checkout) gets the error `worktree-modified`, so it runs nothing and
 * blocks, naming the file. The contract's own bytes are the ones the loader
 * parsed (its digest), so a rewrite after this check changes nothing run.
 * Throws `GitReadError` when the commit cannot be read.
 */
export async function blockModified(
  git: Git,
  commit: string,
  contracts: readonly Contract[],
): Promise<Contract[]> {
  // Every file the gate parses for a contract and that can change its verdict (its
  // companions: a spec's `checklists/*.md` only ever warn, so they are not compared).
  const paths = [...new Set(contracts.flatMap(parsedFiles))];
  const committed = await git.readAt(
    commit,
    paths.map((path) => ({ path, limit: LIMIT })),
  );
  const sha = (await git.resolveCommit(commit)) ?? commit;
  return contracts.map((contract) => {
    const changed = parsedFiles(contract).filter((path, i) => {
      const atCommit = committed.get(path) ?? { kind: "missing" };
      return i === 0 && contract.digest !== undefined
        ? !sameDigest(atCommit, contract.digest)
        : !sameAsDisk(git.root, path, atCommit);
    });
    if (changed.length === 0) return contract;
    const found = changed.map((path) =>
      problem(
        "worktree-modified",
        { path: contract.path, line: 1, column: 1 },
        `${path} in the working tree differs from commit ${sha.slice(0, 12)}: a step before the gate changed it after checkout, so ${contract.path} runs nothing (the gate runs only what it compared)`,
        {
          hint: "run no pull-request code before the gate: install dependencies with `npm ci --ignore-scripts`, or inside a check",
        },
      ),
    );
    return { ...contract, problems: sortProblems([...contract.problems, ...found]) };
  });
}

/**
 * The files a contract was read from: its companions, except that an
 * OpenSpec change's companion is its whole folder, so the files the loader
 * actually read there (the deltas, tasks, design, main specs) stand for it.
 */
function parsedFiles(contract: Contract): string[] {
  if (contract.header.kind === "openspec-change") {
    return contract.header.change?.files ?? [contract.path];
  }
  return companionsOf(contract.path);
}

function sameDigest(atCommit: BlobRead, digest: string): boolean {
  return atCommit.kind === "file" && atCommit.size <= LIMIT && planHash(atCommit.bytes) === digest;
}

function sameAsDisk(root: string, path: string, atCommit: BlobRead): boolean {
  const disk = readRepoFile(root, path, LIMIT);
  if (atCommit.kind === "missing") return disk.kind === "missing";
  // A symlink or submodule at the commit: the loader refuses whatever is on disk but a regular file.
  if (atCommit.kind === "not-a-file") return disk.kind !== "file";
  if (disk.kind !== "file" || disk.size !== atCommit.size) return false;
  // Too large to compare byte for byte: the loader refuses it by its size anyway.
  if (atCommit.size > LIMIT) return true;
  return Buffer.from(disk.bytes).equals(Buffer.from(atCommit.bytes));
}
