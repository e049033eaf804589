/**
 * Issue 32, item 3: a shard leg writes its report only after every process
 * its checks started has ended: each sandbox host (the run's and every
 * tree's) has exited, and each pid namespace with it. While the trees are
 * open their hosts run (the control); once `torndown` settles after they
 * closed, none does. (A survivor a check leaves already dies with the
 * check's own namespace; what is awaited here is the hosts themselves.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { openContractTrees, torndown } from "../src/run/contract-trees.js";
import { openSandbox } from "../src/sandbox/index.js";
import { commitAll } from "./helpers/git.js";
import { bash, boundaryMissing, sandboxOptions } from "./helpers/sandbox.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const noBoundary = await boundaryMissing();
if (noBoundary !== undefined)
  console.warn(`tree-teardown: SKIPPING (the survivor dies with a host only): ${noBoundary}`);

/** Processes whose command line carries `mark`, seen from outside every namespace. */
function running(mark: string): number {
  let n = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(mark)) n++;
    } catch {
      // Gone meanwhile.
    }
  }
  return n;
}

describe.skipIf(noBoundary !== undefined)("a leg's trees are torn down before it reports", () => {
  it("every tree's host runs while its tree is open, and none once torndown settles", async () => {
    const root = tempDir("cg-teardown-");
    writeTree(root, { "src/a.txt": "a\n" });
    commitAll(root);
    const g = openGit(root);
    const sha = (await g.resolveCommit("HEAD"))!;
    const options = sandboxOptions(root, { mode: "required", executor: "per-check" });
    const sandbox = await openSandbox(options);
    const trees = await openContractTrees({ git: g, sha, root, sandbox, options });
    // A host's command line carries its config, and so the checkout's path.
    const hosts = () => running(`"root":"${root}"`);
    try {
      const a = await trees.open("a");
      const b = await trees.open("b");
      const r = await a.run(bash(a.root, "echo started"));
      expect(r.stdout).toContain("started");
      // Control: the run's host and each tree's are there while the trees are open.
      expect(hosts()).toBeGreaterThanOrEqual(3);
      a.close();
      b.close();
    } finally {
      sandbox.close();
      trees.close();
    }
    expect(await torndown(sandbox, trees)).toBe(true);
    expect(hosts()).toBe(0);
  });
});

describe("torndown", () => {
  it("says false when a host has not exited within its bound, true once all have", async () => {
    const never = { ended: () => new Promise<void>(() => {}) };
    expect(await torndown(never, undefined, 50)).toBe(false);
    const done = { ended: async () => {} };
    expect(await torndown(done, undefined, 50)).toBe(true);
    expect(await torndown({}, undefined, 50)).toBe(true);
  });
});
