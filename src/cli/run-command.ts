import { availableParallelism } from "node:os";
import { UsageError } from "../discover.js";
import { credentialFreeEnv } from "../process/env.js";
import { DEFAULT_CHECK_NAME } from "../report/github-text.js";
import { integrityMarkdown, integrityTerminal } from "../report/integrity.js";
import { DEFAULT_MARKDOWN_BUDGET, renderMarkdown } from "../report/markdown.js";
import { paintFor } from "../report/paint.js";
import { runReportJsonChunks } from "../report/run-json.js";
import { runLineText } from "../report/run-line.js";
import { renderTerminal } from "../report/terminal.js";
import { changedSince, companionsOf, GitError } from "../run/changed.js";
import { type EngineResult, type Progress, runContracts } from "../run/engine.js";
import { describeSandbox } from "../sandbox/describe.js";
import {
  CHECK_NETWORKS,
  type CheckNetwork,
  DEFAULT_CHECK_MEMORY_MB,
  openSandbox,
  SANDBOX_MODES,
  type SandboxMode,
} from "../sandbox/index.js";
import { resolveExtraReads, splitPathList } from "../sandbox/view.js";
import { type ScopeReason, withScope } from "../scope-reason.js";
import { gateConclusion } from "../verdict.js";
import { writeResults } from "../write-back/write-results.js";
import { didYouMean, parseCommandArgs, positiveInt } from "./args.js";
import { cliIntegrity } from "./base.js";
import { COMMAND_HELP } from "./help.js";
import { type CliIO, EXIT } from "./io.js";
import { committedOnly, findRoot, loadAll } from "./shared.js";

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
  help: { type: "boolean", short: "h" },
} as const;

/** The options whose value is a number: a negative one is read as a value, then refused. */
const NUMERIC = [
  "max-parallel",
  "timeout-seconds",
  "regex-timeout-ms",
  "markdown-budget",
  "check-memory-mb",
];

export async function runCommand(args: string[], io: CliIO): Promise<number> {
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

  const network = values["check-network"] ?? "host";
  if (!(CHECK_NETWORKS as readonly string[]).includes(network)) {
    throw new UsageError(
      `--check-network '${network}' is not one of ${CHECK_NETWORKS.join(", ")}${didYouMean(network, CHECK_NETWORKS)}`,
    );
  }

  const root = await findRoot(io.cwd, values.root);
  const extraReads = (values["sandbox-read"] ?? []).flatMap(splitPathList);
  if (mode !== "off") {
    // Before anything runs: a path checks were promised that is not there is the caller's to fix.
    const resolved = resolveExtraReads(extraReads, root, io.env.HOME);
    if (!resolved.ok)
      throw new UsageError(resolved.error.replace(/^sandbox-read/, "--sandbox-read"));
  }
  let contracts = await loadAll(root, positionals, values.contracts, io.cwd, io.stderr);
  // Said on every surface when the selection narrows; without it every contract found runs.
  let reasons: Map<string, ScopeReason> | undefined;
  if (values["changed-since"] !== undefined) {
    let changed: Set<string>;
    try {
      changed = await changedSince(root, values["changed-since"]);
    } catch (e) {
      if (e instanceof GitError) throw new UsageError(e.message);
      throw e;
    }
    const ref = values["changed-since"];
    reasons = new Map();
    for (const c of contracts) {
      const file = companionsOf(c.path).find((p) => changed.has(p));
      if (file !== undefined) reasons.set(c.path, { reason: "changed-since", ref, file });
    }
    contracts = contracts.filter((c) => reasons!.has(c.path));
  }

  contracts = await committedOnly(root, contracts, values.committed === true, io.env);

  // Before anything runs: a base that cannot be read fails the command, not a check.
  const integrity = await cliIntegrity(root, values.base, values.contracts);

  const paint = paintFor(io.isTTY, io.env);
  const progress = io.isTTY && io.stderrIsTTY ? progressLine(io) : undefined;
  const sandbox = await openSandbox({
    mode: mode as SandboxMode,
    root,
    env: io.env,
    hostCommand: io.sandboxHost,
    memoryMb,
    extraReads,
    network: network as CheckNetwork,
    ...(io.protect && { protect: io.protect }),
  });
  const shown = describeSandbox(sandbox.info);
  if (shown.warning) io.stderr(`contract-gate: warning: ${shown.warning}\n`);
  let result: EngineResult;
  try {
    result = await runContracts(contracts, {
      root,
      maxParallel,
      requireOracles: values["require-oracles"] === true,
      oracleTimeoutMs: timeoutSeconds * 1000,
      regexTimeoutMs,
      env: credentialFreeEnv(io.env),
      runProcess: sandbox.run,
      ...(io.signal ? { signal: io.signal } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
    });
  } finally {
    sandbox.close();
  }
  progress?.clear();
  if (io.signal?.aborted) {
    io.stderr("contract-gate: interrupted; every running check was killed\n");
    return EXIT_INTERRUPTED;
  }

  if (!values["no-write"]) {
    const failures = await writeResults(root, contracts, result.contracts, {
      oracleTimeoutMs: timeoutSeconds * 1000,
      now: new Date(),
    });
    for (const f of failures) io.stderr(`contract-gate: ${f}\n`);
  }

  const conclusion = gateConclusion(result.summary.conclusion, integrity);
  const outcomes = withScope(result.contracts, reasons);
  if (values.json) {
    const extras = { sandbox: sandbox.info, ...(integrity && { integrity }) };
    for (const chunk of runReportJsonChunks(result.summary, outcomes, extras)) {
      io.stdout(chunk);
      await io.stdoutDrain?.();
    }
  } else if (values.markdown) {
    io.stdout(
      renderMarkdown({ ...result.summary, conclusion }, outcomes, {
        budget,
        // The action's check-run name: the same report reads the same wherever it is rendered.
        title: DEFAULT_CHECK_NAME,
        sandbox: shown,
        preamble: integrityMarkdown(integrity, Math.floor(budget / 3)),
        verdictLine: runLineText({
          summary: result.summary,
          outcomes,
          integrity,
        }),
      }),
    );
  } else {
    io.stdout(
      renderTerminal({ ...result.summary, conclusion }, outcomes, paint, {
        integrity,
        ...(integrity && { integritySection: integrityTerminal(integrity, paint) }),
      }),
    );
  }
  return conclusion === "failure" ? EXIT.failed : EXIT.ok;
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
