import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.js";
import type { Git } from "../git/index.js";
import type { Contract } from "../model/contract.js";
import { VERSION } from "../model/version.js";
import type { ShardBlock } from "../report/run-json.js";
import { UsageError } from "../scope/discover.js";
import { assignShards, parseShard, scopeDigest } from "../shard/assign.js";
import { isDirectory } from "../shard/read-dir.js";
import { shardBlock, shardFileName } from "../shard/report.js";
import type { CliIO } from "./io.js";

/** The commit the working tree is at, which every shard and the merge must share. */
export async function headCommit(git: Git, option: string): Promise<string> {
  const sha = await git.resolveCommit("HEAD");
  if (sha === undefined) {
    throw new UsageError(
      `${option} needs a commit: ${git.root} is not a git repository, or nothing is committed yet`,
    );
  }
  return sha;
}

/**
 * `run --shard i/n`: this leg's contracts out of the whole scope (the same
 * split on every leg, `assignShards`), its `shard` block, and its share on stderr.
 */
export async function shardOfScope(
  git: Git,
  scope: readonly Contract[],
  raw: string,
  io: CliIO,
): Promise<{ contracts: Contract[]; block: ShardBlock }> {
  const parsed = parseShard(raw);
  if (!parsed.ok) throw new UsageError(`--shard ${parsed.error}`);
  const { shard } = parsed;
  const headSha = await headCommit(git, "--shard");
  const share = assignShards(scope, shard.total)[shard.index - 1]!;
  const mine = new Set(share.paths);
  io.stderr(
    `contract-gate: shard ${shard.index} of ${shard.total}: ${share.paths.length} of ${scope.length} contracts, ${share.criteria} criteria, weight ${share.weight}\n`,
  );
  return {
    contracts: scope.filter((c) => mine.has(c.path)),
    block: shardBlock({
      shard,
      scopeDigest: scopeDigest(scope.map((c) => c.path)),
      headSha,
      env: io.env,
      gateVersion: VERSION,
    }),
  };
}

/**
 * `--report-file PATH`: the JSON report written atomically; into an existing
 * directory under the shard's own name. Returns the path written.
 */
export async function writeReportFile(
  path: string,
  shard: ShardBlock | undefined,
  chunks: Iterable<string>,
): Promise<string> {
  const target = shard && (await isDirectory(path)) ? join(path, shardFileName(shard)) : path;
  await writeFileAtomic(target, chunks);
  return target;
}
