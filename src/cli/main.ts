import { join, resolve } from "node:path";
import { kindOf } from "../formats/kinds/index.js";
import { phaseFiles } from "../formats/kinds/phase-files.js";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { readRepoFile } from "../fs/repo-file.js";
import { openGit } from "../git/index.js";
import { evidenceProblems, loadContract, unreadProblem } from "../load/index.js";
import { refreshPlanHash } from "../load/refresh-hash.js";
import type { Contract, PlanHeader } from "../model/contract.js";
import { isInvalid } from "../model/contract.js";
import { sortProblems } from "../model/problems.js";
import { VERSION } from "../model/version.js";
import { integrityTerminal } from "../report/integrity.js";
import { integrityJson } from "../report/integrity-json.js";
import { paintFor } from "../report/paint.js";
import { countProblems, renderValidateText } from "../report/problems-text.js";
import {
  parseRecordedResults,
  type RecordedResults,
  renderStatusText,
  statusJson,
} from "../report/status.js";
import { toRepoPath, UsageError } from "../scope/discover.js";
import { unacknowledged } from "../verdict.js";
import { didYouMean, parseCommandArgs } from "./args.js";
import { cliBaseSide, cliIntegrity } from "./base.js";
import { COMMAND_HELP, MAIN_HELP } from "./help.js";
import { type CliIO, EXIT } from "./io.js";
import { mergeCommand } from "./merge-command.js";
import { runCommand } from "./run-command.js";
import { committedOnly, findRoot, loadAll, namedPaths } from "./shared.js";

const DISCOVERY_OPTIONS = {
  root: { type: "string" },
  contracts: { type: "string", multiple: true },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Run one CLI invocation; returns the exit code. Never throws for bad input. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help") {
    io.stdout(MAIN_HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "help") return helpCommand(rest, io);
  if (command === "--version" || command === "-V") {
    io.stdout(`contract-gate ${VERSION}\n`);
    return EXIT.ok;
  }
  try {
    switch (command) {
      case "validate":
      case "status":
        return await listCommand(command, rest, io);
      case "run":
        return await runCommand(rest, io);
      case "merge":
        return await mergeCommand(rest, io);
      case "refresh-hash":
        return await refreshHashCommand(rest, io);
      default:
        return command.startsWith("-")
          ? unknownTopOption(io, command, rest)
          : usage(
              io,
              `unknown command '${command}'${didYouMean(command, COMMANDS)}`,
              "run 'contract-gate --help' for the commands",
            );
    }
  } catch (e) {
    if (e instanceof UsageError)
      return usage(io, e.message, `run 'contract-gate ${command} --help'`);
    // Anything else is a bug in contract-gate, not the user's input: say so plainly.
    io.stderr(`contract-gate: internal error: ${(e as Error).message}\n`);
    return EXIT.usage;
  }
}

const COMMANDS = Object.keys(COMMAND_HELP);

/** `help` alone is the general help; `help <command>` is that command's `--help`. */
function helpCommand(args: readonly string[], io: CliIO): number {
  const [topic, ...extra] = args;
  if (topic === undefined || (topic === "help" && extra.length === 0)) {
    io.stdout(MAIN_HELP);
    return EXIT.ok;
  }
  const text = COMMAND_HELP[topic];
  if (text === undefined || extra.length > 0) {
    const message =
      text === undefined
        ? `no help for '${topic}': not a command${didYouMean(topic, COMMANDS)}`
        : "help takes one command";
    return usage(io, message, `the commands: ${COMMANDS.join(", ")}`);
  }
  io.stdout(text);
  return EXIT.ok;
}

/** The only options before a command; `-V` before `-h`, so `-v` (equally near both) suggests `-V`. */
const TOP_OPTIONS = ["--version", "-V", "--help", "-h"];

/**
 * An option where the command belongs: a typo of a top-level option, or a
 * command's option written before the command (`--json validate`).
 */
function unknownTopOption(io: CliIO, option: string, rest: readonly string[]): number {
  const command = rest.find((w) => COMMANDS.includes(w));
  return usage(
    io,
    `unknown option '${option}'${didYouMean(option, TOP_OPTIONS)}`,
    command !== undefined
      ? `a command's options follow it: contract-gate ${command} ${option}`
      : "before a command only --help and --version are options; run 'contract-gate --help' for the commands",
  );
}

function usage(io: CliIO, message: string, hint: string): number {
  io.stderr(`contract-gate: ${message}\n  hint: ${hint}\n`);
  return EXIT.usage;
}

async function listCommand(command: "validate" | "status", args: string[], io: CliIO) {
  const options =
    command === "validate"
      ? {
          ...DISCOVERY_OPTIONS,
          base: { type: "string" as const },
          committed: { type: "boolean" as const },
        }
      : DISCOVERY_OPTIONS;
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout(COMMAND_HELP[command]!);
    return EXIT.ok;
  }
  const root = await findRoot(io.cwd, values.root);
  const git = openGit(root);
  const committed = "committed" in values && values.committed === true;
  const named = await namedPaths(git, command === "validate" && committed, io.env);
  const base = "base" in values && typeof values.base === "string" ? values.base : undefined;
  // With --base a done task blocks only when the change checked it off.
  const side = await cliBaseSide(git, base);
  const loaded = (
    await loadAll(root, positionals, values.contracts, io.cwd, io.stderr, named, side)
  ).map((c) => withEvidenceProblems(root, c));
  const contracts: Contract[] =
    command === "validate" ? await committedOnly(git, loaded, committed, io.env) : loaded;
  const paint = paintFor(io.isTTY, io.env);
  if (command === "status") {
    const recorded = await recordedResults(root, contracts);
    io.stdout(
      values.json
        ? `${JSON.stringify(statusJson(contracts, recorded), null, 2)}\n`
        : renderStatusText(contracts, paint, recorded),
    );
    return EXIT.ok;
  }
  const integrity = await cliIntegrity(git, base, values.contracts);
  if (values.json) {
    const json = validateJson(contracts);
    io.stdout(
      `${JSON.stringify(integrity ? { ...json, integrity: integrityJson(integrity) } : json, null, 2)}\n`,
    );
  } else {
    io.stdout(
      renderValidateText(contracts, paint, {
        section: integrity ? integrityTerminal(integrity, paint) : "",
        blocking: unacknowledged(integrity).length,
      }),
    );
  }
  const blocked = unacknowledged(integrity).length > 0;
  return contracts.some(isInvalid) || blocked ? EXIT.failed : EXIT.ok;
}

/** The `validate --json` report (schemaVersion 1, documented in docs/cli.md). */
export function validateJson(contracts: readonly Contract[]) {
  return {
    schemaVersion: 1 as const,
    valid: !contracts.some(isInvalid),
    counts: countProblems(contracts),
    contracts: contracts.map((c) => ({
      path: c.path,
      kind: c.kind,
      valid: !isInvalid(c),
      drift: c.drift ?? null,
      problems: c.problems,
    })),
  };
}

async function refreshHashCommand(args: string[], io: CliIO) {
  const { values, positionals } = parseCommandArgs(args, {
    root: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    io.stdout(COMMAND_HELP["refresh-hash"]!);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError("refresh-hash takes exactly one CONTRACT path");
  const root = await findRoot(io.cwd, values.root);
  const abs = resolve(io.cwd, positionals[0]!);
  const rel = toRepoPath(root, abs);
  if (rel === undefined)
    throw new UsageError(`${positionals[0]} is outside the repository root ${root}`);
  if (kindOf(rel) !== "plan-contract") throw new UsageError(`${rel} is not a .json plan contract`);
  // Every message names the path looked at, absolute, and the root it is relative to.
  const lookedAt = (path: string) => `looked at ${join(root, path)}; repository root ${root}`;
  const contract = await loadContract(root, rel, "plan-contract");
  // No digest: the loader could not (or would not, through a symlink) read the contract.
  if (contract.digest === undefined)
    throw new UsageError(`${contract.problems[0]!.message} (${lookedAt(rel)})`);
  const header = contract.header as PlanHeader;
  if (header.planPath === undefined) {
    io.stderr(
      `contract-gate: ${rel}: no plan pairs with it (plans pair by file name: phase-<name>-contract.json with phase-<name>-plan.md in the same directory; ${lookedAt(rel)})\n`,
    );
    return EXIT.failed;
  }
  const plan = readRepoFile(root, header.planPath, Number.MAX_SAFE_INTEGER);
  if (plan.kind !== "file") {
    const why = unreadProblem(header.planPath, header.sourcePlanHashLocation, "plan", plan, rel);
    io.stderr(`contract-gate: ${why.message}; nothing to hash (${lookedAt(header.planPath)})\n`);
    return EXIT.failed;
  }
  const current = readRepoFile(root, rel, MAX_CONTRACT_BYTES);
  if (current.kind !== "file") {
    throw new UsageError(
      unreadProblem(rel, header.sourcePlanHashLocation, "contract", current).message,
    );
  }
  const result = refreshPlanHash(current.bytes, plan.bytes);
  if (!result.ok) {
    io.stderr(`contract-gate: ${rel}: ${result.message}\n`);
    return EXIT.failed;
  }
  if (result.oldHash === result.newHash) {
    io.stdout(`${rel}: source_plan_hash already matches ${header.planPath} (${result.newHash})\n`);
    return EXIT.ok;
  }
  // Temp file + rename: a crash leaves the old contract or the new one, never half of each.
  await writeFileAtomic(abs, Buffer.from(result.bytes));
  io.stdout(`${rel}: source_plan_hash ${result.oldHash || '""'} → ${result.newHash}\n`);
  return EXIT.ok;
}

/** `phase-<name>-verification.json` beside each plan contract, as `run` last wrote it. */
async function recordedResults(root: string, contracts: readonly Contract[]) {
  const out = new Map<string, RecordedResults>();
  for (const c of contracts) {
    const path = c.kind === "plan-contract" ? phaseFiles(c.path)?.verificationJson : undefined;
    if (path === undefined) continue;
    const read = readRepoFile(root, path, 64 * 1024 * 1024);
    if (read.kind === "file")
      out.set(c.path, parseRecordedResults(Buffer.from(read.bytes).toString("utf8")));
  }
  return out;
}

/** `validate` and `status` judge a plan contract together with its evidence file. */
function withEvidenceProblems(root: string, contract: Contract): Contract {
  const found = evidenceProblems(root, contract);
  if (found.length === 0) return contract;
  return { ...contract, problems: sortProblems([...contract.problems, ...found]) };
}
