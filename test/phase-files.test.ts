import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectChanged } from "../src/action/select.js";
import { companionsOf } from "../src/formats/kinds/companions.js";
import { phaseFiles } from "../src/formats/kinds/phase-files.js";
import { discoverContracts } from "../src/scope/discover.js";
import { runCli } from "./helpers/cli.js";
import { commitAll } from "./helpers/git.js";
import { copyTree } from "./helpers/tmp.js";

const FIXTURES = join(import.meta.dirname, "fixtures/files");
const NAMED = ".planning/phase-invoicing-reliability";

async function runJson(root: string, ...args: string[]) {
  const r = await runCli(["run", "--root", root, "--json", ...args], root);
  return { ...r, report: JSON.parse(r.stdout) };
}

describe("phase names that are not numbers pair by file name", () => {
  it("one function names every companion, numeric or not", () => {
    expect(phaseFiles(`${NAMED}-contract.json`)).toEqual({
      name: "invoicing-reliability",
      plan: `${NAMED}-plan.md`,
      evidence: `${NAMED}-evidence.json`,
      verificationJson: `${NAMED}-verification.json`,
      verificationMarkdown: `${NAMED}-verification.md`,
    });
    expect(phaseFiles("phase-2-contract.json")?.plan).toBe("phase-2-plan.md");
    expect(phaseFiles("contracts/auth.json")).toBeUndefined();
    expect(companionsOf(`${NAMED}-contract.json`)).toEqual([
      `${NAMED}-contract.json`,
      `${NAMED}-plan.md`,
      `${NAMED}-evidence.json`,
    ]);
  });

  it("validate: phase 99 beside a hash-matching phase-<name>-plan.md is valid, no drift", async () => {
    const root = copyTree(join(FIXTURES, "named-phase"));
    const r = await runCli(["validate", "--root", root, "--json"], root);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.contracts).toEqual([
      expect.objectContaining({
        path: `${NAMED}-contract.json`,
        valid: true,
        drift: "match",
        problems: [],
      }),
    ]);
  });

  it("validate: the drifted twin names its own plan, never phase-99-plan.md", async () => {
    const root = copyTree(join(FIXTURES, "named-phase-drifted"));
    const r = await runCli(["validate", "--root", root], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`plan-drift ${NAMED}-plan.md drifted from the contract`);
    expect(r.stdout).not.toContain("phase-99");
  });

  it("run: evidence is read and verification written under the name", async () => {
    const root = copyTree(join(FIXTURES, "named-phase"));
    const r = await runJson(root);
    expect(r.code).toBe(0);
    expect(r.report.contracts[0].verdict).toBe("pass");
    // The behavioral check was met from phase-invoicing-reliability-evidence.json.
    expect(r.report.contracts[0].criteria.map((k: { status: string }) => k.status)).toEqual([
      "met",
      "met",
    ]);
    const json = JSON.parse(readFileSync(join(root, `${NAMED}-verification.json`), "utf8"));
    expect(json.verdict).toBe("pass");
    expect(existsSync(join(root, `${NAMED}-verification.md`))).toBe(true);
    expect(existsSync(join(root, ".planning/phase-99-verification.json"))).toBe(false);

    const drifted = await runJson(copyTree(join(FIXTURES, "named-phase-drifted")));
    expect(drifted.code).toBe(1);
    expect(drifted.report.contracts[0].verdict).toBe("drifted");
  });

  it("--changed-since and PR selection: a change to the named plan selects its contract", async () => {
    const root = copyTree(join(FIXTURES, "named-phase"));
    commitAll(root);
    const none = await runJson(root, "--no-write", "--changed-since", "HEAD");
    expect(none.report.contracts).toEqual([]);
    const drifted = readFileSync(join(FIXTURES, "named-phase-drifted", `${NAMED}-plan.md`));
    writeFileSync(join(root, `${NAMED}-plan.md`), drifted);
    const r = await runJson(root, "--no-write", "--changed-since", "HEAD");
    expect(r.report.contracts.map((c: { path: string; verdict: string }) => c.verdict)).toEqual([
      "drifted",
    ]);

    const discovered = await discoverContracts({ root });
    const globs = [".planning/phase-*-contract.json"];
    for (const changed of [`${NAMED}-plan.md`, `${NAMED}-evidence.json`]) {
      expect(
        selectChanged(discovered, [{ path: changed, status: "modified" }], globs, "").selected,
      ).toEqual([`${NAMED}-contract.json`]);
    }
  });

  it("a contract of another name pairs with no plan: a recorded hash is plan-missing, saying why", async () => {
    const root = copyTree(join(FIXTURES, "named-phase"));
    renameSync(join(root, `${NAMED}-contract.json`), join(root, ".planning/invoicing.json"));
    const r = await runCli(["validate", "--root", root, ".planning/invoicing.json"], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("plan-missing source_plan_hash is set but no plan pairs");
  });
});

describe("validate checks each contract's evidence file", () => {
  it("a typo key in phase-N-evidence.json fails validate, as it fails run; the valid twin passes both", async () => {
    const valid = copyTree(join(FIXTURES, "evidence-valid"));
    const ok = await runCli(["validate", "--root", valid], valid);
    expect(ok.code).toBe(0);
    expect((await runJson(valid, "--no-write")).code).toBe(0);

    const typo = copyTree(join(FIXTURES, "evidence-typo"));
    const bad = await runCli(["validate", "--root", typo], typo);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /\.planning\/phase-3-evidence\.json:\d+:\d+: error unknown-key .*snipet/,
    );
    // run fails too: no citation from an invalid evidence file is trusted.
    const ran = await runJson(typo, "--no-write");
    expect(ran.code).toBe(1);
    expect(ran.report.contracts[0].criteria[0].status).not.toBe("met");
  });

  it("status shows the evidence problem too, and a missing evidence file is no problem", async () => {
    const typo = copyTree(join(FIXTURES, "evidence-typo"));
    const status = await runCli(["status", "--root", typo, "--json"], typo);
    const contract = JSON.parse(status.stdout).contracts[0];
    expect(contract.valid).toBe(false);

    const root = copyTree(join(FIXTURES, "evidence-valid"));
    rmSync(join(root, ".planning/phase-3-evidence.json"));
    expect((await runCli(["validate", "--root", root], root)).code).toBe(0);
  });
});
