import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import {
  CONTRACT_SCHEMA_FILE,
  EVIDENCE_SCHEMA_FILE,
  phaseContractJsonSchema,
  phaseEvidenceJsonSchema,
  SCHEMA_URL_BASE,
} from "../scripts/contract-schemas.js";
import { parseEvidenceFile } from "../src/formats/evidence/index.js";
import { parseContract } from "../src/formats/index.js";
import { decodeContract, isProblem } from "../src/formats/text.js";
import { checkDrift } from "../src/load/drift.js";
import type { PlanHeader } from "../src/model/contract.js";

// Strict: a keyword ajv does not know (a typo in the generator) fails compilation.
const ajv = new Ajv2020({ allErrors: true, strict: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validContract = ajv.compile(phaseContractJsonSchema());
const validEvidence = ajv.compile(phaseEvidenceJsonSchema());

/** Every regular file under `dir` (symlinks are fixtures of their own, not contracts). */
function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

type Which = "contract" | "evidence";

interface Fixture {
  path: string;
  which: Which;
  /** Error codes the gate's parser reports (empty: the gate accepts it). */
  errors: string[];
  /** The parsed JSON, or why a JSON Schema never sees it. */
  json: { value: unknown } | { notJson: string };
}

const FIXTURES: Fixture[] = [...walk("test/fixtures"), ...walk("examples")].flatMap((path) => {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const which: Which | undefined = /^phase-.+-contract\.json$/.test(name)
    ? "contract"
    : /^phase-.+-evidence\.json$/.test(name) || path.startsWith("test/fixtures/evidence/")
      ? "evidence"
      : undefined;
  if (which === undefined) return [];
  const bytes = readFileSync(path);
  const parsed =
    which === "contract"
      ? parseContract("plan-contract", path, bytes)
      : parseEvidenceFile(path, bytes);
  const errors = [
    ...new Set(parsed.problems.filter((p) => p.severity === "error").map((p) => p.code)),
  ];
  return [{ path, which, errors, json: jsonOf(path, bytes) }];
});

/** The JSON an editor would validate: decoded as the gate decodes (BOM, CRLF), then parsed. */
function jsonOf(path: string, bytes: Uint8Array): Fixture["json"] {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return { notJson: decoded.code };
  try {
    return { value: JSON.parse(decoded.text) };
  } catch {
    return { notJson: "json-syntax" };
  }
}

function accepts(which: Which, value: unknown): boolean {
  return which === "contract" ? validContract(value) : validEvidence(value);
}

/**
 * Invalid fixtures whose defect the JSON Schema states, so an editor flags it:
 * types, required and unknown keys, allowed values, ranges, the version, and
 * the rules with codes of their own that need only the value itself.
 */
const REJECTED: Record<string, string> = {
  "test/fixtures/foreign-file/.planning/phase-1-contract.json":
    "another tool's file: none of the required keys",
  "examples/demo/.planning/phase-4-contract.json": "a misspelt key (among cross-field defects)",
  "test/fixtures/evidence/unknown-key.json": "unknown and missing keys",
  "test/fixtures/evidence/wrong-values.json": "wrong types and values",
  "test/fixtures/files/evidence-typo/.planning/phase-3-evidence.json": "a misspelt key",
  "test/fixtures/plan-contract/generator-leftovers-typo/phase-2-contract.json":
    "a foreign check key at a value that is not its default",
  "test/fixtures/plan-contract/invalid-value/phase-2-contract.json": "values outside enums",
  "test/fixtures/plan-contract/missing-key/phase-2-contract.json": "a required key",
  "test/fixtures/plan-contract/no-criteria-no-checks/phase-2-contract.json":
    "verification minItems",
  "test/fixtures/plan-contract/no-criteria-no-tasks/phase-2-contract.json": "tasks minItems",
  "test/fixtures/plan-contract/rule-02-invalid-id/phase-2-contract.json": "the task id pattern",
  "test/fixtures/plan-contract/rule-06-no-verification/phase-2-contract.json":
    "verification minItems",
  "test/fixtures/plan-contract/rule-08-unsafe-command/phase-2-contract.json": "the command pattern",
  "test/fixtures/plan-contract/rule-09-no-success-criteria/phase-2-contract.json":
    "success_criteria minItems",
  "test/fixtures/plan-contract/rule-10-action-too-long/phase-2-contract.json": "action maxLength",
  "test/fixtures/plan-contract/timeout-out-of-range/phase-2-contract.json":
    "timeout_ms range and type",
  "test/fixtures/plan-contract/unknown-key-typo/phase-2-contract.json": "a misspelt key",
  "test/fixtures/plan-contract/unsupported-version/phase-2-contract.json": "version const",
  "test/fixtures/plan-contract/wrong-type/phase-2-contract.json": "wrong types",
};

/** Invalid fixtures a JSON Schema cannot reject, and why; `validate` reports them. */
const BEYOND_SCHEMA: Record<string, string> = {
  "test/fixtures/evidence/unsafe-path.json": "path safety is its own rule, not a pattern",
  "test/fixtures/plan-contract/advisory-path-in-check/phase-2-contract.json":
    "path safety is its own rule",
  "test/fixtures/plan-contract/unsafe-path-checks/phase-2-contract.json":
    "path safety is its own rule",
  "test/fixtures/plan-contract/unsafe-path-lists/phase-2-contract.json":
    "path safety is its own rule",
  "test/fixtures/plan-contract/invalid-regex/phase-2-contract.json":
    "whether a regex compiles is no JSON Schema keyword",
  "test/fixtures/plan-contract/rule-11-invalid-evidence/phase-2-contract.json":
    "path safety and regex compilation",
  "test/fixtures/plan-contract/json-duplicate-key/phase-1-contract.json":
    "JSON.parse keeps the last value: a schema sees one key",
  "test/fixtures/plan-contract/phase-mismatch/phase-3-contract.json":
    "the file name is not part of the document",
  "test/fixtures/plan-contract/rule-01-duplicate-id/phase-2-contract.json":
    "unique ids across tasks (cross-field)",
  "test/fixtures/plan-contract/rule-03-unknown-dependency/phase-2-contract.json":
    "depends_on against task ids (cross-field)",
  "test/fixtures/plan-contract/rule-04-cycle/phase-2-contract.json": "a cycle (cross-field)",
  "test/fixtures/plan-contract/rule-05-wave-order/phase-2-contract.json":
    "waves against dependencies (cross-field)",
  "test/fixtures/plan-contract/rule-07-file-overlap/phase-2-contract.json":
    "three lists compared (cross-field)",
  // Not JSON at all: an editor's parser reports these, no schema is applied.
  "test/fixtures/evidence/syntax.json": "not JSON",
  "test/fixtures/plan-contract/json-comment/phase-1-contract.json": "not JSON",
  "test/fixtures/plan-contract/json-syntax/phase-1-contract.json": "not JSON",
  "test/fixtures/plan-contract/json-trailing-comma/phase-1-contract.json": "not JSON",
  "test/fixtures/plan-contract/invalid-utf8/phase-2-contract.json": "not UTF-8",
  "test/fixtures/plan-contract/nul-byte/phase-2-contract.json": "a NUL byte",
};

describe("schema/phase-contract.schema.json and schema/phase-evidence.schema.json", () => {
  it("are the JSON Schemas generated from the zod schemas (run `npm run docs`)", () => {
    const committed = (file: string) => JSON.parse(readFileSync(`schema/${file}`, "utf8"));
    expect(committed(CONTRACT_SCHEMA_FILE), "run npm run docs").toEqual(phaseContractJsonSchema());
    expect(committed(EVIDENCE_SCHEMA_FILE), "run npm run docs").toEqual(phaseEvidenceJsonSchema());
    expect(phaseContractJsonSchema().$id).toBe(`${SCHEMA_URL_BASE}${CONTRACT_SCHEMA_FILE}`);
    expect(phaseContractJsonSchema().$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("finds the fixtures it is tested against", () => {
    const valid = FIXTURES.filter((f) => f.errors.length === 0);
    expect(valid.filter((f) => f.which === "contract").length).toBeGreaterThanOrEqual(20);
    expect(valid.filter((f) => f.which === "evidence").length).toBeGreaterThanOrEqual(8);
  });

  it("accept every fixture the gate accepts", () => {
    for (const f of FIXTURES.filter((x) => x.errors.length === 0)) {
      expect("value" in f.json, f.path).toBe(true);
      if ("value" in f.json) {
        const ok = accepts(f.which, f.json.value);
        const errors = f.which === "contract" ? validContract.errors : validEvidence.errors;
        expect(ok, `${f.path}: ${JSON.stringify(errors)}`).toBe(true);
      }
    }
  });

  it("reject each invalid fixture whose defect a JSON Schema can state, and accept the rest", () => {
    const invalid = FIXTURES.filter((f) => f.errors.length > 0);
    // Every invalid fixture is classified: a new one must say which it is.
    expect(invalid.map((f) => f.path).sort()).toEqual(
      [...Object.keys(REJECTED), ...Object.keys(BEYOND_SCHEMA)].sort(),
    );
    for (const f of invalid) {
      if (f.path in REJECTED) {
        expect("value" in f.json && !accepts(f.which, f.json.value), f.path).toBe(true);
      } else if ("value" in f.json) {
        // Listed as beyond a schema: it must really pass it, else it belongs in REJECTED.
        expect(accepts(f.which, f.json.value), f.path).toBe(true);
      } else {
        expect(f.errors, f.path).toContain(f.json.notJson);
      }
    }
  });
});

/** The parts of a contract the controls below edit, loosely typed so they can break it. */
interface Editable {
  goal: string;
  generated_at: string;
  generated_by: string;
  source_plan_hash: string;
  success_criteria: string[];
  tasks: { id: string; action: string; verification: object[] }[];
}

describe("positive controls: one defect at a time in a valid contract", () => {
  const base: Editable = JSON.parse(
    readFileSync("test/fixtures/plan-contract/valid/phase-2-contract.json", "utf8"),
  );
  const mutate = (edit: (c: Editable) => void) => {
    const copy = structuredClone(base);
    edit(copy);
    return copy;
  };
  /** The parser's errors, and the hash's form as the drift check judges it before it reads a plan. */
  const gateErrors = (value: unknown) => {
    const contract = parseContract(
      "plan-contract",
      ".planning/phase-2-contract.json",
      new TextEncoder().encode(JSON.stringify(value)),
    );
    const hash = checkDrift(contract.header as PlanHeader, undefined).problems.filter(
      (p) => p.code === "invalid-plan-hash",
    );
    return [...contract.problems, ...hash].filter((p) => p.severity === "error").map((p) => p.code);
  };

  it("the unchanged contract passes both the gate and the schema", () => {
    expect(gateErrors(base)).toEqual([]);
    expect(validContract(base)).toBe(true);
  });

  const cases: [string, (c: Editable) => void, string][] = [
    ["a blank goal", (c) => (c.goal = "  \n"), "invalid-value"],
    ["a task id not like T1", (c) => (c.tasks[0]!.id = "task-1"), "invalid-task-id"],
    [
      "an action of 501 characters",
      (c) => (c.tasks[0]!.action = "a".repeat(501)),
      "action-too-long",
    ],
    [
      "a command with a space",
      (c) => {
        c.tasks[0]!.verification.push({
          type: "command-exit",
          command: "npm test",
          args: [],
          expected_exit: 0,
        });
      },
      "unsafe-command",
    ],
    [
      "a hash that is not sha256:<hex>",
      (c) => (c.source_plan_hash = "md5:abc"),
      "invalid-plan-hash",
    ],
    ["an unknown generated_by", (c) => (c.generated_by = "robot"), "invalid-value"],
    ["a date without a zone", (c) => (c.generated_at = "2026-11-29T12:00:00"), "invalid-value"],
    [
      "an exit code over 255",
      (c) => {
        c.tasks[0]!.verification.push({
          type: "command-exit",
          command: "node",
          args: [],
          expected_exit: 256,
        });
      },
      "invalid-value",
    ],
    [
      "a foreign check key at a real value",
      (c) => {
        c.tasks[0]!.verification.push({ type: "file-exists", path: "a", expect: "absent" });
      },
      "unknown-key",
    ],
    ["empty success_criteria", (c) => (c.success_criteria = []), "no-success-criteria"],
  ];
  for (const [name, edit, code] of cases) {
    it(`${name}: the gate says ${code}, the schema rejects it`, () => {
      const value = mutate(edit);
      expect(gateErrors(value)).toContain(code);
      expect(validContract(value)).toBe(false);
    });
  }

  it("a foreign check key at its default value: the gate warns (ignored-key), the schema accepts", () => {
    const value = mutate((c) => {
      c.tasks[0]!.verification.push({
        type: "file-exists",
        path: "a",
        expect: "present",
        args: [],
      });
    });
    expect(gateErrors(value)).toEqual([]);
    expect(validContract(value)).toBe(true);
  });
});

describe('a "$schema" key', () => {
  const url = (file: string) => `${SCHEMA_URL_BASE}${file}`;

  it("is accepted without any problem by the gate and by the schema (contract)", () => {
    const text = readFileSync("test/fixtures/plan-contract/valid/phase-2-contract.json", "utf8");
    const before = parseContract(
      "plan-contract",
      ".planning/phase-2-contract.json",
      Buffer.from(text),
    );
    const withSchema = text.replace(
      "{",
      `{\n  "$schema": ${JSON.stringify(url(CONTRACT_SCHEMA_FILE))},`,
    );
    const parsed = parseContract(
      "plan-contract",
      ".planning/phase-2-contract.json",
      Buffer.from(withSchema),
    );
    expect(before.problems).toEqual([]);
    expect(parsed.problems).toEqual([]);
    expect(parsed.criteria.map((c) => c.id)).toEqual(before.criteria.map((c) => c.id));
    expect(parsed.criteria.length).toBeGreaterThan(0);
    expect(validContract(JSON.parse(withSchema))).toBe(true);
    // Only a string: it is a URL or a path.
    expect(validContract({ ...JSON.parse(text), $schema: 1 })).toBe(false);
  });

  it("is accepted without any problem by the gate and by the schema (evidence)", () => {
    const text = readFileSync("test/fixtures/evidence/valid.json", "utf8");
    const withSchema = text.replace("{", `{\n  "$schema": "./schema/${EVIDENCE_SCHEMA_FILE}",`);
    const parsed = parseEvidenceFile("phase-2-evidence.json", Buffer.from(withSchema));
    expect(parsed.problems).toEqual([]);
    expect(parsed.citations.length).toBeGreaterThan(0);
    expect(validEvidence(JSON.parse(withSchema))).toBe(true);
  });

  it("is not offered as a did-you-mean for a misspelt key", () => {
    const text = readFileSync("test/fixtures/evidence/valid.json", "utf8");
    const typo = text.replace("{", '{\n  "$schmea": "x",');
    const parsed = parseEvidenceFile("phase-2-evidence.json", Buffer.from(typo));
    expect(parsed.problems.map((p) => p.code)).toEqual(["unknown-key"]);
    expect(parsed.problems[0]?.hint).not.toContain("$schema");
  });
});
