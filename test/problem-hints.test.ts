import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { PROBLEM_CODES, type ProblemCode } from "../src/model/problem-codes.js";
import { problem } from "../src/model/problems.js";
import { oracleContract } from "./fixtures/run/contracts.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const at = { path: "c.md", line: 1, column: 1 };

/** The codes of `codes` whose record gives no real fix (the type makes `hint` required; this checks it says something). */
function withoutHint(codes: readonly string[], records: Record<string, { hint: string }>) {
  return codes.filter((c) => !((records[c]?.hint.trim().length ?? 0) > 10));
}

describe("every problem code has a hint", () => {
  const codes = Object.keys(PROBLEM_CODES) as ProblemCode[];

  it("every code's record gives a fix, and every problem carries one", () => {
    expect(withoutHint(codes, PROBLEM_CODES)).toEqual([]);
    for (const code of codes) expect(problem(code, at, "m").hint, code).toBeTruthy();
    // Control: a record with an empty hint is caught.
    const blank = {
      ...PROBLEM_CODES,
      "json-syntax": { ...PROBLEM_CODES["json-syntax"], hint: " " },
    };
    expect(withoutHint(codes, blank)).toEqual(["json-syntax"]);
    // The finder's own hint wins over the table's.
    expect(problem("json-syntax", at, "m", { hint: "own" }).hint).toBe("own");
  });
});

describe("messages say the real cause", () => {
  const crit = (line: string) =>
    parseContract(
      "oracle-contract",
      "c.md",
      bytes(oracleContract(`1. greets\n${line}\n   EXPECT: café\n   EVIDENCE: pending\n`)),
    ).problems.filter((p) => p.code === "keyword-near-miss");

  it("a lowercase check: with é in its command is about case, not the é", () => {
    const [p] = crit("   check: echo café");
    expect(p!.message).toContain('is written "check:"');
    expect(p!.message).not.toContain("non-ASCII");
    // Control: a look-alike letter in the keyword itself is still named.
    const [q] = crit("   \u0421HECK: echo café");
    expect(q!.message).toContain('non-ASCII character "\u0421"');
  });

  it("an empty file says so, for markdown and JSON alike", () => {
    for (const text of ["", "  \n\n"]) {
      const md = parseContract("oracle-contract", "c.md", bytes(text)).problems;
      expect(md.map((p) => p.message)).toEqual(["the file is empty"]);
      const json = parseContract("plan-contract", ".planning/phase-1-contract.json", bytes(text));
      expect(json.problems.map((p) => [p.code, p.message])).toEqual([
        ["json-syntax", "the file is empty"],
      ]);
    }
    // Control: a file with text but no criteria keeps its own message.
    const md = parseContract("oracle-contract", "c.md", bytes("# CONTRACT: notes\n")).problems;
    expect(md[0]!.message).toBe("there is no ## ACCEPTANCE CRITERIA section");
    const json = parseContract("plan-contract", ".planning/phase-1-contract.json", bytes("{"));
    expect(json.problems[0]!.message).not.toContain("empty");
  });

  it("missing-key, wrong-type and json-syntax say how to fix them", () => {
    const c = parseContract(
      "plan-contract",
      ".planning/phase-1-contract.json",
      bytes('{"version": 1, "phase": "1", "tasks": []}'),
    );
    const hint = (code: string) => c.problems.find((p) => p.code === code)?.hint;
    expect(hint("missing-key")).toMatch(/^add "\w+" to the top-level object/);
    expect(hint("wrong-type")).toBe("write the number without quotes");
    const bad = parseContract("plan-contract", ".planning/phase-1-contract.json", bytes('{"a" 1}'));
    expect(bad.problems[0]!.hint).toBeTruthy();
  });
});
