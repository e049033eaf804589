import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectChanged } from "../src/action/select.js";
import { parseContract } from "../src/formats/index.js";
import { companionsOf } from "../src/formats/kinds/companions.js";
import { DEFAULT_CONTRACT_GLOBS, kindOf } from "../src/formats/kinds/index.js";
import { openMarkers } from "../src/formats/spec/markers.js";
import { pathsIn } from "../src/formats/spec/tasks.js";
import { loadContract } from "../src/load/index.js";
import type { ProblemCode } from "../src/model/problem-codes.js";
import { discoverContracts } from "../src/scope/discover.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "specs");

/**
 * Every rule of the requirement-spec kinds (seed 004's layout and spec-kit's),
 * each proven by a failing fixture (`<case>/fail`) and its honest twin
 * (`<case>/twin`) that differs only where the rule looks. Both are
 * discovered with the default globs, so the kind follows from the place.
 */
const CASES: Record<string, ProblemCode> = {
  "spec-status-missing": "spec-status",
  "spec-status-written-otherwise": "spec-status",
  "spec-status-not-last": "spec-status",
  "spec-status-twice": "spec-status",
  "spec-status-ready-open": "spec-status",
  "duplicate-requirement": "duplicate-id",
  "unresolved-scenario-ref": "unresolved-reference",
  "unresolved-verification-ref": "unresolved-reference",
  "uncovered-requirement": "uncovered-requirement",
  "unmapped-requirement": "unmapped-requirement",
  "manual-not-allowed": "manual-not-allowed",
  "missing-test-file": "missing-test-file",
  "no-requirement-map": "no-requirement-map",
  "spec-syntax-tag": "spec-syntax",
  "spec-syntax-verification": "spec-syntax",
  "spec-syntax-map": "spec-syntax",
  "no-verification": "no-verification",
  "no-criteria": "no-criteria",
  "hidden-structure": "hidden-structure",
  "keyword-near-miss": "keyword-near-miss",
  "foreign-file": "foreign-file",
  "unclosed-fence": "unclosed-fence",
  "task-syntax": "task-syntax",
  "duplicate-task": "duplicate-id",
  "unresolved-story": "unresolved-reference",
  "phantom-completion": "phantom-completion",
  "phantom-completion-alone": "phantom-completion",
  "missing-section": "missing-section",
  "unchecked-checklist": "unchecked-checklist",
  "plan-clarification": "plan-clarification",
  "foreign-file-tasks": "foreign-file",
  "speckit-spec-syntax": "spec-syntax",
  "speckit-unmapped": "unmapped-requirement",
};

async function load(root: string) {
  const paths = await discoverContracts({ root });
  expect(paths.length).toBeGreaterThan(0);
  return Promise.all(paths.map((p) => loadContract(root, p)));
}

describe("requirement spec rules: failing fixture and honest twin", () => {
  it("covers every fixture directory", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [name, code] of Object.entries(CASES)) {
    it(`${name}: ${code}`, async () => {
      const failing = (await load(join(FIXTURES, name, "fail"))).flatMap((c) => c.problems);
      expect(failing.map((p) => p.code)).toContain(code);
      for (const p of failing) {
        expect(p.hint, `${p.code} has a hint`).toBeTruthy();
        expect(p.line).toBeGreaterThan(0);
      }
      const twin = (await load(join(FIXTURES, name, "twin"))).flatMap((c) => c.problems);
      expect(twin.map((p) => p.code)).not.toContain(code);
      expect(twin.filter((p) => p.severity === "error")).toEqual([]);
    });
  }
});

describe("which kind a spec file is", () => {
  it.each([
    ["specs/001-trim/spec.md", "spec"],
    ["specs/20260101-120000-x/spec.md", "spec"],
    ["requirements/a/spec.md", "spec"],
    ["specs/001-trim/tasks.md", "speckit-tasks"],
    [".claude/tasks/contracts/spec.md", "oracle-contract"],
    ["specs/001-trim/plan.md", "oracle-contract"],
  ])("%s → %s", (path, kind) => {
    expect(kindOf(path)).toBe(kind);
  });

  it("a spec-kit spec is read as speckit-spec by its heading, with its tasks.md beside it", async () => {
    const [spec, ...rest] = await load(join(FIXTURES, "missing-section", "twin"));
    expect(rest).toEqual([]);
    expect(spec!.kind).toBe("speckit-spec");
    const header = spec!.header;
    if (header.kind !== "speckit-spec") throw new Error("not a spec-kit spec");
    expect(header.model?.requirements.map((r) => r.id)).toEqual([
      "FR-001",
      "FR-002",
      "FR-002a",
      "FR-003",
    ]);
    expect(header.model?.requirements[2]?.text).toBe(
      "System MUST keep a manual order once the user drags an album (see FR-014 of spec 001 for drag handling).",
    );
    expect(header.model?.stories.map((s) => s.n)).toEqual([1, 2]);
    expect(header.tasks?.tasks.map((t) => `${t.id}${t.done ? "x" : ""}${t.story ?? ""}`)).toEqual([
      "T001x",
      "T002x",
      "T003",
      "T004x1",
      "T005x1",
      "T007x1",
      "T0082",
      "T009x1",
    ]);
  });
});

describe("open [NEEDS CLARIFICATION] markers are read as rendered text", () => {
  it.each([
    ["System MUST log in via [NEEDS CLARIFICATION: SSO or password?]", ["SSO or password?"]],
    ["two [NEEDS CLARIFICATION: a?] and [NEEDS CLARIFICATION: b?]", ["a?", "b?"]],
    // Not questions: each of these forms appears in real spec-kit files.
    ["Mark with [NEEDS CLARIFICATION: specific question] for any assumption", []],
    ["- [x] No [NEEDS CLARIFICATION] markers remain", []],
    ["- [ ] No [NEEDS CLARIFICATION: x] markers remain", []],
    ["No [NEEDS CLARIFICATION] markers (none in this spec)", []],
    ["[NEEDS CLARIFICATION: none]", []],
    ["quoted as `[NEEDS CLARIFICATION: example]` in prose", []],
    ["**Example of marking unclear requirements**: [NEEDS CLARIFICATION: x?]", []],
  ])("%s", (line, questions) => {
    expect(openMarkers(line).map((m) => m.question)).toEqual(questions);
  });
});

describe("the paths a task names", () => {
  it.each([
    ["Create model in src/models/user.py", ["src/models/user.py"]],
    ["Configure `vite.config.ts` and `src/main.tsx`", ["src/main.tsx"]],
    ["Create `src/components/albums/`, `tests/unit/` (unit/, fixtures/)", []],
    ["import `./styles/tokens.css` in `src/main.tsx`", ["src/main.tsx"]],
    ["Install @dnd-kit/core and read https://x.dev/a/b.md", []],
    ["Handle email/password and and/or cases; call URL.revokeObjectURL", []],
    ["Write tests/contract/test_[name].py", []],
    ["Per contracts/service-interfaces.md.", ["contracts/service-interfaces.md"]],
    // Read as people write them (issue 35): Next.js route groups and dynamic segments.
    ["Create src/app/(auth)/forgot-password/page.tsx", ["src/app/(auth)/forgot-password/page.tsx"]],
    ["Add `src/app/api/ideas/[id]/scores/route.ts`", ["src/app/api/ideas/[id]/scores/route.ts"]],
    ["Catch-all in app/docs/[...slug]/page.tsx", ["app/docs/[...slug]/page.tsx"]],
    ["Keep src/@types/env.d.ts and lib/c++/x.h", ["src/@types/env.d.ts", "lib/c++/x.h"]],
    // Not this repository's paths: another machine's, a variable's, a glob's.
    ['Set `CMD ["/app/entrypoint.sh"]` in docker/Dockerfile', ["docker/Dockerfile"]],
    ["Fix /home/runner/work/topten/topten/src/components/a.tsx", []],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, as a task writes it
    ["Write $HOME/.config/x.json and ${ROOT}/src/y.ts", []],
    ["Lint src/**/*.ts and src/*.tsx", []],
    ["Root-relative /specs/002-albums/plan.md", ["specs/002-albums/plan.md"]],
    ["A traversal ../src/x.ts or src/../y.ts", []],
  ])("%s", (text, paths) => {
    expect(pathsIn(text).map((p) => p.path)).toEqual(paths);
  });
});

describe("what the page hides is the reader's error", () => {
  const spec = (extra: string) =>
    new TextEncoder().encode(
      readFileSync(
        join(FIXTURES, "manual-not-allowed", "twin", "specs/001-trim/spec.md"),
        "utf8",
      ).replace("## Guardrails", `${extra}\n\n## Guardrails`),
    );
  it("a [NEEDS CLARIFICATION] marker inside an HTML comment is hidden-structure", () => {
    const c = parseContract(
      "spec",
      "specs/001-trim/spec.md",
      spec("<!-- [NEEDS CLARIFICATION: hidden?] -->"),
    );
    expect(c.problems.map((p) => p.code)).toContain("hidden-structure");
    // Control: a comment of prose is no problem.
    const plain = parseContract(
      "spec",
      "specs/001-trim/spec.md",
      spec("<!-- a note for editors -->"),
    );
    expect(plain.problems).toEqual([]);
  });

  it("a status line inside a comment is hidden-structure, and does not count as the status", () => {
    const c = parseContract(
      "spec",
      "specs/001-trim/spec.md",
      spec("<!--\nSPEC STATUS: READY\n-->"),
    );
    expect(c.problems.map((p) => p.code)).toEqual(["hidden-structure"]);
  });
});

describe("a tasks.md or plan.md change puts the spec beside it in scope", () => {
  it("companions of a spec", () => {
    expect(companionsOf("specs/001-trim/spec.md")).toEqual([
      "specs/001-trim/spec.md",
      "specs/001-trim/tasks.md",
      "specs/001-trim/plan.md",
    ]);
    const selected = selectChanged(
      ["specs/001-trim/spec.md", "specs/002-x/spec.md"],
      [{ path: "specs/001-trim/tasks.md", status: "modified" }],
      DEFAULT_CONTRACT_GLOBS,
      "",
    );
    expect(selected.selected).toEqual(["specs/001-trim/spec.md"]);
    // The tasks.md read with the spec is a regular file at head, not a contract gone.
    expect(selected.notFiles).toEqual([]);
  });
});

describe("grammar indented under another item is an error, not prose", () => {
  const base = readFileSync(
    join(FIXTURES, "manual-not-allowed", "twin", "specs/001-trim/spec.md"),
    "utf8",
  );
  const codes = (text: string) =>
    parseContract("spec", "specs/001-trim/spec.md", new TextEncoder().encode(text)).problems.map(
      (p) => p.code,
    );
  it.each([
    [
      "a requirement",
      "  exactly as written.",
      "  exactly as written.\n  - FR-003: the system SHALL log.",
    ],
    [
      "a map line",
      "- FR-002 → manual:",
      "  - FR-001 → tests/other.test.ts > x\n- FR-002 → manual:",
    ],
    ["a Verification command", "- manual: FR-002", "  - `true` — proves AC-1\n- manual: FR-002"],
  ])("%s", (_what, from, to) => {
    expect(codes(base)).toEqual([]);
    expect(codes(base.replace(from, to))).toContain("spec-syntax");
  });
});
