import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { commitPaths } from "../fs/repo-paths.js";
import { type Git, GitReadError } from "../git/index.js";
import { loadContracts } from "../load/index.js";
import { VERSION } from "../model/version.js";
import type { TestProver } from "../proof/prover.js";
import { plain } from "../report/paint.js";
import { noRedaction, type Redact, redactChunks } from "../report/redact.js";
import { runReportJsonChunks } from "../report/run-json.js";
import { renderTerminal } from "../report/terminal.js";
import { blockModified } from "../scope/committed.js";
import { assignShards, type ShardSpec, scopeDigest } from "../shard/assign.js";
import { legRefusal } from "../shard/leg-policy.js";
import { shardBlock, shardFileName } from "../shard/report.js";
import { baseSide } from "../sides/base-side.js";
import type { Scope } from "./collect.js";
import type { RunnerEnv } from "./event.js";
import type { Gated } from "./head.js";
import type { ActionSettings } from "./inputs.js";
import { type ActionIO, StopRun } from "./io.js";
import { proveContracts } from "./proof.js";
import { runChecks, startSandbox } from "./run-checks.js";

/**
 * One leg of a job matrix (`shard: i/n`, docs/sharding.md): its share of the
 * scope (the split every leg computes alike), run like any run — its
 * requirement specs' mapped tests proved against the PR's merge base, as an
 * unsharded run proves them — written as its report for the merge job. No
 * check run, no comment, no base comparison: the merge does those once, and
 * checks every leg proved against its own merge base. Blocking results do not fail the step (the
 * upload after it must run; the merge decides); a report that cannot be
 * written does.
 */
export async function runShard(args: {
  io: ActionIO;
  /** The job's secret values out of the shard's report (the io redacts the rest). */
  redact?: Redact;
  env: NodeJS.ProcessEnv;
  runner: RunnerEnv;
  settings: ActionSettings & { shard: ShardSpec };
  gated: Gated;
  scope: Scope;
  git: Git;
  sandboxHost: readonly string[] | undefined;
  protect: readonly string[] | undefined;
  prover?: TestProver | undefined;
}): Promise<void> {
  const { io, env, runner, settings, gated, scope, git, sandboxHost, protect } = args;
  const { shard } = settings;
  // Read first: the contracts are judged against it (a phantom completion is a task
  // this change marks done, as on an unsharded run), and the proof runs against it.
  const mergeBase = await mergeBaseOf(git, gated);
  const judgedBase =
    mergeBase ?? (gated.target.kind === "commit" ? gated.target.changedSince : undefined);
  // Every contract in scope is read (weights need its checks), only this leg's run.
  const all = await loadContracts(
    scope.root,
    scope.paths,
    commitPaths(git, "HEAD"),
    judgedBase === undefined ? undefined : baseSide(git, judgedBase, settings.scope === "all"),
  )
    .then((contracts) => blockModified(git, "HEAD", contracts))
    .catch((e: unknown) => {
      throw new StopRun(`contract-gate: ${(e as Error).message}`);
    });
  const share = assignShards(all, shard.total)[shard.index - 1]!;
  const mine = new Set(share.paths);
  const contracts = all.filter((c) => mine.has(c.path));
  io.info(
    `contract-gate: shard ${shard.index} of ${shard.total}: ${contracts.length} of ${all.length} contracts, ${share.criteria} criteria, weight ${share.weight}`,
  );
  const sandbox =
    contracts.length > 0 ? startSandbox({ env, settings, sandboxHost, protect }) : undefined;
  // Awaited after the merge base is read: a rejection meanwhile must not end the process unhandled.
  sandbox?.catch(() => {});
  const proof = await proveContracts({
    git,
    env,
    settings,
    gated,
    scope,
    base: mergeBase,
    contracts,
    sandbox,
    sandboxHost,
    protect,
    ...(args.prover && { prover: args.prover }),
  });
  const head = await git.resolveCommit("HEAD");
  const run = await runChecks({
    io,
    env,
    settings,
    target: gated.target,
    contracts: proof.contracts,
    sandbox,
    ...(head !== undefined && { commit: { git, sha: head } }),
    sandboxHost,
    protect,
    refuse: (info) => legRefusal(info, { auto: "sandbox: auto", off: "`sandbox: off`" }),
  });
  // A process a check left behind could rewrite this report before the upload: none is written then.
  if (run.ended === false)
    throw new StopRun(
      "contract-gate: this shard's sandbox did not end every process its checks started; no report is written, so the merge fails closed",
    );
  const { summary, contracts: outcomes } = run.result;
  io.untrusted(renderTerminal(summary, outcomes, plain));

  const dir = join(runner.runnerTemp ?? tmpdir(), "contract-gate");
  const path = join(dir, shardFileName(shard));
  const block = shardBlock({
    shard,
    scopeDigest: scopeDigest(scope.paths),
    headSha: gated.headSha,
    env,
    gateVersion: VERSION,
  });
  try {
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(
      path,
      redactChunks(
        runReportJsonChunks(
          summary,
          outcomes,
          {
            ...(run.sandbox && { sandbox: run.sandbox }),
            proof: proof.specs,
            shard: block,
          },
          // Data for the merge job, not for reading: one line (docs/sharding.md, "Cost").
          { compact: true },
        ),
        args.redact ?? noRedaction,
      ),
    );
  } catch (e) {
    throw new StopRun(
      `contract-gate: could not write this shard's report ${path}: ${(e as Error).message}`,
    );
  }
  io.info(`contract-gate: shard report written to ${path}; upload it for the merge job`);
  io.setOutput("report-file", path);
  io.setOutput("report", path);
  io.setOutput("conclusion", summary.conclusion);
  io.setOutput("contracts", summary.counts.contracts);
}

/**
 * The merge base the unsharded run's base comparison would use (the PR's
 * base and the gated head), for the proof; none without a PR. Fails the leg
 * when it cannot be read: its shard is then missing, never proved against
 * nothing.
 */
async function mergeBaseOf(git: Git, gated: Gated): Promise<string | undefined> {
  const target = gated.target;
  if (target.kind !== "pull-request") return undefined;
  try {
    return await git.mergeBase(target.baseSha!, gated.headSha);
  } catch (e) {
    if (!(e instanceof GitReadError)) throw e;
    throw new StopRun(
      `contract-gate: the requirement proof could not find the merge base: ${e.message}`,
    );
  }
}
