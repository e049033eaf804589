import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { citationsFor, parseEvidenceFile } from "../src/formats/evidence/index.js";
import { phaseFiles } from "../src/formats/kinds/phase-files.js";

const PATH = ".planning/phase-2-evidence.json";
const fixture = (name: string) =>
  parseEvidenceFile(PATH, readFileSync(new URL(`./fixtures/evidence/${name}`, import.meta.url)));
const parse = (text: string, path = PATH) =>
  parseEvidenceFile(path, new TextEncoder().encode(text));
/** The problems as `line:column code message` lines, the way a reader scans them. */
const summary = (problems: { line: number; column: number; code: string; message: string }[]) =>
  problems.map((p) => `${p.line}:${p.column} ${p.code} ${p.message}`);

describe("evidence file", () => {
  it("parses a valid file into citations with normalised paths and locations", () => {
    const { citations, problems } = fixture("valid.json");
    expect(problems).toEqual([]);
    expect(citations).toHaveLength(3);
    expect(citations[0]).toEqual({
      task: "T2",
      check: 0,
      evidence: 0,
      path: "src/auth.ts",
      line: 12,
      snippet: "await signInWithPassword(email, password)",
      location: { path: PATH, line: 5, column: 5 },
    });
    expect(citationsFor(citations, "T2", 0).map((c) => c.evidence)).toEqual([0, 1]);
    expect(citationsFor(citations, "T3", 0)).toEqual([]);
  });

  it("reports invalid JSON once, at the error, with the trailing-comma hint", () => {
    const { citations, problems } = fixture("syntax.json");
    expect(citations).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: "json-syntax",
      line: 5,
      column: 95,
      hint: "remove the trailing comma before the closing bracket",
    });
  });

  it("reports unknown keys with a did-you-mean hint, and the key they displaced", () => {
    const { citations, problems } = fixture("unknown-key.json");
    expect(citations).toEqual([]);
    expect(summary(problems)).toEqual([
      '5:5 missing-key citations[0]: missing required key "line"',
      '10:7 unknown-key citations[0]: unknown key "lnie"',
      '14:3 unknown-key unknown key "notes"',
    ]);
    expect(problems.find((p) => p.message.includes("lnie"))?.hint).toBe('did you mean "line"?');
    expect(problems.find((p) => p.message.includes("notes"))?.hint).toBe(
      "allowed keys: version, phase, citations",
    );
  });

  it("refuses citation paths that are not repo-relative", () => {
    const { citations, problems } = fixture("unsafe-path.json");
    expect(citations).toEqual([]);
    expect(summary(problems)).toEqual([
      `5:56 unsafe-path citations[0].path "../secrets/.env" contains a '..' segment`,
      '6:56 unsafe-path citations[1].path "/etc/passwd" is absolute',
    ]);
  });

  it("reports wrong types and values where they are, and duplicate citations", () => {
    const { citations, problems } = fixture("wrong-values.json");
    expect(citations).toEqual([]);
    expect(summary(problems)).toEqual([
      "5:30 invalid-value citations[0].check must be at least 0, got -1",
      '5:46 wrong-type citations[0].evidence must be a number, got string "0"',
      "5:79 invalid-value citations[0].line must be a positive integer, got 0",
      "5:93 invalid-value citations[0].snippet must not be empty",
      '6:5 missing-key citations[1]: missing required key "line"',
      "6:45 invalid-value citations[1].evidence must be an integer, got 1.5",
      "8:5 invalid-value citations[3] cites T2 check 0 evidence 2 again (first on line 7)",
    ]);
  });

  it("reports duplicate keys, an unsupported version and a phase that disagrees with the name", () => {
    expect(summary(parse('{"version":1,"phase":2,"phase":2,"citations":[]}').problems)).toEqual([
      '1:24 json-duplicate-key duplicate key "phase"; it is already defined on line 1',
    ]);
    expect(summary(parse('{"version":2,"phase":"x","citations":{}}').problems)).toEqual([
      "1:12 unsupported-version version 2 is not supported; contract-gate reads evidence files of version 1",
    ]);
    expect(summary(parse('{"version":1,"phase":3,"citations":[]}').problems)).toEqual([
      "1:22 phase-mismatch phase is 3 but the file is named phase-2-evidence.json",
    ]);
    expect(parse('{"version":1,"phase":3,"citations":[]}', "elsewhere.json").problems).toEqual([]);
    expect(summary(parse("[]").problems)).toEqual([
      "1:1 wrong-type the evidence file must be an object, got array",
    ]);
  });

  it("applies contract input hygiene to the bytes", () => {
    const { problems } = parseEvidenceFile(PATH, new Uint8Array([0x7b, 0x00, 0x7d]));
    expect(problems.map((p) => p.code)).toEqual(["nul-byte"]);
  });

  it("names the evidence file beside a plan contract", () => {
    expect(phaseFiles(".planning/phase-12-contract.json")?.evidence).toBe(
      ".planning/phase-12-evidence.json",
    );
    expect(phaseFiles("phase-1-contract.json")?.evidence).toBe("phase-1-evidence.json");
    expect(phaseFiles(".planning/contract.md")).toBeUndefined();
  });
});
