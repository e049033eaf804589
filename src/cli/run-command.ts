import { realpathSync } from "node:fs";
import { availableParallelism } from "node:os";
import { openGit } from "../git/index.js";
import { parseEnvGrant } from "../process/env.js";
import { DEFAULT_TEST_TIMEOUT_SECONDS, type ProofOptions } from "../proof/prover.js";
import { proofHarnessCommand } from "../proof/run/harness-command.js";
import { sandboxRunners } from "../proof/run/index.js";
import {
  DEFAULT_MUTANTS_PER_REQUIREMENT,
  DEFAULT_MUTATION_TIMEOUT_SECONDS,
} from "../proof/run/mutation.js";
import { runningTestProver } from "../proof/run/prover.js";
import { DEFAULT_MARKDOWN_BUDGET } from "../report/markdown.js";
import { redactChunks } from "../report/redact.js";
import { runReportJsonChunks } from "../report/run-json.js";
import {
  type ContractTrees,
  FOLDER_ITSELF,
  openContractTrees,
  torndown,
} from "../run/contract-trees.js";
import { type EngineResult, type Progress, runContracts } from "../run/engine.js";
import { checkEnvIn, envHintsOf, withEnvNames } from "../sandbox/check-env.js";
import { describeSandbox } from "../sandbox/describe.js";
import {
  CHECK_NETWORKS,
  type CheckNetwork,
  DEFAULT_CHECK_MEMORY_MB,
  DEFAULT_CHECK_NETWORK,
  openSandbox,
  SANDBOX_MODES,
  type SandboxMode,
} from "../sandbox/index.js";
import { resolveExtraReads, splitPathList } from "../sandbox/view.js";
import { UsageError } from "../scope/discover.js";
import { withScope } from "../scope/scope-reason.js";
import { legRefusal } from "../shard/leg-policy.js";
import { writeResults } from "../write-back/write-results.js";
import { didYouMean, parseCommandArgs, positiveInt } from "./args.js";
import { cliBaseSide, cliIntegrity, cliProofBase } from "./base.js";
import { COMMAND_HELP } from "./help.js";
import { type CliIO, EXIT } from "./io.js";
import { printRun } from "./print-run.js";
import { cliProof } from "./proof.js";
import { cliRedactor, redactingCliIO } from "./redacting.js";
import { shardOfScope, writeReportFile } from "./shard.js";
import { committedOnly, findRoot, inCI, loadScope, namedPaths, staticCommit } from "./shared.js";

/** Exit code after Ctrl-C, as shells report a SIGINT death. */
export const EXIT_INTERRUPTED = 130;

const OPTIONS = {
  root: { type: "string" },
  contracts: { type: "string", multiple: true },
  "changed-since": { type: "string" },
  base: { type: "string" },
  committed: { type: "boolean" },
  "max-parallel": { type: "string" },
  "timeout-seconds": { type: "string" },
  "regex-timeout-ms": { type: "string" },
  "require-oracles": { type: "boolean" },
  "no-write": { type: "boolean" },
  json: { type: "boolean" },
  markdown: { type: "boolean" },
  "markdown-budget": { type: "string" },
  sandbox: { type: "string" },
  "check-memory-mb": { type: "string" },
  "sandbox-read": { type: "string", multiple: true },
  "check-network": { type: "string" },
  "check-env": { type: "string", multiple: true },
  "requirement-proof": { type: "string" },
  "requirement-map": { type: "string" },
  "test-tamper": { type: "boolean" },
  "test-command": { type: "string" },
  "test-files": { type: "string", multiple: true },
  "test-timeout-seconds": { type: "string" },
  "mutants-per-requirement": { type: "string" },
  "mutation-timeout-seconds": { type: "string" },
  shard: { type: "string" },
  "report-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options whose value is a number: a negative one is read as a value, then refused. */
const NUMERIC = [
  "max-parallel",
  "timeout-seconds",
  "regex-timeout-ms",
  "markdown-budget",
  "check-memory-mb",
  "test-timeout-seconds",
  "mutants-per-requirement",
  "mutation-timeout-seconds",
];

export async function runCommand(args: string[], rawIO: CliIO): Promise<number> {
  // Every surface this run writes (terminal, report file, write-back) redacts the job's secret values.
  const redact = cliRedactor(rawIO);
  const io = redactingCliIO(rawIO, redact);
  const { values, positionals } = parseCommandArgs(args, OPTIONS, NUMERIC);
  if (values.help) {
    io.stdout(COMMAND_HELP.run!);
    return EXIT.ok;
  }
  if (values.json && values.markdown) throw new UsageError("--json and --markdown are exclusive");
  const maxParallel = positiveInt(
    "max-parallel",
    values["max-parallel"],
    availableParallelism(),
    "processes",
    1024,
  );
  // Upper bounds keep `* 1000` and the timers within what setTimeout takes (2^31 - 1 ms).
  const timeoutSeconds = positiveInt(
    "timeout-seconds",
    values["timeout-seconds"],
    120,
    "seconds",
    2_000_000,
  );
  const regexTimeoutMs = positiveInt(
    "regex-timeout-ms",
    values["regex-timeout-ms"],
    10_000,
    "milliseconds",
  );
  const budget = positiveInt(
    "markdown-budget",
    values["markdown-budget"],
    DEFAULT_MARKDOWN_BUDGET,
    "characters",
  );
  const memoryMb = positiveInt(
    "check-memory-mb",
    values["check-memory-mb"],
    DEFAULT_CHECK_MEMORY_MB,
    "MiB",
    1024 * 1024,
  );
  const mode = values.sandbox ?? "auto";
  if (!(SANDBOX_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(
      `--sandbox '${mode}' is not one of ${SANDBOX_MODES.join(", ")}${didYouMean(mode, SANDBOX_MODES)}`,
    );
  }

  const network = values["check-network"] ?? DEFAULT_CHECK_NETWORK;
  if (!(CHECK_NETWORKS as readonly string[]).includes(network)) {
    throw new UsageError(
      `--check-network '${network}' is not one of ${CHECK_NETWORKS.join(", ")}${didYouMean(network, CHECK_NETWORKS)}`,
    );
  }

  const grant = parseEnvGrant(values["check-env"] ?? []);
  if (!grant.ok) throw new UsageError(`--check-env: ${grant.errors.join("; ")}`);

  const proofOptions = { ...proofFlags(values), mutationLanes: maxParallel };

  const root = await findRoot(io.cwd, values.root);
  // The command's one git, every read of the repository through it.
  const git = openGit(root);
  const extraReads = (values["sandbox-read"] ?? []).flatMap(splitPathList);
  if (mode !== "off") {
    // Before anything runs: a path checks were promised that is not there is the caller's to fix.
    const resolved = resolveExtraReads(extraReads, root, io.env.HOME);
    if (!resolved.ok)
      throw new UsageError(resolved.error.replace(/^sandbox-read/, "--sandbox-read"));
  }
  const named = await namedPaths(git, values.committed === true, io.env);
  const scoped = await loadScope(
    git,
    positionals,
    values.contracts,
    values["changed-since"],
    io,
    named,
    // The change is judged against --base, else the commit --changed-since names.
    await cliBaseSide(
      git,
      values.base ?? values["changed-since"],
      values.base === undefined ? "--changed-since" : "--base",
    ),
  );
  let contracts = scoped.contracts;
  // Said on every surface when the selection narrows; without it every contract found runs.
  const reasons = scoped.reasons;

  // A leg of a matrix runs its share of the whole scope; the merge compares with the base.
  // With --base a leg proves its specs' mapped tests against it, as an unsharded run does.
  const sharded =
    values.shard !== undefined ? await shardOfScope(git, contracts, values.shard, io) : undefined;
  if (sharded) contracts = sharded.contracts;

  contracts = await committedOnly(git, contracts, values.committed === true, io.env);
  // What the static checks read (issue 32): the commit, pinned now, where the run judges one.
  // A plain folder has none: its working tree is all there is (EngineResult.read says which).
  const commit = await staticCommit(git, values.committed === true, io.env);

  // Before anything runs: a base that cannot be read fails the command, not a check.
  const baseReport = sharded
    ? await cliProofBase(git, values.base)
    : await cliIntegrity(git, values.base, values.contracts, proofHarnessCommand(proofOptions));

  const progress = io.isTTY && io.stderrIsTTY ? progressLine(io) : undefined;
  const sandboxOptions = {
    mode: mode as SandboxMode,
    env: io.env,
    hostCommand: io.sandboxHost,
    memoryMb,
    extraReads,
    network: network as CheckNetwork,
    ...(io.protect && { protect: io.protect }),
  };
  const opened = await openSandbox({ ...sandboxOptions, root });
  // One environment for every command this run starts: checks, oracles and the proof's test runs.
  const built = checkEnvIn(io.env, grant.names, opened.info);
  let sandbox = withEnvNames(opened, built);
  // Each contract's commands in a private tree of the commit (issue 32); a plain folder has none.
  let trees: ContractTrees | undefined;
  try {
    trees = commit
      ? await openContractTrees({
          git,
          sha: commit.sha,
          root: realpathSync(root),
          sandbox,
          options: sandboxOptions,
        })
      : undefined;
  } catch (e) {
    sandbox.close();
    throw e;
  }
  sandbox = { ...sandbox, info: { ...sandbox.info, trees: trees?.isolation ?? FOLDER_ITSELF } };
  // Where a commit was expected (CI) and there is none, say once what that costs:
  // no private trees, so every contract's checks share the folder and see each other's writes.
  if (commit === undefined && (values.committed === true || inCI(io.env)))
    io.stderr(`contract-gate: notice: ${plainFolderNotice(root)}\n`);
  const shown = describeSandbox(sandbox.info);
  if (shown.warning) io.stderr(`contract-gate: warning: ${shown.warning}\n`);
  // A leg's report is all the merge sees: no PR command runs without a boundary unless asked (--sandbox off).
  const refused = sharded
    ? legRefusal(sandbox.info, { auto: "--sandbox auto", off: "--sandbox off" })
    : undefined;
  if (refused !== undefined) io.stderr(`contract-gate: ${refused}\n`);
  let result: EngineResult;
  let proved: Awaited<ReturnType<typeof cliProof>>;
  try {
    proved = await cliProof({
      git,
      integrity: baseReport,
      contracts,
      options: proofOptions,
      env: built.env,
      runProcess: sandbox.run,
      // Each of the proof's runs in a sandbox of its own: a private tree over the checkout (a copy without a boundary).
      prover: runningTestProver(sandboxRunners(sandboxOptions)),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    result = await runContracts(proved.proof.contracts, {
      root,
      ...(commit && { commit }),
      maxParallel,
      requireOracles: values["require-oracles"] === true,
      oracleTimeoutMs: timeoutSeconds * 1000,
      regexTimeoutMs,
      env: built.env,
      envHints: envHintsOf(built, sandbox.info, "cli"),
      runProcess: sandbox.run,
      ...(trees && { trees }),
      ...(refused !== undefined && { commands: "block" as const, commandsReason: refused }),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
    });
  } finally {
    sandbox.close();
    trees?.close();
  }
  // A leg's report is read by the merge: written only once every process of its checks has ended.
  if (!(await torndown(sandbox, trees)) && sharded) {
    io.stderr(
      "contract-gate: this shard's sandbox did not end every process its checks started; no report is written, so the merge fails closed\n",
    );
    return EXIT.failed;
  }
  progress?.clear();
  // A shard's base is the proof's alone: the merge compares the contracts with it.
  const integrity = sharded ? undefined : proved.integrity;
  const proof = proved.proof.specs;
  if (io.signal?.aborted) {
    io.stderr("contract-gate: interrupted; every running check was killed\n");
    return EXIT_INTERRUPTED;
  }

  if (!values["no-write"]) {
    const failures = await writeResults(root, proved.proof.contracts, result.contracts, {
      redact,
      oracleTimeoutMs: timeoutSeconds * 1000,
      now: new Date(),
    });
    for (const f of failures) io.stderr(`contract-gate: ${f}\n`);
  }

  const outcomes = withScope(result.contracts, reasons);
  const printed = {
    summary: result.summary,
    outcomes,
    integrity,
    sandbox: sandbox.info,
    proof,
    ...(sharded && { shard: sharded.block }),
  };
  if (values["report-file"] !== undefined) {
    const extras = {
      sandbox: sandbox.info,
      ...(integrity && { integrity }),
      proof,
      ...(sharded && { shard: sharded.block }),
    };
    const written = await writeReportFile(
      values["report-file"],
      sharded?.block,
      // A shard's file is data for the merge, on one line; any other is for reading.
      redactChunks(
        runReportJsonChunks(result.summary, outcomes, extras, { compact: sharded !== undefined }),
        redact,
      ),
    );
    io.stderr(`contract-gate: report written to ${written}\n`);
  }
  const conclusion = await printRun(
    io,
    { json: values.json === true, markdown: values.markdown === true, budget },
    printed,
  );
  // A shard's blocking results are the merge's to decide: its own errors were usage errors above.
  if (sharded) return EXIT.ok;
  return conclusion === "failure" ? EXIT.failed : EXIT.ok;
}

/** `--requirement-proof`, `--test-tamper`, `--test-command`, `--test-files`, `--test-timeout-seconds`. */
export function proofFlags(values: {
  base?: string | undefined;
  "requirement-proof"?: string | undefined;
  "requirement-map"?: string | undefined;
  "test-tamper"?: boolean | undefined;
  "test-command"?: string | undefined;
  "test-files"?: string[] | undefined;
  "test-timeout-seconds"?: string | undefined;
  "mutants-per-requirement"?: string | undefined;
  "mutation-timeout-seconds"?: string | undefined;
}): ProofOptions {
  const onOff = values["requirement-proof"] ?? "on";
  const MODES = ["mutation", "fail-to-pass", "off", "on"];
  if (!MODES.includes(onOff))
    throw new UsageError(
      `--requirement-proof '${onOff}' is not one of mutation, fail-to-pass, off (on: mutation)${didYouMean(onOff, MODES)}`,
    );
  const map = values["requirement-map"] ?? "optional";
  if (map !== "optional" && map !== "required")
    throw new UsageError(
      `--requirement-map '${map}' is not one of optional, required${didYouMean(map, ["optional", "required"])}`,
    );
  if (values["test-tamper"] && values.base === undefined)
    throw new UsageError(
      "--test-tamper reads the test diff against a base: add --base <rev> (e.g. --base origin/main)",
    );
  const command = values["test-command"];
  if (command !== undefined && command.trim() === "")
    throw new UsageError(
      "--test-command is empty: give a command template ({junit}, {files}) or a preset (vitest, jest, pytest, go, node), or leave it out to detect one",
    );
  const testFiles = (values["test-files"] ?? []).map((g) => g.trim()).filter((g) => g !== "");
  for (const g of testFiles) {
    if (g.startsWith("/") || g.split("/").includes(".."))
      throw new UsageError(`--test-files '${g}' must be relative to the root, without '..'`);
  }
  return {
    requirementProof: onOff !== "off",
    proofMode: onOff === "fail-to-pass" ? "fail-to-pass" : "mutation",
    mutantsPerRequirement: positiveInt(
      "mutants-per-requirement",
      values["mutants-per-requirement"],
      DEFAULT_MUTANTS_PER_REQUIREMENT,
      "mutants",
      1000,
    ),
    mutationTimeoutSeconds: positiveInt(
      "mutation-timeout-seconds",
      values["mutation-timeout-seconds"],
      DEFAULT_MUTATION_TIMEOUT_SECONDS,
      "seconds",
      6 * 3600,
    ),
    requirementMap: map,
    surface: "cli",
    testTamper: values["test-tamper"] === true,
    ...(command !== undefined && { testCommand: command.trim() }),
    testFiles,
    testTimeoutSeconds: positiveInt(
      "test-timeout-seconds",
      values["test-timeout-seconds"],
      DEFAULT_TEST_TIMEOUT_SECONDS,
      "seconds",
      6 * 3600,
    ),
  };
}

/** A live `[done/total] running …` line on stderr, redrawn at most every 100 ms. */
function progressLine(io: CliIO) {
  let last = 0;
  let shown = false;
  return {
    update(p: Progress) {
      const now = Date.now();
      if (now - last < 100 && p.done < p.total) return;
      last = now;
      const running = p.running.length
        ? ` running ${p.running.slice(0, 2).join(", ")}${p.running.length > 2 ? ` +${p.running.length - 2}` : ""}`
        : "";
      io.stderr(`\r\u001b[2K[${p.done}/${p.total}]${running}`.slice(0, 200));
      shown = true;
    },
    clear() {
      if (shown) io.stderr("\r\u001b[2K");
    },
  };
}

/** The one line a run in a plain folder prints where a commit was expected (issue 32). */
export function plainFolderNotice(root: string): string {
  return `${root} has no commit to judge (not a git repository, or nothing committed): every check reads the files on disk and every contract's commands run in this one folder, so checks share it and see what other checks wrote`;
}
