/**
 * Issue 11, slice 1: SIGINT, SIGTERM and SIGHUP end a CLI run the same way —
 * every check's process tree killed (sandboxed or not), nothing left running,
 * files untouched or completely rewritten, exit 128 + signal number.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { signalExitCode } from "../src/process/signals.js";
import { oracleContract } from "./fixtures/run/contracts.js";
import { outputOf } from "./helpers/action-harness.js";
import { processesWith, ROOT } from "./helpers/sandbox.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";
const TSX = join(ROOT, "node_modules/tsx/dist/esm/index.mjs");

function startCli(root: string, args: string[]) {
  return spawn(
    process.execPath,
    ["--import", TSX, join(ROOT, "src/cli.ts"), "run", "--root", root, ...args],
    { cwd: root, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
}

async function until(what: () => boolean, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!what()) {
    if (Date.now() > end) throw new Error("condition never held");
    await sleep(20);
  }
}

/** A contract whose check starts a background grandchild and waits: both must die. */
function slowTree(tag: string): string {
  return oracleContract(
    `1. slow\n   CHECK: touch STARTED; (sleep 60; echo ${tag}) & sleep 61; echo ${tag} DONE\n   EXPECT: DONE\n   EVIDENCE: pending\n`,
  );
}

describe("CLI signals end the run", () => {
  it("exit codes are 128 + n", () => {
    expect(signalExitCode("SIGINT")).toBe(130);
    expect(signalExitCode("SIGHUP")).toBe(129);
    expect(signalExitCode("SIGTERM")).toBe(143);
  });

  for (const [signal, sandbox] of [
    ["SIGTERM", "required"],
    ["SIGHUP", "off"],
    ["SIGINT", "required"],
  ] as const) {
    it(`${signal} (sandbox ${sandbox}) kills every check's tree and exits ${signalExitCode(signal)}`, async () => {
      const tag = `cg-signal-${randomBytes(6).toString("hex")}`;
      const root = tempDir();
      const source = slowTree(tag);
      writeTree(root, { [`${C}/c.md`]: source });
      const child = startCli(root, ["--sandbox", sandbox]);
      const done = outputOf(child);
      await until(() => existsSync(join(root, "STARTED")));
      // Positive control: the check's tree is running before the signal.
      await until(() => processesWith(tag).length >= 2);
      child.kill(signal);
      const { code, stderr } = await done;
      expect(code).toBe(signalExitCode(signal));
      expect(stderr).toContain("interrupted; every running check was killed");
      expect(processesWith(tag)).toEqual([]);
      expect(readFileSync(join(root, C, "c.md"), "utf8")).toBe(source);
    });
  }

  it("a SIGTERM during write-back still exits 143; each file is untouched or wholly rewritten", async () => {
    const root = tempDir();
    const tree: Record<string, string> = {};
    const count = 300;
    for (let i = 0; i < count; i++) {
      tree[`${C}/c${i}.md`] = oracleContract(
        "1. quick\n   CHECK: echo OK\n   EXPECT: OK\n   EVIDENCE: pending\n",
      );
    }
    writeTree(root, tree);
    const child = startCli(root, ["--sandbox", "off", "--max-parallel", "8"]);
    const done = outputOf(child);
    const rewritten = (name: string) =>
      readFileSync(join(root, C, name), "utf8") !== tree[`${C}/${name}`];
    // While polling, write-back's temp files come and go (renamed over their
    // contract between the listing and the read): look at the contracts only.
    const contractNames = () => readdirSync(join(root, C)).filter((n) => /^c\d+\.md$/.test(n));
    await until(() => contractNames().some(rewritten), 90_000);
    child.kill("SIGTERM");
    const { code } = await done;
    expect(code).toBe(143);
    const names = readdirSync(join(root, C));
    // Only the contracts: no temp file left behind, every file either the original or parseable with its evidence line.
    expect(names.sort()).toEqual(
      Object.keys(tree)
        .map((p) => p.slice(C.length + 1))
        .sort(),
    );
    const changed = names.filter(rewritten);
    expect(changed.length).toBeGreaterThan(0);
    for (const name of changed) {
      expect(readFileSync(join(root, C, name), "utf8")).toMatch(/EVIDENCE: .*\n$/m);
    }
  });
});
