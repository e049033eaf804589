/**
 * Run what was compared, for the paths a spec names: a done task's file (a
 * phantom completion) and the map's test file are judged at the gated
 * commit wherever the gate judges one (the action; the CLI with
 * `--committed` or in CI), not by what a step before the gate created or
 * deleted on disk. Real temporary git repositories.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { commitPaths, diskPaths } from "../src/fs/repo-paths.js";
import { openGit } from "../src/git/index.js";
import { loadContracts } from "../src/load/index.js";
import type { Contract } from "../src/model/contract.js";
import { finish, makeRepo, reportOf, runAction, standInFor } from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { commitAll, emptyBase, git } from "./helpers/git.js";
import { copyTree, tempDir } from "./helpers/tmp.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "specs");
const KIT = "specs/002-albums/spec.md";
const TASKS = "specs/002-albums/tasks.md";
/** What done task T005 of the honest twin names. */
const SERVICE = "src/services/albums.ts";
const SEED = "specs/001-trim/spec.md";
const TEST_FILE = "tests/trim.test.ts";

const codes = (c: Contract) => c.problems.map((p) => p.code);
const phantomLine = `error phantom-completion task T005 is marked done by this change, but ${SERVICE}`;
/** The empty first commit every fixture repository here starts from: the change is all the rest. */
const BASE = ["--base", "HEAD~1"];

/** The honest spec-kit twin committed without `drop`, which is then (re)written on disk only. */
function createdAfterCommit(fixture: string, drop: string): string {
  const root = copyTree(join(FIXTURES, fixture, "twin"));
  rmSync(join(root, drop));
  emptyBase(root);
  commitAll(root);
  // What a pre-gate step (a `postinstall`) does: the file appears in the working tree, never committed.
  writeFileSync(join(root, drop), "export {};\n");
  return root;
}

describe("a done task's file at the gated commit", () => {
  it("created on disk but not committed: it completes no task under --committed and in CI; the working tree's reading passes (control)", async () => {
    const root = createdAfterCommit("phantom-completion", SERVICE);
    // Control: a developer's run reads the working tree, where the file exists.
    const dev = await runCli(["validate", ...BASE], root);
    expect(dev.stdout).not.toContain("phantom-completion");
    expect(dev.code, dev.stdout).toBe(0);
    for (const [how, args, env] of [
      ["--committed", ["validate", "--committed", ...BASE], {}],
      ["CI=true", ["validate", ...BASE], { CI: "true" }],
    ] as const) {
      const r = await runCli([...args], root, env);
      expect(r.stdout, how).toContain(phantomLine);
      expect(r.stdout, how).not.toContain("worktree-modified");
      expect(r.code, how).toBe(1);
    }
  });

  it("the action's load (the commit's listing) blocks the phantom the disk would hide (control: the disk)", async () => {
    const root = createdAfterCommit("phantom-completion", SERVICE);
    const [atHead] = await loadContracts(root, [KIT], commitPaths(openGit(root), "HEAD"));
    expect(codes(atHead!)).toContain("phantom-completion");
    const [onDisk] = await loadContracts(root, [KIT], diskPaths(root));
    expect(codes(onDisk!)).not.toContain("phantom-completion");
  });

  it("committed: the task is complete at head (honest twin)", async () => {
    const root = createdAfterCommit("phantom-completion", SERVICE);
    commitAll(root, "the service");
    const r = await runCli(["validate", "--committed"], root);
    expect(r.stdout).not.toContain("phantom-completion");
    expect(r.code, r.stdout).toBe(0);
  });

  it("deleted on disk but present in the commit: complete at head; the working tree's reading flags it (control)", async () => {
    const root = copyTree(join(FIXTURES, "phantom-completion", "twin"));
    emptyBase(root);
    commitAll(root);
    rmSync(join(root, SERVICE));
    const r = await runCli(["validate", "--committed", ...BASE], root);
    expect(r.stdout).not.toContain("phantom-completion");
    expect(r.code, r.stdout).toBe(0);
    const dev = await runCli(["validate", ...BASE], root);
    expect(dev.stdout).toContain(phantomLine);
    expect(dev.code).toBe(1);
  });

  it("the map's test file too: written on disk only, it is missing at head (control: the working tree)", async () => {
    const root = createdAfterCommit("missing-test-file", TEST_FILE);
    const dev = await runCli(["validate"], root);
    expect(dev.stdout).not.toContain("missing-test-file");
    const r = await runCli(["validate", "--committed"], root);
    expect(r.stdout).toMatch(
      new RegExp(
        `${SEED}:\\d+:\\d+: error missing-test-file .* ${TEST_FILE}, which does not exist`,
      ),
    );
    expect(r.code).toBe(1);
  });

  it("a working directory below the repository's top level: the listing is of it, paths relative to it", async () => {
    const top = tempDir();
    const root = join(top, "app");
    renameSync(copyTree(join(FIXTURES, "phantom-completion", "twin")), root);
    commitAll(top);
    const [atHead] = await loadContracts(root, [KIT], commitPaths(openGit(root), "HEAD"));
    expect(codes(atHead!)).not.toContain("phantom-completion");
    git(top, "rm", "-q", `app/${SERVICE}`);
    git(top, "commit", "-qm", "service gone");
    const [gone] = await loadContracts(root, [KIT], commitPaths(openGit(root), "HEAD"));
    expect(codes(gone!)).toContain("phantom-completion");
  });
});

describe("the bundled action (dist/index.js: run `npm run bundle` after changing src/)", () => {
  const TWIN = join(FIXTURES, "phantom-completion", "twin");
  // The whole honest twin but the service file that done task T005 names.
  const files: Record<string, string> = Object.fromEntries(
    readdirSync(TWIN, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(TWIN, join(e.parentPath, e.name)))
      .filter((p) => p !== SERVICE)
      .map((p) => [p, readFileSync(join(TWIN, p), "utf8")]),
  );

  /** The spec-kit twin gated with `scope: all`; the service file committed, or only written to disk. */
  async function gate(committed: boolean) {
    const service = { [SERVICE]: "export {};\n" };
    // The PR brings the task list: its done tasks are the change's to answer for.
    const { [TASKS]: tasks, ...before } = files;
    const repo = await makeRepo({
      base: before,
      head: { [TASKS]: tasks!, ...(committed ? service : { "README.md": "app\n" }) },
    });
    // A step before the gate (a `postinstall`) writes the file the done task names; it is never committed.
    if (!committed) {
      mkdirSync(dirname(join(repo.dir, SERVICE)), { recursive: true });
      writeFileSync(join(repo.dir, SERVICE), "export {};\n");
    }
    const gh = await standInFor(repo);
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { sandbox: "off", scope: "all", "requirement-proof": "off" },
    });
    await finish(gh, expect);
    const report = reportOf(r) as {
      contracts: { problems?: { code: string; message: string }[] }[];
    };
    return { code: r.code, problems: report.contracts.flatMap((c) => c.problems ?? []) };
  }

  it("a done task's file written to disk after checkout completes no task: a phantom at the gated commit", async () => {
    const r = await gate(false);
    const phantom = r.problems.find((p) => p.code === "phantom-completion");
    expect(phantom?.message).toContain(`task T005 is marked done by this change, but ${SERVICE}`);
    expect(r.code).toBe(1);
  });

  it("honest twin: the file committed, the task is complete", async () => {
    const r = await gate(true);
    expect(r.problems.map((p) => p.code)).not.toContain("phantom-completion");
  });
});
