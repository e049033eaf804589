/**
 * Kiro specs through the bundled CLI (bin/contract-gate.js). Run `npm run
 * bundle` after changing src/.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { git } from "./helpers/git.js";
import { copyTree } from "./helpers/tmp.js";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "bin/contract-gate.js");
const HONEST = join(import.meta.dirname, "fixtures", "kiro", "honest");
const TASKS = ".kiro/specs/export-reports/tasks.md";

async function cli(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", CI: "" },
    });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, out: (err.stdout ?? "") + (err.stderr ?? "") };
  }
}

describe("the bundled CLI on Kiro specs", () => {
  it("validate passes the honest spec and names a dangling _Requirements:_ at its line", async () => {
    expect((await cli(["validate"], HONEST)).code).toBe(0);
    const root = copyTree(HONEST);
    const text = readFileSync(join(root, TASKS), "utf8");
    writeFileSync(
      join(root, TASKS),
      text.replace("_Requirements: 3.1-3.2_", "_Requirements: 6.7_"),
    );
    const bad = await cli(["validate"], root);
    expect(bad.code).toBe(1);
    const line = text.split("\n").indexOf("    - _Requirements: 3.1-3.2_") + 1;
    expect(bad.out).toContain(`${TASKS}:${line}:`);
    expect(bad.out).toContain("task 3.1 cites 6.7, but requirements.md has no Requirement 6");
  });

  // The edit keeps tasks.md's size and inode, right after the commit: git's racy-clean check is
  // all that tells it from an untouched file (the private index once lost the index's mtime).
  it("against --base, un-checking a task in tasks.md alone blocks (the spec is touched through it)", async () => {
    const root = copyTree(HONEST);
    git(root, "init", "-q", "-b", "main");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "base");
    const text = readFileSync(join(root, TASKS), "utf8");
    writeFileSync(join(root, TASKS), text.replace("  - [x] 2.1 Wire", "  - [ ] 2.1 Wire"));
    const r = await cli(["validate", "--base", "main"], root);
    expect(r.out).toContain("kiro-task-unchecked");
    expect(r.code).toBe(1);
  });
});
