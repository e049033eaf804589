/**
 * Run what was compared, for the files a contract reads beside itself: a
 * workphase plan's research, a plan contract's plan and evidence. A step
 * before the gate that runs PR code (a `postinstall`) rewrites one of them
 * after checkout so the working tree reads green while the commit is red.
 * Each case shows the rewrite works when the working tree is read (the
 * control), then that `--committed` blocks the contract as
 * `worktree-modified`, naming the rewritten file. The contract's own file and
 * a spec's `tasks.md` are covered in test/worktree-modified.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { planContract } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { baseAndHead } from "./helpers/integrity-repo.js";

/** Every file of a fixture tree, by its path relative to the tree. */
function treeOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [relative(dir, path), readFileSync(path, "utf8")];
      }),
  );
}

/** The committed files, the one a postinstall rewrites, and what it writes there. */
interface Case {
  name: string;
  committed: Record<string, string>;
  contract: string;
  rewritten: string;
  text: (committed: string) => string;
}

// The committed plan cites research:r9, which the committed research lacks.
const WORKPHASE = treeOf(join(import.meta.dirname, "fixtures/kinds/citation-unknown/fail"));
const RESEARCH = ".workphase/auth/research.json";

// A plan contract whose recorded hash is of an older plan: drift, until the plan is put back.
const PHASE = planContract(
  1,
  [{ id: "T1", verification: [{ type: "file-exists", path: "README.md" }] }],
  { drifted: true },
);
const PLAN = ".planning/phase-1-plan.md";
const EVIDENCE = ".planning/phase-1-evidence.json";

const CASES: Case[] = [
  {
    name: "workphase research",
    committed: WORKPHASE,
    contract: ".workphase/auth/plan.json",
    rewritten: RESEARCH,
    text: (research) => {
      const json = JSON.parse(research);
      json.findings.push({ id: "r9", claim: "made up", evidence: "none", confidence: "fact" });
      return `${JSON.stringify(json, null, 2)}\n`;
    },
  },
  {
    name: "a plan contract's plan",
    committed: PHASE,
    contract: ".planning/phase-1-contract.json",
    rewritten: PLAN,
    text: (plan) => `${plan}\nan older plan\n`,
  },
  {
    name: "a plan contract's evidence",
    // Committed broken, so only a rewrite on disk makes the contract valid.
    committed: { ...PHASE, [PLAN]: `${PHASE[PLAN]}\nan older plan\n`, [EVIDENCE]: "{ broken" },
    contract: ".planning/phase-1-contract.json",
    rewritten: EVIDENCE,
    text: () => '{ "version": 1, "phase": 1, "citations": [] }\n',
  },
];

describe("a contract's companion file rewritten on disk by a step before the gate", () => {
  it.each(CASES)(
    "$name: read from the working tree it turns green (control); --committed blocks it as worktree-modified",
    async (c) => {
      const root = baseAndHead(c.committed, { "README.md": "app\n" });
      const before = await runCli(["validate"], root);
      expect(before.code, before.stdout).toBe(1);

      writeFileSync(join(root, c.rewritten), c.text(c.committed[c.rewritten] ?? ""));
      const dev = await runCli(["validate"], root);
      expect(dev.code, dev.stdout).toBe(0);

      const r = await runCli(["validate", "--committed"], root);
      expect(r.stdout).toContain(
        `${c.contract}:1:1: error worktree-modified ${c.rewritten} in the working tree differs from commit`,
      );
      expect(r.code).toBe(1);
    },
  );

  it.each(CASES)(
    "$name, honest twin: unchanged on disk, --committed finds nothing modified",
    async (c) => {
      const root = baseAndHead(c.committed, { "README.md": "app\n" });
      const r = await runCli(["validate", "--committed"], root);
      expect(r.stdout).not.toContain("worktree-modified");
    },
  );
});
