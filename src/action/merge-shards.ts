import { relative } from "node:path";
import { performance } from "node:perf_hooks";
import { VERSION } from "../model/version.js";
import type { SpecProof } from "../proof/types.js";
import { describeSandbox } from "../sandbox/describe.js";
import { mergeShardReports } from "../shard/merge.js";
import { withShardProofs } from "../shard/proof.js";
import { readShardReports, ShardDirError } from "../shard/read-dir.js";
import { runOf } from "../shard/report.js";
import { summariseRun } from "../verdict.js";
import type { Scope } from "./collect.js";
import type { Gated } from "./head.js";
import { type ActionIO, StopRun } from "./io.js";
import type { ChecksRun } from "./run-checks.js";

/**
 * The merge job (`merge-reports`, docs/sharding.md), in place of running the
 * checks: the legs' reports merged against this job's own scope, commit, gate
 * version and workflow run. Whatever is missing or inconsistent is a failing
 * row (`mergeShardReports`), so the stages after it publish exactly what an
 * unsharded run would, with those rows added.
 */
export async function mergeShards(args: {
  io: ActionIO;
  env: NodeJS.ProcessEnv;
  dir: string;
  workspace: string | undefined;
  scope: Scope;
  gated: Gated;
  /** The merge's own requirement proof (the diff readings); the legs' test runs join it. */
  proof: readonly SpecProof[];
}): Promise<ChecksRun & { proof: SpecProof[] }> {
  const { io, env, dir, workspace, scope, gated } = args;
  const label =
    workspace && !relative(workspace, dir).startsWith("..") ? relative(workspace, dir) || "." : dir;
  // What the merge job does that an unsharded run does not: its time is logged (docs/sharding.md's cost).
  const start = performance.now();
  let read: Awaited<ReturnType<typeof readShardReports>>;
  try {
    read = await readShardReports(dir);
  } catch (e) {
    if (e instanceof ShardDirError) throw new StopRun(`contract-gate: merge-reports: ${e.message}`);
    throw e;
  }
  if (read.ignored.length > 0) {
    io.warning(
      `contract-gate: merge-reports: not shard reports, ignored: ${read.ignored.slice(0, 5).join(", ")}${read.ignored.length > 5 ? ` and ${read.ignored.length - 5} more` : ""}`,
    );
  }
  const merged = mergeShardReports(
    read.found,
    {
      scope: scope.paths,
      headSha: gated.headSha,
      gateVersion: VERSION,
      runId: runOf(env).runId,
    },
    label,
  );
  io.info(
    `contract-gate: merged ${merged.used.length} of ${merged.total ?? "?"} shards from ${label} in ${Math.round(performance.now() - start)} ms${merged.failures ? `; ${merged.failures} failing shard row${merged.failures === 1 ? "" : "s"}` : ""}`,
  );
  const { outcomes, proof } = withShardProofs(merged, read.found, args.proof);
  const result = { summary: summariseRun(outcomes), contracts: outcomes };
  if (merged.sandbox === undefined) return { result, proof };
  const sandboxText = describeSandbox(merged.sandbox);
  io.info(sandboxText.line);
  if (sandboxText.warning) io.warning(`contract-gate: ${sandboxText.warning}`);
  return { result, sandbox: merged.sandbox, sandboxText, proof };
}
