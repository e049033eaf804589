/**
 * Judge the change, not the repository's history (issue 35): a phantom
 * completion blocks only for a task the change marks done (absent or open at
 * the base, done at head) whose path is absent at head. A task done at the
 * base whose file a later refactor moved is the history's, not the PR's
 * (a warning under `scope: all`); with no base, nothing says the change did
 * it (a warning). Real temporary git repositories, tasks.md as spec-kit writes it.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitPaths } from "../src/fs/repo-paths.js";
import { openGit } from "../src/git/index.js";
import { loadContracts } from "../src/load/index.js";
import { baseSide } from "../src/sides/base-side.js";
import { runCli } from "./helpers/cli.js";
import { commitAll, git } from "./helpers/git.js";
import { copyTree } from "./helpers/tmp.js";

const TWIN = join(import.meta.dirname, "fixtures", "specs", "phantom-completion", "twin");
const TASKS = "specs/002-albums/tasks.md";
const KIT = "specs/002-albums/spec.md";

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/**
 * The honest twin, then what real repositories do: T005 was done (its
 * `src/services/albums.ts` committed with it), then a later refactor moved
 * the service to `src/app/services/albums.ts` without touching tasks.md.
 * Returns the root; HEAD is that history, the base of the next change.
 */
function refactoredHistory(): string {
  const root = copyTree(TWIN);
  commitAll(root, "albums: T005 done");
  mkdirSync(join(root, "src/app/services"), { recursive: true });
  renameSync(join(root, "src/services/albums.ts"), join(root, "src/app/services/albums.ts"));
  commitAll(root, "refactor: services under src/app");
  return root;
}

/** A change on a branch: `edit` applied, committed; returns the base commit. */
function change(root: string, edit: (tasks: string) => string): string {
  const base = git(root, "rev-parse", "HEAD").trim();
  git(root, "checkout", "-qb", "feature");
  write(root, TASKS, edit(readFileSync(join(root, TASKS), "utf8")));
  commitAll(root, "the change");
  return base;
}

/** The change checks T008 off (its words reworded), naming a file nobody wrote. */
const checkOff = (tasks: string) =>
  tasks.replace(
    "- [ ] T008 [US2] Add rename to `src/services/rename.ts`",
    "- [X] T008 [US2] Add the album title editor in `src/services/title-editor.ts`",
  );

describe("phantom-completion judges what the change marks done", () => {
  it("a task done at the base whose file a later commit moved does not block the next change", async () => {
    const root = refactoredHistory();
    // The change: an unrelated edit of the task list (a new open task).
    const base = change(root, (t) =>
      t.replace("- [ ] T003", "- [ ] T010 [P] Add a README\n- [ ] T003"),
    );
    const r = await runCli(["validate", "--base", base], root);
    expect(r.stdout).not.toContain("error phantom-completion");
    expect(r.code, r.stdout).toBe(0);
  });

  it("defect twin: a task this change checks off whose file is absent at head blocks", async () => {
    const root = refactoredHistory();
    const base = change(root, checkOff);
    const r = await runCli(["validate", "--base", base], root);
    expect(r.stdout).toMatch(
      /specs\/002-albums\/tasks\.md:\d+:\d+: error phantom-completion task T008 is marked done by this change, but src\/services\/title-editor\.ts/,
    );
    // The moved file of T005 (done at the base) is not this change's.
    expect(r.stdout).not.toContain("task T005");
    expect(r.code).toBe(1);
  });

  it("a task added already done by the change counts as the change's (absent at the base)", async () => {
    const root = refactoredHistory();
    const base = change(root, (t) =>
      t.replace(
        "- [ ] T003",
        "- [X] T011 [P] Add the cover cache in src/cache/covers.ts\n- [ ] T003",
      ),
    );
    const r = await runCli(["validate", "--base", base], root);
    expect(r.stdout).toContain("error phantom-completion task T011 is marked done by this change");
    expect(r.code).toBe(1);
  });

  it("no base (plain validate): the moved file warns, naming the way to judge the change; nothing blocks", async () => {
    const root = refactoredHistory();
    const r = await runCli(["validate"], root);
    expect(r.stdout).toMatch(
      /warning phantom-completion task T005 is marked done, but src\/services\/albums\.ts/,
    );
    expect(r.stdout).toContain("--base <rev>");
    expect(r.code, r.stdout).toBe(0);
  });

  it("scope: all (history) says the stale task as a warning; the change's own phantom still blocks", async () => {
    const root = refactoredHistory();
    const base = change(root, checkOff);
    const g = openGit(root);
    const [withHistory] = await loadContracts(
      root,
      [KIT],
      commitPaths(g, "HEAD"),
      baseSide(g, base, true),
    );
    const found = withHistory!.problems.filter((p) => p.code === "phantom-completion");
    expect(found.map((p) => [p.severity, p.message.slice(0, 9)])).toEqual([
      ["warning", "task T005"],
      ["error", "task T008"],
    ]);
    // Control: scope changed (no history) says nothing of T005.
    const [changed] = await loadContracts(root, [KIT], commitPaths(g, "HEAD"), baseSide(g, base));
    expect(
      changed!.problems.filter((p) => p.code === "phantom-completion").map((p) => p.severity),
    ).toEqual(["error"]);
  });

  it("a lone tasks.md (speckit-tasks) is judged against its own base version", async () => {
    const root = refactoredHistory();
    // The spec gone: the task list is a contract of its own.
    git(root, "rm", "-q", KIT);
    commitAll(root, "tasks alone");
    const base = change(root, checkOff);
    const r = await runCli(["validate", "--base", base], root);
    expect(r.stdout).toContain("error phantom-completion task T008 is marked done by this change");
    expect(r.stdout).not.toContain("task T005");
    expect(r.code).toBe(1);
  });
});
