import { performance } from "node:perf_hooks";
import { isRequirementSpec } from "../formats/kinds/index.js";
import { commitPaths } from "../fs/repo-paths.js";
import { type Git, openGit } from "../git/index.js";
import type { IntegrityReport } from "../integrity/types.js";
import { workflowPathOf } from "../integrity/workflow-diff.js";
import { type BaseSide, loadContracts } from "../load/index.js";
import { secretValues } from "../process/env.js";
import { DEFAULT_TEST_PROVER } from "../proof/index.js";
import type { TestProver } from "../proof/prover.js";
import { proofHarnessCommand } from "../proof/run/harness-command.js";
import { redactorFor } from "../report/redact.js";
import type { Sandbox } from "../sandbox/index.js";
import { blockModified } from "../scope/committed.js";
import { baseSide } from "../sides/base-side.js";
import { ApiStops } from "./api-stops.js";
import { baseComparison } from "./base-comparison.js";
import { startCheckRun } from "./check-run.js";
import { collectContracts } from "./collect.js";
import type { RunnerEnv } from "./event.js";
import { type Gated, resolveHead } from "./head.js";
import { type ActionIO, type GitHubFactory, StopRun } from "./io.js";
import { mergeShards } from "./merge-shards.js";
import { proveStage } from "./proof.js";
import { publish } from "./publish.js";
import { readRun } from "./read-run.js";
import { redactingGitHub, redactingIO } from "./redacting.js";
import { reportRun } from "./report.js";
import { type ChecksRun, runChecks, startSandbox } from "./run-checks.js";
import { runShard } from "./shard.js";

export type { ActionIO } from "./io.js";

/** The workflow running the gate, read at the repository root (the workspace). */
function invokingWorkflow(runner: RunnerEnv): { path: string; git: Git } | undefined {
  const path = workflowPathOf(runner.workflowRef, runner.repository);
  return path === undefined || runner.workspace === undefined
    ? undefined
    : { path, git: openGit(runner.workspace) };
}

export interface ActionDeps {
  io: ActionIO;
  env: NodeJS.ProcessEnv;
  github: GitHubFactory;
  /** How to start the sandbox host (`[node, script, SANDBOX_HOST_ARG]`); none: no sandbox. */
  sandboxHost?: readonly string[];
  /** The action's own files: read-only for commands. */
  protect?: readonly string[];
  /** The requirement proof's test-running half (src/proof/prover.ts); the default runs none. */
  prover?: TestProver;
}

/**
 * The action, one stage after another: inputs and event → the commit to gate
 * → the contracts in scope → the base comparison → the check run started →
 * the checks → the report → the check run, comment, job summary and outputs.
 * A stage ends the run early by throwing StopRun (a failure, or a notice when
 * it stands down); the step's pass/fail otherwise follows the contracts, and
 * a reporting failure is a warning, never a verdict change.
 */
export async function runAction(deps: ActionDeps): Promise<void> {
  const { env, sandboxHost, protect, prover } = deps;
  // Every edge redacts the job's secret values: what a check printed is published nowhere.
  const redact = redactorFor(secretValues(env));
  const io = redactingIO(deps.io, redact);
  const github = redactingGitHub(deps.github, redact);
  let sandbox: Promise<Sandbox> | undefined;
  /** Each stage's wall time and the RSS after it, in the debug log (ACTIONS_STEP_DEBUG): where a slow run spends it. */
  const stage = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await body();
    } finally {
      const ms = Math.round(performance.now() - started);
      const rssMb = Math.round(process.memoryUsage.rss() / 1e6);
      io.debug?.(`contract-gate: stage ${name}: ${ms} ms; rss ${rssMb} MB`);
    }
  };
  try {
    const { runner, settings, target } = readRun(io, env);
    const [owner = "", repo = ""] = runner.repository.split("/");
    const api = github(settings.githubToken, { owner, repo }, runner.apiUrl);
    const git = openGit(settings.workingDirectory);
    const gated = await stage("head", () => resolveHead(api, target, git));
    const scope = await stage("collect", () =>
      collectContracts({ api, io, runner, settings, gated, git }),
    );
    // A leg of a job matrix runs its share and writes its report; the merge job publishes.
    if (settings.shard) {
      const sharded = { ...settings, shard: settings.shard };
      await stage("shard", () =>
        runShard({
          io,
          redact,
          env,
          runner,
          settings: sharded,
          gated,
          scope,
          git,
          sandboxHost,
          protect,
          prover,
        }),
      );
      return;
    }
    const merging = settings.mergeReports;
    // The sandbox host starts (a process of its own, and a probe) while the
    // next stages wait on git and the API; a run that stops early closes it.
    // No contract to run: no command runs, so no sandbox starts at all.
    if (scope.paths.length > 0 && merging === undefined) {
      sandbox = startSandbox({ env, settings, sandboxHost, protect });
      // Awaited two stages later: a rejection meanwhile must not end the process
      // unhandled (the await in runChecks still throws it into the step's error).
      sandbox.catch(() => {});
    }
    const compared = await stage("base-comparison", () =>
      baseComparison(
        api,
        git,
        settings.contracts,
        gated,
        scope,
        invokingWorkflow(runner),
        proofHarnessCommand(settings.proof),
      ),
    );
    const stops = new ApiStops();
    // The check run is created (a round trip to GitHub) while the contracts load
    // (CPU). startCheckRun never rejects: a failure is a warning or an API stop.
    const creating = stage("check-run", () =>
      startCheckRun({
        api,
        io,
        runner,
        checkName: settings.checkName,
        headSha: gated.headSha,
        stops,
      }),
    );
    // Run what was compared: a contract whose files on disk are not the commit's runs nothing.
    // The merge job loads only the requirement specs, whose proof findings (read from the
    // PR's diff, like the base comparison) it adds; the legs' reports carry every result,
    // the specs' test runs included (`withShardProofs` checks they proved against this base).
    // A spec's named paths are judged at that commit too (`commitPaths`), not on disk.
    const loaded = await stage("load", async () =>
      loadContracts(
        scope.root,
        merging === undefined ? scope.paths : scope.paths.filter(isRequirementSpec),
        commitPaths(git, "HEAD"),
        judgedAgainst(git, compared, gated, settings.scope),
      )
        .then((contracts) => blockModified(git, "HEAD", contracts))
        .catch((e: unknown) => {
          throw new StopRun(`contract-gate: ${(e as Error).message}`);
        }),
    );
    const { proof, integrity } = await stage("proof", () =>
      proveStage({
        api,
        git,
        env,
        settings,
        gated,
        scope,
        integrity: compared,
        contracts: loaded,
        sandbox,
        sandboxHost,
        protect,
        // The merge job runs no test: the legs ran the checks and their specs' mapped tests.
        ...(merging !== undefined ? { prover: DEFAULT_TEST_PROVER } : prover && { prover }),
      }),
    );
    const checks = async (): Promise<ChecksRun> => {
      await creating; // the check run is in progress before any check runs
      const opened = sandbox;
      sandbox = undefined; // runChecks closes it
      // The commit the static checks read, pinned before any check runs: a command that
      // commits or checks out in the checkout moves HEAD, never what the gate judges.
      const head = await git.resolveCommit("HEAD");
      return stage("run-checks", () =>
        runChecks({
          io,
          env,
          settings,
          target: gated.target,
          contracts: proof.contracts,
          sandbox: opened,
          ...(head !== undefined && { commit: { git, sha: head } }),
          sandboxHost,
          protect,
        }),
      );
    };
    // The merge job: the legs' reports (their specs' test runs too) in place of the checks.
    const merged =
      merging === undefined
        ? undefined
        : await stage("merge", () =>
            mergeShards({
              io,
              env,
              dir: merging,
              workspace: runner.workspace,
              scope,
              gated,
              proof: proof.specs,
            }),
          );
    const run = merged ?? (await checks());
    const checkRun = await creating;
    const report = await stage("report", () =>
      reportRun({
        io,
        redact,
        runner,
        settings,
        scope,
        integrity,
        run,
        proof: merged?.proof ?? proof.specs,
      }),
    );
    await stage("publish", () =>
      publish({ api, io, settings, gated, scope, run, report, checkRun, stops }),
    );
  } catch (e) {
    if (!(e instanceof StopRun)) throw e;
    if (e.as === "notice") (io.notice ?? io.info)(e.message);
    else io.setFailed(e.message);
  } finally {
    // Started but never handed to the checks: a stage stopped the run first.
    void sandbox?.then(
      (s) => s.close(),
      () => {},
    );
  }
}

/**
 * The base a change is judged against (a done task blocks only when the PR
 * checked it off): the PR's merge base, or the queued commit's base; a push
 * has none, and nothing it loads then blocks for a completion.
 */
function judgedAgainst(
  git: Git,
  compared: IntegrityReport,
  gated: Gated,
  scope: "changed" | "all",
): BaseSide | undefined {
  const base = compared.applies
    ? compared.base
    : gated.target.kind === "commit"
      ? gated.target.changedSince
      : undefined;
  return base === undefined ? undefined : baseSide(git, base, scope === "all");
}
