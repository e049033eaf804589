import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { RunReportSchema } from "../src/report/run-json.js";
import { compareWithBase } from "../src/sides/compare-with-base.js";
import { oracleContract } from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import { baseAndHead } from "./helpers/integrity-repo.js";

/** The planner and workphase kinds against their base, in real git repos. */

const fixture = (rel: string) => readFileSync(join(__dirname, "fixtures/kinds", rel), "utf8");

const QR_PATH = "plans/qr-plan-design.json";
const RESEARCH = ".workphase/auth/research.json";
const PLAN = ".workphase/auth/plan.json";
const SPARE = ".workphase/spare/research.json";
const LEGACY = ".workphase/old/research.json";

type Json = Record<string, unknown>;
const QR_JSON = (): Json => JSON.parse(fixture("qr-status/twin/plans/qr-plan-design.json"));
const qr = (edit: (q: Json & { items: Json[] }) => void = () => {}) => {
  const q = QR_JSON() as Json & { items: Json[] };
  q.iteration = 2;
  edit(q);
  return `${JSON.stringify(q, null, 2)}\n`;
};
const atIteration = (n: number) =>
  qr((q) => {
    q.iteration = n;
  });
const RESEARCH_TEXT = fixture("citation-unknown/twin/.workphase/auth/research.json");
const PLAN_TEXT = fixture("citation-unknown/twin/.workphase/auth/plan.json");
const LEGACY_TEXT = fixture("legacy-research/fail/.workphase/auth/research.json");

const BASE: Record<string, string> = {
  [QR_PATH]: qr(),
  [RESEARCH]: RESEARCH_TEXT,
  [PLAN]: PLAN_TEXT,
  [SPARE]: RESEARCH_TEXT,
  [LEGACY]: LEGACY_TEXT,
  "src/app.py": "app = 1\n",
};

interface JsonFinding {
  code: string;
  blocking: boolean;
  path: string;
  line: number;
  subject: string;
  message: string;
  before: string | null;
  after: string | null;
}

async function findingsFor(head: Record<string, string | null>, command = "validate") {
  const root = baseAndHead(head, BASE);
  const { code, stdout, stderr } = await runCli([command, "--base", "main", "--json"], root);
  const json = JSON.parse(stdout || "{}");
  return { code, stderr, json, findings: (json.integrity?.findings ?? []) as JsonFinding[] };
}

const codes = (fs: JsonFinding[]) => fs.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);

describe("planner QR files against their base: warnings, unless an item recorded FAIL stops blocking", () => {
  it("a TODO item now PASS, or keys reordered and reindented, is no finding (control)", async () => {
    const r = await findingsFor({
      [QR_PATH]: qr((q) => {
        q.items[2]!.status = "PASS";
        q.items[2]!.finding = null;
      }),
    });
    expect(r.findings).toEqual([]);
    expect(r.code).toBe(0);
    const reordered = await findingsFor({
      [QR_PATH]: qr((q) => {
        const { id, ...rest } = q.items[0]!;
        q.items[0] = { ...rest, id };
      }).replaceAll("  ", "\t"),
    });
    expect(reordered.findings).toEqual([]);
  });

  it("an item that was PASS at base and changed is a warning, before → after", async () => {
    const r = await findingsFor({
      [QR_PATH]: qr((q) => {
        q.items[0]!.check = "Most decisions have reasoning";
      }),
    });
    expect(codes(r.findings)).toEqual(["W qr-pass-changed"]);
    expect(r.findings[0]).toMatchObject({ path: QR_PATH, subject: "item qa-001" });
    expect(r.findings[0]!.line).toBeGreaterThan(1);
    expect(r.findings[0]!.before).toContain("Every decision has reasoning");
    expect(r.findings[0]!.after).toContain("Most decisions have reasoning");
    expect(r.code).toBe(0);
  });

  it("items added or removed while the file persists are warnings; removing a FAIL item blocks by its effect", async () => {
    const r = await findingsFor({
      [QR_PATH]: qr((q) => {
        q.items.splice(2, 1); // the TODO item: not yet a verdict
        q.items.push({ id: "qa-004", scope: "*", check: "Waves cover milestones" });
      }),
    });
    // Removed items point at line 1 (they are gone at head), so they come first.
    expect(codes(r.findings)).toEqual(["W qr-item-removed", "W qr-item-added"]);
    expect(r.code).toBe(0);
    const failRemoved = await findingsFor({
      [QR_PATH]: qr((q) => {
        q.items.splice(1, 1);
      }),
    });
    expect(codes(failRemoved.findings)).toEqual(["B criterion-weakened", "W qr-item-removed"]);
    expect(failRemoved.code).toBe(1);
  });

  it("an item changed from FAIL to PASS blocks; re-wording its check while it stays FAIL is only a warning-free edit (twin)", async () => {
    const passed = await findingsFor({
      [QR_PATH]: qr((q) => {
        q.items[1]!.status = "PASS";
        q.items[1]!.finding = null;
      }),
    });
    expect(codes(passed.findings)).toEqual(["B criterion-weakened"]);
    expect(passed.findings[0]).toMatchObject({ subject: "criterion qa-002" });
    expect(passed.code).toBe(1);
    const reworded = await findingsFor({
      [QR_PATH]: qr((q) => {
        q.items[1]!.check = "Every intent references a decision";
      }),
    });
    expect(reworded.findings.filter((f) => f.blocking)).toEqual([]);
    expect(reworded.code).toBe(0);
  });

  it("iteration decreasing is a warning; increasing is not (control)", async () => {
    const down = await findingsFor({ [QR_PATH]: atIteration(1) });
    expect(codes(down.findings)).toEqual(["W qr-iteration-decreased"]);
    expect(down.findings[0]).toMatchObject({ before: "2", after: "1" });
    const up = await findingsFor({ [QR_PATH]: atIteration(3) });
    expect(up.findings).toEqual([]);
  });

  it("a deleted QR file with an item recorded FAIL blocks; one with only PASS and TODO items is a warning (twin)", async () => {
    const failing = await findingsFor({ [QR_PATH]: null });
    expect(codes(failing.findings)).toEqual(["B criterion-weakened", "W qr-removed"]);
    expect(failing.code).toBe(1);
    const root = baseAndHead(
      { [QR_PATH]: null },
      {
        ...BASE,
        [QR_PATH]: qr((q) => {
          q.items.splice(1, 1);
        }),
      },
    );
    const out = await runCli(["validate", "--base", "main", "--json"], root);
    const r = {
      code: out.code,
      findings: (JSON.parse(out.stdout).integrity?.findings ?? []) as JsonFinding[],
    };
    expect(codes(r.findings)).toEqual(["W qr-removed"]);
    expect(r.findings[0]).toMatchObject({ path: QR_PATH, line: 1 });
    expect(r.code).toBe(0);
  });

  it("run --base shows the warnings without failing the gate on them", async () => {
    const r = await findingsFor({ [QR_PATH]: atIteration(1) }, "run");
    expect(RunReportSchema.safeParse(r.json).success).toBe(true);
    expect(r.json.integrity.blocking).toBe(0);
    expect(codes(r.findings)).toEqual(["W qr-iteration-decreased"]);
    const root = baseAndHead({ [QR_PATH]: atIteration(1) }, BASE);
    const text = await runCli(["run", "--base", "main"], root);
    expect(text.stdout).toContain("qr-iteration-decreased");
    expect(text.stdout).toContain("iteration went from 2 back to 1");
  });
});

describe("workphase research against its base", () => {
  it("deleting research a head plan still cites blocks, at the plan's citation", async () => {
    const r = await findingsFor({ [RESEARCH]: null });
    expect(codes(r.findings)).toEqual(["B cited-research-removed"]);
    expect(r.findings[0]!.path).toBe(PLAN);
    expect(r.findings[0]!.line).toBeGreaterThan(1);
    expect(r.findings[0]!.message).toContain("research:r1, research:r2");
    expect(r.code).toBe(1);
  });

  it("deleting research nobody cites, or together with its plan, is no finding (controls)", async () => {
    const spare = await findingsFor({ [SPARE]: null });
    expect(spare.findings).toEqual([]);
    expect(spare.code).toBe(0);
    const both = await findingsFor({ [RESEARCH]: null, [PLAN]: null });
    expect(both.findings).toEqual([]);
  });

  it("run --base fails the gate on a deleted cited research file", async () => {
    const r = await findingsFor({ [RESEARCH]: null }, "run");
    expect(RunReportSchema.safeParse(r.json).success).toBe(true);
    expect(r.json.integrity.blocking).toBe(1);
    expect(r.code).toBe(1);
  });

  it("legacy research unchanged since base is accepted with a warning (control)", async () => {
    const r = await findingsFor({ "src/app.py": "app = 2\n" });
    expect(r.findings).toEqual([]);
    expect(r.code).toBe(0);
    const warnings = JSON.stringify(r.json);
    expect(warnings).toContain("legacy-research");
  });

  it("legacy research the PR changes or adds is refused; with ids it is not (control)", async () => {
    const changed = await findingsFor({ [LEGACY]: LEGACY_TEXT.replace("by hand", "manually") });
    expect(codes(changed.findings)).toEqual(["B legacy-research-changed"]);
    expect(changed.findings[0]!.message).toContain("changed");
    expect(changed.code).toBe(1);
    const added = await findingsFor({ ".workphase/new/research.json": LEGACY_TEXT });
    expect(codes(added.findings)).toEqual(["B legacy-research-changed"]);
    expect(added.findings[0]!.message).toContain("added");
    const withIds = await findingsFor({ ".workphase/new/research.json": RESEARCH_TEXT });
    expect(withIds.findings).toEqual([]);
    expect(withIds.code).toBe(0);
  });
});

describe("planner plans, context and workphase plans", () => {
  it("edits and deletions are no finding (the issue names no rule for them)", async () => {
    const r = await findingsFor({
      [PLAN]: PLAN_TEXT.replace("validate tokens once", "validate tokens twice"),
    });
    expect(r.findings).toEqual([]);
    const gone = await findingsFor({ [PLAN]: null });
    expect(gone.findings).toEqual([]);
  });

  it("a workphase plan whose human_decisions_needed is reduced blocks by its effect; one re-worded, or one added, does not (twins)", async () => {
    const withDecisions = (decisions: string[]) =>
      `${JSON.stringify({ ...JSON.parse(PLAN_TEXT), human_decisions_needed: decisions }, null, 2)}\n`;
    const base = { ...BASE, [PLAN]: withDecisions(["rotate the signing key?", "drop v1 tokens?"]) };
    const run = async (head: Record<string, string | null>) => {
      const root = baseAndHead(head, base);
      const out = await runCli(["validate", "--base", "main", "--json"], root);
      return {
        code: out.code,
        findings: (JSON.parse(out.stdout).integrity?.findings ?? []) as JsonFinding[],
      };
    };
    const emptied = await run({ [PLAN]: withDecisions([]) });
    expect(codes(emptied.findings)).toEqual(["B criterion-weakened", "B criterion-weakened"]);
    expect(emptied.code).toBe(1);
    const reduced = await run({ [PLAN]: withDecisions(["drop v1 tokens?"]) });
    expect(codes(reduced.findings)).toEqual(["B criterion-weakened"]);
    expect(reduced.findings[0]!.message).toContain("rotate the signing key?");
    const reworded = await run({
      [PLAN]: withDecisions(["rotate the token signing key?", "drop v1 tokens?", "keep v2?"]),
    });
    expect(reworded.findings).toEqual([]);
    expect(reworded.code).toBe(0);
  });
});

describe("head read at a commit (the action's PR head), not the working tree", () => {
  /** The PR's head commit compared with main while the working tree holds main. */
  async function atHeadCommit(
    head: Record<string, string | null>,
    touched: { basePath?: string; headPath?: string }[],
  ) {
    const root = baseAndHead(head, BASE);
    const headCommit = git(root, "rev-parse", "HEAD").trim();
    git(root, "checkout", "-q", "main");
    const mergeBase = git(root, "rev-parse", "HEAD").trim();
    const findings = await compareWithBase({
      git: openGit(root),
      mergeBase,
      headCommit,
      touched,
      discovered: [],
    });
    return findings.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);
  }

  it("the citing plan is read at the head commit: cited research deleted blocks, plan gone too does not", async () => {
    expect(await atHeadCommit({ [RESEARCH]: null }, [{ basePath: RESEARCH }])).toEqual([
      "B cited-research-removed",
    ]);
    expect(
      await atHeadCommit({ [RESEARCH]: null, [PLAN]: null }, [
        { basePath: RESEARCH },
        { basePath: PLAN },
      ]),
    ).toEqual([]);
  });

  it("added legacy research is refused from the head commit; with ids it is not (control)", async () => {
    const path = ".workphase/new/research.json";
    expect(await atHeadCommit({ [path]: LEGACY_TEXT }, [{ headPath: path }])).toEqual([
      "B legacy-research-changed",
    ]);
    expect(await atHeadCommit({ [path]: RESEARCH_TEXT }, [{ headPath: path }])).toEqual([]);
  });
});

describe("supersedes: read where the head versions are read", () => {
  const A = ".claude/tasks/contracts/2026-11-29-a-1200.md";
  const B = ".claude/tasks/contracts/2026-11-29-b-1200.md";
  const criteria = [{ title: "it works", check: "test -f src/ok && echo OK", expect: "OK" }];

  async function deleteA(read: "commit" | "disk") {
    const root = baseAndHead(
      { [A]: null },
      { [A]: oracleContract("a", criteria), [B]: oracleContract("b", criteria) },
    );
    // A step before the gate names the deleted contract as superseded, on disk only.
    const onDisk = oracleContract("b", criteria).replace(
      "- status: active",
      `- status: active\n- supersedes: ${A}`,
    );
    writeFileSync(join(root, B), onDisk);
    const findings = await compareWithBase({
      git: openGit(root),
      mergeBase: git(root, "rev-parse", "main").trim(),
      ...(read === "commit" ? { headCommit: git(root, "rev-parse", "HEAD").trim() } : {}),
      touched: [{ basePath: A }],
      discovered: [B],
    });
    return findings.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);
  }

  it("at the head commit a supersedes: line written on disk excuses nothing: the deletion blocks", async () => {
    expect(await deleteA("commit")).toEqual(["B contract-removed"]);
  });

  it("control: read from the working tree (the CLI without --committed) it would excuse the deletion", async () => {
    expect(await deleteA("disk")).toEqual(["W contract-superseded"]);
  });
});
