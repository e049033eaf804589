import { describe, expect, it } from "vitest";
import { cliIntegrity } from "../src/cli/base.js";
import { findRoot, loadAll } from "../src/cli/shared.js";
import { companionsOf } from "../src/formats/kinds/companions.js";
import { openGit } from "../src/git/index.js";
import { checkEnv } from "../src/process/env.js";
import { githubSurfaces, rerunHint } from "../src/report/github-surfaces.js";
import { integrityTerminal } from "../src/report/integrity.js";
import { plain } from "../src/report/paint.js";
import { runLineText } from "../src/report/run-line.js";
import { renderTerminal } from "../src/report/terminal.js";
import { runContracts } from "../src/run/engine.js";
import { changedSince } from "../src/scope/changed-since.js";
import { summariseRun, withIntegrity } from "../src/verdict.js";
import { oracleContract } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { baseAndHead } from "./helpers/integrity-repo.js";
import { sampleOutcomes } from "./helpers/outcomes.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";
const MET = "1. it works\n   CHECK: echo WORKS\n   EXPECT: WORKS\n   EVIDENCE: pending\n";
const UNMET = "2. it fails\n   CHECK: echo NOPE\n   EXPECT: WORKS\n   EVIDENCE: pending\n";

/** Each kind of run the summary line must get right, with the line it must end on. */
function runs(): { name: string; root: string; args: string[]; line: string }[] {
  const none = tempDir();
  writeTree(none, { "src/a.js": "x\n" });
  const plainFail = tempDir();
  writeTree(plainFail, { [`${C}/a.md`]: oracleContract(MET + UNMET) });
  // Refused for size: no criterion to count, so only the contract explains the failure.
  const big = tempDir();
  writeTree(big, { [`${C}/big.md`]: oracleContract(`${MET}\n${"x".repeat(1_100_000)}\n`) });
  const base = { [`${C}/a.md`]: oracleContract(MET), [`${C}/b.md`]: oracleContract(MET) };
  // The PR deletes b.md and changes nothing else: no contract changed, one blocking change.
  const deleted = baseAndHead({ [`${C}/b.md`]: null }, base);
  // The PR edits a.md's REQUEST: its criteria pass, the change blocks.
  const edited = baseAndHead(
    { [`${C}/a.md`]: oracleContract(MET).replace("Make it work.", "Make it work, loosely.") },
    base,
  );
  return [
    { name: "no contracts", root: none, args: [], line: "no contracts — neutral" },
    {
      name: "an unmet criterion",
      root: plainFail,
      args: [],
      line: "2 criteria in 1 contract (1 unmet, 1 met), 1 blocking — failure",
    },
    {
      name: "a contract refused for size",
      root: big,
      args: [],
      line: "0 criteria in 1 contract, 1 blocking (1 invalid contract) — failure",
    },
    {
      name: "--changed-since main --base main, a deleted contract",
      root: deleted,
      args: ["--changed-since", "main", "--base", "main"],
      line: "no contracts, 1 blocking (1 contract change needing approval) — failure",
    },
    {
      name: "--base main, passing criteria and an edited REQUEST",
      root: edited,
      args: ["--base", "main"],
      line: "2 criteria in 2 contracts (2 met), 1 blocking (1 contract change needing approval) — failure",
    },
    {
      name: "--changed-since main, the edited contract only",
      root: edited,
      args: ["--changed-since", "main"],
      line: "1 criterion in 1 contract (1 met), 0 blocking — success",
    },
  ];
}

/** The last non-empty line of a surface, before the links a footer adds. */
function lastLine(text: string, footer?: string): string {
  const body = footer !== undefined ? text.slice(0, text.lastIndexOf(footer)) : text;
  return body.trimEnd().split("\n").pop()!;
}

describe("one summary line per run, last on every surface", () => {
  it("the terminal, --markdown and --json agree with the exit code for every kind of run", async () => {
    for (const r of runs()) {
      const base = ["run", "--no-write", "--sandbox", "off", "--root", r.root, ...r.args];
      const term = await runCli(base, r.root);
      expect(lastLine(term.stdout), r.name).toBe(r.line);
      expect(term.code, r.name).toBe(r.line.endsWith("— failure") ? 1 : 0);
      const md = await runCli([...base, "--markdown"], r.root);
      expect(lastLine(md.stdout), r.name).toBe(`**${r.line}**`);
      expect(md.code, r.name).toBe(term.code);
      const json = JSON.parse((await runCli([...base, "--json"], r.root)).stdout);
      expect(r.line.endsWith(`— ${json.conclusion}`), r.name).toBe(true);
      // Never "0 blocking" beside a failure.
      expect(r.line, r.name).not.toMatch(/(^|, )0 blocking.*failure$/);
    }
  });

  it("the check run, the comment, the job summary and the log end on the same line", async () => {
    for (const r of runs()) {
      const root = await findRoot(r.root, r.root);
      let contracts = await loadAll(root, [], undefined, root);
      const since = r.args.indexOf("--changed-since");
      if (since >= 0) {
        const changed = await changedSince(openGit(root), r.args[since + 1]!);
        contracts = contracts.filter((c) => companionsOf(c.path).some((p) => changed.has(p)));
      }
      const baseAt = r.args.indexOf("--base");
      const integrity = await cliIntegrity(
        openGit(root),
        baseAt >= 0 ? r.args[baseAt + 1] : undefined,
        [],
      );
      const result = await runContracts(contracts, {
        root,
        maxParallel: 2,
        requireOracles: false,
        oracleTimeoutMs: 60_000,
        regexTimeoutMs: 10_000,
        env: checkEnv(process.env).env,
      });
      const summary = withIntegrity(result.summary, integrity);
      const rerun = rerunHint(7);
      const surfaces = githubSurfaces({
        summary,
        outcomes: result.contracts,
        integrity: integrity ?? { applies: false, reason: "no pull request" },
        sandbox: undefined,
        checkName: "Contract Gate",
        checkRunUrl: "https://example.test/runs/1",
        rerun,
      });
      const bold = `**${r.line}**`;
      expect(lastLine(surfaces.checkRun.text), r.name).toBe(bold);
      expect(lastLine(surfaces.comment, "[Check run]"), r.name).toBe(bold);
      expect(lastLine(surfaces.jobSummary), r.name).toBe(bold);
      const log = renderTerminal(summary, result.contracts, plain, {
        integrity,
        ...(integrity && { integritySection: integrityTerminal(integrity, plain) }),
      });
      expect(lastLine(log), r.name).toBe(r.line);
    }
  });

  it("validate --base prints the contract changes before its summary line, which counts them", async () => {
    const edited = runs().find((r) => r.name.startsWith("--base main"))!.root;
    const r = await runCli(["validate", "--base", "main"], edited);
    expect(r.code).toBe(1);
    expect(lastLine(r.stdout)).toBe(
      "2 contracts checked: 2 valid, 0 invalid (0 errors, 0 warnings); 1 blocking contract change needing approval",
    );
  });

  it("counts a refused contract with no criteria and an unapproved change (control: before, both read 0 blocking)", () => {
    const outcomes = sampleOutcomes().slice(1);
    outcomes[0]!.criteria = [];
    const summary = summariseRun(outcomes);
    expect(summary.conclusion).toBe("failure");
    expect(summary.counts.blocking).toBe(0); // the counts alone would say "0 blocking"
    expect(runLineText({ summary, outcomes })).toBe(
      "0 criteria in 1 contract, 1 blocking (1 invalid contract) — failure",
    );
  });
});
