/**
 * spec-kit specs as real repositories write them (issue 35), each beside the
 * defect twin that must still block:
 * - in Chinese (`# 功能规格说明：…`, `## 需求 *(必填)*`, `### 用户故事 1`): before,
 *   a foreign-file error, since only the English heading was read;
 * - requirements tabulated (`| FR-01 | The system shall … |`), stories headed
 *   `#### S1: …` while tasks.md tags them `[US1]`: before, no-criteria ("the
 *   spec defines no requirement") and one unresolved-reference per task.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { linkSpecFiles, readTasksFile } from "../src/formats/spec/index.js";
import { loadContract } from "../src/load/index.js";
import type { SpecHeader } from "../src/model/contract.js";
import { discoverContracts } from "../src/scope/discover.js";

const ROOT = join(import.meta.dirname, "fixtures", "speckit-real");
const ZH = "specs/002-bean-navigation/spec.md";
const TABLE = "specs/1-category-form/spec.md";
const enc = (s: string) => new TextEncoder().encode(s);
const text = (tree: string, path: string) => readFileSync(join(ROOT, tree, path), "utf8");
const errors = (c: { problems: { severity: string; code: string }[] }) =>
  c.problems.filter((p) => p.severity === "error").map((p) => p.code);

/** The spec with `from` replaced by `to`. */
function edited(tree: string, path: string, from: string, to: string) {
  const source = text(tree, path);
  expect(source).toContain(from);
  return parseContract("spec", path, enc(source.replace(from, to)));
}

describe("spec-kit specs as real repositories write them", () => {
  for (const [tree, path] of [
    ["zh", ZH],
    ["table", TABLE],
  ] as const) {
    it(`${tree}: discovered, read as spec-kit's, with no error`, async () => {
      const root = join(ROOT, tree);
      expect(await discoverContracts({ root })).toContain(path);
      const c = await loadContract(root, path);
      expect(c.kind).toBe("speckit-spec");
      expect(errors(c)).toEqual([]);
    });
  }

  it("in Chinese: its title, requirements, stories and success criteria are read", async () => {
    const c = await loadContract(join(ROOT, "zh"), ZH);
    const h = c.header as SpecHeader;
    expect(h.title).toBe("Bean 定义导航");
    expect(c.criteria.map((k) => k.id)).toEqual(["FR-001", "FR-002", "FR-003"]);
    expect(h.model!.stories.map((s) => s.n)).toEqual([1, 2]);
    expect(h.model!.successCriteria.map((s) => s.id)).toEqual(["SC-001", "SC-002"]);
    expect(c.problems.map((p) => p.code)).not.toContain("missing-section");
  });

  it("in Chinese, defect twin: an open [NEEDS CLARIFICATION: …] still blocks", async () => {
    const c = edited(
      "zh",
      ZH,
      "- **FR-002**: 用户必须能通过 Ctrl+点击 从使用处跳到定义处",
      "- **FR-002**: 用户必须能通过 [NEEDS CLARIFICATION: 用哪个快捷键?] 跳到定义处",
    );
    expect(c.criteria.find((k) => k.id === "Q1")?.title).toContain("用哪个快捷键?");
  });

  it("control: a file at that place with neither spec-kit's title nor its lines is still foreign", () => {
    const c = parseContract("spec", ZH, enc("# 笔记\n\n## 需求\n\n随便写写\n"));
    expect(errors(c)).toEqual(["foreign-file"]);
  });

  it("a Chinese spec with no requirement section still says which mandatory section it lacks", () => {
    const source = text("zh", ZH).replace("## 需求 *(必填)*", "## 其他");
    const c = parseContract("spec", ZH, enc(source));
    expect(c.problems.filter((p) => p.code === "missing-section").map((p) => p.message)).toEqual([
      expect.stringContaining('"## Requirements"'),
    ]);
  });

  it("tabulated: each FR row is a requirement, each SC row a success criterion, S1 is User Story 1", async () => {
    const c = await loadContract(join(ROOT, "table"), TABLE);
    const h = c.header as SpecHeader;
    expect(c.criteria.map((k) => [k.id, k.title])).toEqual([
      ["FR-01", "The system shall show the extra fields of the selected category on the same page"],
      ["FR-02", "The system shall keep a fixed mapping from categories to extra fields"],
      ["FR-02A", "The system shall read the mapping from one module"],
      ["FR-03", "The system shall save only the active category's fields"],
    ]);
    expect(h.model!.successCriteria.map((s) => s.id)).toEqual(["SC-1", "SC-2"]);
    expect(h.model!.stories.map((s) => [s.n, s.title])).toEqual([
      [1, "Picking a category shows its fields"],
      [2, "Switching category swaps the fields"],
    ]);
  });

  it("tabulated, defect twins: a duplicate row id, a row with no statement, a task for a story the spec lacks", async () => {
    const dup = edited("table", TABLE, "| **FR-03** |", "| **FR-02** |");
    expect(errors(dup)).toContain("duplicate-id");
    const empty = edited(
      "table",
      TABLE,
      "| **FR-03** | The system shall save only the active category's fields | Saved data holds no stale keys |",
      "| **FR-03** |  |  |",
    );
    expect(errors(empty)).toEqual(["spec-syntax"]);
    const notAnId = edited("table", TABLE, "| FR-02A |", "| FR-2x |");
    expect(notAnId.problems.filter((p) => p.code === "spec-syntax").map((p) => p.message)).toEqual([
      expect.stringContaining('"FR-2x" is not an id here'),
    ]);
    // The spec's S2 gone: tasks.md's [US2] task names a story that is not there.
    const source = text("table", TABLE).replace(
      "#### S2: Switching category swaps the fields",
      "#### Switching category swaps the fields",
    );
    const tasks = text("table", "specs/1-category-form/tasks.md");
    const read = readTasksFile("specs/1-category-form/tasks.md", enc(tasks));
    const linked = linkSpecFiles(parseContract("spec", TABLE, enc(source)), {
      tasks: { ...(read.tasks && { list: read.tasks }), problems: read.problems },
      checklists: [],
      exists: () => true,
    });
    expect(
      linked.problems.filter((p) => p.code === "unresolved-reference").map((p) => p.message),
    ).toEqual([expect.stringContaining("task T003 is tagged [US2]")]);
  });
});
