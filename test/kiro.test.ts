import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { companionsOf } from "../src/formats/kinds/companions.js";
import { DEFAULT_CONTRACT_GLOBS, kindOf } from "../src/formats/kinds/index.js";
import { linkKiroFiles, markedComplete, members } from "../src/formats/kiro/index.js";
import { emptyRefList, readRefList } from "../src/formats/kiro/refs.js";
import { loadContract } from "../src/load/index.js";
import type { Contract, KiroHeader } from "../src/model/contract.js";
import type { ProblemCode } from "../src/model/problem-codes.js";
import { discoverContracts } from "../src/scope/discover.js";
import { auditDiscovery } from "../src/scope/discover-audit.js";
import { runCli } from "./helpers/cli.js";
import { copyTree } from "./helpers/tmp.js";

/** A Kiro spec written the way Kiro writes one (requirements, design, tasks), every reference resolving. */
const HONEST = join(import.meta.dirname, "fixtures", "kiro", "honest");
const DIR = ".kiro/specs/export-reports";
const REQ = `${DIR}/requirements.md`;
const enc = (s: string) => new TextEncoder().encode(s);
const file = (name: string) => readFileSync(join(HONEST, DIR, name), "utf8");

/** The honest spec with one file edited: `edit` must change it, so a twin never passes by accident. */
function variant(name: string, edit: (text: string) => string): string {
  const root = copyTree(HONEST);
  const before = file(name);
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(join(root, DIR, name), after);
  return root;
}

const codes = (c: Contract) => c.problems.map((p) => p.code);
const errors = (c: Contract) => c.problems.filter((p) => p.severity === "error");
const blocking = (c: Contract) => c.criteria.filter((x) => x.settled?.blocking);

describe("kiro-spec: kind and discovery", () => {
  it("is found by its requirements.md with the default globs; its three files are never another kind's", async () => {
    expect(DEFAULT_CONTRACT_GLOBS).toContain(".kiro/specs/*/requirements.md");
    for (const name of ["requirements.md", "design.md", "tasks.md"]) {
      expect(kindOf(`${DIR}/${name}`)).toBe("kiro-spec");
      expect(kindOf(`app/${DIR}/${name}`)).toBe("kiro-spec");
    }
    expect(kindOf(".kiro/specs/_archived/old/requirements.md")).toBe("kiro-spec");
    // Without the Kiro rule, tasks.md would be a spec-kit task list and requirements.md an oracle contract.
    expect(kindOf("specs/001-x/tasks.md")).toBe("speckit-tasks");
    expect(kindOf("docs/requirements.md")).toBe("oracle-contract");
    expect(await discoverContracts({ root: HONEST })).toEqual([REQ]);
  });

  it("its design.md and tasks.md put it in scope and are the files compared with the commit", () => {
    const three = [REQ, `${DIR}/design.md`, `${DIR}/tasks.md`];
    expect(companionsOf(REQ)).toEqual(three);
    expect(companionsOf(`${DIR}/tasks.md`)).toEqual(three);
    // One rule: what puts it in scope is what is compared with the commit (src/scope/committed.ts).
    expect(parseContract("kiro-spec", REQ, enc(file("requirements.md"))).path).toBe(REQ);
  });

  it("reads a companion named on the command line as its spec", async () => {
    for (const name of ["design.md", "tasks.md", "requirements.md"]) {
      expect(
        await discoverContracts({ root: HONEST, paths: [`${DIR}/${name}`], cwd: HONEST }),
      ).toEqual([REQ]);
    }
  });
});

describe("kiro-spec: the honest spec", () => {
  it("has every acceptance criterion as a criterion, no problem, nothing blocking", async () => {
    const c = await loadContract(HONEST, REQ);
    expect(c.kind).toBe("kiro-spec");
    expect(c.problems).toEqual([]);
    expect(c.criteria.map((x) => x.id)).toEqual(["1.1", "1.2", "1.3", "2.1", "2.2", "3.1", "3.2"]);
    expect(blocking(c)).toEqual([]);
    const h = c.header as KiroHeader;
    // The wrapped line is part of 2.1; the reasons name what cites each criterion.
    expect(h.requirements[1]!.criteria[0]!.text).toContain("status 403 and write an audit entry");
    expect(c.criteria[0]!.settled?.reason).toContain("task 2.1");
    expect(c.criteria[0]!.settled?.reason).toContain("Property 1");
    expect(h.design?.properties.map((p) => p.id)).toEqual(["1", "2"]);
    expect(h.tasks?.tasks.filter((t) => t.optional).map((t) => t.id)).toEqual(["1.2", "2.3"]);
    expect(markedComplete(h.tasks!.tasks)).toBe(false);
  });
});

/** Each rule: the defect in one file, and the contract it makes. */
const DEFECTS: [string, string, (t: string) => string, ProblemCode][] = [
  [
    "a dangling _Requirements: 3.3_",
    "tasks.md",
    (t) => t.replace("_Requirements: 3.1-3.2_", "_Requirements: 3.1-3.3_"),
    "kiro-dangling-reference",
  ],
  [
    "a dangling Validates: 2.7",
    "design.md",
    (t) => t.replace("**Validates: Requirements 2.1**", "**Validates: Requirements 2.7**"),
    "kiro-dangling-reference",
  ],
  [
    "a citation of a requirement that does not exist",
    "tasks.md",
    (t) => t.replace("_Requirements: 1.1_", "_Requirements: 4_"),
    "kiro-dangling-reference",
  ],
  [
    "a requirement with no acceptance criterion",
    "requirements.md",
    (t) =>
      t.replace(
        /#### Acceptance Criteria\n\n1\. WHERE[\s\S]*$/,
        "Streaming is described in the design.\n",
      ),
    "kiro-structure",
  ],
  [
    "an acceptance criterion numbered twice",
    "requirements.md",
    (t) => t.replace("2. WHILE a project", "1. WHILE a project"),
    "kiro-structure",
  ],
];

describe("kiro-spec: each defect is an error at its line; the honest twin has none", () => {
  for (const [what, name, edit, code] of DEFECTS) {
    it(what, async () => {
      const c = await loadContract(variant(name, edit), REQ);
      const found = errors(c).filter((p) => p.code === code);
      expect(found.length).toBeGreaterThan(0);
      expect(found[0]!.path).toBe(`${DIR}/${name}`);
      expect(found[0]!.line).toBeGreaterThan(1);
      expect(errors(await loadContract(HONEST, REQ))).toEqual([]);
    });
  }

  it("the dangling reference names what exists", async () => {
    const c = await loadContract(
      variant("tasks.md", (t) => t.replace("_Requirements: 3.1-3.2_", "_Requirements: 3.1-3.3_")),
      REQ,
    );
    const p = c.problems.find((x) => x.code === "kiro-dangling-reference")!;
    expect(p.message).toBe(
      "task 3.1 cites 3.3, but Requirement 3 has 2 acceptance criteria (3.1–3.2)",
    );
    expect(p.line).toBe(file("tasks.md").split("\n").indexOf("    - _Requirements: 3.1-3.2_") + 1);
  });
});

describe("kiro-spec: open tasks of a spec marked complete", () => {
  const complete = (t: string) =>
    t
      .replace("- [-] 2.", "- [x] 2.")
      .replace("- [ ] 3.", "- [x] 3.")
      .replace(/- \[ \] ([45])\./g, "- [x] $1.");

  it("blocks on each required task still open once every top-level task is checked", async () => {
    const c = await loadContract(variant("tasks.md", complete), REQ);
    expect(blocking(c).map((x) => x.id)).toEqual(["task 2.2", "task 3.1"]);
    expect(blocking(c)[0]!.settled?.status).toBe("unmet");
    // Optional tasks (`- [ ]*`) never block.
    expect(c.criteria.some((x) => x.id === "task 1.2" || x.id === "task 2.3")).toBe(false);
  });

  it("the twin, its required tasks checked, has nothing blocking", async () => {
    const c = await loadContract(
      variant("tasks.md", (t) =>
        complete(t).replace("- [ ] 2.2", "- [x] 2.2").replace("- [ ] 3.1", "- [x] 3.1"),
      ),
      REQ,
    );
    expect(blocking(c)).toEqual([]);
  });
});

describe("kiro-spec: warnings", () => {
  it("an acceptance criterion no task or property cites", async () => {
    const c = await loadContract(
      variant("tasks.md", (t) =>
        t
          .replace("_Requirements: 3.1-3.2_", "_Requirements: 3.1_")
          .replace("_Requirements: All_", "Docs only"),
      ),
      REQ,
    );
    const p = c.problems.filter((x) => x.code === "kiro-uncovered-criterion");
    expect(p.map((x) => [x.path, x.severity, x.message.slice(0, 24)])).toEqual([
      [REQ, "warning", "acceptance criterion 3.2"],
    ]);
  });

  it("a done task naming a file that does not exist (without the base: a warning)", async () => {
    const root = copyTree(HONEST);
    rmSync(join(root, "src/export/csv.ts"));
    const c = await loadContract(root, REQ);
    const p = c.problems.find((x) => x.code === "kiro-phantom-completion")!;
    expect(p.severity).toBe("warning");
    expect(p.message).toContain("task 1.1 is marked done, but src/export/csv.ts");
  });

  it("a criterion without SHALL; a token that names no requirement", async () => {
    const c = await loadContract(
      variant("requirements.md", (t) =>
        t.replace("THE Exporter SHALL quote every field", "THE Exporter should quote every field"),
      ),
      REQ,
    );
    expect(codes(c)).toContain("kiro-criterion-wording");
    const d = await loadContract(
      variant("tasks.md", (t) =>
        t.replace("_Requirements: 1.1_", "_Requirements: 1.1, UI rendering_"),
      ),
      REQ,
    );
    expect(d.problems.find((x) => x.code === "kiro-unparsed-reference")?.message).toContain(
      '"UI rendering"',
    );
  });
});

describe("kiro-spec: reference lists (RULES §2.4)", () => {
  const read = (list: string) => {
    const out = emptyRefList();
    readRefList(list, "t.md", 1, 1, out);
    return {
      ids: out.refs.flatMap(members),
      unparsed: out.unparsed.map((u) => u.text),
      wide: out.wide.length,
    };
  };

  it("reads each form real Kiro specs use", () => {
    expect(read("1.1, 1.2_").ids).toEqual(["1.1", "1.2"]);
    expect(read("6.1-6.3").ids).toEqual(["6.1", "6.2", "6.3"]);
    expect(read("1.1–1.3").ids).toEqual(["1.1", "1.2", "1.3"]);
    expect(read("All").ids).toEqual(["*"]);
    expect(read("All requirements").ids).toEqual(["*"]);
    expect(read("2").ids).toEqual(["2"]);
    expect(read("Requirement 3.1, 3.2").ids).toEqual(["3.1", "3.2"]);
    expect(read("Requirements 1.2, 3.4**").ids).toEqual(["1.2", "3.4"]);
    expect(read("1.1/1.2 (Property 4)").ids).toEqual(["1.1", "1.2"]);
    expect(read("REQ-RC-001.1, REQ-RC-002").ids).toEqual(["REQ-RC-001.1", "REQ-RC-002"]);
    expect(read("Property 3").ids).toEqual([]);
    expect(read("6.1-7.2")).toEqual({ ids: ["6.1", "7.2"], unparsed: [], wide: 1 });
    expect(read("1.1, Testing Strategy").unparsed).toEqual(["Testing Strategy"]);
  });
});

describe("kiro-spec: requirement headings and criteria (RULES §2.1)", () => {
  const parse = (text: string) => parseContract("kiro-spec", REQ, enc(text));

  it("reads Kiro's heading forms, Japanese included, and joins wrapped and nested lines", () => {
    const c = parse(
      [
        "# Requirements Document",
        "### Requirement 1",
        "#### Acceptance Criteria",
        "1. WHEN a user signs in THEN the",
        "   System SHALL greet them",
        "2. WHEN the hook runs THEN the order SHALL be:",
        "   1. format",
        "   2. lint",
        "### Requirement 2 — Tidy",
        "#### Acceptance Criteria",
        "##### Unit tests",
        "1. THE System SHALL be tidy",
        "### 要件3: ゲーム",
        "#### 受入基準",
        "1. WHEN ゲームが開始されると THEN ボードが表示される",
        "",
      ].join("\n"),
    );
    expect(c.problems).toEqual([]);
    expect(c.criteria.map((x) => [x.id, x.title])).toEqual([
      ["1.1", "WHEN a user signs in THEN the System SHALL greet them"],
      ["1.2", "WHEN the hook runs THEN the order SHALL be: 1. format 2. lint"],
      ["2.1", "THE System SHALL be tidy"],
      ["3.1", "WHEN ゲームが開始されると THEN ボードが表示される"],
    ]);
  });

  it("a file at a Kiro path that is no requirements document is foreign; one with none is no-criteria", () => {
    expect(codes(parse("# Notes\n\nhello\n"))).toEqual(["foreign-file"]);
    expect(codes(parse("# Requirements Document\n\n## Planned\n\n1. later\n"))).toEqual([
      "no-criteria",
    ]);
  });

  it("grammar hidden in an HTML comment is an error, never read", () => {
    const c = parse(
      "# Requirements Document\n### Requirement 1\n#### Acceptance Criteria\n1. THE System SHALL x\n<!--\n### Requirement 2\n-->\n",
    );
    expect(codes(c)).toEqual(["hidden-structure"]);
    expect((c.header as KiroHeader).requirements).toHaveLength(1);
  });

  it("the loader's link is pure: the same files give the same contract", () => {
    const parsed = parse(file("requirements.md"));
    const files = {
      design: { path: `${DIR}/design.md`, bytes: enc(file("design.md")) },
      tasks: { path: `${DIR}/tasks.md`, bytes: enc(file("tasks.md")) },
    };
    expect(linkKiroFiles(parsed, files)).toEqual(linkKiroFiles(parsed, files));
  });
});

describe("kiro-spec through the CLI", () => {
  it("validate passes the honest spec and fails the dangling reference at its file:line:col", async () => {
    const ok = await runCli(["validate"], HONEST);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("1 contract checked: 1 valid");
    const root = variant("tasks.md", (t) =>
      t.replace("_Requirements: 3.1-3.2_", "_Requirements: 3.1-3.3_"),
    );
    const bad = await runCli(["validate"], root);
    expect(bad.code).toBe(1);
    const line = file("tasks.md").split("\n").indexOf("    - _Requirements: 3.1-3.2_") + 1;
    expect(bad.stdout + bad.stderr).toContain(`${DIR}/tasks.md:${line}:`);
    expect(bad.stdout + bad.stderr).toContain("kiro-dangling-reference");
  });

  it("a Kiro requirements.md named explicitly is read as a Kiro spec, not an oracle contract", async () => {
    const r = await runCli(["validate", REQ], HONEST);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain("ACCEPTANCE CRITERIA");
  });
});

describe("kiro-spec: the discovery audit names Kiro trees the globs leave out", () => {
  it("with narrowed globs (the action's `contracts` input), a Kiro spec is named with the glob that gates it", async () => {
    const root = copyTree(HONEST);
    const audit = (globs: string[]) =>
      auditDiscovery({ root, globs, given: globs, found: ["src/export/csv.ts"] });
    const narrowed = await audit(["src/**/*.ts"]);
    expect(narrowed.warnings.join("\n")).toContain(`${REQ} (a Kiro spec by its place)`);
    expect(narrowed.warnings.join("\n")).toContain("--contracts '.kiro/specs/*/requirements.md'");
    const fixed = await audit(["src/**/*.ts", ".kiro/specs/*/requirements.md"]);
    expect(fixed.warnings.join("\n")).not.toContain("a Kiro spec by its place");
  });
});

describe("kiro-spec: 1 MiB adversarial task lists end", () => {
  // No timing: a quadratic reader shows as this test timing out.
  it("10^5 `All` and range references, 10^5 code spans on one task", () => {
    const parsed = parseContract("kiro-spec", REQ, enc(file("requirements.md")));
    const many = (unit: string) => unit.repeat(Math.floor(1_000_000 / unit.length));
    for (const body of [
      `- [x] 1. t\n  - _Requirements: ${many("All, ")}_\n`,
      `- [x] 1. t\n  - _Requirements: ${many("1.1-1.49, ")}_\n`,
      `- [x] 1. t\n  - _Requirements: ${many("1, ")}_\n`,
      `- [x] 1. t ${many("`a/b.ts` ")}\n`,
      many("- [x] 1. t\n  - _Requirements: 1.1_\n"),
    ]) {
      const c = linkKiroFiles(parsed, {
        tasks: { path: `${DIR}/tasks.md`, bytes: enc(body) },
        exists: () => false,
      });
      expect(c.kind).toBe("kiro-spec");
    }
  });
});

describe("kiro-spec: design.md's correctness properties", () => {
  const requirements = parseContract("kiro-spec", REQ, enc(file("requirements.md")));
  const link = (design: string, tasks = file("tasks.md")) =>
    linkKiroFiles(requirements, {
      design: { path: `${DIR}/design.md`, bytes: enc(design) },
      tasks: { path: `${DIR}/tasks.md`, bytes: enc(tasks) },
    });
  const properties = (c: Contract) => (c.header as KiroHeader).design?.properties ?? [];
  const dangling = (c: Contract) => c.problems.filter((p) => p.code === "kiro-dangling-reference");
  /** Each way real design.md files write a property; its Validates line is the one after it. */
  const FORMS = [
    "### Property 7: Streaming keeps order",
    "**Property 7: Streaming keeps order**",
    "1. **Property 7: Streaming keeps order**",
    "- **Property 7: Streaming keeps order**",
    "Property 7: Streaming keeps order",
  ];
  const design = (form: string, cites: string) =>
    `${file("design.md").trimEnd()}\n\n## More properties\n\n${form}\n\n*For any* report, rows SHALL arrive in order.\n\n**Validates: Requirements ${cites}**\n`;
  const validatesLine = (text: string) =>
    text.split("\n").findIndex((l) => l.startsWith("**Validates: Requirements 3.")) + 1;

  it.each(FORMS)("%s is a property; its Validates line cites criteria that exist", (form) => {
    const c = link(design(form, "3.1, 3.2"));
    const p = properties(c).find((x) => x.id === "7")!;
    expect(p.title).toBe("Streaming keeps order");
    expect(p.refs.map((r) => r.id)).toEqual(["3.1", "3.2"]);
    expect(dangling(c)).toEqual([]);
  });

  it("a criterion cited by a property alone is covered; uncited by both, it warns", () => {
    const uncovered = (c: Contract) =>
      c.problems.filter((x) => x.code === "kiro-uncovered-criterion").map((x) => x.message);
    const tasks = file("tasks.md")
      .replace("_Requirements: 3.1-3.2_", "_Requirements: 1.1_")
      .replace("_Requirements: All_", "_Requirements: 2.1_");
    expect(tasks).not.toContain("3.1-3.2");
    expect(tasks).not.toContain("All_");
    // Control: with no task citing Requirement 3 (nor All), both its criteria warn.
    expect(uncovered(link(file("design.md"), tasks))).toEqual([
      expect.stringContaining("acceptance criterion 3.1"),
      expect.stringContaining("acceptance criterion 3.2"),
    ]);
    expect(uncovered(link(design(FORMS[0]!, "3.1, 3.2"), tasks))).toEqual([]);
  });

  it.each(FORMS)("%s citing 3.9 is an error at its Validates line, naming the property", (form) => {
    const text = design(form, "3.1, 3.9");
    const found = dangling(link(text));
    expect(found.map((p) => [p.path, p.line, p.message])).toEqual([
      [
        `${DIR}/design.md`,
        validatesLine(text),
        "Property 7 cites 3.9, but Requirement 3 has 2 acceptance criteria (3.1–3.2)",
      ],
    ]);
  });

  it("control: the honest design.md has its two properties and nothing dangling", () => {
    const c = link(file("design.md"));
    expect(properties(c).map((p) => [p.id, p.refs.map((r) => r.id)])).toEqual([
      ["1", ["1.1", "1.3"]],
      ["2", ["2.1"]],
    ]);
    expect(dangling(c)).toEqual([]);
  });

  it("a Validates line under a new ## section belongs to no property and is still checked", () => {
    const text = `${file("design.md").trimEnd()}\n\n## Testing Strategy\n\n**Validates: Requirements 3.9**\n`;
    const c = link(text);
    expect(properties(c).flatMap((p) => p.refs.map((r) => r.id))).not.toContain("3.9");
    expect(dangling(c).map((p) => [p.line, p.message])).toEqual([
      [
        text.split("\n").indexOf("**Validates: Requirements 3.9**") + 1,
        "a Validates line outside any property cites 3.9, but Requirement 3 has 2 acceptance criteria (3.1–3.2)",
      ],
    ]);
  });
});
