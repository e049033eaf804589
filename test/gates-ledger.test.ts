import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kindOf, parseContract } from "../src/formats/index.js";
import { loadContract } from "../src/load/index.js";
import type { Check, Contract } from "../src/model/contract.js";
import { discoverContracts } from "../src/scope/discover.js";

/**
 * unlazy's gate ledgers (its references/gates.md and templates), read by the
 * markdown contract's reader in its ledger dialect. Each rule is shown with
 * the ledger that breaks it and the one that keeps it.
 */
const FIXTURES = join(import.meta.dirname, "fixtures", "gates-ledger");
const encode = (text: string) => new TextEncoder().encode(text);
const ledger = (text: string, path = "GATES.md"): Contract =>
  parseContract("gates-ledger", path, encode(text));
const codes = (c: Contract) => c.problems.map((p) => `${p.code}@${p.line}:${p.column}`);
const oracle = (c: Contract, id: string): Extract<Check, { type: "oracle" }> => {
  const check = c.criteria.find((k) => k.id === id)?.checks[0];
  if (check?.type !== "oracle") throw new Error(`gate ${id} has no oracle`);
  return check;
};

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cg-ledger-"));
  made.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const GATE = (id: string, check = "echo ok", expectText = "ok") =>
  `- [ ] ${id}: outcome ${id}\n  CHECK: ${check}\n  EXPECT: ${expectText}\n  EVIDENCE: pending\n`;

describe("gates-ledger: the kind by path, and the default globs", () => {
  it("GATES.md and gates/ files, at the root or in an .unlazy scope, are ledgers", () => {
    for (const p of [
      "GATES.md",
      "gates/leaf-1.md",
      "gates/branch/leaf-1.2.md",
      ".unlazy/auth/GATES.md",
      ".unlazy/auth/gates/leaf-1.md",
      "packages/api/GATES.md",
    ]) {
      expect(kindOf(p), p).toBe("gates-ledger");
    }
    for (const p of [".claude/tasks/contracts/GATES.md", "docs/gates.md", "README.md"]) {
      expect(kindOf(p), p).toBe("oracle-contract");
    }
  });

  it("default discovery finds a repository's only ledger (it was 'no contracts found')", async () => {
    const root = tree({
      "GATES.md": GATE("G1"),
      "gates/leaf-1.md": GATE("G1"),
      "README.md": "# x\n",
    });
    expect((await discoverContracts({ root })).sort()).toEqual(["GATES.md", "gates/leaf-1.md"]);
  });
});

describe("gates-ledger: gates as unlazy's references/gates.md writes them", () => {
  const honest = readFileSync(join(FIXTURES, "honest", "GATES.md"), "utf8");

  it("the template's ledger reads with no problem: ids, titles, header, oracles", () => {
    const c = ledger(honest);
    expect(c.problems).toEqual([]);
    expect(c.header).toEqual({
      kind: "gates-ledger",
      title: "release notes generator",
      owns: ["src/notes/**", "test/notes.test.ts"],
      scope: "`notes` prints the release notes of a tag",
    });
    expect(c.criteria.map((k) => [k.id, k.title, k.checks.length])).toEqual([
      ["G1", "the notes test suite passes", 1],
      ["G2", "the generator runs from its own directory", 1],
      ["G3", "a maintainer has read the wording of the first release notes", 0],
    ]);
    expect(oracle(c, "G1").expect).toEqual({
      kind: "regex",
      source: "^suite: 8\\/8 passed$",
      flags: "m",
    });
    expect(oracle(c, "G2").cwd).toBe("src");
    expect(oracle(c, "G2").expect).toEqual({ kind: "literal", text: "notes found" });
  });

  it("fenced examples are not gates (G9 inside ```markdown is prose)", () => {
    expect(ledger(honest).criteria.map((k) => k.id)).not.toContain("G9");
    const unfenced = honest.replace("```markdown\n", "").replace("\n```\n", "\n");
    expect(
      ledger(unfenced).criteria.map((k) => k.id),
      "control: unfenced it is one",
    ).toContain("G9");
  });

  it("a manual gate has no check whatever its box says, and evidence is information only", () => {
    const c = ledger("# Gates: x\n\n- [x] G1: looks right\n  EVIDENCE: MET, checked by me\n");
    expect(c.problems).toEqual([]);
    expect(c.criteria[0]).toMatchObject({ id: "G1", ticked: true, checks: [] });
    const forged = ledger(
      `# Gates: x\n\n- [x] G1: passes\n  CHECK: exit 1\n  EXPECT: ok\n  EVIDENCE: MET exit=0 :: ok\n`,
    );
    expect(oracle(forged, "G1").command).toBe("exit 1");
  });

  it("a runnable gate needs no EVIDENCE line (unlazy reads it as pending)", () => {
    expect(codes(ledger("- [ ] G1: x\n  CHECK: echo ok\n  EXPECT: ok\n"))).toEqual([]);
  });

  it("strict where unlazy is loose: CHECK without EXPECT is partial (unlazy passes it on exit 0)", () => {
    expect(codes(ledger("- [ ] G1: x\n  CHECK: npm test\n"))).toEqual(["partial-oracle@2:3"]);
  });

  it("a box without an id is an error, not a list item", () => {
    expect(codes(ledger("- [ ] the build passes\n  CHECK: true\n  EXPECT: x\n"))).toEqual([
      "invalid-criterion-id@1:1",
      "no-criteria@1:1",
      "orphan-attribute@2:3",
      "orphan-attribute@3:3",
    ]);
  });

  it("the same id twice in one file is refused", () => {
    expect(codes(ledger(GATE("G1") + GATE("G1")))).toEqual([
      "duplicate-criterion-id@5:1",
      "orphan-attribute@6:3",
      "orphan-attribute@7:3",
      "orphan-attribute@8:3",
    ]);
  });
});

describe("gates-ledger: ABANDON lines", () => {
  const two = `${GATE("G1")}${GATE("G2")}`;

  it("ABANDON: <id> <reason> abandons the gate; `G2:` with unlazy's colon names G2 too", () => {
    for (const line of ["ABANDON: G2 no display on CI", "ABANDON: G2: no display on CI"]) {
      const c = ledger(`${two}\n${line}\n`);
      expect(c.problems, line).toEqual([]);
      expect(c.criteria.find((k) => k.id === "G2")?.abandon?.reason).toBe("no display on CI");
    }
  });

  it("a blank reason, an unknown id, a duplicate and an indented ABANDON are errors", () => {
    expect(codes(ledger(`${two}\nABANDON: G2\n`))).toEqual(["abandon-blank-reason@10:1"]);
    // unlazy only warns on an unknown id and counts nothing abandoned: here it is an error.
    expect(codes(ledger(`${two}\nABANDON: G7 gone\n`))).toEqual(["abandon-unknown-id@10:1"]);
    expect(codes(ledger(`${two}\nABANDON: leaf-1:G2 qualified\n`))).toEqual([
      "abandon-unknown-id@10:1",
    ]);
    expect(codes(ledger(`${two}\nABANDON: G2 a\nABANDON: G2 b\n`))).toEqual([
      "abandon-duplicate@11:1",
    ]);
    expect(codes(ledger(`${two}\n  ABANDON: G2 indented\n`))).toEqual(["misplaced-abandon@10:3"]);
  });
});

describe("gates-ledger: read as GitHub renders it", () => {
  it("a gate, attribute or ABANDON hidden in a comment is hidden-structure (unlazy would read it)", () => {
    expect(codes(ledger(`${GATE("G1")}<!--\n- [x] G2: hidden\n-->\n`))).toEqual([
      "hidden-structure@6:1",
    ]);
    expect(codes(ledger(`${GATE("G1")}<!--\n  CHECK: true\n-->\n`))).toEqual([
      "hidden-structure@6:1",
    ]);
    expect(codes(ledger(`${GATE("G1")}<!--\nABANDON: G1 quietly\n-->\n`))).toEqual([
      "hidden-structure@6:1",
    ]);
  });

  it("the template's own closing comment is prose to unlazy, and to this reader (control)", () => {
    const comment =
      "<!--\n- CWD: <dir> runs one check elsewhere.\n    ABANDON: G<n> <reason>\n-->\n";
    expect(codes(ledger(`${GATE("G1")}${comment}`))).toEqual([]);
  });

  it("a gate quoted or indented is shown as a gate but never read: misplaced-gate", () => {
    const failing = "- [ ] G2: must fail\n  CHECK: false\n  EXPECT: ok\n";
    const quoted = failing.replace(/^/gm, "> ").replace(/> $/, "");
    // Control: at column 0 it is a gate that runs, and fails.
    const read = ledger(`${GATE("G1")}${failing}`);
    expect(codes(read)).toEqual([]);
    expect(oracle(read, "G2").command).toBe("false");
    // Quoted, GitHub still shows the task and its CHECK; the reader drops it.
    const hidden = ledger(`${GATE("G1")}${quoted}`);
    expect(hidden.criteria.map((c) => c.id)).toEqual(["G1"]);
    expect(codes(hidden)).toEqual(["misplaced-gate@5:3"]);
    expect(hidden.problems[0]!.hint).toBeTruthy();
    // Indented under a gate (a manual one blocks under --require-oracles).
    expect(codes(ledger(`${GATE("G1")}  - [ ] G2: reviewed by hand\n`))).toEqual([
      "misplaced-gate@5:3",
    ]);
    // Inside another list item, or numbered: GitHub shows a task there too.
    expect(codes(ledger(`${GATE("G1")}- - [ ] G2: reviewed by hand\n`))).toEqual([
      "misplaced-gate@5:3",
    ]);
    expect(codes(ledger(`${GATE("G1")}1. [x] G2: reviewed by hand\n`))).toEqual([
      "misplaced-gate@5:1",
    ]);
    // A nested checklist without `<id>:` is prose, as before (control).
    expect(codes(ledger(`${GATE("G1")}  - [ ] write the changelog\n`))).toEqual([]);
  });

  it("an attribute indented by a control character or odd space is a near-miss, not silently manual", () => {
    // unlazy's `\\s+` reads each of these as indentation, so its checker runs
    // the CHECK; the page shows `CHECK: false` under G1. Control: spaces.
    const at = (indent: string) =>
      ledger(`- [ ] G1: x\n${indent}CHECK: false\n${indent}EXPECT: ok\n`);
    expect(codes(at("  "))).toEqual([]);
    expect(oracle(at("  "), "G1").command).toBe("false");
    for (const indent of ["\v", "\f", "\u1680", "\u2028", "\u00a0"]) {
      const c = at(indent);
      expect(c.criteria[0]!.checks, JSON.stringify(indent)).toEqual([]);
      expect(codes(c), JSON.stringify(indent)).toEqual([
        "keyword-near-miss@2:1",
        "keyword-near-miss@3:1",
      ]);
    }
  });

  it("a look-alike keyword is a near-miss, not a silently manual gate", () => {
    expect(codes(ledger("- [ ] G1: x\n  \u0421HECK: echo ok\n  EXPECT: ok\n"))).toContain(
      "keyword-near-miss@2:3",
    );
  });
});

describe("gates-ledger: the tree", () => {
  it("a prose README inside gates/ is one foreign-file error", async () => {
    const root = tree({
      "gates/README.md": "# About these files\n\nOne file per leaf.\n",
      "gates/leaf-1.md": GATE("G1"),
    });
    const readme = await loadContract(root, "gates/README.md");
    expect(codes(readme)).toEqual(["foreign-file@1:1"]);
    expect(readme.problems[0]!.message).toContain("an unlazy gate ledger");
    expect(codes(await loadContract(root, "gates/leaf-1.md"))).toEqual([]);
  });

  it("a ledger named where a markdown contract is expected is one error that says what it is", () => {
    const c = parseContract(
      "oracle-contract",
      ".claude/tasks/contracts/leaf.md",
      encode(GATE("G1")),
    );
    expect(codes(c)).toEqual(["foreign-file@1:1"]);
    expect(c.problems[0]!.message).toContain("it is an unlazy gate ledger: name it GATES.md");
  });

  it("a ledger heading with no gates is no-criteria, not foreign", () => {
    expect(codes(ledger("# Gates: empty leaf\n\nScope: nothing yet\n"))).toEqual([
      "no-criteria@1:1",
    ]);
  });

  it("an explicit file never widens to the tree; the same id in two files is two gates", async () => {
    const root = tree({
      "GATES.md": GATE("G1"),
      "gates/leaf-1.md": GATE("G1"),
      "gates/leaf-2.md": GATE("G1"),
    });
    expect(await discoverContracts({ root, paths: [join(root, "GATES.md")] })).toEqual([
      "GATES.md",
    ]);
    const all = await Promise.all(
      (await discoverContracts({ root })).sort().map((p) => loadContract(root, p)),
    );
    expect(all.map((c) => [c.path, c.criteria.map((k) => k.id), c.problems.length])).toEqual([
      ["GATES.md", ["G1"], 0],
      ["gates/leaf-1.md", ["G1"], 0],
      ["gates/leaf-2.md", ["G1"], 0],
    ]);
  });
});

describe("gates-ledger: a GATES.md that merely has the name (issue 35)", () => {
  it("a release-gate manifest or a table of quantum gates is one not-a-ledger warning, never blocking", () => {
    for (const text of [
      "# GATES.md — the release-gate manifest\n\n- [ ] docs reviewed\n- [ ] changelog written\n",
      "# 🌀 Supported Gates in QLang/QVM\n\n| gate | matrix |\n|---|---|\n| H | … |\n",
    ]) {
      const c = parseContract("gates-ledger", "GATES.md", encode(text));
      expect(c.problems.map((p) => [p.code, p.severity])).toEqual([["not-a-ledger", "warning"]]);
      expect(c.problems[0]!.message).toContain("GATES.md is not an unlazy ledger: no gate lines");
      expect(c.criteria).toEqual([]);
    }
  });

  it("defect twin: a real ledger with a gate still parses its gate (and a `# Gates:` title with none is no-criteria)", () => {
    const real = parseContract(
      "gates-ledger",
      "GATES.md",
      encode("# Gates: app\n\n- [ ] G1: x\n  CHECK: false\n  EXPECT: ok\n"),
    );
    expect(real.criteria.map((k) => k.id)).toEqual(["G1"]);
    const empty = parseContract("gates-ledger", "GATES.md", encode("# Gates: app\n\nScope: x\n"));
    expect(empty.problems.map((p) => p.code)).toEqual(["no-criteria"]);
  });
});

describe("gates-ledger: what unlazy's runner refuses (issue 35 parity)", () => {
  // A ledger as unlazy's template writes it: title, Scope:, OWNS: above the gates.
  const HONEST =
    "# Gates: checkout\n\nScope: the checkout flow\nOWNS: src/checkout/**, test/checkout/**\n\n- [ ] G1: the cart total includes tax\n  CHECK: npm test -- checkout\n  EXPECT: 0 failing\n- [ ] G2: an empty cart cannot be paid\n  CHECK: npm test -- empty-cart\n  EXPECT: 0 failing\n";

  it("the honest twin: OWNS: above the gates, every gate with an outcome", () => {
    const c = ledger(HONEST);
    expect(codes(c)).toEqual([]);
    expect(c.header).toMatchObject({ owns: ["src/checkout/**", "test/checkout/**"] });
  });

  it("a gate line with a blank outcome is an error", () => {
    const c = ledger(HONEST.replace("G2: an empty cart cannot be paid", "G2:"));
    expect(codes(c)).toEqual(["blank-outcome@9:1"]);
    expect(c.problems[0]!.message).toBe("gate G2 has no outcome: nothing after `G2:`");
    // Spaces alone are no outcome either.
    expect(codes(ledger(HONEST.replace("G1: the cart total includes tax", "G1:   ")))).toEqual([
      "blank-outcome@6:1",
    ]);
  });

  it("OWNS: after the first gate is an error (above the gates it is the header's)", () => {
    const moved = HONEST.replace("OWNS: src/checkout/**, test/checkout/**\n", "").replace(
      "- [ ] G2:",
      "OWNS: src/checkout/**\n- [ ] G2:",
    );
    const c = ledger(moved);
    expect(codes(c)).toEqual(["misplaced-owns@8:1"]);
    expect(c.problems[0]!.severity).toBe("error");
    // Inside a fence it is an example, not grammar.
    expect(codes(ledger(`${HONEST}\n\`\`\`\nOWNS: src/**\n\`\`\`\n`))).toEqual([]);
  });
});
