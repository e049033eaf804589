// The demo's report as the check run and comment show it, for docs/example-report.md.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadContract } from "../src/load/index.js";
import { checkEnv } from "../src/process/env.js";
import { DEFAULT_CHECK_NAME } from "../src/report/github-text.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { runContracts } from "../src/run/engine.js";
import { discoverContracts } from "../src/scope/discover.js";
import type { ContractOutcome, RunSummary } from "../src/verdict.js";

/** The demo's run: what every rendered surface (report, screenshots) is drawn from. */
export interface DemoRun {
  summary: RunSummary;
  contracts: ContractOutcome[];
}

export async function runDemo(): Promise<DemoRun> {
  // A copy, so nothing a check does can touch the committed demo.
  const root = mkdtempSync(join(tmpdir(), "cg-example-"));
  try {
    cpSync(join(import.meta.dirname, "../examples/demo"), root, { recursive: true });
    const paths = await discoverContracts({ root });
    const contracts = await Promise.all(paths.map((p) => loadContract(root, p)));
    const { summary, contracts: outcomes } = await runContracts(contracts, {
      root,
      maxParallel: 2,
      requireOracles: false,
      oracleTimeoutMs: 120_000,
      regexTimeoutMs: 10_000,
      env: checkEnv(process.env).env,
    });
    return { summary, contracts: outcomes };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function exampleReport(): Promise<string> {
  const { summary, contracts } = await runDemo();
  return renderMarkdown(summary, contracts, {
    title: DEFAULT_CHECK_NAME,
    footer:
      "[Check run](https://github.com/OWNER/REPO/runs/1) · Re-run: Actions → this workflow → Run workflow with `pr-number`.",
  });
}
