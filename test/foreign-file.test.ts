import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { loadContract } from "../src/load/index.js";
import { isInvalid } from "../src/model/contract.js";
import { discoverContracts } from "../src/scope/discover.js";

const ROOT = join(import.meta.dirname, "fixtures", "foreign-file");
const encode = (text: string) => new TextEncoder().encode(text);
const read = (rel: string) => readFileSync(join(ROOT, rel), "utf8");

describe("foreign-file: a file at a kind's path with none of its identifying keys or headings", () => {
  it("is one error at line 1 per file, under default discovery", async () => {
    const paths = await discoverContracts({ root: ROOT });
    expect(paths.sort()).toEqual([
      ".claude/tasks/contracts/README.md",
      ".planning/phase-1-contract.json",
      "plans/context.json",
    ]);
    for (const path of paths) {
      const c = await loadContract(ROOT, path);
      expect(
        c.problems.map((p) => `${p.code}@${p.line}:${p.column}`),
        path,
      ).toEqual(["foreign-file@1:1"]);
      expect(isInvalid(c), path).toBe(true);
      expect(c.criteria).toEqual([]);
    }
  });

  it("names the kind the path expected, what the file looks like, and the fix", () => {
    const json = parseContract(
      "plan-contract",
      ".planning/phase-1-contract.json",
      encode(read(".planning/phase-1-contract.json")),
    ).problems[0]!;
    expect(json.message).toContain("a phase contract");
    expect(json.message).toContain(
      "its top-level keys are phase, name, objective, must_haves, verification, status",
    );
    expect(json.hint).toMatch(/move or rename the file.*globs/);

    const md = parseContract(
      "oracle-contract",
      ".claude/tasks/contracts/README.md",
      encode(read(".claude/tasks/contracts/README.md")),
    ).problems[0]!;
    expect(md.message).toContain("a markdown contract");
    expect(md.message).toContain('its first heading is "# How we write contracts"');

    const ctx = parseContract("planner-context", "plans/context.json", encode("[1, 2]"));
    expect(ctx.problems.map((p) => p.code)).toEqual(["wrong-type"]);
    const empty = parseContract("planner-qr", "plans/qr-plan-code.json", encode("{}"));
    expect(empty.problems[0]?.message).toContain("its top level is an empty object");
  });

  it("control: the same file with one identifying key is read as the kind, every gap listed", () => {
    const text = read(".planning/phase-1-contract.json").replace(
      '"phase": 1,',
      '"phase": 1, "tasks": [],',
    );
    const c = parseContract("plan-contract", ".planning/phase-1-contract.json", encode(text));
    const codes = c.problems.map((p) => p.code);
    expect(codes).not.toContain("foreign-file");
    expect(c.problems.length).toBeGreaterThan(3);
  });

  it("control: a markdown file with a contract heading is read as a contract", () => {
    const text = `${read(".claude/tasks/contracts/README.md")}\n## ACCEPTANCE CRITERIA\n\n1. works\n`;
    const c = parseContract("oracle-contract", ".claude/tasks/contracts/a.md", encode(text));
    expect(c.problems.map((p) => p.code)).not.toContain("foreign-file");
    expect(c.criteria.map((k) => k.id)).toEqual(["1"]);
  });

  it("a look-alike contract heading still counts as one (the near-miss is reported instead)", () => {
    const text = "# Notes\n\n## \u0410CCEPTANCE CRITERIA\n\n1. works\n";
    const codes = parseContract("oracle-contract", "c.md", encode(text)).problems.map(
      (p) => p.code,
    );
    expect(codes).not.toContain("foreign-file");
    expect(codes).toContain("keyword-near-miss");
  });

  it("a blank markdown file is a contract not yet written, not a foreign one", () => {
    const codes = parseContract("oracle-contract", "c.md", encode("\n  \n")).problems.map(
      (p) => p.code,
    );
    expect(codes).toEqual(["no-criteria"]);
  });
});
