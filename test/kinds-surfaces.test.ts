import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectChanged } from "../src/action/select.js";
import { DEFAULT_CONTRACT_GLOBS } from "../src/formats/kinds/index.js";
import { loadContract } from "../src/load/index.js";
import { annotationsFor } from "../src/report/annotations.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { RunReportSchema } from "../src/report/run-json.js";
import { runContracts } from "../src/run/engine.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const KINDS = join(import.meta.dirname, "fixtures", "kinds");
const fixture = (rel: string) => readFileSync(join(KINDS, rel), "utf8");

/** A repository with one file of each new kind, all valid. */
function repo(): string {
  const root = tempDir();
  writeTree(root, {
    "plans/auth-plan.json": fixture("planner-unknown-key/twin/plans/auth-plan.json"),
    "plans/context.json": fixture("context-missing-field/twin/plans/context.json"),
    "plans/qr-plan-design.json": fixture("qr-status/twin/plans/qr-plan-design.json"),
    ".workphase/auth/research.json": fixture("citation-unknown/twin/.workphase/auth/research.json"),
    ".workphase/auth/plan.json": fixture("citation-unknown/twin/.workphase/auth/plan.json"),
    "tests/test_auth.py": "def test_x(): pass\n",
  });
  return root;
}

describe("planner and workphase kinds on every surface", () => {
  it("validate --json names each kind; all five files are valid", async () => {
    const r = await runCli(["validate", "--json", "--root", repo()], process.cwd());
    const report = JSON.parse(r.stdout);
    expect(r.code).toBe(0);
    expect(
      Object.fromEntries(
        report.contracts.map((c: { path: string; kind: string }) => [c.path, c.kind]),
      ),
    ).toEqual({
      ".workphase/auth/plan.json": "workphase-plan",
      ".workphase/auth/research.json": "workphase-research",
      "plans/auth-plan.json": "planner-plan",
      "plans/context.json": "planner-context",
      "plans/qr-plan-design.json": "planner-qr",
    });
  });

  it("run --json fits the report schema and decides each criterion as the files record it", async () => {
    const r = await runCli(["run", "--json", "--no-write", "--root", repo()], process.cwd());
    const report = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(r.code).toBe(1);
    const by = Object.fromEntries(
      report.contracts.flatMap((c) =>
        c.criteria.map((k) => [`${c.path}#${k.id}`, `${k.status}${k.blocking ? " blocking" : ""}`]),
      ),
    );
    expect(by).toMatchObject({
      "plans/qr-plan-design.json#qa-001": "met",
      "plans/qr-plan-design.json#qa-002": "unmet blocking",
      "plans/qr-plan-design.json#qa-003": "unmet blocking",
      "plans/qr-plan-design.json#in-progress": "unmet blocking",
      "plans/auth-plan.json#M-001.1": "met",
      "plans/auth-plan.json#M-001.2": "manual",
      "plans/auth-plan.json#M-001.3": "manual",
      ".workphase/auth/plan.json#assumption-r2": "manual blocking",
      ".workphase/auth/plan.json#verify-1": "manual",
    });
  });

  it("a QR file whose items all pass still blocks: upstream deletes it on pass", async () => {
    const root = repo();
    const qr = JSON.parse(fixture("qr-status/twin/plans/qr-plan-design.json"));
    qr.items = [{ id: "qa-001", scope: "*", check: "all good", status: "PASS", finding: null }];
    writeTree(root, { "plans/qr-plan-design.json": JSON.stringify(qr) });
    const r = await runCli(["run", "--json", "--no-write", "plans/qr-plan-design.json"], root);
    const report = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(report.conclusion).toBe("failure");
    expect(report.contracts[0]!.criteria.filter((k) => k.blocking).map((k) => k.reason)).toEqual([
      expect.stringContaining("quality review in progress"),
    ]);
  });

  it("a severity field changes nothing: all severity levels block on all iterations", async () => {
    const root = repo();
    const qr = JSON.parse(fixture("qr-status/twin/plans/qr-plan-design.json"));
    qr.items = [
      { id: "qa-001", scope: "*", check: "nit", status: "FAIL", finding: "typo", severity: "low" },
    ];
    writeTree(root, { "plans/qr-plan-design.json": JSON.stringify(qr) });
    const r = await runCli(["run", "--json", "--no-write", "plans/qr-plan-design.json"], root);
    const report = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(report.contracts[0]!.problems).toEqual([]);
    expect(report.contracts[0]!.criteria.find((k) => k.id === "qa-001")).toMatchObject({
      status: "unmet",
      blocking: true,
      reason: "FAIL: typo",
    });
  });

  it("status shows recorded QR states without running anything", async () => {
    const r = await runCli(["status", "plans/qr-plan-design.json"], repo());
    expect(r.stdout).toContain("planner-qr  valid  iteration 1 of 5");
    expect(r.stdout).toMatch(/qa-001 +recorded MET/);
    expect(r.stdout).toMatch(/qa-003 +pending/);
  });

  it("markdown and annotations show the QR finding and the person-needed criterion", async () => {
    const root = repo();
    const paths = [
      "plans/qr-plan-design.json",
      ".workphase/auth/plan.json",
      ".workphase/auth/research.json",
    ];
    const contracts = await Promise.all(paths.map((p) => loadContract(root, p)));
    const result = await runContracts(contracts, {
      root,
      maxParallel: 1,
      requireOracles: false,
      oracleTimeoutMs: 10_000,
      regexTimeoutMs: 1_000,
      env: {},
    });
    const md = renderMarkdown(result.summary, result.contracts);
    expect(md).toContain("FAIL: CI-M-001-001 cites no risk");
    expect(md).toContain("needs a person");
    expect(md).toContain("no criteria: validated, nothing to run");
    const notes = annotationsFor(result.contracts);
    expect(
      notes.some((a) => a.path === "plans/qr-plan-design.json" && a.annotation_level === "failure"),
    ).toBe(true);
  });

  it("a plan whose cited research is deleted is invalid, and the deletion selects it", async () => {
    const root = repo();
    execFileSync("rm", [join(root, ".workphase/auth/research.json")]);
    const plan = await loadContract(root, ".workphase/auth/plan.json");
    expect(plan.problems.map((p) => p.code)).toEqual([
      "unresolved-citation",
      "unresolved-citation",
    ]);
    const picked = selectChanged(
      [".workphase/auth/plan.json", "plans/auth-plan.json"],
      [{ path: ".workphase/auth/research.json", status: "removed" }],
      [".workphase/*/plan.json"],
      "",
    );
    expect(picked.selected).toEqual([".workphase/auth/plan.json"]);
  });

  it("a PR deleting a QR file lists it as removed: shown, never blocking", () => {
    const picked = selectChanged(
      ["plans/auth-plan.json"],
      [{ path: "plans/qr-plan-design.json", status: "removed" }],
      DEFAULT_CONTRACT_GLOBS,
      "",
    );
    expect(picked).toEqual({
      selected: [],
      removed: ["plans/qr-plan-design.json"],
      notFiles: [],
      by: new Map(),
    });
  });

  it("--changed-since: a change to the research selects the plan that cites it", async () => {
    const root = repo();
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
    git("init", "-q");
    git("-c", "user.email=a@b", "-c", "user.name=a", "add", ".");
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "base");
    const research = JSON.parse(fixture("citation-unknown/twin/.workphase/auth/research.json"));
    research.findings[1].confidence = "inference";
    writeTree(root, { ".workphase/auth/research.json": JSON.stringify(research) });
    const r = await runCli(["run", "--json", "--no-write", "--changed-since", "HEAD"], root);
    const report = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(report.contracts.map((c) => c.path)).toEqual([
      ".workphase/auth/plan.json",
      ".workphase/auth/research.json",
    ]);
    // No assumption is cited any more: nothing needs a person.
    expect(report.conclusion).toBe("success");
  });
});
