import pLimit from "p-limit";
import { behavioralExecutor, type CitationInput } from "../checks/behavioral.js";
import { runCommandExit } from "../checks/command-exit.js";
import { expectation } from "../checks/expectation.js";
import { runFileExists } from "../checks/file-exists.js";
import { commitTree } from "../checks/files/commit-tree.js";
import { diskTree } from "../checks/files/disk-tree.js";
import { createFileService } from "../checks/files/service.js";
import { runGrepMatch } from "../checks/grep-match.js";
import { runOracle } from "../checks/oracle.js";
import type { CheckResult, ExecutionContext, RepoTree } from "../checks/types.js";
import { citationsFor } from "../formats/evidence/index.js";
import type { Git } from "../git/index.js";
import type { Check, Contract, Criterion, Problem } from "../model/contract.js";
import type { Citation } from "../model/evidence.js";
import { sortProblems } from "../model/problems.js";
import { runOrder } from "../model/run-order.js";
import type { EnvHintContext } from "../process/env-hints.js";
import type { ProcessRunner } from "../process/run-process.js";
import {
  type CheckOutcome,
  type ContractOutcome,
  type CriterionOutcome,
  contractVerdict,
  criterionBase,
  decideCriterion,
  type RunSummary,
  refusal,
  refusedOutcome,
  summariseRun,
} from "../verdict.js";
import type { ContractTree } from "./contract-trees.js";

/** What to do with command checks (command-exit, oracles) of untrusted code. */
export type CommandPolicy = "run" | "block" | "skip";

export interface EngineOptions {
  /** Absolute repository root. */
  root: string;
  /**
   * The commit the static checks read (file-exists, grep-match, citations),
   * through `git`: where the gate judges a commit (the action; the CLI under
   * `--committed` or in CI). Without it they read the working tree under `root`.
   */
  commit?: { git: Git; sha: string };
  /** Concurrent check processes. */
  maxParallel: number;
  requireOracles: boolean;
  oracleTimeoutMs: number;
  regexTimeoutMs: number;
  /** Environment for executed commands: the built one (process/env.ts). */
  env: NodeJS.ProcessEnv;
  /** What the environment withheld: a failing check whose output names it says how to grant it. */
  envHints?: EnvHintContext;
  signal?: AbortSignal;
  /** Where command checks run (the run's sandbox); plain processes when absent. */
  runProcess?: ProcessRunner;
  /**
   * One private tree per contract (`run/contract-trees.ts`): each contract's
   * commands run in a tree of its own, opened before its first command and
   * closed after its last check ended. Absent: every command runs in `root`
   * through `runProcess` (a plain folder without git: there is no commit to lay).
   */
  trees?: { open(contract: string): Promise<ContractTree> };
  /** `run` unless the code under test is untrusted (see the action's `untrusted-commands`). */
  commands?: CommandPolicy;
  /** Why commands are blocked or skipped, as the policy's user set it (default `untrusted-commands: <policy>`). */
  commandsSetting?: string;
  /** The whole reason a blocked command check shows, when it is not the untrusted-fork policy (a shard leg without a boundary). */
  commandsReason?: string;
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  done: number;
  total: number;
  /** Labels (`path#id`) of the checks running now. */
  running: string[];
}

export interface EngineResult {
  summary: RunSummary;
  contracts: ContractOutcome[];
  /** What the static checks read: the commit, or the working tree (absent for a merge of shards). */
  read?: RepoTree["source"];
}

/** Contracts in flight per process slot (see runContracts). */
const CONTRACTS_IN_FLIGHT_PER_SLOT = 8;

const COMMAND_TYPES = new Set<Check["type"]>(["command-exit", "oracle"]);

/**
 * Run every check of every runnable contract and decide each criterion.
 * Invalid, drifted and aborted contracts execute nothing. Within a contract
 * the checks run in its declared order (`model/run-order.ts`); contracts run
 * concurrently, with processes bounded by `maxParallel` and every file read
 * and regex going through one file service, over the commit when given.
 */
export async function runContracts(
  contracts: readonly Contract[],
  opts: EngineOptions,
): Promise<EngineResult> {
  const signal = opts.signal ?? new AbortController().signal;
  const atCommit = opts.commit ? commitTree(opts.commit.git, opts.commit.sha) : undefined;
  const tree = atCommit ?? diskTree(opts.root);
  const files = createFileService({
    regexTimeoutMs: opts.regexTimeoutMs,
    signal,
    ...(atCommit && { blobs: atCommit.blobs }),
  });
  const limit = pLimit(Math.max(1, opts.maxParallel));
  const ctx: ExecutionContext = {
    root: opts.root,
    oracleTimeoutMs: opts.oracleTimeoutMs,
    regexTimeoutMs: opts.regexTimeoutMs,
    env: opts.env,
    ...(opts.envHints && { envHints: opts.envHints }),
    signal,
    files,
    tree,
    processSlot: (fn) => limit(fn),
    ...(opts.runProcess && { runProcess: opts.runProcess }),
  };
  const progress = new ProgressTracker(contracts, opts.onProgress);
  try {
    // Contracts start a bounded number at a time: with every one of 1,000
    // contracts started at once, 30,000 checks sat waiting for a process slot,
    // each holding its pending frames. Enough run together to keep every
    // process slot busy.
    const contractSlots = pLimit(CONTRACTS_IN_FLIGHT_PER_SLOT * Math.max(1, opts.maxParallel));
    // A private tree is a sandbox host (or a copy) of its own: as many open
    // as there are process slots. With every contract in flight opening one,
    // 16 hosts started at once, and under load none started within its limit.
    const treeSlots = pLimit(Math.max(1, opts.maxParallel));
    const outcomes = await Promise.all(
      contracts.map((c) => contractSlots(() => runContract(c, ctx, opts, progress, treeSlots))),
    );
    return { summary: summariseRun(outcomes), contracts: outcomes, read: tree.source };
  } finally {
    await files.close();
  }
}

async function runContract(
  contract: Contract,
  outer: ExecutionContext,
  opts: EngineOptions,
  progress: ProgressTracker,
  treeSlots: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<ContractOutcome> {
  const why = refusal(contract);
  if (why) return refusedOutcome(contract, why);
  let ctx = outer;

  const extraProblems: Problem[] = [];
  let citations: Citations | undefined;
  if (contract.criteria.some((k) => k.checks.some((c) => c.type === "behavioral"))) {
    citations = citationsOf(contract);
    extraProblems.push(...citations.problems);
  }

  // The contract's own tree: its commands see the head commit and each other's writes, nothing else.
  const commands = contract.criteria.some((k) => k.checks.some((c) => COMMAND_TYPES.has(c.type)));
  const trees = opts.trees;
  if (trees === undefined || !commands || (opts.commands ?? "run") !== "run")
    return runContractIn(contract, ctx, opts, progress, citations, extraProblems, undefined);
  // The tree is held from before the contract's first command until its last check has ended.
  return treeSlots(async () => {
    let tree: ContractTree | undefined;
    let treeError: string | undefined;
    if (!ctx.signal.aborted) {
      try {
        tree = await trees.open(contract.path);
        ctx = { ...ctx, root: tree.root, runProcess: tree.run };
      } catch (e) {
        treeError = `not run: the contract's private tree could not be opened: ${(e as Error).message}`;
      }
    }
    try {
      return await runContractIn(
        contract,
        ctx,
        opts,
        progress,
        citations,
        extraProblems,
        treeError,
      );
    } finally {
      tree?.close();
    }
  });
}

async function runContractIn(
  contract: Contract,
  ctx: ExecutionContext,
  opts: EngineOptions,
  progress: ProgressTracker,
  citations: Citations | undefined,
  extraProblems: Problem[],
  treeError: string | undefined,
): Promise<ContractOutcome> {
  const results = new Map<Criterion, CheckOutcome[]>();
  // A spec's Verification command decides its own criterion and each
  // acceptance criterion it proves: one check object, run once.
  const ran = new Map<Check, Promise<CheckResult>>();
  const runCriterion = async (criterion: Criterion) => {
    const outcomes: CheckOutcome[] = [];
    const label = `${contract.path}#${criterion.id}`;
    // Running means holding a process slot, not waiting for one: at 30,000
    // checks nearly all wait, and listing them on every event was quadratic.
    const checkCtx: ExecutionContext = {
      ...ctx,
      processSlot: (fn) => ctx.processSlot(() => progress.running(label, fn)),
    };
    for (const [index, check] of criterion.checks.entries()) {
      let pending = ran.get(check);
      if (pending === undefined) {
        pending =
          treeError !== undefined && COMMAND_TYPES.has(check.type)
            ? Promise.resolve<CheckResult>({
                result: "partial",
                failureReason: "verification-execution-error",
                reason: treeError,
                durationMs: 0,
              })
            : runCheck(check, criterion, index, checkCtx, opts, citations);
        ran.set(check, pending);
      }
      const result = await pending;
      progress.finish();
      outcomes.push({ type: check.type, expected: expectation(check), ...result });
    }
    results.set(criterion, outcomes);
  };

  for (const [i, step] of runOrder(contract).entries()) {
    // A command of the step before may have changed files on disk; a commit never changes.
    if (i > 0 && ctx.tree.source.kind === "working-tree") {
      await ctx.files.invalidate();
    }
    await Promise.all(step.map(runCriterion));
  }

  const criteria: CriterionOutcome[] = contract.criteria.map((k) => {
    const checks = results.get(k) ?? [];
    const decided =
      opts.commands === "skip" ? decideSkipped(k, checks, opts) : decideCriterion(k, checks, opts);
    return { ...criterionBase(k), ...decided, checks };
  });
  return {
    path: contract.path,
    kind: contract.kind,
    verdict: contractVerdict(criteria),
    problems: sortProblems([...contract.problems, ...extraProblems]),
    criteria,
  };
}

/**
 * Under `untrusted-commands: skip`, a criterion with a command is `not-run`
 * (never met: its contract is at best neutral) unless what did run already
 * blocks it. An abandonment blocks under every policy.
 */
function decideSkipped(
  k: Criterion,
  checks: readonly CheckOutcome[],
  opts: EngineOptions,
): ReturnType<typeof decideCriterion> {
  const commands = k.checks.filter((c) => COMMAND_TYPES.has(c.type)).length;
  if (k.abandon !== undefined || commands === 0) return decideCriterion(k, checks, opts);
  // The checks that ran (file checks, citations), decided on their own.
  const ran = k.checks.flatMap((c, i) => (COMMAND_TYPES.has(c.type) ? [] : [{ c, r: checks[i] }]));
  if (ran.length > 0) {
    // A missing result is a check that did not run: decideCriterion blocks on it.
    const own = decideCriterion(
      { ...k, checks: ran.map((x) => x.c) },
      ran.flatMap((x) => (x.r ? [x.r] : [])),
      opts,
    );
    if (own.blocking) return own;
  }
  return {
    status: "not-run",
    // Oracles required: a criterion no command decided blocks, as a manual one does.
    blocking: opts.requireOracles,
    reason: `not run: ${commands === 1 ? "a command" : `${commands} commands`} from an untrusted fork (untrusted-commands: skip)${opts.requireOracles ? ", and oracles are required (require-oracles)" : ""}`,
  };
}

async function runCheck(
  check: Check,
  criterion: Criterion,
  index: number,
  ctx: ExecutionContext,
  opts: EngineOptions,
  citations: Citations | undefined,
): Promise<CheckResult> {
  if (COMMAND_TYPES.has(check.type) && opts.commands && opts.commands !== "run") {
    return {
      result: "partial",
      failureReason: "verification-execution-error",
      reason:
        opts.commandsReason ??
        `not run: commands from an untrusted fork (${opts.commandsSetting ?? `untrusted-commands: ${opts.commands}`})`,
      durationMs: 0,
    };
  }
  switch (check.type) {
    case "file-exists":
      return runFileExists(check, ctx);
    case "grep-match":
      return runGrepMatch(check, ctx);
    case "command-exit":
      return runCommandExit(check, ctx);
    case "oracle":
      return runOracle(check, ctx);
    case "behavioral": {
      const input: CitationInput = citations?.invalid
        ? { invalid: citations.invalid }
        : citationsFor(citations?.list ?? [], criterion.group ?? "", checkIndex(criterion, index));
      return behavioralExecutor(input)(check, ctx);
    }
  }
}

/** 0-based index of a plan criterion's check in its task's `verification[]` (`T2.3` → 2). */
function checkIndex(criterion: Criterion, fallback: number): number {
  const k = Number(criterion.id.split(".").at(-1));
  return Number.isInteger(k) && k > 0 ? k - 1 : fallback;
}

interface Citations {
  list: Citation[];
  invalid?: string;
  problems: Problem[];
}

/** The citations of `phase-<name>-evidence.json` the loader read; any problem voids every citation. */
function citationsOf(contract: Contract): Citations {
  const evidence = contract.evidence ?? { kind: "none" };
  if (evidence.kind === "none") {
    return {
      list: [],
      invalid:
        "no evidence file pairs with this contract (only phase-<name>-contract.json has one)",
      problems: [],
    };
  }
  if (evidence.kind === "missing") {
    return { list: [], invalid: `${evidence.path} does not exist: no citations`, problems: [] };
  }
  const { path, file: parsed } = evidence;
  const errors = parsed.problems.filter((p) => p.severity === "error").length;
  if (errors > 0) {
    return {
      list: [],
      invalid: `${path} is invalid (${errors} error${errors === 1 ? "" : "s"}): no citation can be trusted`,
      problems: parsed.problems,
    };
  }
  return { list: parsed.citations, problems: parsed.problems };
}

class ProgressTracker {
  private done = 0;
  /** Labels holding a process slot now, with how many of their checks do. */
  private readonly now = new Map<string, number>();
  readonly total: number;
  constructor(
    contracts: readonly Contract[],
    private readonly report?: (p: Progress) => void,
  ) {
    this.total = contracts
      .filter((c) => refusal(c) === undefined)
      .reduce((n, c) => n + c.criteria.reduce((m, k) => m + k.checks.length, 0), 0);
  }
  /** Runs `fn` (a check's process) with `label` listed as running. */
  async running<T>(label: string, fn: () => Promise<T>): Promise<T> {
    this.now.set(label, (this.now.get(label) ?? 0) + 1);
    this.emit();
    try {
      return await fn();
    } finally {
      const n = (this.now.get(label) ?? 1) - 1;
      if (n > 0) this.now.set(label, n);
      else this.now.delete(label);
    }
  }
  finish() {
    this.done++;
    this.emit();
  }
  private emit() {
    this.report?.({ done: this.done, total: this.total, running: [...this.now.keys()] });
  }
}
