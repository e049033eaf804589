import { resolve } from "node:path";
import { isRequirementSpec } from "../formats/kinds/index.js";
import { openGit } from "../git/index.js";
import { loadContracts } from "../load/index.js";
import { VERSION } from "../model/version.js";
import { checkEnv } from "../process/env.js";
import { proofHarnessCommand } from "../proof/run/harness-command.js";
import { DEFAULT_MARKDOWN_BUDGET } from "../report/markdown.js";
import { UsageError } from "../scope/discover.js";
import { mergeShardReports } from "../shard/merge.js";
import { withShardProofs } from "../shard/proof.js";
import { readShardReports, ShardDirError } from "../shard/read-dir.js";
import { runOf } from "../shard/report.js";
import { summariseRun } from "../verdict.js";
import { parseCommandArgs, positiveInt } from "./args.js";
import { cliIntegrity } from "./base.js";
import { COMMAND_HELP } from "./help.js";
import { type CliIO, EXIT } from "./io.js";
import { printRun } from "./print-run.js";
import { cliProof } from "./proof.js";
import { cliRedactor, redactingCliIO } from "./redacting.js";
import { proofFlags } from "./run-command.js";
import { headCommit } from "./shard.js";
import { findRoot, scopePaths } from "./shared.js";

const OPTIONS = {
  root: { type: "string" },
  contracts: { type: "string", multiple: true },
  "changed-since": { type: "string" },
  base: { type: "string" },
  "requirement-proof": { type: "string" },
  "requirement-map": { type: "string" },
  "test-tamper": { type: "boolean" },
  "test-files": { type: "string", multiple: true },
  json: { type: "boolean" },
  markdown: { type: "boolean" },
  "markdown-budget": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * `merge DIR`: the shards' reports (`run --shard i/n --report-file DIR`) as
 * one run. The scope is recomputed from this checkout with the same
 * discovery options the shards had; any shard missing, invalid or
 * inconsistent is a failing row (exit 1), never a green merge.
 */
export async function mergeCommand(args: string[], rawIO: CliIO): Promise<number> {
  // The legs redacted their reports; the merge redacts what it prints all the same.
  const io = redactingCliIO(rawIO, cliRedactor(rawIO));
  const { values, positionals } = parseCommandArgs(args, OPTIONS, ["markdown-budget"]);
  if (values.help) {
    io.stdout(COMMAND_HELP.merge!);
    return EXIT.ok;
  }
  if (values.json && values.markdown) throw new UsageError("--json and --markdown are exclusive");
  const budget = positiveInt(
    "markdown-budget",
    values["markdown-budget"],
    DEFAULT_MARKDOWN_BUDGET,
    "characters",
  );
  const [dirArg, ...more] = positionals;
  if (dirArg === undefined || more.length > 0) {
    throw new UsageError("merge takes exactly one DIR: the directory holding the shard reports");
  }
  // The reports are read and checked (CPU) while the scope is recomputed (file system, git).
  const reading = readShardReports(resolve(io.cwd, dirArg)).then(
    (read) => ({ read }),
    (error: unknown) => ({ error }),
  );
  const root = await findRoot(io.cwd, values.root);
  const git = openGit(root);
  // The shards' scope, recomputed here: a shard that saw another scope is caught by its digest.
  const scope = await scopePaths(git, [], values.contracts, values["changed-since"], io);
  const headSha = await headCommit(git, "merge");
  const proofOptions = proofFlags(values);
  // The merge reads the diff itself (tamper, guardrails), as an unsharded run's proof does;
  // the legs' test runs of their specs join it (withShardProofs).
  const { proof, integrity } = await cliProof({
    git,
    integrity: await cliIntegrity(
      git,
      values.base,
      values.contracts,
      proofHarnessCommand(proofOptions),
    ),
    contracts: await loadContracts(root, scope.filter(isRequirementSpec)),
    options: proofOptions,
    // The merge runs no test itself (the legs did); the environment is the built one all the same.
    env: checkEnv(io.env).env,
  });

  const got = await reading;
  if ("error" in got) {
    if (got.error instanceof ShardDirError) throw new UsageError(got.error.message);
    throw got.error;
  }
  const { read } = got;
  if (read.ignored.length > 0) {
    io.stderr(
      `contract-gate: warning: ${dirArg}: not shard reports, ignored: ${read.ignored.slice(0, 5).join(", ")}${read.ignored.length > 5 ? ` and ${read.ignored.length - 5} more` : ""}\n`,
    );
  }
  const merged = mergeShardReports(
    read.found,
    { scope, headSha, gateVersion: VERSION, runId: runOf(io.env).runId },
    dirArg,
  );
  io.stderr(
    `contract-gate: merged ${merged.used.length} of ${merged.total ?? "?"} shards${merged.failures ? `; ${merged.failures} shard problem${merged.failures === 1 ? "" : "s"}` : ""}\n`,
  );
  const proved = withShardProofs(merged, read.found, proof.specs);
  const conclusion = await printRun(
    io,
    { json: values.json === true, markdown: values.markdown === true, budget },
    {
      summary: summariseRun(proved.outcomes),
      outcomes: proved.outcomes,
      integrity,
      sandbox: merged.sandbox,
      proof: proved.proof,
    },
  );
  return conclusion === "failure" ? EXIT.failed : EXIT.ok;
}
