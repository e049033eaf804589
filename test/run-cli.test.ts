import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import { type RunReportJson, RunReportSchema } from "../src/report/run-json.js";
import { oracleContract, planContract, snapshot } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { copyTree, tempDir, writeTree } from "./helpers/tmp.js";

const DEMO = join(import.meta.dirname, "../examples/demo");
const C = ".claude/tasks/contracts";

/** One criterion whose CHECK creates a sentinel file (and prints its marker). */
const SENTINEL =
  "1. sentinel\n   CHECK: touch SENTINEL && echo SENTINEL-MADE\n   EXPECT: SENTINEL-MADE\n   EVIDENCE: pending\n";

async function runJson(args: string[], root: string) {
  const r = await runCli(["run", "--root", root, "--json", ...args], root);
  let report: RunReportJson | undefined;
  try {
    report = RunReportSchema.parse(JSON.parse(r.stdout));
  } catch (e) {
    throw new Error(
      `not a run report (exit ${r.code}): ${(e as Error).message}\n${r.stdout}\n${r.stderr}`,
    );
  }
  return { ...r, report };
}

function criterion(report: RunReportJson, path: string, id: string) {
  const contract = report.contracts.find((c) => c.path === path);
  if (!contract) throw new Error(`no contract ${path} in the report`);
  const k = contract.criteria.find((c) => c.id === id);
  if (!k) throw new Error(`no criterion ${id} in ${path}`);
  return k;
}

describe("run: nothing executes unless the contract may run (sentinels)", () => {
  it("runs a valid contract's CHECK, and none of an invalid one", async () => {
    // Positive control: the CHECK really creates the sentinel when the contract is valid.
    const valid = tempDir();
    writeTree(valid, { [`${C}/c.md`]: oracleContract(SENTINEL) });
    const ran = await runJson(["--no-write"], valid);
    expect(existsSync(join(valid, "SENTINEL"))).toBe(true);
    expect(ran.code).toBe(0);
    expect(criterion(ran.report, `${C}/c.md`, "1").status).toBe("met");

    // The same contract plus a second criterion with a partial oracle: refused whole.
    const invalid = tempDir();
    writeTree(invalid, {
      [`${C}/c.md`]: oracleContract(
        `${SENTINEL}2. half an oracle\n   CHECK: true\n   EVIDENCE: pending\n`,
      ),
    });
    const refused = await runJson([], invalid);
    expect(existsSync(join(invalid, "SENTINEL"))).toBe(false);
    expect(refused.code).toBe(1);
    const [contract] = refused.report.contracts;
    expect(contract!.verdict).toBe("invalid");
    expect(contract!.problems.map((p) => p.code)).toContain("partial-oracle");
    expect(contract!.criteria.map((k) => k.status)).toEqual(["not-run", "not-run"]);
  });

  it("status never executes and never writes", async () => {
    const control = tempDir();
    writeTree(control, { [`${C}/c.md`]: oracleContract(SENTINEL) });
    await runCli(["run", "--root", control], control);
    expect(existsSync(join(control, "SENTINEL"))).toBe(true);

    const root = tempDir();
    writeTree(root, { [`${C}/c.md`]: oracleContract(SENTINEL) });
    const before = snapshot(root);
    for (const args of [["status"], ["status", "--json"]]) {
      const r = await runCli([...args, "--root", root], root);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("pending");
    }
    expect(existsSync(join(root, "SENTINEL"))).toBe(false);
    expect(snapshot(root)).toEqual(before);
  });

  it("never runs a CHECK inside a fenced code block, but runs the same CHECK outside", async () => {
    const root = tempDir();
    const check = (name: string) =>
      `   CHECK: touch ${name} && echo MADE\n   EXPECT: MADE\n   EVIDENCE: pending\n`;
    writeTree(root, {
      [`${C}/c.md`]: oracleContract(
        `1. outside\n${check("OUTSIDE")}\nAn example:\n\n\`\`\`markdown\n2. inside\n${check("FENCED")}\`\`\`\n\n~~~\n3. tilde\n${check("TILDE")}~~~\n`,
      ),
    });
    const r = await runJson(["--no-write"], root);
    expect(existsSync(join(root, "OUTSIDE"))).toBe(true);
    expect(existsSync(join(root, "FENCED"))).toBe(false);
    expect(existsSync(join(root, "TILDE"))).toBe(false);
    expect(r.report.contracts[0]!.criteria.map((k) => k.id)).toEqual(["1"]);
  });

  it("never runs a drifted plan contract's command, but runs the matching one", async () => {
    const root = tempDir();
    writeTree(root, {
      ...planContract(1, [
        {
          id: "T1",
          verification: [
            { type: "command-exit", command: "touch", args: ["MATCH-RAN"], expected_exit: 0 },
          ],
        },
      ]),
      ...planContract(
        2,
        [
          {
            id: "T1",
            verification: [
              { type: "command-exit", command: "touch", args: ["DRIFT-RAN"], expected_exit: 0 },
            ],
          },
        ],
        { drifted: true },
      ),
    });
    const r = await runJson([], root);
    expect(existsSync(join(root, "MATCH-RAN"))).toBe(true);
    expect(criterion(r.report, ".planning/phase-1-contract.json", "T1.1").status).toBe("met");
    expect(existsSync(join(root, "DRIFT-RAN"))).toBe(false);
    const drifted = r.report.contracts.find((c) => c.path === ".planning/phase-2-contract.json")!;
    expect(drifted.verdict).toBe("drifted");
    expect(drifted.problems.map((p) => p.code)).toEqual(["plan-drift"]);
    expect(drifted.criteria[0]!.status).toBe("not-run");
    expect(drifted.criteria[0]!.blocking).toBe(true);
    expect(r.code).toBe(1);
    // A drifted contract gets no verification files; the matching one does.
    expect(existsSync(join(root, ".planning/phase-1-verification.json"))).toBe(true);
    expect(existsSync(join(root, ".planning/phase-2-verification.json"))).toBe(false);

    // A hash recorded for a plan that is gone is drift too.
    rmSync(join(root, ".planning/phase-1-plan.md"));
    rmSync(join(root, "MATCH-RAN"));
    const missing = await runJson(["--no-write", ".planning/phase-1-contract.json"], root);
    expect(existsSync(join(root, "MATCH-RAN"))).toBe(false);
    expect(missing.report.contracts[0]!.verdict).toBe("drifted");
    expect(missing.report.contracts[0]!.problems.map((p) => p.code)).toEqual(["plan-missing"]);
    expect(missing.code).toBe(1);
  });

  it("never runs an aborted contract", async () => {
    const active = tempDir();
    writeTree(active, { [`${C}/c.md`]: oracleContract(SENTINEL, "active") });
    await runCli(["run", "--root", active, "--no-write"], active);
    expect(existsSync(join(active, "SENTINEL"))).toBe(true);

    const root = tempDir();
    writeTree(root, { [`${C}/c.md`]: oracleContract(SENTINEL, "aborted") });
    const before = snapshot(root);
    const r = await runJson([], root);
    expect(existsSync(join(root, "SENTINEL"))).toBe(false);
    expect(snapshot(root)).toEqual(before);
    const [contract] = r.report.contracts;
    expect(contract!.verdict).toBe("aborted");
    expect(contract!.criteria[0]!.status).toBe("not-run");
    // An aborted contract is set aside, not a failure of the gate.
    expect(contract!.criteria[0]!.blocking).toBe(false);
    expect(r.code).toBe(0);
  });
});

describe("run: exit codes and output", () => {
  const mixed = () => {
    const root = tempDir();
    writeTree(root, {
      [`${C}/c.md`]: oracleContract(
        "1. passes\n   CHECK: echo ALL-OK\n   EXPECT: ALL-OK\n   EVIDENCE: pending\n2. a reviewer decides\n",
      ),
    });
    return root;
  };

  it("exits 0 when nothing blocks and 1 when anything does", async () => {
    const ok = mixed();
    const pass = await runCli(["run", "--root", ok, "--no-write", "--sandbox", "off"], ok);
    expect(pass.stderr).toBe("");
    expect(pass.code).toBe(0);
    expect(pass.stdout).toMatch(
      /2 criteria in 1 contract \(.*1 manual, 1 met\), 0 blocking — success\n$/,
    );

    const bad = tempDir();
    writeTree(bad, {
      [`${C}/c.md`]: oracleContract(
        "1. fails\n   CHECK: echo ALL-OK; exit 3\n   EXPECT: ALL-OK\n   EVIDENCE: pending\n",
      ),
    });
    const fail = await runCli(["run", "--root", bad, "--no-write"], bad);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain("exit 3 (nonzero), marker present");
    expect(fail.stdout).toMatch(/1 blocking — failure\n$/);
  });

  it("exits 0, neutral, with no contracts", async () => {
    const root = tempDir();
    writeTree(root, { "README.md": "nothing to gate\n" });
    const text = await runCli(["run", "--root", root], root);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/no contracts/i);
    const json = await runJson([], root);
    expect(json.code).toBe(0);
    expect(json.report.conclusion).toBe("neutral");
    expect(json.report.counts.contracts).toBe(0);
    expect(json.report.contracts).toEqual([]);
  });

  it("exits 2 on bad flags, running nothing", async () => {
    const root = tempDir();
    writeTree(root, { [`${C}/c.md`]: oracleContract(SENTINEL) });
    const cases: [string[], RegExp][] = [
      [["--max-parallel", "0"], /--max-parallel '0' is not a positive integer/],
      [["--timeout-seconds", "1.5"], /--timeout-seconds '1\.5' is not a positive integer/],
      [["--json", "--markdown"], /--json and --markdown are exclusive/],
      [["--frobnicate"], /Unknown option '--frobnicate'/],
      [["--max-parallel"], /--max-parallel/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(["run", "--root", root, ...args], root);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout, args.join(" ")).toBe("");
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.stderr).toContain("hint: run 'contract-gate run --help'");
    }
    expect(existsSync(join(root, "SENTINEL"))).toBe(false);
  });

  it("--json validates against RunReportSchema with the conclusion and counts", async () => {
    const root = mixed();
    writeTree(root, {
      [`${C}/d.md`]: oracleContract(
        "1. fails\n   CHECK: echo nope\n   EXPECT: ALL-OK\n   EVIDENCE: pending\n",
      ),
    });
    const r = await runJson(["--no-write"], root);
    expect(r.code).toBe(1);
    expect(r.report.schemaVersion).toBe(1);
    expect(r.report.conclusion).toBe("failure");
    expect(r.report.counts).toMatchObject({
      contracts: 2,
      criteria: 3,
      met: 1,
      manual: 1,
      unmet: 1,
      blocking: 1,
      error: 0,
    });
    const unmet = criterion(r.report, `${C}/d.md`, "1");
    expect(unmet).toMatchObject({
      status: "unmet",
      blocking: true,
      reason: "exit 0, marker absent",
    });
    expect(unmet.checks[0]).toMatchObject({
      type: "oracle",
      result: "fail",
      failureReason: "verification-criteria-unmet",
      exitCode: 0,
    });
    const success = await runJson(["--no-write"], mixed());
    expect(success.report.conclusion).toBe("success");
    expect(success.code).toBe(0);
  });

  it("--markdown prints the tables", async () => {
    const root = mixed();
    const r = await runCli(["run", "--root", root, "--no-write", "--markdown"], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("| | criterion | | reason |");
    expect(r.stdout).toContain("|---|---|---|---|");
    expect(r.stdout).toMatch(/^\| .*met \| `1` passes \|.*\| exit 0, marker found \|$/m);
    expect(r.stdout).toMatch(/^\| .*manual \| `2` a reviewer decides \|/m);
  });

  it("--require-oracles makes a manual criterion block", async () => {
    const root = mixed();
    const relaxed = await runJson(["--no-write"], root);
    expect(criterion(relaxed.report, `${C}/c.md`, "2")).toMatchObject({
      status: "manual",
      blocking: false,
    });
    expect(relaxed.code).toBe(0);
    const strict = await runJson(["--no-write", "--require-oracles"], root);
    expect(criterion(strict.report, `${C}/c.md`, "2")).toMatchObject({
      status: "manual",
      blocking: true,
    });
    expect(strict.report.conclusion).toBe("failure");
    expect(strict.code).toBe(1);
  });
});

describe("run interrupted", () => {
  it("exits 130, kills the running check and writes nothing", async () => {
    const root = tempDir();
    const source = oracleContract(
      "1. slow\n   CHECK: touch STARTED; (sleep 1.5; touch GRANDCHILD) & wait; echo DONE\n   EXPECT: DONE\n   EVIDENCE: pending\n",
    );
    writeTree(root, { [`${C}/c.md`]: source });
    const ac = new AbortController();
    const poll = setInterval(() => {
      if (existsSync(join(root, "STARTED"))) ac.abort();
    }, 20);
    let stdout = "";
    let stderr = "";
    try {
      const code = await main(["run", "--root", root, "--sandbox", "off"], {
        stdout: (t) => {
          stdout += t;
        },
        stderr: (t) => {
          stderr += t;
        },
        cwd: root,
        // Not under CI: a plain folder there gets its notice on stderr first (issue 32).
        env: { ...process.env, CI: "", NO_COLOR: "1" },
        isTTY: false,
        signal: ac.signal,
      });
      expect(ac.signal.aborted).toBe(true);
      expect(code).toBe(130);
    } finally {
      clearInterval(poll);
    }
    expect(stderr).toBe("contract-gate: interrupted; every running check was killed\n");
    expect(stdout).toBe("");
    expect(readFileSync(join(root, C, "c.md"), "utf8")).toBe(source);
    await sleep(2500);
    expect(existsSync(join(root, "GRANDCHILD"))).toBe(false);
  });
});

describe("run --changed-since", () => {
  const git = (root: string, ...args: string[]) =>
    execFileSync(
      "git",
      [
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "-c",
        "commit.gpgsign=false",
        ...args,
      ],
      { cwd: root, stdio: "pipe" },
    ).toString();

  const passing = (marker: string) =>
    oracleContract(`1. ok\n   CHECK: echo ${marker}\n   EXPECT: ${marker}\n   EVIDENCE: pending\n`);
  const fileCheck = [{ type: "file-exists", path: "README.md" }];

  it("selects contracts whose own file, plan or evidence changed, and untracked new ones", async () => {
    const root = tempDir();
    writeTree(root, {
      "README.md": "hello\n",
      [`${C}/changed.md`]: passing("A"),
      [`${C}/unchanged.md`]: passing("B"),
      ...planContract(1, [{ id: "T1", verification: fileCheck }]),
      ...planContract(2, [{ id: "T1", verification: fileCheck }]),
      ".planning/phase-2-evidence.json": '{ "version": 1, "phase": 2, "citations": [] }\n',
      ...planContract(3, [{ id: "T1", verification: fileCheck }]),
    });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "base");

    // Control: everything is in scope without the flag, nothing with no change.
    expect((await runJson(["--no-write"], root)).report.contracts).toHaveLength(5);
    expect(
      (await runJson(["--no-write", "--changed-since", "HEAD"], root)).report.contracts,
    ).toEqual([]);

    writeFileSync(join(root, C, "changed.md"), passing("A2"));
    writeFileSync(join(root, ".planning/phase-1-plan.md"), "# Phase 1, edited\n");
    writeFileSync(
      join(root, ".planning/phase-2-evidence.json"),
      '{ "version": 1, "phase": 2, "citations": [ ] }\n',
    );
    writeTree(root, { [`${C}/new.md`]: passing("N") });

    const r = await runJson(["--no-write", "--changed-since", "HEAD"], root);
    expect(r.report.contracts.map((c) => c.path).sort()).toEqual(
      [
        `${C}/changed.md`,
        `${C}/new.md`,
        ".planning/phase-1-contract.json",
        ".planning/phase-2-contract.json",
      ].sort(),
    );
    // Each says why it is in scope: itself, or the file beside it that it reads.
    const why = Object.fromEntries(r.report.contracts.map((c) => [c.path, c.inScope?.text]));
    expect(why).toEqual({
      [`${C}/changed.md`]: "changed since HEAD",
      [`${C}/new.md`]: "changed since HEAD",
      ".planning/phase-1-contract.json":
        ".planning/phase-1-plan.md, which it reads, changed since HEAD",
      ".planning/phase-2-contract.json":
        ".planning/phase-2-evidence.json, which it reads, changed since HEAD",
    });
    // Control: without the flag nothing narrows the scope, and no contract claims a reason.
    expect(
      (await runJson(["--no-write"], root)).report.contracts.some((c) => c.inScope !== undefined),
    ).toBe(false);
    // The plan change is selected, and shows as drift.
    expect(
      r.report.contracts.find((c) => c.path === ".planning/phase-1-contract.json")!.verdict,
    ).toBe("drifted");

    // A committed change is found against the commit before it.
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "change");
    const since = await runJson(["--no-write", "--changed-since", "HEAD~1"], root);
    expect(since.report.contracts).toHaveLength(4);
  });

  it("works when --root is a subdirectory of the git repository", async () => {
    const repo = tempDir();
    writeTree(repo, {
      "pkg/README.md": "hello\n",
      [`pkg/${C}/changed.md`]: passing("A"),
      [`pkg/${C}/unchanged.md`]: passing("B"),
      ...planContract(1, [{ id: "T1", verification: fileCheck }], { dir: "pkg/.planning" }),
    });
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "base");
    const root = join(repo, "pkg");
    writeFileSync(join(root, C, "changed.md"), passing("A2"));
    writeFileSync(join(root, ".planning/phase-1-plan.md"), "# Phase 1, edited\n");
    writeTree(root, { [`${C}/new.md`]: passing("N") });
    const r = await runJson(["--no-write", "--changed-since", "HEAD"], root);
    expect(r.report.contracts.map((c) => c.path).sort()).toEqual(
      [`${C}/changed.md`, `${C}/new.md`, ".planning/phase-1-contract.json"].sort(),
    );
  });

  it("exits 2 with a clear message for a bad ref or a directory outside git", async () => {
    const root = tempDir();
    writeTree(root, { [`${C}/c.md`]: oracleContract(SENTINEL) });
    const outside = await runCli(["run", "--root", root, "--changed-since", "main"], root);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--changed-since main/);

    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "base");
    const r = await runCli(["run", "--root", root, "--changed-since", "no-such-ref"], root);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("--changed-since no-such-ref: no such commit");
    expect(existsSync(join(root, "SENTINEL"))).toBe(false);
  });
});

describe("run on the demo", () => {
  it("shows every outcome and leaves the demo tree unchanged", async () => {
    // A copy: a broken gate must not leave sentinels in the committed demo.
    const demo = copyTree(DEMO);
    const sentinels = [
      "ABORTED-CONTRACT-RAN",
      "DRIFTED-CONTRACT-RAN",
      "INVALID-CONTRACT-RAN",
      "FENCED-EXAMPLE-RAN",
    ];
    for (const s of sentinels) expect(existsSync(join(demo, s)), s).toBe(false);
    const before = snapshot(demo);
    const r = await runJson(["--no-write"], demo);
    expect(snapshot(demo)).toEqual(before);
    for (const s of sentinels) expect(existsSync(join(demo, s)), s).toBe(false);

    expect(r.code).toBe(1);
    expect(r.report.conclusion).toBe("failure");
    const greeting = `${C}/2026-11-29-greeting-1200.md`;
    const farewell = `${C}/2026-11-29-farewell-1300.md`;
    const phase2 = ".planning/phase-2-contract.json";
    const verdicts = Object.fromEntries(r.report.contracts.map((c) => [c.path, c.verdict]));
    expect(verdicts).toEqual({
      [`${C}/2026-11-28-shouting-0900.md`]: "aborted",
      [farewell]: "abandoned",
      [greeting]: "fail",
      ".planning/phase-1-contract.json": "pass",
      [phase2]: "fail",
      ".planning/phase-3-contract.json": "drifted",
      ".planning/phase-4-contract.json": "invalid",
    });
    // met
    expect(criterion(r.report, greeting, "1").status).toBe("met");
    expect(criterion(r.report, ".planning/phase-1-contract.json", "T2.2").status).toBe("met");
    // unmet: marker present, nonzero exit
    expect(criterion(r.report, greeting, "3")).toMatchObject({
      status: "unmet",
      reason: "exit 7 (nonzero), marker present",
    });
    // unmet: exit 0, marker absent
    expect(criterion(r.report, greeting, "4")).toMatchObject({
      status: "unmet",
      reason: "exit 0, marker absent",
    });
    // error: timeout, and command not found
    expect(criterion(r.report, phase2, "T1.2")).toMatchObject({ status: "error", blocking: true });
    expect(criterion(r.report, phase2, "T1.2").reason).toMatch(/^timed out after 1000 ms/);
    expect(criterion(r.report, phase2, "T1.3")).toMatchObject({
      status: "error",
      reason: "command not found: farewell-cli",
    });
    expect(criterion(r.report, phase2, "T1.4").status).toBe("evidence-missing");
    expect(criterion(r.report, farewell, "FW-2")).toMatchObject({
      status: "abandoned",
      blocking: true,
    });
    expect(criterion(r.report, greeting, "5")).toMatchObject({ status: "manual", blocking: false });
    expect(criterion(r.report, ".planning/phase-3-contract.json", "T1.1").status).toBe("not-run");
    // The invalid plan contract's schema errors leave no criteria to list; it still blocks.
    expect(
      r.report.contracts
        .find((c) => c.path === ".planning/phase-4-contract.json")!
        .problems.filter((p) => p.severity === "error").length,
    ).toBeGreaterThan(0);
    expect(r.report.counts).toMatchObject({
      contracts: 7,
      met: 8,
      unmet: 3,
      error: 2,
      "evidence-missing": 1,
      abandoned: 1,
      manual: 1,
      "not-run": 2,
    });
  });
});
