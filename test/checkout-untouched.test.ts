/**
 * Issue 32: the checkout and its `.git` are byte-identical after a run,
 * `.git/index` included. The CLI judging a commit (CI) reads the head tree,
 * runs each contract's commands in a private copy, and compares through a
 * private index: a checkout whose files' stat data is stale (touched after
 * the commit, as a restore step leaves it) is the case where any git call
 * against the working tree would refresh the checkout's index.
 */
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { oracleContract, snapshot } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { commitAll, git } from "./helpers/git.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";

function checkout(criteria: string): string {
  const root = tempDir("cg-untouched-");
  writeTree(root, {
    [`${C}/c.md`]: oracleContract(criteria),
    "src/a.ts": "export const a = 1;\n",
  });
  commitAll(root);
  // Same bytes, a newer mtime: the index's stat data no longer matches the file.
  const later = new Date(Date.now() + 5_000);
  utimesSync(join(root, "src/a.ts"), later, later);
  return root;
}

const run = (root: string) =>
  runCli(["run", "--root", root, "--no-write", "--sandbox", "off", "--json"], root, {
    CI: "true",
  });

const WRITES =
  "1. writes into its tree\n   CHECK: echo changed > src/a.ts; touch new.txt; echo OK\n   EXPECT: OK\n   EVIDENCE: pending\n";
const FAILS =
  "1. fails\n   CHECK: echo x > src/a.ts; exit 3\n   EXPECT: OK\n   EVIDENCE: pending\n";

describe("the checkout and .git after a CLI run (issue 32)", () => {
  it.each([
    ["proven", WRITES, 0],
    ["blocking", FAILS, 1],
  ])("are byte-identical after a %s run", async (_name, criteria, code) => {
    const root = checkout(criteria);
    const before = snapshot(root);
    const r = await run(root);
    expect(r.code).toBe(code);
    expect(snapshot(root)).toEqual(before);
  });

  it("are byte-identical after a run compared with a base (the base comparison's git calls)", async () => {
    const root = checkout(WRITES);
    const base = git(root, "rev-parse", "HEAD").trim();
    writeTree(root, { "src/b.ts": "export const b = 2;\n" });
    commitAll(root, "head");
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, "src/b.ts"), later, later);
    const before = snapshot(root);
    const r = await runCli(
      ["run", "--root", root, "--no-write", "--sandbox", "off", "--json", "--base", base],
      root,
      { CI: "true" },
    );
    expect(r.code).toBe(0);
    expect(snapshot(root)).toEqual(before);
  });

  it("control: a git call against the working tree does refresh the index, and the snapshot sees it", () => {
    const root = checkout(WRITES);
    const before = snapshot(root);
    git(root, "status", "--porcelain");
    expect(snapshot(root)[".git/index"]).not.toBe(before[".git/index"]);
  });
});
