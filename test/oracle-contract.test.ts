import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseOracleContract } from "../src/formats/oracle-contract/index.js";
import type { Check, Contract, Criterion } from "../src/model/contract.js";
import { isInvalid } from "../src/model/contract.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";
import { sortProblems } from "../src/model/problems.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "oracle-contract");
const CONTRACT_DIR = ".claude/tasks/contracts";

function fixture(rel: string): Contract {
  const name = rel.split("/").pop()!;
  return parseOracleContract(`${CONTRACT_DIR}/${name}`, readFileSync(join(FIXTURES, rel)));
}

function parseText(text: string, path = "c.md"): Contract {
  return parseOracleContract(path, new TextEncoder().encode(text));
}

/** `code@line:column`, in the order returned. */
function problemsOf(c: Contract): string[] {
  return c.problems.map((p) => `${p.code}@${p.line}:${p.column}`);
}

function oracle(k: Criterion | undefined): Extract<Check, { type: "oracle" }> {
  const check = k?.checks[0];
  if (check?.type !== "oracle") throw new Error(`criterion ${k?.id} has no oracle check`);
  return check;
}

/** A minimal contract around a criteria block. */
function contract(block: string): string {
  return `# CONTRACT — t\n\n## ACCEPTANCE CRITERIA\n${block}\n`;
}

describe("invalid fixtures: one per fail-closed rule, exact problems", () => {
  const expected: Record<string, string[]> = {
    "partial-oracle.md": [
      "partial-oracle@6:4",
      "partial-oracle@9:4",
      "partial-oracle@12:4",
      "keyword-near-miss@14:4",
    ],
    "unindented-attribute.md": ["unindented-attribute@5:1", "unindented-attribute@10:3"],
    "orphan-attribute.md": [
      "orphan-attribute@5:4",
      "orphan-attribute@6:4",
      "duplicate-criterion-id@11:1",
      "orphan-attribute@12:4",
      "orphan-attribute@13:4",
      "orphan-attribute@14:4",
      "orphan-attribute@17:4",
      "orphan-attribute@19:4",
    ],
    "duplicate-criterion-id.md": ["duplicate-criterion-id@6:1", "duplicate-criterion-id@8:1"],
    "duplicate-attribute.md": ["duplicate-attribute@7:4", "duplicate-attribute@9:4"],
    "empty-attribute.md": [
      "empty-attribute@5:4",
      "empty-attribute@10:4",
      "empty-attribute@13:4",
      "empty-attribute@18:4",
    ],
    "missing-evidence.md": ["missing-evidence@4:1"],
    "abandon-missing-id.md": ["abandon-missing-id@5:1", "abandon-missing-id@6:1"],
    "abandon-unknown-id.md": ["abandon-unknown-id@5:1", "abandon-unknown-id@6:1"],
    "abandon-blank-reason.md": ["abandon-blank-reason@5:1"],
    "abandon-duplicate.md": ["abandon-duplicate@7:1"],
    "no-criteria.md": ["no-criteria@1:1"],
    "no-criteria-empty-section.md": ["no-criteria@3:1", "invalid-criterion-id@9:1"],
    "unclosed-fence.md": ["unclosed-fence@8:1"],
    "invalid-regex.md": ["invalid-regex@6:4", "invalid-regex@10:4"],
    "unsafe-path.md": ["unsafe-path@8:4", "unsafe-path@13:4"],
  };

  it("every invalid fixture on disk has an expectation here", () => {
    expect(readdirSync(join(FIXTURES, "invalid")).sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [name, problems] of Object.entries(expected)) {
    it(name, () => {
      const c = fixture(`invalid/${name}`);
      expect(problemsOf(c)).toEqual(problems);
      expect(isInvalid(c)).toBe(true);
      for (const p of c.problems) {
        expect(p.severity).toBe("error");
        expect(p.path).toBe(`${CONTRACT_DIR}/${name}`);
        expect(p.message.length).toBeGreaterThan(10);
        expect(p.hint?.length ?? 0).toBeGreaterThan(10);
      }
    });
  }

  it("messages name the criterion and the hint says how to fix it", () => {
    const [unindented] = fixture("invalid/unindented-attribute.md").problems;
    expect(unindented!.message).toContain("CHECK:");
    expect(unindented!.hint).toBe("indent CHECK: under criterion 1 with at least one space");
    const orphans = fixture("invalid/orphan-attribute.md").problems;
    expect(orphans[0]!.message).toContain("before the first criterion");
    expect(orphans[3]!.message).toContain("refused as a duplicate id");
    expect(orphans[6]!.message).toContain("line 16");
    const dup = fixture("invalid/abandon-duplicate.md").problems[0]!;
    expect(dup.message).toContain("line 6");
    expect(fixture("invalid/invalid-regex.md").problems[0]!.message).toBe(
      "criterion 1: EXPECT: /(ok/ does not compile: Unterminated group",
    );
  });

  it("still returns the criteria it could read, for status display", () => {
    expect(fixture("invalid/duplicate-criterion-id.md").criteria.map((k) => k.id)).toEqual([
      "1",
      "2",
      "AC-1",
    ]);
    // The refused duplicate keeps the first title; its attributes went nowhere.
    const orphans = fixture("invalid/orphan-attribute.md").criteria;
    expect(orphans.map((k) => [k.id, k.title])).toEqual([
      ["1", "first"],
      ["2", "second"],
    ]);
    expect(oracle(orphans[0]).command).toBe("echo A");
    expect(orphans[1]!.checks).toEqual([]);
    // Everything before the unclosed fence is still read.
    expect(fixture("invalid/unclosed-fence.md").criteria.map((k) => k.id)).toEqual(["1"]);
  });

  it("a partial oracle is never a runnable check", () => {
    const c = fixture("invalid/partial-oracle.md");
    expect(c.criteria.map((k) => k.checks)).toEqual([[], [], [], []]);
  });

  it("an unindented attribute still counts on its criterion, so it is not also a partial oracle", () => {
    const c = fixture("invalid/unindented-attribute.md");
    expect(oracle(c.criteria[0]).command).toBe("npm run build && echo BUILD-OK");
    expect(oracle(c.criteria[1]).expect).toEqual({ kind: "literal", text: "LINT-OK" });
  });

  it("a blank-reason abandon still marks its criterion", () => {
    expect(fixture("invalid/abandon-blank-reason.md").criteria[0]!.abandon).toEqual({
      reason: "",
      location: { path: `${CONTRACT_DIR}/abandon-blank-reason.md`, line: 5, column: 1 },
    });
  });
});

describe("valid fixtures", () => {
  it("every valid fixture has no problems", () => {
    for (const name of readdirSync(join(FIXTURES, "valid"))) {
      expect(fixture(`valid/${name}`).problems, name).toEqual([]);
    }
  });

  it("the template-shaped contract: header, sections, criteria, oracles, abandon", () => {
    const path = `${CONTRACT_DIR}/2026-05-01-example-1200.md`;
    const c = fixture("valid/2026-05-01-example-1200.md");
    expect(c.kind).toBe("oracle-contract");
    expect(c.path).toBe(path);
    expect(c.header).toEqual({
      kind: "oracle-contract",
      title: "example",
      date: "2026-05-01",
      flow: "feat",
      branch: "feat/invoice-export",
      status: "active",
      request: {
        heading: "REQUEST (verbatim — IMMUTABLE)",
        text: "add a CSV export to the invoices page, same columns as the table",
        startLine: 6,
        endLine: 6,
      },
      clarifications: {
        heading: "CLARIFICATIONS",
        text: "Q: which date format? / A: ISO 8601",
        startLine: 9,
        endLine: 9,
      },
      fileScope: {
        heading: "FILE SCOPE",
        text: "src/pages/invoices/\nscripts/csv-header.mjs",
        startLine: 32,
        endLine: 33,
      },
    });
    const at = (line: number, column = 1) => ({ path, line, column });
    expect(c.criteria).toEqual([
      {
        id: "1",
        title: 'the invoices page has an "Export CSV" button that downloads every row',
        location: at(12),
        checks: [],
        abandon: {
          reason:
            "the download API is behind a feature flag we may not touch; handoff to the platform team",
          location: at(29),
        },
      },
      {
        id: "2",
        title: "the build and the test suite are green",
        location: at(13),
        checks: [
          {
            type: "oracle",
            location: at(14, 4),
            command: "npm run build && npm test && echo SUITE-GREEN",
            expect: { kind: "literal", text: "SUITE-GREEN" },
            evidence: { text: "pending", location: at(16, 4) },
          },
        ],
      },
      {
        id: "3",
        title: "the CSV header row matches the table columns",
        location: at(17),
        checks: [
          {
            type: "oracle",
            location: at(18, 4),
            command: "node scripts/csv-header.mjs | grep -q '^id,date,total$' && echo HEADER-OK",
            expect: { kind: "regex", source: "^HEADER-OK$", flags: "m" },
            cwd: "packages/web",
            evidence: { text: "MET exit=0 marker-found :: HEADER-OK", location: at(20, 4) },
          },
        ],
      },
      {
        id: "4",
        title: "exported totals reconcile with the ledger",
        location: at(22),
        checks: [
          {
            type: "oracle",
            location: at(23, 4),
            command: "node scripts/reconcile.mjs",
            expect: { kind: "literal", text: "RECONCILED 0 mismatches" },
            evidence: { text: "pending", location: at(25, 4) },
          },
        ],
      },
    ]);
  });

  it("the bare template parses, and its parenthesised ABANDON is documentation", () => {
    const c = fixture("valid/template.md");
    expect(c.header.kind === "oracle-contract" && c.header.title).toBe("<slug>");
    expect(c.criteria.map((k) => [k.id, k.checks.length, k.abandon])).toEqual([
      ["1", 1, undefined],
      ["2", 0, undefined],
    ]);
    expect(oracle(c.criteria[0]).expect).toEqual({
      kind: "literal",
      text: "<success-only marker>",
    });
  });

  it("checkbox criteria: ids, ticks, list-form and tab-indented attributes, header without bullets", () => {
    const c = fixture("valid/checkbox.md");
    expect(c.criteria.map((k) => [k.id, k.ticked, k.checks.length])).toEqual([
      ["AC-1", true, 1],
      ["AC-2", false, 1],
      ["docs.1", true, 0],
      ["AC-3", false, 0],
    ]);
    expect(c.criteria[2]!.title).toBe("the README documents the limit [gated 2026-05-02]");
    expect(oracle(c.criteria[0]).command).toBe("npm test -- rate-limit && echo RL-429-OK");
    const ac2 = oracle(c.criteria[1]);
    expect(ac2.expect).toEqual({
      kind: "regex",
      source: "^config: \\d+ tests passed$",
      flags: "m",
    });
    expect(ac2.cwd).toBe("packages/api");
    expect(ac2.location).toMatchObject({ line: 15, column: 2 });
    expect(c.criteria[3]!.abandon?.reason).toBe(
      "needs the metrics stack, out of scope — handoff to ops (ticket OPS-12)",
    );
    expect(c.header).toMatchObject({
      title: "rate-limit",
      date: "2026-05-02",
      flow: "ship-feature",
      branch: "feat/rate-limit",
      status: "active",
      supersedes: ".claude/tasks/contracts/2026-04-30-rate-limit-0915.md",
    });
  });

  it("fenced criteria, attributes, ABANDONs and headings are invisible", () => {
    const c = fixture("valid/fences.md");
    expect(c.criteria.map((k) => [k.id, k.title])).toEqual([
      ["1", "real criterion one"],
      ["2", "real criterion two"],
      ["3", "```js `x` is inline code, not a fence, so this stays a criterion"],
    ]);
    expect(c.criteria.every((k) => k.abandon === undefined)).toBe(true);
    expect(oracle(c.criteria[1]).command).toBe("echo TWO");
    const header = c.header.kind === "oracle-contract" ? c.header : undefined;
    // The request quotes a contract verbatim, fence and all.
    expect(header?.request?.text).toContain("```markdown\n## ACCEPTANCE CRITERIA\n1. quoted");
    // The `## FILE SCOPE` inside the four-backtick fence is not the section.
    expect(header?.fileScope).toMatchObject({ text: "src/", startLine: 53, endLine: 53 });
  });
});

describe("input hygiene: line endings, BOM, bytes", () => {
  it("CRLF, BOM and BOM+CRLF files give the LF file's result, line numbers included", () => {
    const lf = fixture("valid/2026-05-01-example-1200.md");
    const same = (rel: string) =>
      parseOracleContract(lf.path, readFileSync(join(FIXTURES, "encoding", rel)));
    expect(same("example.crlf.md")).toEqual(lf);
    expect(same("example.bom.md")).toEqual(lf);
    expect(same("example.bom-crlf.md")).toEqual(lf);
  });

  it("CRLF invalid file: identical problems at identical lines", () => {
    const lf = fixture("invalid/orphan-attribute.md");
    const crlf = parseOracleContract(
      lf.path,
      readFileSync(join(FIXTURES, "encoding", "orphan-attribute.crlf.md")),
    );
    expect(crlf).toEqual(lf);
    expect(problemsOf(crlf)).toContain("duplicate-criterion-id@11:1");
  });

  it("every fixture converted to CRLF and to BOM+LF in memory parses identically", () => {
    for (const dir of ["valid", "invalid", "rendered"]) {
      for (const name of readdirSync(join(FIXTURES, dir))) {
        const bytes = readFileSync(join(FIXTURES, dir, name));
        const text = bytes.toString("utf8");
        const base = parseOracleContract(name, bytes);
        const crlf = new TextEncoder().encode(text.replace(/\n/g, "\r\n"));
        expect(parseOracleContract(name, crlf), `${name} CRLF`).toEqual(base);
        const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
        expect(parseOracleContract(name, bom), `${name} BOM`).toEqual(base);
      }
    }
  });

  it("invalid UTF-8: exactly one problem, nothing read", () => {
    const c = fixture("encoding/invalid-utf8.md");
    expect(problemsOf(c)).toEqual(["invalid-utf8@4:5"]);
    expect(c.criteria).toEqual([]);
    expect(c.header).toEqual({ kind: "oracle-contract" });
  });

  it("a NUL byte: exactly one problem, nothing read", () => {
    const c = fixture("encoding/nul-byte.md");
    expect(problemsOf(c)).toEqual(["nul-byte@4:5"]);
    expect(c.criteria).toEqual([]);
  });

  it("an empty file has no criteria", () => {
    expect(problemsOf(parseOracleContract("e.md", new Uint8Array()))).toEqual(["no-criteria@1:1"]);
  });
});

describe("attribute values", () => {
  const one = (attrs: string) =>
    parseText(contract(`1. t\n${attrs}\n   EVIDENCE: pending`)).criteria[0];

  it("unwraps one pair of backticks around the whole value", () => {
    expect(oracle(one("   CHECK: `npm test`\n   EXPECT: `ok`")).command).toBe("npm test");
    expect(oracle(one("   CHECK: `npm test`\n   EXPECT: `ok`")).expect).toEqual({
      kind: "literal",
      text: "ok",
    });
    // Inner whitespace is kept: it is part of the marker.
    expect(oracle(one("   CHECK: x\n   EXPECT: `  ok `")).expect).toEqual({
      kind: "literal",
      text: "  ok ",
    });
  });

  it("leaves values with other backticks alone (shell substitution, longer code spans)", () => {
    expect(oracle(one("   CHECK: echo `date` done\n   EXPECT: done")).command).toBe(
      "echo `date` done",
    );
    expect(oracle(one("   CHECK: `echo `date``\n   EXPECT: x")).command).toBe("`echo `date``");
    expect(oracle(one("   CHECK: ``npm test``\n   EXPECT: x")).command).toBe("``npm test``");
    expect(oracle(one("   CHECK: `npm test\n   EXPECT: x")).command).toBe("`npm test");
  });

  it("EXPECT: /re/flags is a regex marker; anything else is a literal", () => {
    const marker = (v: string) => oracle(one(`   CHECK: x\n   EXPECT: ${v}`)).expect;
    expect(marker("/^ok$/")).toEqual({ kind: "regex", source: "^ok$", flags: "" });
    expect(marker("/a/b/gim")).toEqual({ kind: "regex", source: "a/b", flags: "gim" });
    expect(marker("`/\\d+ passed/u`")).toEqual({
      kind: "regex",
      source: "\\d+ passed",
      flags: "u",
    });
    expect(marker("/usr/bin")).toEqual({ kind: "literal", text: "/usr/bin" });
    expect(marker("ok/i")).toEqual({ kind: "literal", text: "ok/i" });
    expect(marker("/")).toEqual({ kind: "literal", text: "/" });
    expect(marker("PASS /x/")).toEqual({ kind: "literal", text: "PASS /x/" });
  });

  it("a regex marker must compile", () => {
    const c = parseText(contract("1. t\n   CHECK: x\n   EXPECT: /[/\n   EVIDENCE: pending"));
    expect(problemsOf(c)).toEqual(["invalid-regex@6:4"]);
  });

  it("trims values, keeps EVIDENCE as written, and normalises a safe CWD", () => {
    const check = oracle(one("   CHECK:    npm test   \n   EXPECT:\tok\t\n   CWD: ./pkg//api/"));
    expect(check.command).toBe("npm test");
    expect(check.expect).toEqual({ kind: "literal", text: "ok" });
    expect(check.cwd).toBe("pkg/api");
    expect(check.evidence?.text).toBe("pending");
  });

  it("EVIDENCE may be empty; CHECK and EXPECT may not", () => {
    const c = parseText(contract("1. t\n   CHECK: x\n   EXPECT: y\n   EVIDENCE:"));
    expect(c.problems).toEqual([]);
    expect(oracle(c.criteria[0]).evidence?.text).toBe("");
  });

  it("attribute names are uppercase exactly: a lowercase one is an error, never prose", () => {
    const c = parseText(contract("1. t\n   check: x\n   expect: y"));
    expect(problemsOf(c)).toEqual(["keyword-near-miss@5:4", "keyword-near-miss@6:4"]);
    expect(c.problems[0]!.hint).toContain("CHECK: must be written in ASCII capitals");
    expect(c.criteria[0]!.checks).toEqual([]);
  });

  it("EVIDENCE alone on a manual criterion is accepted and yields no check", () => {
    const c = parseText(contract("1. t\n   EVIDENCE: pending"));
    expect(c.problems).toEqual([]);
    expect(c.criteria[0]!.checks).toEqual([]);
  });
});

describe("criteria grammar", () => {
  it("U+2028 and U+2029 inside a line are ordinary characters, not line ends", () => {
    const c = parseText(
      contract(
        "1. a\u2028b\n   CHECK: echo \u2029 x\n   EXPECT: o\u2028k\n   EVIDENCE: p\u2028\n- [ ] A-1: \u2029\nABANDON: A-1 why\u2028not",
      ),
    );
    expect(c.problems).toEqual([]);
    expect(c.criteria.map((k) => [k.id, k.title, k.abandon?.reason])).toEqual([
      ["1", "a\u2028b", undefined],
      ["A-1", "", "why\u2028not"],
    ]);
    expect(oracle(c.criteria[0]).command).toBe("echo \u2029 x");
    expect(oracle(c.criteria[0]).expect).toEqual({ kind: "literal", text: "o\u2028k" });
  });

  it("continuation lines do not change the title and attributes still attach", () => {
    const c = parseText(
      contract(
        "1. first line\n   more words\nlazy continuation\n\n   CHECK: x\n   EXPECT: y\n   EVIDENCE: p",
      ),
    );
    expect(c.problems).toEqual([]);
    expect(c.criteria[0]!.title).toBe("first line");
    expect(oracle(c.criteria[0]).command).toBe("x");
  });

  it("criteria must start at column 0; an indented number is text", () => {
    const c = parseText(contract("1. one\n   2. nested, not a criterion"));
    expect(c.criteria.map((k) => k.id)).toEqual(["1"]);
  });

  it("an empty title is allowed, `1.5 x` and `1)` are not criteria", () => {
    const c = parseText(contract("1.\n1.5 not a criterion\n2) not either\n3. three"));
    expect(c.criteria.map((k) => [k.id, k.title])).toEqual([
      ["1", ""],
      ["3", "three"],
    ]);
  });

  it("ids are compared as written: 01 and 1 are different criteria", () => {
    const c = parseText(contract("01. a\n1. b"));
    expect(c.problems).toEqual([]);
    expect(c.criteria.map((k) => k.id)).toEqual(["01", "1"]);
  });

  it("a numbered and a checkbox criterion with the same id are duplicates", () => {
    expect(problemsOf(parseText(contract("1. a\n- [ ] 1: b")))).toEqual([
      "duplicate-criterion-id@5:1",
    ]);
  });

  it("a checkbox item without an `ID:` is not a criterion and ends the one above", () => {
    const c = parseText(
      contract("1. a\n- [ ] no id here\n   CHECK: x\n   EXPECT: y\n   EVIDENCE: p"),
    );
    expect(c.criteria.map((k) => k.id)).toEqual(["1"]);
    expect(problemsOf(c)).toEqual([
      "orphan-attribute@6:4",
      "orphan-attribute@7:4",
      "orphan-attribute@8:4",
    ]);
  });

  it("a `### ` subheading does not end the block, and criteria below it count", () => {
    const c = parseText(contract("1. a\n### Gated 2026-05-02\n2. b [gated 2026-05-02]"));
    expect(c.criteria.map((k) => k.id)).toEqual(["1", "2"]);
  });

  it("criteria outside the ACCEPTANCE CRITERIA section are not criteria", () => {
    const c = parseText(
      "# CONTRACT — x\n1. in the header\n## REQUEST\n1. in the request\n## ACCEPTANCE CRITERIA\n1. real\n## FILE SCOPE\n2. in the scope\nABANDON: 1 not in the block\n",
    );
    // Numbered lists elsewhere are prose; the ABANDON under FILE SCOPE is an error naming it.
    expect(problemsOf(c)).toEqual(["oracle-outside-criteria@9:1"]);
    expect(c.problems[0]!.message).toContain('under "## FILE SCOPE"');
    expect(c.criteria.map((k) => [k.id, k.title, k.abandon])).toEqual([["1", "real", undefined]]);
  });

  it("two ACCEPTANCE CRITERIA sections are read as one list", () => {
    const c = parseText(
      "## ACCEPTANCE CRITERIA\n1. a\n## NOTES\n## ACCEPTANCE CRITERIA (gated)\n1. b\n",
    );
    expect(problemsOf(c)).toEqual(["duplicate-criterion-id@5:1"]);
  });

  it("an ABANDON ends the criterion above it and may precede the criterion it names", () => {
    const c = parseText(
      contract("ABANDON: 2 too early but valid\n1. a\nABANDON: 1 gone\n   CHECK: x\n2. b"),
    );
    expect(problemsOf(c)).toEqual(["orphan-attribute@7:4"]);
    expect(c.criteria.map((k) => k.abandon?.reason)).toEqual(["gone", "too early but valid"]);
  });

  it("only ABANDON: at column 0 counts; indented it is an error, in parentheses documentation", () => {
    const c = parseText(contract("1. a\n   ABANDON: 1 indented\n(ABANDON: 1 in parentheses)"));
    expect(problemsOf(c)).toEqual(["misplaced-abandon@5:4"]);
    expect(c.criteria[0]!.abandon).toBeUndefined();
  });

  it("ABANDON reports unknown id and blank reason together", () => {
    expect(problemsOf(parseText(contract("1. a\nABANDON: 9")))).toEqual([
      "abandon-blank-reason@5:1",
      "abandon-unknown-id@5:1",
    ]);
  });

  it("attributes outside the criteria block never attach, and are errors naming the heading", () => {
    const c = parseText("## REQUEST\n   CHECK: rm -rf /\nCHECK: x\n## ACCEPTANCE CRITERIA\n1. a\n");
    expect(problemsOf(c)).toEqual(["oracle-outside-criteria@2:4", "oracle-outside-criteria@3:1"]);
    expect(c.problems[0]!.message).toBe(
      'CHECK: under "## REQUEST" is outside ## ACCEPTANCE CRITERIA, so the gate would never act on it',
    );
    expect(c.criteria[0]!.checks).toEqual([]);
  });
});

describe("fences", () => {
  const ids = (block: string) => parseText(contract(block)).criteria.map((k) => k.id);

  it("backtick and tilde fences hide criteria", () => {
    expect(ids("1. a\n```\n2. b\n```\n~~~\n3. c\n~~~\n4. d")).toEqual(["1", "4"]);
  });

  it("a closing fence must use the same character, be at least as long, and carry no info", () => {
    expect(ids("1. a\n````\n```\n2. b\n~~~~\n``` x\n3. c\n`````\n4. d")).toEqual(["1", "4"]);
  });

  it("a fence may be indented up to 3 spaces; 4 spaces or a tab is not a fence", () => {
    expect(ids("1. a\n   ```\n2. b\n   ```\n3. c")).toEqual(["1", "3"]);
    expect(ids("1. a\n    ```\n2. b\n    ```\n3. c")).toEqual(["1", "2", "3"]);
    expect(ids("1. a\n\t```\n2. b\n\t```\n3. c")).toEqual(["1", "2", "3"]);
  });

  it("a backtick in a backtick fence's info string is not a fence; in a tilde fence it is", () => {
    expect(ids("1. a\n``` a`b\n2. b")).toEqual(["1", "2"]);
    expect(ids("1. a\n~~~ a`b\n2. b\n~~~\n3. c")).toEqual(["1", "3"]);
  });

  it("two backticks are not a fence", () => {
    expect(ids("1. a\n``\n2. b\n``")).toEqual(["1", "2"]);
  });

  it("an unclosed fence is reported at its opening line", () => {
    const c = parseText(contract("1. a\n\n  ~~~~\n2. b\n~~~"));
    expect(problemsOf(c)).toEqual(["unclosed-fence@6:1"]);
    expect(c.criteria.map((k) => k.id)).toEqual(["1"]);
  });

  it("a fence opened before the criteria hides them too, and both problems are reported", () => {
    const c = parseText("# CONTRACT — x\n```\n## ACCEPTANCE CRITERIA\n1. a\n");
    expect(problemsOf(c)).toEqual(["no-criteria@1:1", "unclosed-fence@2:1"]);
  });
});

describe("header", () => {
  it("keys are case-insensitive, bullets optional, the first value wins, unknown keys ignored", () => {
    const c = parseText(
      "# CONTRACT — slug-1\n* DATE: 2026-01-01 | Flow: hotfix | owner: me\nBranch: `main`\n- date: 2027-01-01\n- Status: aborted\n\n## ACCEPTANCE CRITERIA\n1. a\n",
    );
    expect(c.header).toEqual({
      kind: "oracle-contract",
      title: "slug-1",
      date: "2026-01-01",
      flow: "hotfix",
      branch: "main",
      status: "aborted",
    });
  });

  it("facts and titles inside a fence in the preamble are not header facts", () => {
    const c = parseText(
      "```\n# CONTRACT — quoted\n- status: quoted\n```\n- status: real\n## ACCEPTANCE CRITERIA\n1. a\n",
    );
    expect(c.header).toEqual({ kind: "oracle-contract", status: "real" });
  });

  it("facts after the first `## ` heading are not header facts", () => {
    const c = parseText("## ACCEPTANCE CRITERIA\n1. a\n- status: active\n");
    expect(c.header).toEqual({ kind: "oracle-contract" });
  });

  it("a title that is not `CONTRACT — slug` is kept whole", () => {
    const title = (h: string) => {
      const header = parseText(`${h}\n## ACCEPTANCE CRITERIA\n1. a\n`).header;
      return header.kind === "oracle-contract" ? header.title : undefined;
    };
    expect(title("# Release checklist")).toBe("Release checklist");
    expect(title("# CONTRACT - ascii-dash")).toBe("ascii-dash");
    expect(title("# CONTRACT: colon #")).toBe("colon");
    expect(title("# CONTRACT")).toBe("CONTRACT");
  });

  it("sections are verbatim without surrounding blank lines; an empty one has endLine = startLine - 1", () => {
    const c = parseText(
      "## REQUEST (verbatim — IMMUTABLE)\n\n  keep   this\n\n  and this  \n\n## CLARIFICATIONS\n\n## ACCEPTANCE CRITERIA\n1. a\n",
    );
    const header = c.header.kind === "oracle-contract" ? c.header : undefined;
    expect(header?.request).toEqual({
      heading: "REQUEST (verbatim — IMMUTABLE)",
      text: "  keep   this\n\n  and this  ",
      startLine: 3,
      endLine: 5,
    });
    expect(header?.clarifications).toMatchObject({ text: "" });
    expect(header!.clarifications!.endLine).toBe(header!.clarifications!.startLine - 1);
    expect(header?.fileScope).toBeUndefined();
  });
});

describe("contract-wide guarantees", () => {
  it("problems are sorted and use registered oracle-contract codes only", () => {
    const dir = join(FIXTURES, "invalid");
    for (const name of readdirSync(dir)) {
      const c = parseOracleContract(name, readFileSync(join(dir, name)));
      expect(c.problems).toEqual(sortProblems(c.problems));
      for (const p of c.problems) {
        const kinds: string = PROBLEM_CODES[p.code].kinds;
        expect(kinds === "all" || kinds.split(", ").includes("oracle-contract"), p.code).toBe(true);
      }
    }
  });

  it("collects every problem of a file, not only the first", () => {
    const c = parseText(
      contract(
        "   CHECK: orphan\n1. a\nCHECK: x\n1. b\n2. c\n   CHECK: y\n   CHECK: z\n3. d\n   EXPECT: //\nABANDON:",
      ),
    );
    expect(problemsOf(c)).toEqual([
      "orphan-attribute@4:4",
      "missing-evidence@5:1",
      "partial-oracle@6:1",
      "unindented-attribute@6:1",
      "duplicate-criterion-id@7:1",
      "missing-evidence@8:1",
      "partial-oracle@9:4",
      "duplicate-attribute@10:4",
      "missing-evidence@11:1",
      "empty-attribute@12:4",
      "partial-oracle@12:4",
      "abandon-missing-id@13:1",
    ]);
  });
});

describe("the rendered reading: comments and definitions are not content", () => {
  const ids = (c: Contract) => c.criteria.map((k) => k.id);

  it("a structural line inside a comment is an error naming it and the comment", () => {
    const c = parseText(contract("1. a\n<!--\n## FILE SCOPE\n   CHECK: x\n-->\n2. b"));
    expect(problemsOf(c)).toEqual(["hidden-structure@6:1", "hidden-structure@7:1"]);
    expect(c.problems[0]!.message).toBe(
      "a heading is hidden inside the HTML comment opened on line 5: GitHub does not show it, so the gate does not read it",
    );
    // The hidden heading neither ends nor starts a section.
    expect(ids(c)).toEqual(["1", "2"]);
  });

  it("prose in a comment is fine, and a commented-out numbered list counts only among the criteria", () => {
    expect(problemsOf(parseText(contract("1. a\n<!-- reviewer: looks fine -->\n2. b")))).toEqual(
      [],
    );
    expect(problemsOf(parseText(contract("1. a\n<!--\n3. dropped\n-->")))).toEqual([
      "hidden-structure@6:1",
    ]);
    const plan = parseText(`## PLAN\n<!--\n1. step\n-->\n${contract("1. a")}`);
    expect(problemsOf(plan)).toEqual([]);
  });

  it("a block comment runs over blank lines to its -->; raw HTML after it is never markdown", () => {
    const c = parseText(contract("1. a\n<!--\n\n2. hidden\n\n--> 3. raw text\n4. d"));
    expect(problemsOf(c)).toEqual(["hidden-structure@7:1", "hidden-structure@9:4"]);
    expect(ids(c)).toEqual(["1", "4"]);
  });

  it("an unclosed block comment hides the rest, and what it hides is reported", () => {
    const c = parseText(contract("1. a\n<!-- TODO\n2. b\n   CHECK: x"));
    expect(problemsOf(c)).toEqual(["hidden-structure@6:1", "hidden-structure@7:1"]);
  });

  it("inline comments: removed from titles and facts; inside a CHECK/EXPECT/CWD value an error", () => {
    const c = parseText(
      "# CONTRACT — t <!-- x -->\n- status: active <!-- | status: aborted -->\n## ACCEPTANCE CRITERIA\n1. title <!-- note --> end\n   CHECK: true <!-- ; rm -rf / -->\n   EXPECT: ok\n   EVIDENCE: MET <!-- html --> out\n",
    );
    expect(problemsOf(c)).toEqual(["hidden-structure@2:22", "hidden-structure@5:4"]);
    expect(c.header).toMatchObject({ title: "t", status: "active" });
    expect(c.criteria[0]!.title).toBe("title  end");
    expect(c.problems[1]!.message).toContain("GitHub shows a different value");
  });

  it("a comment that changes what a line is, is an error", () => {
    expect(problemsOf(parseText(contract("1. a\n2<!-- -->. b")))).toEqual(["hidden-structure@5:1"]);
  });

  it("an inline <!-- left open up to a blank line or heading is literal text, as on GitHub", () => {
    // Evidence written back from a command's output may hold `<!--`.
    const c = parseText(
      contract(
        "1. a\n   CHECK: echo ok\n   EXPECT: ok\n   EVIDENCE: MET exit=0 marker-found :: <!-- html\n2. b\n   CHECK: echo ok\n   EXPECT: ok\n   EVIDENCE: pending\n",
      ),
    );
    expect(c.problems).toEqual([]);
    expect(c.criteria.map((k) => k.checks.length)).toEqual([1, 1]);
    // Closed before the paragraph ends, the same opener hides what follows.
    const hidden = parseText(contract("1. a <!--\n   CHECK: x\n   -->\n   EXPECT: y"));
    expect(problemsOf(hidden)).toEqual([
      "missing-evidence@4:1",
      "hidden-structure@5:1",
      "partial-oracle@7:4",
    ]);
  });

  it("<!-- inside a code span is code, not a comment", () => {
    const c = parseText(
      contract(
        "1. strip `<!--` markers\n   CHECK: `grep -c '<!--' README.md`\n   EXPECT: 0\n   EVIDENCE: pending\n2. b",
      ),
    );
    expect(c.problems).toEqual([]);
    expect(oracle(c.criteria[0]).command).toBe("grep -c '<!--' README.md");
    expect(ids(c)).toEqual(["1", "2"]);
  });

  it("link reference definitions used as comments hide their title, over several lines too", () => {
    const c = parseText(
      "[//]: # (- status: aborted)\n[comment]: <> (\n   CHECK: hidden\n)\n[ref]: https://example.com\n- status: active\n## ACCEPTANCE CRITERIA\n1. a\n[x]: #\n(## HIDDEN)\n",
    );
    expect(problemsOf(c)).toEqual([
      "hidden-structure@1:1",
      "hidden-structure@3:1",
      "hidden-structure@10:1",
    ]);
    expect(c.header).toMatchObject({ status: "active" });
  });

  it("a line CommonMark does not take as a definition stays shown", () => {
    const c = parseText(
      contract("1. [docs]: update README\n2. [x]: # (CHECK: y)\n3. [x]: # (a) tail CHECK: z"),
    );
    expect(problemsOf(c)).toEqual(["hidden-structure@5:4"]);
    expect(c.criteria.map((k) => k.title)).toEqual([
      "[docs]: update README",
      "",
      "[x]: # (a) tail CHECK: z",
    ]);
  });

  it("fences inside comments are hidden structure; comments inside fences are code", () => {
    expect(problemsOf(parseText(contract("1. a\n<!--\n~~~\n-->\n2. b")))).toEqual([
      "hidden-structure@6:1",
    ]);
    const c = parseText(contract("1. a\n```\n<!--\n```\n2. b"));
    expect(c.problems).toEqual([]);
    expect(ids(c)).toEqual(["1", "2"]);
  });
});

describe("one status, non-empty headings, exact keywords", () => {
  it("a second status: line is an error, whether visible or spelled with look-alikes", () => {
    expect(
      problemsOf(parseText("- status: active\n- status: aborted\n## ACCEPTANCE CRITERIA\n1. a")),
    ).toEqual(["duplicate-status@2:1"]);
    expect(
      problemsOf(
        parseText("- status: active | st\u200batus: aborted\n## ACCEPTANCE CRITERIA\n1. a"),
      ),
    ).toEqual(["duplicate-status@1:1"]);
  });

  it("an empty ## heading is an error; its closing #s and comments do not count as text", () => {
    for (const h of ["##", "##   ", "## ##", "## <!-- x -->"]) {
      expect(problemsOf(parseText(contract(`1. a\n${h}`))), h).toContain("empty-heading@5:1");
    }
    expect(parseText("## FILE SCOPE ##\nsrc/\n## ACCEPTANCE CRITERIA\n1. a").header).toMatchObject({
      fileScope: { heading: "FILE SCOPE", text: "src/" },
    });
  });

  it("near-miss keywords, criteria and headings name the character at fault", () => {
    const c = parseText(
      contract(
        "1. a\n   CHECK : x\n   \u0045XPECT\uff1a y\n\u00a0\u00a0 EVIDENCE: z\n\uff12. fullwidth two\n\u200b3. zero-width three\nabandon: 1 lower",
      ),
    );
    expect(problemsOf(c)).toEqual([
      "keyword-near-miss@5:4",
      "keyword-near-miss@6:4",
      "keyword-near-miss@7:1",
      "keyword-near-miss@8:1",
      "keyword-near-miss@9:1",
      "keyword-near-miss@10:1",
    ]);
    expect(c.problems[1]!.message).toContain('the non-ASCII character "\uff1a" (U+FF1A)');
    expect(c.problems[4]!.message).toContain("an invisible character (U+200B)");
    const heading = parseText("## \u0410CCEPTANCE CRITERIA\n1. a\n");
    expect(problemsOf(heading)).toContain("keyword-near-miss@1:1");
  });

  it("criterion ids are whole numbers: 4b. and 2) are refused with their attributes", () => {
    const c = parseText(contract("4. a\n4b. b\n   CHECK: x\n   EXPECT: y\n   EVIDENCE: p\n5) c"));
    expect(problemsOf(c)).toEqual(["invalid-criterion-id@5:1", "invalid-criterion-id@9:1"]);
    expect(c.problems[0]!.hint).toContain("merges it into the criterion above");
    // Criterion 4 did not absorb 4b's oracle.
    expect(c.criteria.map((k) => [k.id, k.checks.length])).toEqual([["4", 0]]);
  });

  it("EXPECT regexes that match the empty string are refused like an empty marker", () => {
    for (const re of ["/^/m", "/.*/", "/(?:)/", "/x?/", "/$/"]) {
      const c = parseText(contract(`1. a\n   CHECK: x\n   EXPECT: ${re}\n   EVIDENCE: p`));
      expect(problemsOf(c), re).toEqual(["empty-attribute@6:4"]);
    }
    const ok = parseText(contract("1. a\n   CHECK: x\n   EXPECT: /^OK$/m\n   EVIDENCE: p"));
    expect(ok.problems).toEqual([]);
  });
});

describe("many problems of one kind", () => {
  it("lists the first 100 of a code and summarises the rest in one problem of that code", () => {
    const c = parseText(contract(`1. a\n${"##\n".repeat(150)}`));
    const empty = c.problems.filter((p) => p.code === "empty-heading");
    expect(empty).toHaveLength(101);
    expect(empty[100]).toMatchObject({
      line: 105,
      message:
        "50 more empty-heading problems from here on are not listed (only the first 100 of each kind are)",
    });
    expect(empty[100]!.hint).toBe(empty[0]!.hint);
    // Positive control: 100 are listed without a summary.
    const hundred = parseText(contract(`1. a\n${"##\n".repeat(100)}`));
    expect(hundred.problems.filter((p) => p.code === "empty-heading")).toHaveLength(100);
  });
});
