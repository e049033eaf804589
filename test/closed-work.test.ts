/**
 * Closed work is not in scope (issue 35): a qualia repository between
 * milestones keeps every phase contract under `.planning/archive/milestone-*\/`
 * (as qualia's milestone close moves them). Before, `validate` exited 2 and
 * advised adding the archive to the globs — re-gating history. The fixtures
 * are laid out as qualia writes them: per milestone, the phase contract,
 * its plan, its verification notes and `evidence/*-contract-run.json`.
 */
import { describe, expect, it } from "vitest";
import { contractPaths } from "../src/scope/contract-path.js";
import { discoverContracts } from "../src/scope/discover.js";
import { auditDiscovery } from "../src/scope/discover-audit.js";
import { runCli } from "./helpers/cli.js";
import { commitAll } from "./helpers/git.js";
import { baseAndHead, PLAN_BASE, planContract } from "./helpers/integrity-repo.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const ARCHIVE = ".planning/archive/milestone-1-make-it-real";

/** A repository whose only phase contracts lie in a closed milestone. */
function betweenMilestones(): string {
  const root = tempDir("cg-closed-");
  writeTree(root, {
    ".planning/PROJECT.md": "# Project\n\nMilestone 1 shipped; milestone 2 not planned yet.\n",
    ".planning/ROADMAP.md": "# Roadmap\n\n- [x] Milestone 1: make it real\n",
    [`${ARCHIVE}/ROADMAP.md`]: "# Milestone 1\n\n- [x] Phase 1: auth\n",
    [`${ARCHIVE}/phase-1-plan.md`]: PLAN_BASE,
    [`${ARCHIVE}/phase-1-contract.json`]: planContract(),
    [`${ARCHIVE}/phase-1-verification.md`]: "# Phase 1 verification\n\nPASS\n",
    [`${ARCHIVE}/evidence/phase-1-contract-run.json`]: '{"status":"pass"}\n',
    "src/login.js": "export const resetDone = true;\n",
  });
  commitAll(root);
  return root;
}

describe("contracts under an archive directory are closed work", () => {
  it("a repository with only archived contracts has nothing in scope: exit 0, one line saying so", async () => {
    const root = betweenMilestones();
    const r = await runCli(["validate"], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `contract-gate: nothing in scope: the only contracts lie under archive directories (.planning/archive/), closed work the gate does not gate\n`,
    );
    // Never advised to gate history.
    expect(r.stderr).not.toContain("--contracts");
  });

  it("positive control: the same contract outside the archive is suggested, and with nothing found the run is refused", async () => {
    const root = tempDir("cg-closed-");
    writeTree(root, {
      ".planning/milestone-1/phase-1-plan.md": PLAN_BASE,
      ".planning/milestone-1/phase-1-contract.json": planContract(),
    });
    const r = await runCli(["validate"], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--contracts '.planning/milestone-1/phase-*-contract.json'");
  });

  it("defect twin: an active phase contract beside the archive is still gated, and its drift blocks", async () => {
    const root = betweenMilestones();
    writeTree(root, {
      ".planning/phase-1-plan.md": `${PLAN_BASE}\nEdited after the contract was compiled.\n`,
      ".planning/phase-1-contract.json": planContract(),
    });
    const r = await runCli(["validate"], root);
    expect(r.stdout).toContain(".planning/phase-1-contract.json");
    expect(r.stdout).toContain("plan-drift");
    expect(r.stdout).not.toContain(ARCHIVE);
    expect(r.code).toBe(1);
  });

  it("a glob that names the archive itself gates history on purpose", async () => {
    const root = betweenMilestones();
    const globs = [".planning/archive/*/phase-*-contract.json"];
    expect(await discoverContracts({ root, globs })).toEqual([`${ARCHIVE}/phase-1-contract.json`]);
    // A glob that merely reaches into it does not.
    expect(
      await discoverContracts({ root, globs: [".planning/**/phase-*-contract.json"] }),
    ).toEqual([]);
    expect(
      contractPaths([".planning/**/phase-*-contract.json"]).classify(
        `${ARCHIVE}/phase-1-contract.json`,
      ),
    ).toEqual({
      why: "archived",
      dir: ".planning/archive/",
    });
  });

  it("attack: a change that moves its active contract into the archive is a removed contract, blocking", async () => {
    const root = baseAndHead({
      ".planning/phase-1-contract.json": null,
      ".planning/phase-1-plan.md": null,
      [`${ARCHIVE}/phase-1-contract.json`]: planContract(),
      [`${ARCHIVE}/phase-1-plan.md`]: PLAN_BASE,
    });
    const r = await runCli(["validate", "--base", "main", "--json"], root);
    const findings = JSON.parse(r.stdout).integrity.findings as {
      code: string;
      blocking: boolean;
      message: string;
    }[];
    const removed = findings.find((f) => f.code === "contract-removed");
    expect(removed, r.stdout).toMatchObject({ blocking: true });
    expect(r.code).toBe(1);
  });

  it("the audit suggests no archived look-alike beside a found contract", async () => {
    const root = betweenMilestones();
    writeTree(root, { "GATES.md": "# Gates\n\n- [ ] G1: login works\n" });
    const audit = await auditDiscovery({
      root,
      globs: ["GATES.md", ".planning/phase-*-contract.json"],
      given: [],
      found: ["GATES.md"],
    });
    expect(audit).toEqual({ warnings: [], errors: [] });
  });
});
