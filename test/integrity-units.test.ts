/** The pure parts of contract integrity: pairing, supersession, alignment, renderers. */
import { describe, expect, it } from "vitest";
import { companionsOf, withFolders } from "../src/formats/kinds/companions.js";
import { alignChecks } from "../src/integrity/check-align.js";
import { supersededPaths } from "../src/integrity/compare.js";
import { touchedContracts } from "../src/integrity/pairs.js";
import { type Finding, finding, type IntegrityReport } from "../src/integrity/types.js";
import type { Contract } from "../src/model/contract.js";
import { integrityTitle } from "../src/report/github-text.js";
import {
  integrityAnnotations,
  integrityMarkdown,
  integrityTerminal,
} from "../src/report/integrity.js";
import { IntegrityJsonSchema, integrityJson } from "../src/report/integrity-json.js";
import { plain } from "../src/report/paint.js";
import { gateConclusion } from "../src/verdict.js";
import { expectGolden } from "./helpers/golden.js";

const GLOBS = [".planning/phase-*-contract.json", ".claude/tasks/contracts/**/*.md"];
const MD = ".claude/tasks/contracts/2026-03-01-a-0900.md";

describe("touchedContracts", () => {
  it("pairs base and head paths: modified, added, removed, renamed in, out and within the globs", () => {
    expect(
      touchedContracts(
        [
          { path: MD, status: "modified" },
          { path: ".planning/phase-2-contract.json", status: "added" },
          { path: ".planning/phase-3-contract.json", status: "removed" },
          { path: "docs/old.md", status: "renamed", previousPath: ".claude/tasks/contracts/b.md" },
          { path: ".claude/tasks/contracts/c.md", status: "renamed", previousPath: "docs/c.md" },
          {
            path: ".claude/tasks/contracts/e.md",
            status: "renamed",
            previousPath: ".claude/tasks/contracts/d.md",
          },
          { path: "src/app.ts", status: "modified" },
          { path: ".planning/phase-1-plan.md", status: "modified" },
        ],
        GLOBS,
        "",
      ),
    ).toEqual([
      { basePath: MD, headPath: MD },
      { basePath: ".claude/tasks/contracts/b.md" },
      { headPath: ".claude/tasks/contracts/c.md" },
      { basePath: ".claude/tasks/contracts/d.md", headPath: ".claude/tasks/contracts/e.md" },
      { headPath: ".planning/phase-2-contract.json" },
      { basePath: ".planning/phase-3-contract.json" },
    ]);
  });

  it("keeps only paths under the working directory, relative to it", () => {
    expect(
      touchedContracts(
        [
          { path: `app/${MD}`, status: "removed" },
          { path: MD, status: "removed" },
        ],
        GLOBS,
        "app",
      ),
    ).toEqual([{ basePath: MD }]);
  });
});

describe("a contract read from several files is touched through any of them", () => {
  const KIRO = ".kiro/specs/export/requirements.md";
  const CHANGE = "openspec/changes/add-x/proposal.md";
  const globs = [".kiro/specs/**/requirements.md", "openspec/changes/*/proposal.md"];
  it.each([
    [".kiro/specs/export/tasks.md", KIRO],
    [".kiro/specs/export/design.md", KIRO],
    ["openspec/changes/add-x/tasks.md", CHANGE],
    ["openspec/changes/add-x/specs/auth/spec.md", CHANGE],
    ["openspec/changes/add-x/design.md", CHANGE],
  ])("%s alone touches %s, which reads it (companionsOf)", (file, owner) => {
    expect(touchedContracts([{ path: file, status: "modified" }], globs, "")).toEqual([
      { basePath: owner, headPath: owner },
    ]);
    expect(companionsOf(owner).some((p) => withFolders([file]).has(p))).toBe(true);
  });
  it("files of no such contract touch nothing: an archived change, a main spec's note, a stray tasks.md", () => {
    for (const path of [
      "openspec/changes/archive/2026-01-01-x/tasks.md",
      "openspec/specs/auth/notes.md",
      "docs/tasks.md",
    ]) {
      expect(touchedContracts([{ path, status: "modified" }], globs, "")).toEqual([]);
    }
  });
});

describe("supersededPaths", () => {
  const c = (path: string, supersedes?: string): Contract => ({
    kind: "oracle-contract",
    path,
    header: { kind: "oracle-contract", ...(supersedes ? { supersedes } : {}) },
    criteria: [],
    problems: [],
  });

  it("reads repo-relative paths, ./ paths and bare sibling names", () => {
    const map = supersededPaths([
      c(".claude/tasks/contracts/new.md", ".claude/tasks/contracts/old.md"),
      c(".claude/tasks/contracts/n2.md", "./.claude/tasks/contracts/o2.md"),
      c(".claude/tasks/contracts/n3.md", "o3.md"),
      c(".claude/tasks/contracts/n4.md"),
    ]);
    expect([...map]).toEqual([
      [".claude/tasks/contracts/old.md", ".claude/tasks/contracts/new.md"],
      [".claude/tasks/contracts/o2.md", ".claude/tasks/contracts/n2.md"],
      [".claude/tasks/contracts/o3.md", ".claude/tasks/contracts/n3.md"],
    ]);
  });
});

describe("alignChecks", () => {
  const grep = (p: string) => ({ type: "grep-match", path: "a", pattern: p, expect: "present" });
  const file = { type: "file-exists", path: "a" };
  const cmd = { type: "command-exit", command: "true", args: [], expected_exit: 0 };

  it("identical checks leave no pair; a removal in the middle is one drop", () => {
    expect(alignChecks([grep("x"), file, cmd], [grep("x"), file, cmd])).toEqual([]);
    expect(alignChecks([grep("x"), file, cmd], [grep("x"), cmd])).toEqual([[1, undefined]]);
  });

  it("a changed check pairs with its own type, an added one stands alone", () => {
    expect(alignChecks([file, grep("x")], [grep("y"), file, cmd])).toEqual([
      [1, 0],
      [undefined, 2],
    ]);
  });
});

const f = (over: Partial<Finding> & Pick<Finding, "code">): Finding =>
  finding({
    contract: MD,
    kind: "oracle-contract",
    path: MD,
    line: 12,
    subject: "criterion 1",
    message: "the EXPECT: of criterion 1 changed",
    ...over,
  });

const REPORT: IntegrityReport = {
  applies: true,
  base: "0123456789abcdef0123456789abcdef01234567",
  findings: [
    f({ code: "ungated-append", line: 20, message: "criterion 4 was added", after: "4. more" }),
    f({ code: "oracle-changed", before: "LOOP-GONE", after: "/.*/" }),
    f({
      code: "contract-removed",
      path: ".planning/phase-1-contract.json",
      contract: ".planning/phase-1-contract.json",
      kind: "plan-contract",
      line: 1,
      message: "deleted @someone's contract",
    }),
  ],
  approvalNote: "Not counted: the approval by agent is the PR author's own.",
};

describe("renderers", () => {
  it("markdown: blocking first, before → after in diff fences, mentions defused (golden)", () => {
    const md = integrityMarkdown(REPORT, 10_000);
    expectGolden("integrity-changes.md", md);
    expect(md).not.toMatch(/@someone/);
  });

  it("markdown: within its budget the rest is counted, never silently dropped", () => {
    const md = integrityMarkdown(REPORT, 600);
    expect(md.length).toBeLessThanOrEqual(600);
    expect(md).toMatch(/… \d more changes? not shown/);
  });

  it("markdown and terminal say when the comparison does not apply; nothing when nothing changed", () => {
    const none: IntegrityReport = { applies: false, reason: "push has no pull request base" };
    expect(integrityMarkdown(none, 1000)).toContain("Not compared: push has no pull request base");
    expect(integrityTerminal(none, plain)).toContain("not compared");
    expect(integrityMarkdown({ applies: true, base: "b", findings: [] }, 1000)).toBe("");
  });

  it("terminal: the blocking line names how to unblock (golden)", () => {
    expectGolden("integrity-changes.txt", integrityTerminal(REPORT, plain));
  });

  it("annotations: one per finding; approved blocking findings become notices", () => {
    expect(integrityAnnotations(REPORT, "app").map((a) => [a.annotation_level, a.path])).toEqual([
      ["failure", `app/${MD}`],
      ["failure", "app/.planning/phase-1-contract.json"],
      ["warning", `app/${MD}`],
    ]);
    const approved = { ...REPORT, approval: { login: "maint", reviewUrl: "https://r" } };
    const levels = integrityAnnotations(approved).map((a) => a.annotation_level);
    expect(levels).toEqual(["notice", "notice", "warning"]);
    expect(integrityMarkdown(approved, 10_000)).toContain(
      "approved by @\u2060maint in [review](https://r)",
    );
  });

  it("conclusion, title and JSON follow unacknowledged blocking findings only", () => {
    expect(gateConclusion("success", REPORT)).toBe("failure");
    const approved = { ...REPORT, approval: { login: "m", reviewUrl: "u" } };
    expect(gateConclusion("success", approved)).toBe("success");
    expect(gateConclusion("success", undefined)).toBe("success");
    expect(integrityTitle("0 blocking of 3 criteria — ", REPORT)).toBe(
      "2 blocking contract changes (need approval)",
    );
    expect(integrityTitle("1 blocking of 3 criteria — 1 unmet", REPORT)).toBe(
      "2 blocking contract changes (need approval); 1 blocking of 3 criteria — 1 unmet",
    );
    expect(integrityTitle("3 of 3 criteria met — nothing blocks", approved)).toBe(
      "3 of 3 criteria met — nothing blocks",
    );
    const json = IntegrityJsonSchema.parse(integrityJson(REPORT));
    expect(json.blocking).toBe(2);
    expect(json.findings.map((x) => x.code)).toEqual([
      "oracle-changed",
      "contract-removed",
      "ungated-append",
    ]);
    expect(IntegrityJsonSchema.parse(integrityJson({ applies: false, reason: "r" }))).toMatchObject(
      { applies: false, reason: "r", findings: [] },
    );
  });
});
