import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { runCommandExit } from "../src/checks/command-exit.js";
import { diskTree } from "../src/checks/files/disk-tree.js";
import type { ExecutionContext } from "../src/checks/types.js";
import type { Check } from "../src/model/contract.js";
import { regexFiles, stubFiles } from "./helpers/files-stub.js";
import { tempDir } from "./helpers/tmp.js";

type CommandExitCheck = Extract<Check, { type: "command-exit" }>;

const FIX = resolve(import.meta.dirname, "fixtures/process");
const NODE = process.execPath;

const files = regexFiles;

function context(over: Partial<ExecutionContext> = {}): ExecutionContext & { slotCalls: number } {
  const root = tempDir();
  const ctx = {
    root,
    tree: diskTree(root),
    oracleTimeoutMs: 120_000,
    regexTimeoutMs: 1_000,
    env: process.env,
    signal: new AbortController().signal,
    files,
    slotCalls: 0,
    processSlot: <T>(fn: () => Promise<T>) => {
      ctx.slotCalls++;
      return fn();
    },
    ...over,
  };
  return ctx;
}

function check(over: Partial<CommandExitCheck>): CommandExitCheck {
  return {
    type: "command-exit",
    location: { path: "c.json", line: 1, column: 1 },
    command: NODE,
    args: ["-e", ""],
    expectedExit: 0,
    timeoutMs: 20_000,
    ...over,
  };
}

const nodeRun = (code: string, over: Partial<CommandExitCheck> = {}) =>
  check({ args: ["-e", code], ...over });

describe("command-exit: ran", () => {
  it("passes on the expected exit code, through the process slot", async () => {
    const ctx = context();
    const result = await runCommandExit(nodeRun("console.log('hello')"), ctx);
    expect(result).toMatchObject({
      result: "pass",
      reason: "exit 0",
      exitCode: 0,
      outputTail: "hello",
    });
    expect(result.detail).toContain("hello");
    expect(result.failureReason).toBeUndefined();
    expect(ctx.slotCalls).toBe(1);
  });

  it("passes on a nonzero exit code when that is what is expected", async () => {
    const result = await runCommandExit(nodeRun("process.exit(3)", { expectedExit: 3 }), context());
    expect(result).toMatchObject({ result: "pass", reason: "exit 3", exitCode: 3 });
  });

  it("fails, criteria unmet, on another exit code", async () => {
    const result = await runCommandExit(
      nodeRun("console.error('boom'); process.exit(1)"),
      context(),
    );
    expect(result).toMatchObject({
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason: "exit 1, expected 0",
      exitCode: 1,
      outputTail: "boom",
    });
  });

  it("fails on a death by signal", async () => {
    const result = await runCommandExit(
      check({ command: "bash", args: ["-c", "kill -TERM $$"] }),
      context(),
    );
    expect(result).toMatchObject({ result: "fail", reason: "killed by SIGTERM, expected exit 0" });
  });

  it("checks stdout against expect_stdout_match", async () => {
    const ctx = context();
    const pass = await runCommandExit(
      nodeRun("console.log('tests: 12 passed')", { expectStdoutMatch: "\\d+ passed" }),
      ctx,
    );
    expect(pass).toMatchObject({ result: "pass", reason: "exit 0, stdout matches /\\d+ passed/" });
    const fail = await runCommandExit(
      nodeRun("console.log('tests: 12 passed'); console.error('3 failed')", {
        expectStdoutMatch: "failed",
      }),
      ctx,
    );
    expect(fail).toMatchObject({
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason: "stdout does not match /failed/",
      exitCode: 0,
    });
  });

  it("is partial when the regex service cannot evaluate the pattern", async () => {
    const runaway = stubFiles(async () => ({ ok: false, error: "timed out after 1000 ms" }));
    const result = await runCommandExit(
      nodeRun("console.log('aaaa')", { expectStdoutMatch: "(a+)+$" }),
      context({ files: runaway }),
    );
    expect(result).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
    });
    expect(result.reason).toContain("timed out after 1000 ms");
  });

  it("is partial when stdout exceeds 1 MiB and a pattern must be matched", async () => {
    const big = check({ args: [join(FIX, "big-stdout.mjs"), String(1024 * 1024 + 10), "OK"] });
    const withPattern = await runCommandExit({ ...big, expectStdoutMatch: "OK" }, context());
    expect(withPattern).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
      reason: "output exceeded 1 MiB; expect_stdout_match cannot be evaluated",
      exitCode: 0,
    });
    const withoutPattern = await runCommandExit(big, context());
    expect(withoutPattern).toMatchObject({ result: "pass", reason: "exit 0" });
  });

  it("passes exactly ctx.env to the command, adding nothing", async () => {
    const env = { PATH: process.env.PATH, ONLY_THIS: "1" };
    const result = await runCommandExit(
      check({ args: [join(FIX, "print-env.mjs")], expectStdoutMatch: "^ONLY_THIS\\nPATH\\n$" }),
      context({ env }),
    );
    expect(result).toMatchObject({ result: "pass" });
  });
});

describe("command-exit: could not run", () => {
  const partial = { result: "partial", failureReason: "verification-execution-error" };

  it("reports a command that is not on PATH", async () => {
    const result = await runCommandExit(check({ command: "npx-typo-cg" }), context());
    expect(result).toMatchObject({ ...partial, reason: "command not found: npx-typo-cg" });
    expect(result.exitCode).toBeUndefined();
  });

  it("reports a command that is not executable", async () => {
    const ctx = context();
    const script = join(ctx.root, "run.sh");
    writeFileSync(script, "#!/bin/sh\nexit 0\n");
    chmodSync(script, 0o644);
    const result = await runCommandExit(check({ command: script, args: [] }), ctx);
    expect(result).toMatchObject({ ...partial, reason: `command not executable: ${script}` });
  });

  it("reports a cwd that does not exist or is a file", async () => {
    const ctx = context();
    writeFileSync(join(ctx.root, "f"), "");
    const missing = await runCommandExit(check({ cwd: "pkg/web" }), ctx);
    expect(missing).toMatchObject({ ...partial, reason: "cwd does not exist: pkg/web" });
    const file = await runCommandExit(check({ cwd: "f" }), ctx);
    expect(file).toMatchObject({ ...partial, reason: "cwd is not a directory: f" });
    expect(ctx.slotCalls).toBe(0);
  });

  it("runs in the check's cwd under the root", async () => {
    const ctx = context();
    mkdirSync(join(ctx.root, "pkg", "web"), { recursive: true });
    const result = await runCommandExit(
      nodeRun("console.log(process.cwd())", { cwd: "pkg/web", expectStdoutMatch: "pkg/web\\n$" }),
      ctx,
    );
    expect(result).toMatchObject({ result: "pass" });
  });

  it("refuses a cwd that escapes the root, by .. or through a symlink", async () => {
    const outside = tempDir();
    const ctx = context();
    symlinkSync(outside, join(ctx.root, "link"));
    const viaLink = await runCommandExit(check({ cwd: "link" }), ctx);
    expect(viaLink).toMatchObject(partial);
    expect(viaLink.reason).toMatch(/^cwd escapes the repository: link/);
    const viaDots = await runCommandExit(check({ cwd: "../" }), ctx);
    expect(viaDots.reason).toMatch(/^cwd escapes the repository: \.\.\//);
    expect(ctx.slotCalls).toBe(0);
  });

  it("times out, killing the whole process tree", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const result = await runCommandExit(
      check({ command: "bash", args: [join(FIX, "tree.sh")], timeoutMs: 300 }),
      context({ env: { ...process.env, SENTINEL: sentinel } }),
    );
    expect(result).toMatchObject({
      ...partial,
      reason: "timed out after 300 ms (process tree killed)",
    });
    await sleep(2500);
    expect(existsSync(sentinel)).toBe(false);
  });

  it("is partial when the run is aborted", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const result = await runCommandExit(
      check({ command: "touch", args: [sentinel] }),
      context({ signal: AbortSignal.abort() }),
    );
    expect(result).toMatchObject(partial);
    expect(result.reason).toMatch(/^aborted/);
    expect(existsSync(sentinel)).toBe(false);
  });
});
