import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { diskTree } from "../src/checks/files/disk-tree.js";
import { evidenceLine, runOracle } from "../src/checks/oracle.js";
import type { CheckResult, ExecutionContext } from "../src/checks/types.js";
import type { Check, Marker } from "../src/model/contract.js";
import { regexFiles, stubFiles } from "./helpers/files-stub.js";
import { tempDir } from "./helpers/tmp.js";

type OracleCheck = Extract<Check, { type: "oracle" }>;

const FIX = resolve(import.meta.dirname, "fixtures/process");

const files = regexFiles;

function context(over: Partial<ExecutionContext> = {}): ExecutionContext {
  const root = tempDir();
  return {
    root,
    tree: diskTree(root),
    oracleTimeoutMs: 20_000,
    regexTimeoutMs: 1_000,
    env: process.env,
    signal: new AbortController().signal,
    files,
    processSlot: (fn) => fn(),
    ...over,
  };
}

const literal = (text: string): Marker => ({ kind: "literal", text });

function oracle(command: string, expect: Marker = literal("ALL_OK"), cwd?: string): OracleCheck {
  return {
    type: "oracle",
    location: { path: "contract.md", line: 3, column: 4 },
    command,
    expect,
    ...(cwd !== undefined && { cwd }),
  };
}

const unmet = { result: "fail", failureReason: "verification-criteria-unmet" };
const partial = { result: "partial", failureReason: "verification-execution-error" };

describe("oracle: MET needs exit 0 and the marker", () => {
  it("is MET on exit 0 with the marker", async () => {
    const result = await runOracle(oracle("echo checking; echo ALL_OK"), context());
    expect(result).toMatchObject({
      result: "pass",
      reason: "exit 0, marker found",
      exitCode: 0,
      outputTail: "checking\nALL_OK",
    });
    expect(evidenceLine(result, 20_000)).toBe("MET exit=0 marker-found :: ALL_OK");
  });

  it("finds the marker on stderr and when split across two writes", async () => {
    const onStderr = await runOracle(oracle("echo ALL_OK >&2"), context());
    expect(onStderr.result).toBe("pass");
    const split = await runOracle(
      oracle(`node ${join(FIX, "split-marker.mjs")} ALL_ OK`),
      context(),
    );
    expect(split).toMatchObject({ result: "pass", reason: "exit 0, marker found" });
  });

  it("is NOT-MET on exit 0 without the marker", async () => {
    const result = await runOracle(oracle("echo ALL_NOT_OK_ish; echo done"), context());
    expect(result).toMatchObject({ ...unmet, reason: "exit 0, marker absent", exitCode: 0 });
    expect(evidenceLine(result, 20_000)).toBe("NOT-MET exit=0 marker-absent :: done");
  });

  it("is NOT-MET on a nonzero exit even with the marker", async () => {
    const result = await runOracle(oracle("echo ALL_OK; echo 'but broken' >&2; exit 7"), context());
    expect(result).toMatchObject({
      ...unmet,
      reason: "exit 7 (nonzero), marker present",
      exitCode: 7,
    });
    expect(evidenceLine(result, 20_000)).toBe("NOT-MET exit=7 (nonzero) :: but broken");
  });

  it("is NOT-MET on a nonzero exit without the marker", async () => {
    const result = await runOracle(oracle("exit 7"), context());
    expect(result).toMatchObject({ ...unmet, reason: "exit 7 (nonzero), marker absent" });
    expect(evidenceLine(result, 20_000)).toBe("NOT-MET exit=7 (nonzero) :: (no output)");
  });

  it("finds a literal marker after more than 1 MiB of output", async () => {
    const result = await runOracle(
      oracle(`node ${join(FIX, "big-stdout.mjs")} 2000000 ALL_OK`),
      context(),
    );
    expect(result).toMatchObject({ result: "pass" });
  });

  it("runs in the oracle's cwd", async () => {
    const ctx = context();
    mkdirSync(join(ctx.root, "sub"));
    const result = await runOracle(
      oracle('[ "$(basename "$PWD")" = sub ] && echo ALL_OK', literal("ALL_OK"), "sub"),
      ctx,
    );
    expect(result.result).toBe("pass");
  });
});

describe("oracle: regex markers", () => {
  const regex = (source: string, flags = ""): Marker => ({ kind: "regex", source, flags });

  it("matches a regex marker in combined output, with its flags", async () => {
    const pass = await runOracle(
      oracle("echo '12 TESTS PASSED' >&2", regex("\\d+ tests passed", "i")),
      context(),
    );
    expect(pass).toMatchObject({ result: "pass", reason: "exit 0, marker found" });
    const miss = await runOracle(
      oracle("echo '12 TESTS PASSED'", regex("\\d+ tests passed")),
      context(),
    );
    expect(miss).toMatchObject({ ...unmet, reason: "exit 0, marker absent" });
  });

  it("is partial when the output exceeds 1 MiB", async () => {
    const result = await runOracle(
      oracle(`node ${join(FIX, "big-stdout.mjs")} 2000000 ALL_OK`, regex("ALL_OK$")),
      context(),
    );
    expect(result).toMatchObject({
      ...partial,
      reason: "output exceeded 1 MiB; regex marker cannot be evaluated",
    });
  });

  it("is partial when the regex service cannot evaluate the marker", async () => {
    const runaway = stubFiles(async () => ({ ok: false, error: "timed out after 1000 ms" }));
    const result = await runOracle(
      oracle("echo aaaa", regex("(a+)+$")),
      context({ files: runaway }),
    );
    expect(result).toMatchObject(partial);
    expect(result.reason).toContain("timed out after 1000 ms");
    expect(evidenceLine(result, 20_000)).toMatch(/^NOT-MET error :: regex marker/);
  });
});

describe("oracle: could not run", () => {
  it("times out, killing the whole process tree", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const result = await runOracle(
      oracle(`bash ${join(FIX, "tree.sh")}`),
      context({ oracleTimeoutMs: 300, env: { ...process.env, SENTINEL: sentinel } }),
    );
    expect(result).toMatchObject({
      ...partial,
      reason: "timed out after 0.3 s (process tree killed)",
    });
    expect(evidenceLine(result, 300)).toBe("NOT-MET timeout=0.3s");
    await sleep(2500);
    expect(existsSync(sentinel)).toBe(false);
  });

  it("is partial when bash is not on PATH", async () => {
    const result = await runOracle(oracle("echo ALL_OK"), context({ env: { PATH: tempDir() } }));
    expect(result).toMatchObject({
      ...partial,
      reason: "bash not found on PATH: oracles run with bash -c",
    });
    expect(evidenceLine(result, 20_000)).toBe(
      "NOT-MET error :: bash not found on PATH: oracles run with bash -c",
    );
  });

  it("refuses a cwd outside the root, and a missing one", async () => {
    const ctx = context();
    symlinkSync(tempDir(), join(ctx.root, "out"));
    const escaped = await runOracle(oracle("echo ALL_OK", literal("ALL_OK"), "out"), ctx);
    expect(escaped).toMatchObject(partial);
    expect(escaped.reason).toMatch(/^cwd escapes the repository: out/);
    const missing = await runOracle(oracle("echo ALL_OK", literal("ALL_OK"), "gone"), ctx);
    expect(missing).toMatchObject({ ...partial, reason: "cwd does not exist: gone" });
  });

  it("refuses an empty literal marker", async () => {
    const result = await runOracle(oracle("true", literal("")), context());
    expect(result).toMatchObject(partial);
  });
});

describe("evidenceLine", () => {
  const base: CheckResult = {
    result: "pass",
    reason: "exit 0, marker found",
    durationMs: 1,
    exitCode: 0,
  };

  it("writes the timeout in seconds", () => {
    const result: CheckResult = {
      ...base,
      result: "partial",
      failureReason: "verification-execution-error",
      reason: "timed out after 120 s (process tree killed)",
      exitCode: undefined,
    };
    expect(evidenceLine(result, 120_000)).toBe("NOT-MET timeout=120s");
  });

  it("reduces the last output line to one clean line of at most 140 characters", () => {
    const esc = String.fromCharCode(27);
    const noisy = `first\n${esc}[32m  ok\t\tdone ${"z".repeat(300)}${esc}[0m\u0007\u202e\n\n`;
    const line = evidenceLine({ ...base, outputTail: noisy }, 1000);
    const snippet = line.replace("MET exit=0 marker-found :: ", "");
    expect(snippet.startsWith("ok done zzz")).toBe(true);
    expect(Array.from(snippet)).toHaveLength(140);
    expect(snippet.endsWith("…")).toBe(true);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(line).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
  });

  it("shows what a terminal would show of a progress line", () => {
    const line = evidenceLine({ ...base, outputTail: "10%\r50%\r100% ALL_OK\r" }, 1000);
    expect(line).toBe("MET exit=0 marker-found :: 100% ALL_OK");
  });
});

describe("oracle commands bash cannot run", () => {
  it("is an execution error when the command is not installed (exit 127), never unmet or met", async () => {
    const missing = await runOracle(oracle("definitely-not-installed-cg --flag"), context());
    expect(missing).toMatchObject({ ...partial, exitCode: 127 });
    expect(missing.reason).toMatch(
      /^exit 127 \(command not found\): .*definitely-not-installed-cg/,
    );
  });
});
