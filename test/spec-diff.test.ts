import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { compareContracts } from "../src/integrity/compare.js";
import type { ContractVersion } from "../src/integrity/version.js";

const SPEC = "specs/001-trim/spec.md";
const BASE = readFileSync(
  join(import.meta.dirname, "fixtures", "specs", "manual-not-allowed", "twin", SPEC),
  "utf8",
);

function version(text: string, path = SPEC): ContractVersion {
  const kind = path.endsWith("tasks.md") ? "speckit-tasks" : "spec";
  return { path, text, contract: parseContract(kind, path, new TextEncoder().encode(text)) };
}

/** The findings of a PR that turns BASE into `head` (undefined: deletes it). */
function findings(head: string | undefined, base = BASE, path = SPEC, changed?: Set<string>) {
  return compareContracts(
    [{ base: version(base, path), ...(head !== undefined && { head: version(head, path) }) }],
    new Map(),
    new Map(),
    new Map(),
    changed,
  ).map((f) => ({ code: f.code, blocking: f.blocking }));
}

describe("a requirement spec against its base", () => {
  it("an unchanged spec has no finding (the control every case below differs from)", () => {
    expect(findings(BASE)).toEqual([]);
  });

  it.each([
    [
      "a requirement removed",
      BASE.replace(/- FR-002 \[ADDED\][^\n]*\n[^\n]*\n/, ""),
      "requirement-removed",
    ],
    ["a requirement renumbered", BASE.replaceAll("FR-002", "FR-009"), "requirement-renumbered"],
    [
      "a statement changed",
      BASE.replace("remove surrounding spaces", "remove leading spaces"),
      "requirement-changed",
    ],
    [
      "a requirement descoped",
      BASE.replace("- FR-002 [ADDED]", "- FR-002 [REMOVED]"),
      "requirement-descoped",
    ],
    [
      "a map line pointed elsewhere",
      BASE.replace("> trims surrounding spaces", "> passes"),
      "map-changed",
    ],
    [
      "a map line removed",
      BASE.replace("- FR-001 → tests/trim.test.ts > trims surrounding spaces\n", ""),
      "map-changed",
    ],
    [
      "a guardrail removed",
      BASE.replace("- No new dependency in package.json.\n", ""),
      "guardrail-changed",
    ],
    [
      "a Verification command changed",
      BASE.replace("process.exit(0)", "process.exit(0) || true"),
      "verification-changed",
    ],
    [
      "READY no longer READY",
      BASE.replace("SPEC STATUS: READY", "SPEC STATUS: NEEDS CLARIFICATION"),
      "spec-status-changed",
    ],
    ["the spec deleted", undefined, "contract-removed"],
  ])("%s blocks", (_what, head, code) => {
    expect(findings(head)).toContainEqual({ code, blocking: true });
  });

  it("adding requirements, scenarios, tests and guardrails never blocks", () => {
    const head = BASE.replace(
      "## Behavior Scenarios",
      "- FR-003 [ADDED]: the system SHALL log each trim.\n\n## Behavior Scenarios",
    )
      .replace(
        "## Acceptance Criteria",
        "- Scenario: logs a trim (FR-003)\n\n## Acceptance Criteria",
      )
      .replace("## Verification", "- No network access in tests.\n\n## Verification")
      .replace("SPEC STATUS: READY", "- FR-003 → tests/trim.test.ts > logs\n\nSPEC STATUS: READY");
    expect(findings(head).filter((f) => f.blocking)).toEqual([]);
  });

  it("a Verification line whose proves list drops an acceptance criterion blocks; one that proves more does not", () => {
    const two = BASE.replace("— proves AC-1", "— proves AC-1, AC-2");
    // The attack: the same command, AC-2 dropped from what it proves.
    expect(findings(BASE, two)).toEqual([{ code: "verification-changed", blocking: true }]);
    const f = compareContracts([{ base: version(two), head: version(BASE) }], new Map());
    expect(f[0]?.message).toMatch(/no longer proves AC-2$/);
    // The honest twin: the same command proving one more criterion.
    expect(findings(two).filter((x) => x.blocking)).toEqual([]);
    // Moving the line (same command, same proves) is no finding either.
    const moved = BASE.replace(
      '- `node -e "process.exit(0)"` — proves AC-1\n- manual: FR-002 — rendering is checked by eye in the browser',
      '- manual: FR-002 — rendering is checked by eye in the browser\n- `node -e "process.exit(0)"` — proves AC-1',
    );
    expect(moved).not.toBe(BASE);
    expect(findings(moved).filter((x) => x.blocking)).toEqual([]);
  });

  it("a nested guardrail bullet removed blocks; the same list with one more path does not", () => {
    const nested = BASE.replace(
      "- No new dependency in package.json.\n",
      "- No new dependency in package.json.\n- Protected surfaces:\n  - `src/api/**`\n  - `db/schema.sql`\n",
    );
    expect(findings(nested.replace("  - `db/schema.sql`\n", ""), nested)).toContainEqual({
      code: "guardrail-changed",
      blocking: true,
    });
    const more = nested.replace("  - `db/schema.sql`\n", "  - `db/schema.sql`\n  - `infra/**`\n");
    expect(findings(more, nested).filter((f) => f.blocking)).toEqual([]);
  });

  it("other wording warns", () => {
    expect(findings(BASE.replace("Trim surrounding spaces from names.", "Trim names."))).toEqual([
      { code: "spec-wording-changed", blocking: false },
    ]);
  });

  it("a task unchecked warns; checking one off is no finding", () => {
    const tasks =
      "# Tasks: x\n\n## Phase 1: Setup\n\n- [X] T001 Create src/a.ts\n- [ ] T002 Create src/b.ts\n";
    const path = "specs/001-trim/tasks.md";
    expect(findings(tasks.replace("[X] T001", "[ ] T001"), tasks, path)).toEqual([
      { code: "task-unchecked", blocking: false },
    ]);
    expect(findings(tasks.replace("[ ] T002", "[x] T002"), tasks, path)).toEqual([]);
  });

  describe("a task checked off in the PR, whose paths the PR does not touch", () => {
    const path = "specs/001-trim/tasks.md";
    const tasks = (t2: string) =>
      `# Tasks: x\n\n## Phase 1: Setup\n\n- [X] T001 Create src/a.ts\n- [ ] T002 ${t2}\n`;
    const done = (t: string) => t.replace("[ ] T002", "[x] T002");
    const untouched = [{ code: "task-done-untouched", blocking: false }];

    it("warns when the PR changes only the task list", () => {
      const t = tasks("Create src/b.ts");
      expect(findings(done(t), t, path, new Set([path]))).toEqual(untouched);
    });

    it.each([
      ["the file it names", "Create src/b.ts", "src/b.ts"],
      ["a file under the directory it names", "Add helpers in src/lib/", "src/lib/trim.ts"],
      [
        "a path named from the spec's directory",
        "Write contracts/api.md",
        "specs/001-trim/contracts/api.md",
      ],
    ])("twin: no warning when the PR changes %s", (_, text, file) => {
      const t = tasks(text);
      expect(findings(done(t), t, path, new Set([path, file]))).toEqual([]);
    });

    it("no warning for a task done at the base, one naming no path, or when the changed files are unknown", () => {
      const t = tasks("Create src/b.ts");
      expect(findings(done(t), done(t), path, new Set([path]))).toEqual([]);
      const prose = tasks("Review the naming with the team");
      expect(findings(done(prose), prose, path, new Set([path]))).toEqual([]);
      expect(findings(done(t), t, path)).toEqual([]);
    });
  });
});
