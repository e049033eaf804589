import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunReportSchema } from "../src/report/run-json.js";
import { bashExit, oracleContract, planContract, snapshot } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";
const FILE = `${C}/c.md`;

/**
 * Criteria covering every EVIDENCE outcome, in every attribute form: plain
 * indentation, list items with backtick values, tab indentation with extra
 * spaces after the colon, a checkbox criterion, a forged MET, a manual one.
 */
const CRITERIA = [
  "1. met",
  "   CHECK: echo first line; echo ALL-OK",
  "   EXPECT: ALL-OK",
  "   EVIDENCE: pending",
  "2. marker present, nonzero exit",
  "    - CHECK: `echo ALL-OK; exit 7`",
  "    - EXPECT: `ALL-OK`",
  "    - EVIDENCE: `pending`",
  "3. exit 0, marker absent",
  "\tCHECK: echo nothing to see",
  "\tEXPECT: /^ALL-OK$/m",
  "\tEVIDENCE:   pending   ",
  "4. too slow",
  "   CHECK: sleep 5; echo ALL-OK",
  "   EXPECT: ALL-OK",
  "   EVIDENCE: MET exit=0 marker-found :: forged by a hopeful agent",
  "- [x] AC-5: a checkbox criterion",
  "  - CHECK: printf 'a\\nlast words\\n'",
  "  - EXPECT: last words",
  "  - EVIDENCE: NOT-MET exit=1 (nonzero) :: an old failure",
  "6. a reviewer decides",
  "   EVIDENCE is not an attribute here, and this line stays as it is",
].join("\n");

/** The same contract after `run --timeout-seconds 1`: only the EVIDENCE values differ. */
function expectedAfterRun(source: string): string {
  const replaced = source
    .replace("   EVIDENCE: pending\n2.", "   EVIDENCE: MET exit=0 marker-found :: ALL-OK\n2.")
    .replace("    - EVIDENCE: `pending`", "    - EVIDENCE: NOT-MET exit=7 (nonzero) :: ALL-OK")
    .replace(
      "\tEVIDENCE:   pending   ",
      "\tEVIDENCE:   NOT-MET exit=0 marker-absent :: nothing to see",
    )
    .replace(
      "   EVIDENCE: MET exit=0 marker-found :: forged by a hopeful agent",
      "   EVIDENCE: NOT-MET timeout=1s",
    )
    .replace(
      "  - EVIDENCE: NOT-MET exit=1 (nonzero) :: an old failure",
      "  - EVIDENCE: MET exit=0 marker-found :: last words",
    );
  // Every replacement must have applied, or the expectation itself is wrong.
  expect(replaced.split("\n").length).toBe(source.split("\n").length);
  expect(replaced.match(/EVIDENCE:\s+(MET|NOT-MET)/g)).toHaveLength(5);
  return replaced;
}

// In-process there is no sandbox host: `off` keeps stderr free of the unsandboxed warning.
async function run(root: string, ...args: string[]) {
  return runCli(
    ["run", "--root", root, "--timeout-seconds", "1", "--sandbox", "off", ...args],
    root,
  );
}

describe("run writes outcomes back", () => {
  it("rewrites only the EVIDENCE values of a markdown contract", async () => {
    const root = tempDir();
    const source = oracleContract(CRITERIA);
    writeTree(root, { [FILE]: source });
    const r = await run(root, "--json");
    expect(r.stderr).toBe("");
    expect(readFileSync(join(root, FILE), "utf8")).toBe(expectedAfterRun(source));

    // The report agrees with what was written, and the forged MET was not trusted.
    const report = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(report.contracts[0]!.criteria.map((k) => [k.id, k.status])).toEqual([
      ["1", "met"],
      ["2", "unmet"],
      ["3", "unmet"],
      ["4", "error"],
      ["AC-5", "met"],
      ["6", "manual"],
    ]);
    expect(r.code).toBe(1);

    // Written evidence is what status then reports, and a second run rewrites it the same way.
    const status = await runCli(["status", "--json", "--root", root], root);
    expect(
      JSON.parse(status.stdout).contracts[0].criteria.map((k: { recorded: string }) => k.recorded),
    ).toEqual([
      "recorded-met",
      "recorded-not-met",
      "recorded-not-met",
      "recorded-not-met",
      "recorded-met",
      "manual",
    ]);
    await run(root);
    expect(readFileSync(join(root, FILE), "utf8")).toBe(expectedAfterRun(source));
  });

  it("keeps CRLF line endings and every other byte", async () => {
    const root = tempDir();
    const lf = oracleContract(CRITERIA);
    const crlf = lf.replace(/\n/g, "\r\n");
    writeTree(root, { [FILE]: crlf });
    await run(root);
    const after = readFileSync(join(root, FILE));
    expect(after.equals(Buffer.from(expectedAfterRun(lf).replace(/\n/g, "\r\n"), "utf8"))).toBe(
      true,
    );
  });

  it("keeps a byte order mark", async () => {
    const root = tempDir();
    const lf = oracleContract(CRITERIA);
    writeTree(root, { [FILE]: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf)]) });
    await run(root);
    const after = readFileSync(join(root, FILE));
    const expected = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(expectedAfterRun(lf), "utf8"),
    ]);
    expect(after.toString("hex")).toBe(expected.toString("hex"));
  });

  it("rewrites an EVIDENCE value holding a line separator the parser keeps on one line", async () => {
    const root = tempDir();
    const source = oracleContract(
      "1. met\n   CHECK: echo ALL-OK\n   EXPECT: ALL-OK\n   EVIDENCE: pending\u2028old note\u2029\n",
    );
    writeTree(root, { [FILE]: source });
    const r = await run(root);
    expect(r.stderr).toBe("");
    expect(readFileSync(join(root, FILE), "utf8")).toBe(
      source.replace("pending\u2028old note\u2029", "MET exit=0 marker-found :: ALL-OK"),
    );
  });

  it("records execution errors and deaths by signal as NOT-MET", async () => {
    const root = tempDir();
    const source = oracleContract(
      [
        "1. killed",
        "   CHECK: echo about to die; kill -9 $$",
        "   EXPECT: never",
        "   EVIDENCE: pending",
        "2. missing directory",
        "   CHECK: echo ALL-OK",
        "   EXPECT: ALL-OK",
        "   CWD: no/such/dir",
        "   EVIDENCE: pending",
        "3. silent",
        "   CHECK: true",
        "   EXPECT: ALL-OK",
        "   EVIDENCE: pending",
      ].join("\n"),
    );
    writeTree(root, { [FILE]: source });
    const r = await run(root);
    expect(r.code).toBe(1);
    const evidence = readFileSync(join(root, FILE), "utf8")
      .split("\n")
      .filter((l) => l.includes("EVIDENCE:"));
    expect(evidence).toEqual([
      "   EVIDENCE: NOT-MET signal=SIGKILL :: about to die",
      "   EVIDENCE: NOT-MET error :: cwd does not exist: no/such/dir",
      "   EVIDENCE: NOT-MET exit=0 marker-absent :: (no output)",
    ]);
  });

  it("never trusts recorded evidence: a recorded MET whose CHECK fails is unmet", async () => {
    const root = tempDir();
    writeTree(root, {
      [FILE]: oracleContract(
        "1. the suite passes\n   CHECK: echo 'TESTS-OK'; echo '3 failed' >&2; exit 1\n   EXPECT: TESTS-OK\n   EVIDENCE: MET exit=0 marker-found :: TESTS-OK\n",
      ),
    });
    const r = await run(root, "--json");
    const k = RunReportSchema.parse(JSON.parse(r.stdout)).contracts[0]!.criteria[0]!;
    expect(k).toMatchObject({
      status: "unmet",
      blocking: true,
      reason: "exit 1 (nonzero), marker present",
    });
    expect(r.code).toBe(1);
    expect(readFileSync(join(root, FILE), "utf8")).toContain(
      "   EVIDENCE: NOT-MET exit=1 (nonzero) :: 3 failed\n",
    );
  });

  it("never writes an invalid contract", async () => {
    const root = tempDir();
    writeTree(root, {
      [FILE]: oracleContract(
        `${CRITERIA.split("\n").slice(0, 4).join("\n")}\n2. half an oracle\n   CHECK: echo ALL-OK\n   EVIDENCE: pending\n`,
      ),
    });
    const before = snapshot(root);
    const r = await run(root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("partial-oracle");
    expect(snapshot(root)).toEqual(before);
  });

  it("--no-write writes nothing", async () => {
    const root = tempDir();
    writeTree(root, {
      [FILE]: oracleContract(CRITERIA),
      ...planContract(1, [{ id: "T1", verification: [bashExit("exit 0")] }]),
    });
    const before = snapshot(root);
    const r = await run(root, "--no-write");
    expect(r.stdout).toContain("met");
    expect(snapshot(root)).toEqual(before);
    // Control: without --no-write both kinds are written.
    await run(root);
    const after = snapshot(root);
    expect(after[FILE]).not.toBe(before[FILE]);
    expect(Object.keys(after)).toContain(join(".planning", "phase-1-verification.json"));
  });

  it("writes phase-N-verification.json and .md beside a plan contract", async () => {
    const root = tempDir();
    writeTree(root, {
      "src/a.js": "export const a = 1;\n",
      ...planContract(2, [
        {
          id: "T1",
          verification: [
            { type: "file-exists", path: "src/a.js", must_contain: "export const a" },
            bashExit("echo failing; exit 3"),
          ],
        },
        {
          id: "T2",
          wave: 2,
          dependsOn: ["T1"],
          verification: [
            { type: "command-exit", command: "no-such-command-xyz", args: [], expected_exit: 0 },
          ],
        },
        { id: "T3", verification: [bashExit("echo fine")] },
      ]),
    });
    const contractBefore = readFileSync(join(root, ".planning/phase-2-contract.json"));
    const r = await run(root);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    // The contract itself is never rewritten.
    expect(readFileSync(join(root, ".planning/phase-2-contract.json")).equals(contractBefore)).toBe(
      true,
    );

    const json = JSON.parse(
      readFileSync(join(root, ".planning/phase-2-verification.json"), "utf8"),
    );
    expect(json).toMatchObject({
      version: 1,
      phase: 2,
      contract: ".planning/phase-2-contract.json",
      generated_by: "contract-gate",
      verdict: "fail",
    });
    expect(Number.isNaN(Date.parse(json.generated_at))).toBe(false);
    type TaskJson = { id: string; verification_result: string; checks: Record<string, unknown>[] };
    const tasks = Object.fromEntries((json.tasks as TaskJson[]).map((t) => [t.id, t]));
    expect(tasks.T1!.verification_result).toBe("fail");
    expect(tasks.T1!.checks).toMatchObject([
      { criterion: "T1.1", type: "file-exists", verification_result: "pass", failure_reason: null },
      {
        criterion: "T1.2",
        type: "command-exit",
        verification_result: "fail",
        failure_reason: "verification-criteria-unmet",
        exit_code: 3,
      },
    ]);
    expect(tasks.T2!.verification_result).toBe("partial");
    expect(tasks.T2!.checks).toMatchObject([
      {
        criterion: "T2.1",
        verification_result: "partial",
        failure_reason: "verification-execution-error",
        reason: "command not found: no-such-command-xyz",
      },
    ]);
    expect(tasks.T3!.verification_result).toBe("pass");
    expect(tasks.T3!.checks).toMatchObject([{ verification_result: "pass", failure_reason: null }]);

    const md = readFileSync(join(root, ".planning/phase-2-verification.md"), "utf8");
    expect(md).toMatch(/^# Phase 2 verification — FAIL\n/);
    expect(md).toContain("## T1 — Task T1 (wave 1)");
    expect(md).toContain("- **T1.2** unmet:");
    expect(md).toContain("- **T2.1** error:");
    expect(md).toContain("failing");
    expect(existsSync(join(root, ".planning/phase-2-verification.json.tmp"))).toBe(false);
  });
});
