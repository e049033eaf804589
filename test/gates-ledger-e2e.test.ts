/**
 * A repository whose only contract is an unlazy ledger, end to end: the
 * failing GATES.md (a checked box and a forged `EVIDENCE: MET` over a check
 * that no longer prints its marker) fails the gate through the CLI and the
 * bundled action (dist/index.js, the GitHub stand-in); its honest twin
 * passes. Before the kind existed such a repository was "no contracts
 * found", exit 0, whatever its gates said. Run `npm run bundle` after
 * changing src/.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunReportJson, RunReportSchema } from "../src/report/run-json.js";
import { makeRepo, REPO, runAction, standInFor } from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { copyTree } from "./helpers/tmp.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "gates-ledger");
const ledger = (which: "honest" | "failing") =>
  readFileSync(join(FIXTURES, which, "GATES.md"), "utf8");
const NOTES = readFileSync(join(FIXTURES, "honest", "src", "notes.txt"), "utf8");

function gitRepo(which: "honest" | "failing"): string {
  const root = copyTree(join(FIXTURES, which));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "ledger");
  return root;
}

async function cliRun(which: "honest" | "failing") {
  const root = gitRepo(which);
  const r = await runCli(["run", "--root", root, "--json"], root);
  return { ...r, report: RunReportSchema.parse(JSON.parse(r.stdout)) as RunReportJson };
}

const statuses = (report: RunReportJson) =>
  report.contracts.flatMap((c) => c.criteria.map((k) => `${c.path}#${k.id} ${k.status}`));

describe("a repository whose only ledger is GATES.md: the CLI", () => {
  it("the failing ledger fails: the forged G1 re-runs and is unmet", async () => {
    const r = await cliRun("failing");
    expect(r.code, r.stderr).toBe(1);
    expect(statuses(r.report).sort()).toEqual([
      "GATES.md#G1 unmet",
      "GATES.md#G2 met",
      "GATES.md#G3 manual",
    ]);
    expect(r.report.contracts[0]!.kind).toBe("gates-ledger");
  });

  it("its honest twin passes (the control)", async () => {
    const r = await cliRun("honest");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(statuses(r.report).sort()).toEqual([
      "GATES.md#G1 met",
      "GATES.md#G2 met",
      "GATES.md#G3 manual",
    ]);
  });
});

describe("a repository whose only ledger is GATES.md: the bundled action", () => {
  for (const [which, code, conclusion] of [
    ["failing", 1, "failure"],
    ["honest", 0, "success"],
  ] as const) {
    it(`the ${which} ledger: exit ${code}, check run ${conclusion}`, async () => {
      const repo = await makeRepo({
        base: { "README.md": "# notes\n", "src/notes.txt": NOTES },
        head: { "GATES.md": ledger(which) },
      });
      const gh = await standInFor(repo, {});
      try {
        const r = await runAction({ repo, gh, event: "pull_request" });
        expect(r.code, r.stdout).toBe(code);
        const report = JSON.parse(readFileSync(r.outputs.report!, "utf8")) as RunReportJson;
        expect(report.contracts.map((c) => [c.path, c.kind])).toEqual([
          ["GATES.md", "gates-ledger"],
        ]);
        const g1 = report.contracts[0]!.criteria.find((k) => k.id === "G1")!;
        expect(g1.status).toBe(which === "failing" ? "unmet" : "met");
        const run = gh.repo(REPO).checkRuns.at(-1)!;
        expect(run.conclusion).toBe(conclusion);
        expect(gh.violations).toEqual([]);
      } finally {
        await gh.close();
      }
    });
  }
});
