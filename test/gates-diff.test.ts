import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { compareContracts } from "../src/integrity/compare.js";
import { gatesLedgerFindings } from "../src/integrity/gates-diff.js";
import type { ContractVersion } from "../src/integrity/version.js";

const version = (text: string, path = "GATES.md"): ContractVersion => ({
  path,
  contract: parseContract("gates-ledger", path, new TextEncoder().encode(text)),
  text,
});
const LEDGER = `# Gates: notes

- [ ] G1: the suite passes
  CHECK: npm test
  EXPECT: /^8\\/8 passed$/m
  EVIDENCE: pending

- [ ] G2: the build passes
  CHECK: npm run build
  EXPECT: built in
  CWD: web
  EVIDENCE: pending

- [ ] G3: a person reads the notes
  EVIDENCE: pending
`;
const findings = (head: string | undefined) =>
  gatesLedgerFindings(version(LEDGER), head === undefined ? undefined : version(head)).map(
    (f) => `${f.code}${f.blocking ? "!" : ""}@${f.line} ${f.subject}`,
  );

describe("gates-ledger base rules (pure)", () => {
  it("the base ledger parses cleanly, and an unchanged one is no finding (control)", () => {
    expect(version(LEDGER).contract.problems).toEqual([]);
    expect(findings(LEDGER)).toEqual([]);
  });

  it("boxes ticked and EVIDENCE filled in are no finding: every gate re-runs anyway", () => {
    const done = LEDGER.replaceAll("- [ ]", "- [x]").replaceAll(
      "EVIDENCE: pending",
      "EVIDENCE: MET",
    );
    expect(findings(done)).toEqual([]);
  });

  it("a new gate adds what must pass: no finding", () => {
    expect(
      findings(`${LEDGER}\n- [ ] G4: lint is clean\n  CHECK: npm run lint\n  EXPECT: 0 problems\n`),
    ).toEqual([]);
  });

  it("a gate removed blocks", () => {
    const head = LEDGER.replace(/- \[ \] G2:[\s\S]*?EVIDENCE: pending\n\n/, "");
    expect(findings(head)).toEqual(["criterion-removed!@3 gate G2"]);
  });

  it("its CHECK, EXPECT or CWD changed, or its oracle dropped, blocks", () => {
    expect(findings(LEDGER.replace("CHECK: npm test", "CHECK: true"))).toEqual([
      "oracle-changed!@4 gate G1 CHECK",
    ]);
    expect(findings(LEDGER.replace("EXPECT: built in", "EXPECT: built"))).toEqual([
      "oracle-changed!@9 gate G2 EXPECT",
    ]);
    expect(findings(LEDGER.replace("  CWD: web\n", ""))).toEqual(["oracle-changed!@9 gate G2 CWD"]);
    expect(
      findings(LEDGER.replace("  CHECK: npm test\n  EXPECT: /^8\\/8 passed$/m\n", "")),
    ).toEqual(["oracle-removed!@3 gate G1"]);
  });

  it("a gate renumbered blocks", () => {
    expect(findings(LEDGER.replace("G3: a person", "G9: a person"))).toEqual([
      "criterion-renumbered!@14 gate G3",
    ]);
  });

  it("an ABANDON added needs an approval; one rewritten or removed blocks", () => {
    const abandoned = `${LEDGER}\nABANDON: G3 no reviewer this week\n`;
    expect(findings(abandoned)).toEqual(["abandon-added!@17 ABANDON G3"]);
    const base = version(abandoned);
    const rewritten = version(abandoned.replace("no reviewer this week", "not needed"));
    expect(
      gatesLedgerFindings(base, rewritten).map((f) => `${f.code}${f.blocking ? "!" : ""}`),
    ).toEqual(["abandon-changed!"]);
    expect(gatesLedgerFindings(base, version(LEDGER)).map((f) => f.code)).toEqual([
      "abandon-changed",
    ]);
  });

  it("the ledger deleted blocks, through the comparison's dispatch by kind", () => {
    expect(findings(undefined)).toEqual(["contract-removed!@1 contract"]);
    const viaCompare = compareContracts([{ base: version(LEDGER) }], new Map());
    expect(viaCompare.map((f) => [f.code, f.kind, f.blocking])).toEqual([
      ["contract-removed", "gates-ledger", true],
    ]);
  });
});
