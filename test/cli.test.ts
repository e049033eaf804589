import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { copyTree, tempDir, writeTree } from "./helpers/tmp.js";

const DEMO = join(import.meta.dirname, "../examples/demo");
const PLAN_CONTRACT = ".planning/phase-1-contract.json";
const GREETING = ".claude/tasks/contracts/2026-11-29-greeting-1200.md";

/** Every file under a directory with its bytes and mtime: proof that nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    out[abs] = `${statSync(abs).mtimeMs}:${readFileSync(abs).toString("base64")}`;
  }
  return out;
}

describe("contract-gate validate", () => {
  it("accepts the demo's valid contracts and refuses its drifted and invalid ones", async () => {
    const ok = await runCli(["validate", PLAN_CONTRACT, GREETING], DEMO);
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toBe("2 contracts checked: 2 valid, 0 invalid (0 errors, 0 warnings)\n");
    expect(ok.code).toBe(0);
    const all = await runCli(["validate", "--root", DEMO], process.cwd());
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(".planning/phase-3-contract.json:8:23: error plan-drift");
    expect(all.stdout).toContain(
      'error unknown-key tasks[0].verification[0]: unknown key "must_contian"',
    );
    expect(all.stdout).toMatch(
      /7 contracts checked: 5 valid, 2 invalid \(\d+ errors, 1 warning\)\n$/,
    );
  });

  it("prints path:line:col: severity CODE message with hints and exits 1 on errors", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/tasks/contracts/bad.md":
        "# CONTRACT — x\n\n## ACCEPTANCE CRITERIA\n1. a\nCHECK: true\n",
    });
    const r = await runCli(["validate"], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^\.claude\/tasks\/contracts\/bad\.md:5:1: error unindented-attribute .+\n {4}hint: .+\n/m,
    );
    expect(r.stdout).toMatch(
      /1 contract checked: 0 valid, 1 invalid \(\d+ errors?, 0 warnings\)\n$/,
    );
  });

  it("reports drift, and refresh-hash fixes only the hash bytes", async () => {
    const root = copyTree(DEMO);
    const before = readFileSync(join(root, PLAN_CONTRACT));
    writeFileSync(join(root, ".planning/phase-1-plan.md"), "# edited plan\n");
    const drifted = await runCli(["validate", "--json", PLAN_CONTRACT, GREETING], root);
    expect(drifted.code).toBe(1);
    const report = JSON.parse(drifted.stdout);
    expect(report.schemaVersion).toBe(1);
    expect(report.valid).toBe(false);
    const plan = report.contracts.find((c: { kind: string }) => c.kind === "plan-contract");
    expect(plan.drift).toBe("drifted");
    expect(plan.problems.map((p: { code: string }) => p.code)).toEqual(["plan-drift"]);

    const refreshed = await runCli(["refresh-hash", PLAN_CONTRACT], root);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toContain("→ sha256:");
    const after = readFileSync(join(root, PLAN_CONTRACT));
    const oldText = before.toString("utf8");
    const newText = after.toString("utf8");
    const hashOf = (s: string) => /"source_plan_hash": "([^"]*)"/.exec(s)![1]!;
    expect(newText).toBe(oldText.replace(hashOf(oldText), hashOf(newText)));
    expect((await runCli(["validate", PLAN_CONTRACT], root)).code).toBe(0);
    // A second refresh is a no-op that says so.
    expect((await runCli(["refresh-hash", PLAN_CONTRACT], root)).stdout).toContain(
      "already matches",
    );
  });

  it("reports a missing plan and a disabled drift check", async () => {
    const root = copyTree(DEMO);
    writeFileSync(join(root, ".planning/phase-1-plan.md"), "");
    const contract = readFileSync(join(root, PLAN_CONTRACT), "utf8");
    writeFileSync(
      join(root, PLAN_CONTRACT),
      contract.replace(/"source_plan_hash": "[^"]*"/, '"source_plan_hash": ""'),
    );
    const disabled = await runCli(["validate", PLAN_CONTRACT], root);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toMatch(/warning drift-check-disabled .*drift check disabled/);

    const missing = copyTree(DEMO);
    const { rmSync } = await import("node:fs");
    rmSync(join(missing, ".planning/phase-1-plan.md"));
    const r = await runCli(["validate", PLAN_CONTRACT], missing);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error plan-missing");
  });

  it("exits 2 with a hint on usage errors", async () => {
    for (const args of [["validate", "--jsn"], ["validate", "missing.md"], ["frobnicate"], []]) {
      const r = await runCli(args, DEMO);
      expect(r.code, args.join(" ")).toBe(2);
    }
    const r = await runCli(["validate", "--jsn"], DEMO);
    expect(r.stderr).toMatch(
      /^contract-gate: Unknown option '--jsn' \(did you mean '--json'\?\)\n {2}hint: run 'contract-gate validate --help'\n$/,
    );
  });

  it("prints help for each command", async () => {
    for (const cmd of ["validate", "status", "refresh-hash"]) {
      const r = await runCli([cmd, "--help"], DEMO);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: contract-gate ${cmd}`);
    }
  });
});

describe("contract-gate status", () => {
  it("shows each criterion's recorded state, grouped by task for plan contracts", async () => {
    const r = await runCli(["status", "--root", DEMO], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      ".planning/phase-1-contract.json  plan-contract  valid  drift: match",
    );
    expect(r.stdout).toMatch(/\n {2}T1 {2}Greeting function {2}\(wave 1\)\n {4}T1\.1 {2}pending/);
    expect(r.stdout).toMatch(/\n {2}5 {2}manual {10} {2}The greeting reads naturally/);
    expect(r.stdout).toContain(
      ".claude/tasks/contracts/2026-11-28-shouting-0900.md  oracle-contract  valid  status: aborted",
    );
  });

  it("reports recorded results and abandons in JSON without trusting them", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/tasks/contracts/c.md": [
        "# CONTRACT — c",
        "- status: active",
        "## ACCEPTANCE CRITERIA",
        "1. one",
        "   CHECK: true",
        "   EXPECT: ok",
        "   EVIDENCE: MET exit=0 marker-found :: ok",
        "2. two",
        "   CHECK: false",
        "   EXPECT: ok",
        "   EVIDENCE: NOT-MET exit=1 (nonzero) :: no",
        "3. three",
        "ABANDON: 3 impossible without production data",
        "",
      ].join("\n"),
    });
    const r = await runCli(["status", "--json"], root);
    const report = JSON.parse(r.stdout);
    expect(report.contracts[0].status).toBe("active");
    expect(report.contracts[0].criteria.map((c: { recorded: string }) => c.recorded)).toEqual([
      "recorded-met",
      "recorded-not-met",
      "abandoned",
    ]);
  });

  it("never executes a check and never writes a file", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/tasks/contracts/c.md":
        "# CONTRACT — s\n## ACCEPTANCE CRITERIA\n1. sentinel\n   CHECK: touch SENTINEL\n   EXPECT: ok\n   EVIDENCE: pending\n",
    });
    const before = snapshot(root);
    const r = await runCli(["status"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pending");
    expect(snapshot(root)).toEqual(before);
  });

  it("shows what run recorded for plan contracts, from phase-N-verification.json", async () => {
    const root = copyTree(DEMO);
    const before = await runCli(["status", PLAN_CONTRACT], root);
    expect(before.stdout).toMatch(/T1\.1 {2}pending/);
    const ran = await runCli(["run", PLAN_CONTRACT], root);
    expect(ran.code).toBe(0);
    const after = await runCli(["status", "--json", PLAN_CONTRACT], root);
    const recorded = JSON.parse(after.stdout).contracts[0].criteria.map(
      (c: { recorded: string }) => c.recorded,
    );
    expect(recorded).toEqual(Array(5).fill("recorded-met"));
  });
});
