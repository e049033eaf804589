import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CONTRACT_SCHEMA_FILE,
  type JsonSchemaNode,
  phaseContractJsonSchema,
  phaseEvidenceJsonSchema,
  SCHEMA_URL_BASE,
} from "../scripts/contract-schemas.js";
import {
  codeAppliesTo,
  codesFor,
  contractsReference,
  EVIDENCE_CODES,
  REFERENCE_KINDS,
} from "../scripts/contracts-reference.js";
import { parseEvidenceFile } from "../src/formats/evidence/index.js";
import { CitationSchema, EvidenceFileSchema } from "../src/formats/evidence/schema.js";
import { DEFAULT_CONTRACT_GLOBS } from "../src/formats/kinds/index.js";
import { DISTINCT_KEYS } from "../src/formats/kinds/json.js";
import {
  BehavioralSchema,
  CommandExitSchema,
  EvidenceSchema,
  FileExistsSchema,
  GrepMatchSchema,
  PlanContractSchema,
  TaskSchema,
} from "../src/formats/plan-contract/schema.js";
import * as plannerKeys from "../src/formats/planner/keys.js";
import { PLAN_KEYS as WORKPHASE_PLAN_KEYS } from "../src/formats/workphase/plan.js";
import { CODE_KEYS, FINDING_KEYS, RESEARCH_KEYS } from "../src/formats/workphase/research.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";
import { problemCodesTable } from "../src/report/problem-codes-table.js";

const committed = readFileSync("docs/contracts.md", "utf8");
const generated = contractsReference();

/** The text of the `## ` section whose heading is `heading`, up to the next `## `. */
function section(heading: string): string {
  const start = generated.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = generated.indexOf("\n## ", start + 1);
  return generated.slice(start, end < 0 ? undefined : end);
}

/** A table row naming `field` in its first cell. */
const row = (field: string) => `\n| \`${field}\` |`;

describe("docs/contracts.md", () => {
  it("is what scripts/contracts-reference.ts generates", () => {
    expect(committed === generated, "docs/contracts.md is stale: run npm run docs").toBe(true);
  });

  it("has a section for every contract kind, and lists every default glob", () => {
    const kinds = [
      "oracle-contract",
      "gates-ledger",
      ...Object.keys(DISTINCT_KEYS),
      "spec",
      "speckit-spec",
      "speckit-tasks",
      "kiro-spec",
      "openspec-change",
      "openspec-spec",
    ];
    expect([...REFERENCE_KINDS].sort()).toEqual(kinds.sort());
    for (const kind of kinds) expect(generated).toContain(`\n## \`${kind}\`\n`);
    for (const glob of DEFAULT_CONTRACT_GLOBS)
      expect(section("Kinds and file names")).toContain(`\`${glob}\``);
  });

  it("documents every field of every zod schema, with a meaning", () => {
    const plan = section("`plan-contract`");
    const shapes = [
      PlanContractSchema,
      TaskSchema,
      FileExistsSchema,
      GrepMatchSchema,
      CommandExitSchema,
      BehavioralSchema,
      EvidenceSchema,
      EvidenceFileSchema,
      CitationSchema,
    ];
    for (const schema of shapes) {
      for (const field of Object.keys(schema.shape)) expect(plan).toContain(row(field));
    }
    // Every property of the exported JSON Schemas carries the description the tables show.
    const undocumented: string[] = [];
    const visit = (node: JsonSchemaNode, at: string) => {
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        if (!child.description) undocumented.push(`${at}.${key}`);
        visit(child, `${at}.${key}`);
      }
      if (node.items) visit(node.items, `${at}[]`);
      for (const [i, variant] of (node.oneOf ?? []).entries()) visit(variant, `${at}|${i}`);
    };
    visit(phaseContractJsonSchema(), "contract");
    visit(phaseEvidenceJsonSchema(), "evidence");
    expect(undocumented).toEqual([]);
  });

  it("documents every key the planner and workphase parsers read", () => {
    const planner = [
      section("`planner-plan`"),
      section("`planner-context`"),
      section("`planner-qr`"),
    ].join("\n");
    for (const [name, keys] of Object.entries(plannerKeys)) {
      if (!name.endsWith("_KEYS") && name !== "CONTEXT_FIELDS") continue;
      // Node and edge keys are listed in the diagram's rows; every other entity has a table.
      const inline = name === "NODE_KEYS" || name === "EDGE_KEYS";
      for (const key of keys as Iterable<string>) {
        expect(planner).toContain(inline ? `\`${key}\`` : row(key));
      }
    }
    const research = section("`workphase-research`");
    for (const key of [...RESEARCH_KEYS, ...FINDING_KEYS]) expect(research).toContain(row(key));
    for (const key of CODE_KEYS) expect(research).toContain(`\`${key}\``);
    for (const key of WORKPHASE_PLAN_KEYS) expect(section("`workphase-plan`")).toContain(row(key));
  });

  it("carries every problem code: the full table, and each code in some kind's list", () => {
    expect(section("Problem codes")).toContain(problemCodesTable());
    const listed = new Set(REFERENCE_KINDS.flatMap((k) => codesFor(k)));
    for (const code of Object.keys(PROBLEM_CODES)) {
      expect(generated).toContain(`\`${code}\``);
      expect(listed.has(code as keyof typeof PROBLEM_CODES), code).toBe(true);
    }
  });

  it("reads the kinds column of the problem-code table as written", () => {
    expect(codeAppliesTo("all", "oracle-contract")).toBe(true);
    expect(codeAppliesTo("all JSON", "oracle-contract")).toBe(false);
    expect(codeAppliesTo("all JSON", "planner-qr")).toBe(true);
    expect(codeAppliesTo("planner-*, workphase-research", "workphase-research")).toBe(true);
    expect(codeAppliesTo("planner-*, workphase-research", "workphase-plan")).toBe(false);
    expect(codeAppliesTo("workphase-*", "workphase-plan")).toBe(true);
    expect(codeAppliesTo("plan-contract", "planner-plan")).toBe(false);
    expect(codesFor("oracle-contract")).toContain("abandon-duplicate");
    expect(codesFor("oracle-contract")).not.toContain("json-syntax");
    expect(codesFor("workphase-plan")).toContain("unresolved-citation");
    expect(codesFor("planner-context")).toContain("json-syntax");
  });

  it("explains editor setup: the $schema key and the VS Code json.schemas setting", () => {
    const editor = section("Editor support: JSON Schemas");
    const url = `${SCHEMA_URL_BASE}${CONTRACT_SCHEMA_FILE}`;
    expect(editor).toContain(`"$schema": "${url}"`);
    expect(editor).toContain('"json.schemas"');
    expect(editor).toContain('".planning/phase-*-contract.json"');
    expect(editor).toContain(`"url": "${url}"`);
  });
});

describe("the evidence file's code list in the reference", () => {
  it("names every code the evidence parser reports on the evidence fixtures", () => {
    const dir = "test/fixtures/evidence";
    const seen = new Set<string>();
    for (const name of readdirSync(dir)) {
      const file = parseEvidenceFile(
        `.planning/phase-1-evidence.json`,
        readFileSync(`${dir}/${name}`),
      );
      for (const p of file.problems) seen.add(p.code);
    }
    // The fixtures do produce problems (else this would pass vacuously).
    expect(seen.size).toBeGreaterThan(3);
    expect([...seen].filter((c) => !EVIDENCE_CODES.includes(c as never))).toEqual([]);
  });
});
