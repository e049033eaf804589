/**
 * Issue 32: the CLI judges a commit under CI, each contract's commands in a
 * private tree of it. A plain folder (no git, nothing committed) has no
 * commit to lay: its checks share the folder, and the run says so in one
 * line. The control: the same folder committed prints no such line and its
 * commands run in private copies.
 */
import { describe, expect, it } from "vitest";
import { plainFolderNotice } from "../src/cli/run-command.js";
import { ISOLATION } from "../src/run/contract-trees.js";
import { oracleContract } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { commitAll } from "./helpers/git.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";
const CHECKS =
  "1. writes\n   CHECK: echo OK > made.txt; echo OK\n   EXPECT: OK\n   EVIDENCE: pending\n";

function folder(): string {
  const root = tempDir("cg-plain-");
  writeTree(root, { [`${C}/c.md`]: oracleContract(CHECKS), "src/a.ts": "export {};\n" });
  return root;
}

// In-process there is no sandbox host: `off` keeps the unsandboxed warning out of stderr.
const run = (root: string, env: NodeJS.ProcessEnv) =>
  runCli(["run", "--root", root, "--no-write", "--sandbox", "off", "--json"], root, env);

const notices = (stderr: string) => stderr.split("\n").filter((l) => l.includes("notice:"));

describe("the CLI in a plain folder (issue 32)", () => {
  it("under CI, says in one line that the checks share the folder", async () => {
    const root = folder();
    const r = await run(root, { CI: "true" });
    expect(notices(r.stderr)).toEqual([`contract-gate: notice: ${plainFolderNotice(root)}`]);
    expect(notices(r.stderr)[0]).toMatch(/not a git repository.*checks share it/);
    expect(JSON.parse(r.stdout).sandbox.trees).toMatch(/^the folder itself/);
    expect(r.code).toBe(0);
  });

  it("control: the same folder committed prints no notice, and its commands ran in a private copy", async () => {
    const root = folder();
    commitAll(root);
    const r = await run(root, { CI: "true" });
    expect(notices(r.stderr)).toEqual([]);
    expect(JSON.parse(r.stdout).sandbox.trees).toBe(ISOLATION.copy);
    expect(r.code).toBe(0);
  });

  it("outside CI the working tree is what a developer runs: no notice", async () => {
    const root = folder();
    const r = await run(root, {});
    expect(notices(r.stderr)).toEqual([]);
  });
});
