import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { discoverContracts, toRepoPath, UsageError } from "../src/scope/discover.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

describe("discoverContracts", () => {
  it("finds both kinds by the default globs, sorted, and nothing else", async () => {
    const root = tempDir();
    writeTree(root, {
      ".planning/phase-1-contract.json": "{}",
      ".planning/phase-1-plan.md": "",
      ".planning/phase-1-verification.json": "{}",
      ".claude/tasks/contracts/a.md": "",
      ".claude/tasks/contracts/2026/b.md": "",
      ".claude/tasks/notes.md": "",
      "node_modules/x/.planning/phase-9-contract.json": "{}",
      "README.md": "",
    });
    expect(await discoverContracts({ root })).toEqual([
      ".claude/tasks/contracts/2026/b.md",
      ".claude/tasks/contracts/a.md",
      ".planning/phase-1-contract.json",
    ]);
  });

  it("adds custom globs and lists, never walks, a symlinked directory's contracts", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeTree(outside, { "contracts/x.md": "", "contracts/deeper/y.md": "" });
    writeTree(root, { "docs/contracts/c.md": "" });
    symlinkSync(join(outside, "contracts"), join(root, "docs/linked"));
    const found = await discoverContracts({ root, globs: ["docs/**/*.md"] });
    // The loader refuses docs/linked/x.md by name (it lies under a symlink); nothing deeper is walked.
    expect(found).toEqual(["docs/contracts/c.md", "docs/linked/x.md"]);
    const linked = await loadContract(root, "docs/linked/x.md");
    expect(linked.problems.map((p) => p.code)).toEqual(["symlinked-contract"]);
  });

  it("takes explicit files and searches directory arguments relative to themselves", async () => {
    const root = tempDir();
    writeTree(root, { "ex/.planning/phase-2-contract.json": "{}", "odd/name.md": "" });
    expect(await discoverContracts({ root, cwd: root, paths: ["ex", "odd/name.md"] })).toEqual([
      "ex/.planning/phase-2-contract.json",
      "odd/name.md",
    ]);
  });

  it("finds a directory argument's contracts by the root's globs too (`validate .planning`)", async () => {
    const root = tempDir();
    writeTree(root, {
      ".planning/phase-1-contract.json": "{}",
      ".planning/phase-name-contract.json": "{}",
      ".claude/tasks/contracts/a.md": "",
    });
    expect(await discoverContracts({ root, cwd: root, paths: [".planning"] })).toEqual([
      ".planning/phase-1-contract.json",
      ".planning/phase-name-contract.json",
    ]);
    // Control: relative to the directory alone, the default globs find nothing there.
    expect(await discoverContracts({ root: join(root, ".planning") })).toEqual([]);
  });

  it("refuses a directory argument that holds no contract, rather than pass on nothing", async () => {
    const root = tempDir();
    writeTree(root, { "docs/readme.md": "", ".planning/phase-1-contract.json": "{}" });
    await expect(discoverContracts({ root, cwd: root, paths: ["docs"] })).rejects.toThrow(
      /docs holds no contract/,
    );
    // Control: the same tree searched with no path argument is not an error.
    expect(await discoverContracts({ root })).toEqual([".planning/phase-1-contract.json"]);
  });

  it("refuses missing paths, paths outside the root and unknown extensions", async () => {
    const root = tempDir();
    writeTree(root, { "a.txt": "" });
    await expect(discoverContracts({ root, cwd: root, paths: ["nope.md"] })).rejects.toThrow(
      UsageError,
    );
    await expect(discoverContracts({ root, cwd: root, paths: ["/"] })).rejects.toThrow(/outside/);
    await expect(discoverContracts({ root, cwd: root, paths: ["a.txt"] })).rejects.toThrow(
      /neither/,
    );
  });
});

describe("toRepoPath", () => {
  it("relativises inside the root and refuses outside", () => {
    expect(toRepoPath("/r", "/r/a/b.md")).toBe("a/b.md");
    expect(toRepoPath("/r", "/r")).toBe(".");
    expect(toRepoPath("/r", "/other/x")).toBeUndefined();
    expect(toRepoPath("/r", "/r/../r2/x")).toBeUndefined();
  });
});
