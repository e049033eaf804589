/**
 * A test per look-alike rule of discovery's audit, generated from the rules:
 * a contract moved out of the globs (a quality review to `docs/review/`, a
 * plan contract to `contracts/`) must not turn into "no contracts found",
 * green with nothing checked. Each rule's example, alone in a repository,
 * makes `validate` fail with exit 2 naming the file, what it looks like and
 * the glob that would include it; its honest twin (the same place, without
 * the telltale name or bytes) is the plain, green "no contracts found" — what
 * the example would give without the rule.
 */
import { describe, expect, it } from "vitest";
import { LOOKALIKE_RULES } from "../src/scope/discover-audit.js";
import { oracleContract } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

interface Example {
  path: string;
  text: string;
  /** The glob the message suggests. */
  glob: string;
  /** The twin: same directory, no telltale. */
  twin: { path: string; text: string };
}

const ORACLE = oracleContract("1. ok\n   CHECK: echo OK\n   EXPECT: OK\n   EVIDENCE: pending\n");

const EXAMPLES: Record<string, Example[]> = {
  "plan-contract-name": [
    {
      path: "contracts/phase-1-contract.json",
      text: "{}\n",
      glob: "contracts/phase-*-contract.json",
      twin: { path: "contracts/phase-1-notes.json", text: "{}\n" },
    },
  ],
  "quality-review-name": [
    {
      path: "docs/review/qr-plan-design.json",
      text: "{}\n",
      glob: "docs/review/qr-*.json",
      twin: { path: "docs/review/plan-design.json", text: "{}\n" },
    },
    {
      path: "docs/review/phase-2-qr-code.json",
      text: "{}\n",
      glob: "docs/review/qr-*.json",
      twin: { path: "docs/review/phase-2-code.json", text: "{}\n" },
    },
  ],
  "kiro-place": [
    {
      path: "apps/web/.kiro/specs/export/requirements.md",
      text: "# Requirements Document\n\n### Requirement 1\n\n#### Acceptance Criteria\n\n1. WHEN a user exports THEN the system SHALL write a CSV\n",
      glob: "apps/web/.kiro/specs/*/requirements.md",
      twin: {
        path: "apps/web/.kiro/notes/export/requirements.md",
        text: "# Requirements Document\n",
      },
    },
  ],
  "oracle-title": [
    {
      path: "docs/tasks/login.md",
      text: `\uFEFF\n${ORACLE}`,
      glob: "docs/tasks/*.md",
      twin: { path: "docs/tasks/login.md", text: "# Notes\n\n# CONTRACT below the top\n" },
    },
  ],
  "plan-contract-key": [
    {
      path: "docs/phase.json",
      text: '{ "version": 1, "source_plan_hash": "sha256:00" }\n',
      glob: "docs/phase.json",
      twin: { path: "docs/phase.json", text: '{ "version": 1, "plan_hash": "sha256:00" }\n' },
    },
  ],
  "planner-plan-keys": [
    {
      path: "docs/plan.json",
      text: '{ "milestones": [], "waves": [] }\n',
      glob: "docs/plan.json",
      twin: { path: "docs/plan.json", text: '{ "milestones": [] }\n' },
    },
    {
      path: "docs/plan.json",
      text: '{ "planning_context": {}, "milestones": [] }\n',
      glob: "docs/plan.json",
      twin: { path: "docs/plan.json", text: '{ "planning_context": {} }\n' },
    },
  ],
};

async function validate(files: Record<string, string>) {
  const root = tempDir();
  writeTree(root, { "README.md": "# app\n", ...files });
  return runCli(["validate", "--root", root], root);
}

describe("look-alike rules: a contract out of the globs is never a silent green", () => {
  it("every rule has examples, and no example names a rule that is gone", () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(LOOKALIKE_RULES.map((r) => r.id).sort());
  });

  for (const rule of LOOKALIKE_RULES) {
    it(`${rule.id}: alone out of the globs it fails validate naming it; its twin is "no contracts found"`, async () => {
      const examples = EXAMPLES[rule.id] ?? [];
      expect(examples.length, `${rule.id} has no example`).toBeGreaterThan(0);
      for (const e of examples) {
        const twin = await validate({ [e.twin.path]: e.twin.text });
        expect([twin.code, twin.stdout, twin.stderr], e.twin.path).toEqual([
          0,
          "no contracts found\n",
          "",
        ]);
        const r = await validate({ [e.path]: e.text });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain("no contract matched the globs");
        expect(r.stderr).toContain(`${e.path} (${rule.looks})`);
        expect(r.stderr).toContain(`--contracts '${e.glob}'`);
      }
    });
  }
});
