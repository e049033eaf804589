import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Git } from "../../git/index.js";
import type { ChangedFile } from "../../github/types.js";
import { type ProcessRunner, runProcess } from "../../process/run-process.js";
import { openSandbox, privateTreeFits, type SandboxOptions } from "../../sandbox/index.js";
import { DEFAULT_TEST_TIMEOUT_SECONDS } from "../prover.js";
import { DEFAULT_TEST_FILE_GLOBS, isTestFile } from "../test-files.js";
import type { ProofRun, ProveInput, TestProof } from "../types.js";
import { disagreements, entryKey, soloAnswer } from "./agree.js";
import { detectTestCommand } from "./detect.js";
import { answerFor, type GradedEntry, gradedEntries, gradeTest, type SideAnswer } from "./grade.js";
import {
  applyMutation,
  DEFAULT_MUTANTS_PER_REQUIREMENT,
  DEFAULT_MUTATION_TIMEOUT_SECONDS,
  type MutantSide,
  mutantPool,
  type RequirementProofMode,
  runMutants,
} from "./mutation.js";
import { batches, commandFromInput, type TestCommand } from "./presets.js";
import { type Invocation, runSide, runSolo, type SideInput } from "./side.js";
import { type BaseContent, listTree, openViews, type ProofViews, planBase } from "./view.js";

/** Default `test-timeout-seconds`, each runner invocation's bound: one constant, the inputs' own. */
export { DEFAULT_TEST_TIMEOUT_SECONDS } from "../prover.js";
export { commandFromInput, PRESET_TEMPLATES, TEST_PRESETS, type TestPreset } from "./presets.js";
export { settleWithProof } from "./settle.js";

/**
 * One side's tree, as a runner factory is asked for it: over the checkout
 * as a private tree (the sandbox's copy-on-write view, nothing written to
 * disk but one layer file), or as a temporary copy where no sandbox can hold one.
 */
export interface TreeRequest {
  side: "head" | "base";
  /** The checkout, a real path: a private tree's lower layer. */
  checkout: string;
  /** This side's tree-layer file (what the merge base changes, links made real), written when asked for; none: nothing to lay. */
  layer: () => string | undefined;
  /** This side's temporary copy, written when asked for. */
  copy: () => string;
  /** What the tree's ignored entries point at: outside the checkout (a private tree) or all (a copy). */
  reads: { privateTree: readonly string[]; copy: readonly string[] };
  /** The run's results directory, outside the tree: writable. */
  results: string;
  /** How many runner invocations this side makes (one, or one per file for Node). */
  invocations: number;
}

/** Where one side's commands run, and the tree they run in (`root`). */
export type RunnerFactory = (tree: TreeRequest) => Promise<{
  run: ProcessRunner;
  close(): void;
  root: string;
}>;

/** Everything `proveTests` needs besides the specs: the repository, the PR's changes, the inputs. */
export interface ProverContext {
  /** The repository's top level (the checkout). Never written: both runs see it through private trees or copies. */
  root: string;
  /** The checkout's git (opened by the adapter): what the trees list and the base view read. */
  git: Git;
  /** The merge base of the PR (`Git.mergeBase`): the code before this change. */
  base: string;
  /** The PR's changes, merge base → head (`Git.changedBetween`). */
  changed: readonly ChangedFile[];
  /** The `test-command` input: a preset name, a template with `{junit}`/`{files}`, or unset (detect). */
  testCommand?: string;
  /** The `test-files` input; default `DEFAULT_TEST_FILE_GLOBS`. */
  testFiles?: readonly string[];
  /** The `test-timeout-seconds` input, per runner invocation; default 600. */
  testTimeoutSeconds?: number;
  /**
   * `requirement-proof`: `mutation` (default where the runner is a preset:
   * a proven requirement must also kill a mutant of the changed code),
   * `fail-to-pass`, or `off` (never reaches here).
   */
  requirementProof?: RequirementProofMode;
  /** `mutants-per-requirement`, default 8. */
  mutantsPerRequirement?: number;
  /** `mutation-timeout-seconds`: the whole mutation step's budget, default 300. */
  mutationTimeoutSeconds?: number;
  /** How many mutants run at once (the run's `max-parallel`); default 1. */
  mutationLanes?: number;
  /** Where runs happen: `sandboxRunners(…)`; absent: plain processes, no boundary. */
  runners?: RunnerFactory;
  /** The environment for test commands, already stripped of credentials. */
  env: NodeJS.ProcessEnv;
  /** Aborted on cancellation (SIGTERM, Ctrl-C): the runs are killed, the copies removed. */
  signal: AbortSignal;
  /** Where the two trees are made; default the system's temp directory. */
  tempDir?: string;
  /**
   * Set when the PR's code may not run (the trust policy: `untrusted-commands`
   * `block`/`skip`): a test run is the PR's code, so no runner starts and
   * every mapped test is an execution error saying why.
   */
  refuse?: { message: string; hint: string };
}

/**
 * Each run inside a sandbox of its own, through the sandbox's public entry.
 * With a boundary, the tree is the checkout itself as a private tree
 * (docs/security.md, "A private tree"): the base side's layer on top, every
 * write the run makes its own and gone with it, so nothing is copied.
 * Without one (or where the checkout's path cannot be an overlay's), a
 * temporary copy, read-write, with the checkout's ignored entries it links
 * to (`node_modules`) read-only. Either way the results directory is writable.
 */
export function sandboxRunners(
  options: Omit<SandboxOptions, "root" | "extraReads" | "privateTree" | "writable"> & {
    extraReads?: readonly string[];
  },
): RunnerFactory {
  // Once a side had a boundary, every later side must have one: under `auto` a host that
  // failed to start (the base side's starts while the head's tests run, and those could
  // starve it) would otherwise run the pull request's tests unsandboxed beside the token.
  let proven = false;
  return async (tree) => {
    const open = (root: string, reads: readonly string[], privateTree?: { layer?: string }) =>
      openSandbox({
        // One invocation: a lane executor's compile costs more than the one check it would speed up.
        ...(tree.invocations <= 1 && { executor: "per-check" as const }),
        ...options,
        root,
        extraReads: [...(options.extraReads ?? []), ...reads],
        writable: [tree.results],
        ...(privateTree !== undefined && { privateTree }),
        ...(proven && options.mode !== "off" && { mode: "required" as const }),
      }).then((sandbox) => {
        if (sandbox.info.mechanism !== "none") proven = true;
        return sandbox;
      });
    if (options.mode !== "off" && privateTreeFits(tree.checkout)) {
      const layer = tree.layer();
      const sandbox = await open(
        tree.checkout,
        tree.reads.privateTree,
        layer === undefined ? {} : { layer },
      );
      if (sandbox.info.mechanism !== "none")
        return { run: sandbox.run, close: () => sandbox.close(), root: tree.checkout };
      // No boundary (or none that could lay the overlay): the copy, boundary or not as before.
      sandbox.close();
    }
    const root = tree.copy();
    const sandbox = await open(root, tree.reads.copy);
    return { run: sandbox.run, close: () => sandbox.close(), root };
  };
}

const plainRunners: RunnerFactory = async (tree) => ({
  run: runProcess,
  close: () => {},
  root: tree.copy(),
});

/**
 * The requirement proof's test half (docs/proof.md): runs every mapped test
 * of every spec once at head and once on the code before the change — one
 * runner invocation per side (per file for Node) — and grades each test
 * SWE-bench's way. Never throws for what the repository holds: a runner
 * that cannot be chosen, a base that cannot be read or a run that decides
 * nothing makes its tests execution errors, with why and how to fix it.
 * Keyed by `ProveInput.contract`.
 */
export async function proveTests(
  inputs: readonly ProveInput[],
  ctx: ProverContext,
): Promise<Map<string, TestProof>> {
  const graded = new Map(inputs.map((i) => [i.contract, gradedEntries(i.entries, i.changed)]));
  const all = [...graded.values()].flat();
  const out = new Map<string, TestProof>();
  if (all.length === 0) {
    for (const i of inputs) out.set(i.contract, { runs: [], tests: [] });
    return out;
  }
  const files = [...new Set(all.map((e) => e.file))].sort();
  const chosen = ctx.refuse ? { ok: false as const, ...ctx.refuse } : chooseCommand(ctx, files);
  if (!chosen.ok) {
    const run: ProofRun = {
      side: "head",
      command: "",
      preset: "none",
      chosenBy: ctx.testCommand?.trim() ? "the test-command input" : "detection",
      error: { message: chosen.message, hint: chosen.hint },
      durationMs: 0,
    };
    const failed: SideRun = { invocations: [{ run, files }], solo: new Map() };
    return settleAll(inputs, graded, all, failed, failed);
  }
  const command = chosen.command;
  const globs = ctx.testFiles ?? DEFAULT_TEST_FILE_GLOBS;
  const mapped = new Set(files);
  const timeoutMs = (ctx.testTimeoutSeconds ?? DEFAULT_TEST_TIMEOUT_SECONDS) * 1000;
  const runners = ctx.runners ?? plainRunners;

  let views: ProofViews | undefined;
  try {
    const checkout = realpathSync(ctx.root);
    const listing = await listTree(ctx.git);
    const plan = planBase(ctx.changed, (p) => mapped.has(p) || isTestFile(p, globs));
    views = openViews({
      checkout,
      git: ctx.git,
      listing,
      ...(ctx.tempDir !== undefined && { parent: ctx.tempDir }),
    });
    const v = views;
    const invocations = batches(command.preset, files).length;
    type Side = { runner: Awaited<ReturnType<RunnerFactory>>; results: string };
    const open = async (which: "head" | "base", content?: BaseContent): Promise<Side> => {
      const results = v.results(which);
      const runner = await runners({
        side: which,
        checkout,
        layer: () => v.layer(content),
        copy: () => (content === undefined ? v.head() : v.base(content)),
        reads: { privateTree: v.readsOutside, copy: v.reads },
        results,
        invocations,
      });
      return { runner, results };
    };
    const runOn = async (which: "head" | "base", side: Side): Promise<SideRun> => {
      try {
        const input: SideInput = {
          side: which,
          command,
          files,
          tree: side.runner.root,
          results: side.results,
          run: side.runner.run,
          env: ctx.env,
          timeoutMs,
          signal: ctx.signal,
        };
        const invocations = await runSide(input);
        // Results and exit status disagree: each such mapped test alone, graded by its exit.
        const solo = new Map<string, SideAnswer>();
        let n = 0;
        for (const e of disagreements(which, all, invocations, all)) {
          const one = await runSolo(input, e.file, e.name, `${which}-solo-${++n}`);
          invocations.push({ ...one, files: [] });
          solo.set(entryKey(e), soloAnswer(e, one, all));
        }
        return { invocations, solo };
      } finally {
        side.runner.close();
      }
    };
    let content: BaseContent | undefined;
    const openBase = async (): Promise<
      { ok: true; side: Side } | { ok: false; message: string }
    > => {
      try {
        content = await v.readBase({ commit: ctx.base, plan });
        return { ok: true, side: await open("base", content) };
      } catch (e) {
        return {
          ok: false,
          message: `the code before this change cannot be laid out: ${(e as Error).message}`,
        };
      }
    };
    const headSide = await open("head");
    // A private tree (the head side runs over the checkout itself) keeps every write the
    // head run makes in its own layer, and shows it neither git's objects nor the base's
    // layer: nothing it does can reach the base view, so the base side's sandbox starts
    // while it runs. A copy's run could write anywhere: there the base view is laid out
    // only after it.
    const early = headSide.runner.root === checkout ? openBase() : undefined;
    let head: SideRun;
    try {
      head = await runOn("head", headSide);
    } catch (e) {
      void early?.then((b) => b.ok && b.side.runner.close());
      throw e;
    }
    const b = await (early ?? openBase());
    const base: SideRun = b.ok
      ? await runOn("base", b.side)
      : { invocations: [unrun(command, files, b.message)], solo: new Map() };
    const settledAll = settleAll(inputs, graded, all, head, base);
    const mode = ctx.requirementProof ?? "mutation";
    if (mode !== "mutation" || command.preset === "custom" || content === undefined)
      return settledAll;
    // Mutation adequacy (docs/proof.md): each mutant a private tree of the head with the
    // mutated file in its layer, its requirement's mapped tests run alone in it.
    const pool = await mutantPool({
      checkout,
      content,
      git: ctx.git,
      base: ctx.base,
      env: ctx.env,
      signal: ctx.signal,
    });
    const side: MutantSide = async (name, m, text) => {
      const variant = v.variant(
        name,
        new Map([[m.file, { bytes: Buffer.from(text), mode: 0o644 }]]),
      );
      const results = v.results(name);
      const runner = await runners({
        side: "head",
        checkout,
        layer: variant.layer,
        copy: variant.copy,
        reads: { privateTree: v.readsOutside, copy: v.reads },
        results,
        invocations: 1,
      });
      return {
        input: {
          side: "head",
          command,
          files,
          tree: runner.root,
          results,
          run: runner.run,
          env: ctx.env,
          timeoutMs,
          signal: ctx.signal,
        },
        close: () => runner.close(),
      };
    };
    const deadline =
      Date.now() + (ctx.mutationTimeoutSeconds ?? DEFAULT_MUTATION_TIMEOUT_SECONDS) * 1000;
    for (const [contract, proof] of settledAll) {
      const requirements = new Map<string, GradedEntry[]>();
      for (const t of proof.tests) {
        if (t.verdict !== "proven") continue;
        const entries = (graded.get(contract) ?? []).filter((e) => e.requirement === t.requirement);
        requirements.set(t.requirement, entries);
      }
      if (requirements.size === 0) continue;
      const results =
        pool.length === 0
          ? new Map()
          : await runMutants({
              requirements,
              pool,
              perRequirement: ctx.mutantsPerRequirement ?? DEFAULT_MUTANTS_PER_REQUIREMENT,
              deadline,
              side,
              checkout,
              ...(ctx.mutationLanes !== undefined && { lanes: ctx.mutationLanes }),
            });
      settledAll.set(contract, {
        ...proof,
        tests: applyMutation(proof.tests, results, pool.length),
      });
    }
    return settledAll;
  } catch (e) {
    // The checkout could not be listed or copied: nothing ran.
    const run: ProofRun = {
      side: "head",
      command: "",
      preset: command.preset,
      chosenBy: command.chosenBy,
      error: {
        message: `the proof could not lay out the checkout: ${(e as Error).message}`,
        hint: "Run the gate in a git checkout of the pull request with room in the temp directory.",
      },
      durationMs: 0,
    };
    const failed: SideRun = { invocations: [{ run, files }], solo: new Map() };
    return settleAll(inputs, graded, all, failed, failed);
  } finally {
    views?.close();
  }
}

function unrun(command: TestCommand, files: string[], message: string): Invocation {
  return {
    run: {
      side: "base",
      command: "",
      preset: command.preset,
      chosenBy: command.chosenBy,
      error: {
        message,
        hint: "Fetch the history (actions/checkout with fetch-depth: 0) so the base versions can be read.",
      },
      durationMs: 0,
    },
    files,
  };
}

function chooseCommand(
  ctx: ProverContext,
  files: readonly string[],
): { ok: true; command: TestCommand } | { ok: false; message: string; hint: string } {
  const input = ctx.testCommand?.trim();
  if (input) return commandFromInput(input);
  return detectTestCommand((p) => {
    try {
      return readFileSync(join(ctx.root, p), "utf8");
    } catch {
      return undefined;
    }
  }, files);
}

/** One side's runs, and the answers its mapped tests got alone where results and exit disagreed. */
interface SideRun {
  invocations: Invocation[];
  solo: ReadonlyMap<string, SideAnswer>;
}

function settleAll(
  inputs: readonly ProveInput[],
  graded: ReadonlyMap<string, GradedEntry[]>,
  all: readonly GradedEntry[],
  head: SideRun,
  base: SideRun,
): Map<string, TestProof> {
  const out = new Map<string, TestProof>();
  const invocations = [...new Set([...head.invocations, ...base.invocations])];
  const answer = (e: GradedEntry, side: SideRun) =>
    side.solo.get(entryKey(e)) ?? answerFor(e, side.invocations, all);
  for (const i of inputs) {
    const entries = graded.get(i.contract) ?? [];
    const tests = entries.map((e) => gradeTest(e, answer(e, head), answer(e, base)));
    const files = new Set(entries.map((e) => e.file));
    const runs = invocations
      .filter(
        (v) =>
          v.files.some((f) => files.has(f)) ||
          (v.run.solo !== undefined && files.has(v.run.solo.file)),
      )
      .map((v) => v.run);
    out.set(i.contract, { runs, tests });
  }
  return out;
}
