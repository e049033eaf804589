/**
 * Tolerant where the verdict does not change (issue 35): ids with suffixes,
 * labels on requirements, task lists headed in the user's language are read
 * as spec-kit writes them; an open [NEEDS CLARIFICATION] and a malformed tag
 * still count.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { parseSpeckitTasks } from "../src/formats/spec/index.js";
import type { SpecHeader } from "../src/model/contract.js";

const DIR = join(
  import.meta.dirname,
  "fixtures",
  "specs",
  "phantom-completion",
  "twin",
  "specs/002-albums",
);
const SPEC = readFileSync(join(DIR, "spec.md"), "utf8");
const TASKS = readFileSync(join(DIR, "tasks.md"), "utf8");
const enc = (s: string) => new TextEncoder().encode(s);
const spec = (from: string, to: string) => {
  expect(SPEC).toContain(from);
  return parseContract("spec", "specs/002-albums/spec.md", enc(SPEC.replace(from, to)));
};
const errors = (c: { problems: { severity: string; code: string }[] }) =>
  c.problems.filter((p) => p.severity === "error").map((p) => p.code);

describe("requirement ids and labels as real spec-kit specs write them", () => {
  it("a suffixed id (FR-009-A), a parenthetical label, a full-width colon: read as requirements", () => {
    const c = spec(
      "- **FR-002**: System MUST order albums by their newest photo.",
      "- **FR-002**: System MUST order albums by their newest photo.\n- **FR-009-A**: System MUST cache covers.\n* **FR-010 (Google SSO)**: System MUST sign in with Google.\n- **FR-011**：系统 MUST 保存连接。",
    );
    const ids = (c.header as SpecHeader).model!.requirements.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(["FR-009-A", "FR-010", "FR-011"]));
    expect(errors(c)).not.toContain("spec-syntax");
  });

  it("[OUT OF SCOPE - MVP] is no criterion; a malformed tag ([ADDD]) is still an error (twin)", () => {
    const out = spec(
      "- **FR-002**: System MUST order albums by their newest photo.",
      "- **FR-002**: System MUST order albums by their newest photo.\n- **FR-030** [OUT OF SCOPE - MVP]: System MUST export albums.",
    );
    expect(errors(out)).toEqual([]);
    expect(out.criteria.map((k) => k.id)).not.toContain("FR-030");
    const bad = spec(
      "- **FR-002**: System MUST order albums by their newest photo.",
      "- **FR-002** [ADDD]: System MUST order albums by their newest photo.",
    );
    expect(errors(bad)).toContain("spec-syntax");
  });

  it("defect twin: an open [NEEDS CLARIFICATION: …] still blocks the spec", () => {
    const c = spec(
      "- **FR-002**: System MUST order albums by their newest photo.",
      "- **FR-002**: System MUST order albums by [NEEDS CLARIFICATION: newest photo or creation date?]",
    );
    expect(c.criteria.find((k) => k.id === "Q1")?.title).toContain(
      "newest photo or creation date?",
    );
  });
});

describe("task lists as real spec-kit task lists write them", () => {
  it("a suffixed task id (T031-MIN) is a task, not a task-syntax error", () => {
    const c = parseSpeckitTasks(
      "specs/002-albums/tasks.md",
      enc(
        TASKS.replace(
          "- [ ] T003 [P]",
          "- [ ] T031-MIN [P] Create simple title page\n- [ ] T003 [P]",
        ),
      ),
    );
    expect(errors(c)).toEqual([]);
    expect((c.header as SpecHeader).tasks!.tasks.map((t) => t.id)).toContain("T031-MIN");
  });

  it("headed in Chinese (# 任务清单：…, ## 第一阶段：…): read by its task lines, not foreign-file", () => {
    const zh =
      "# 任务清单：数据库查询工具\n\n## 第一阶段：基础设施\n\n- [x] T001 [P] 创建项目结构\n- [ ] T002 [US1] 实现 backend/app/main.py\n";
    const c = parseSpeckitTasks("specs/001-db/tasks.md", enc(zh));
    expect(errors(c)).toEqual([]);
    expect((c.header as SpecHeader).tasks!.tasks.map((t) => t.id)).toEqual(["T001", "T002"]);
    // Control: a file at that place with no task line at all is still foreign.
    const notes = parseSpeckitTasks("specs/001-db/tasks.md", enc("# 笔记\n\n随便写写\n"));
    expect(errors(notes)).toEqual(["foreign-file"]);
  });
});
