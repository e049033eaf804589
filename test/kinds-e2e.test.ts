/**
 * One PR touching a file of each planner and workphase kind, through the
 * bundled action (dist/index.js) and the GitHub stand-in; then the
 * base rules of those kinds end to end: QR changes are warnings on every
 * surface that never block, deleting cited research blocks, a deleted QR file
 * is shown, and legacy research is accepted only while the PR leaves it alone.
 * Run `npm run bundle` after changing src/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, type ExpectStatic, it } from "vitest";
import type { Annotation } from "../src/github/types.js";
import { type RunReportJson, RunReportSchema } from "../src/report/run-json.js";
import type { CheckRunState } from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  finish,
  makeRepo,
  REPO,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";

const KINDS = join(import.meta.dirname, "fixtures", "kinds");
const fixture = (rel: string) => readFileSync(join(KINDS, rel), "utf8");

describe("contract-gate action (dist/index.js): the planner and workphase kinds", () => {
  it("a PR with a plan, its context, a QR file and a workphase pair: every criterion on every surface", async ({
    expect,
  }) => {
    const repo = await makeRepo({
      base: { "README.md": "# widgets\n", "tests/test_auth.py": "def test_ok(): pass\n" },
      head: {
        "plans/auth-plan.json": fixture("planner-unknown-key/twin/plans/auth-plan.json"),
        "plans/context.json": fixture("context-missing-field/twin/plans/context.json"),
        "plans/qr-plan-design.json": fixture("qr-status/twin/plans/qr-plan-design.json"),
        ".workphase/auth/research.json": fixture(
          "citation-unknown/twin/.workphase/auth/research.json",
        ),
        ".workphase/auth/plan.json": fixture("citation-unknown/twin/.workphase/auth/plan.json"),
      },
    });
    const gh = await standInFor(repo, {});
    try {
      const r = await runAction({ repo, gh, event: "pull_request" });
      expect(r.code, r.stdout).toBe(1);
      const report = JSON.parse(readFileSync(r.outputs.report!, "utf8")) as {
        contracts: {
          path: string;
          kind: string;
          criteria: { id: string; status: string; blocking: boolean }[];
        }[];
      };
      expect(report.contracts.map((c) => [c.path, c.kind])).toEqual([
        [".workphase/auth/plan.json", "workphase-plan"],
        [".workphase/auth/research.json", "workphase-research"],
        ["plans/auth-plan.json", "planner-plan"],
        ["plans/context.json", "planner-context"],
        ["plans/qr-plan-design.json", "planner-qr"],
      ]);
      const blocking = report.contracts.flatMap((c) =>
        c.criteria.filter((k) => k.blocking).map((k) => `${c.path}#${k.id}`),
      );
      expect(blocking.sort()).toEqual([
        ".workphase/auth/plan.json#assumption-r2",
        "plans/qr-plan-design.json#in-progress",
        "plans/qr-plan-design.json#qa-002",
        "plans/qr-plan-design.json#qa-003",
      ]);
      const [run] = gh.repo(REPO).checkRuns;
      expect(run!.conclusion).toBe("failure");
      const failures = (run!.output.annotations as unknown as Annotation[]).filter(
        (a) => a.annotation_level === "failure",
      );
      expect(failures.map((a) => a.path)).toContain("plans/qr-plan-design.json");
      const [comment] = gh.repo(REPO).comments;
      expect(comment!.body).toContain("quality review in progress");
      expect(comment!.body).toContain("needs a person");
      expect(gh.violations).toEqual([]);
    } finally {
      await gh.close();
    }
  });
});

// ------------------------------------------------------------------ against the PR base

const QR = "plans/qr-plan-design.json";
const RESEARCH = ".workphase/auth/research.json";
const PLAN = ".workphase/auth/plan.json";
const LEGACY = ".workphase/old/research.json";
const MOVED = ".workphase/older/research.json";

type Json = Record<string, unknown>;
type QrFile = Json & { iteration: number; items: Json[] };

/**
 * The QR fixture with every item PASS at iteration 3, after `edit`: its
 * own criteria then decide the same at base and head, so any difference
 * between two runs is the base comparison's.
 */
function qr(edit: (q: QrFile) => void = () => {}): string {
  const q = JSON.parse(fixture("qr-status/twin/plans/qr-plan-design.json")) as QrFile;
  q.iteration = 3;
  for (const item of q.items) {
    item.status = "PASS";
    item.finding = null;
  }
  edit(q);
  return `${JSON.stringify(q, null, 2)}\n`;
}

const RESEARCH_TEXT = fixture("citation-unknown/twin/.workphase/auth/research.json");
/** Cites research:r1 and research:r2. */
const CITING_PLAN = fixture("citation-unknown/twin/.workphase/auth/plan.json");
/** The same plan citing nothing. */
const PLAIN_PLAN = fixture("citation-no-research/twin/.workphase/auth/plan.json");
/** Findings without `id` or `confidence` (the seed's form). */
const LEGACY_TEXT = fixture("legacy-research/fail/.workphase/auth/research.json");

interface Gate {
  r: ActionResult;
  report: RunReportJson;
  run: CheckRunState;
  annotations: Annotation[];
  comment: string;
}

/** One `pull_request` run of the bundled action on a PR from `base` to `base + head`. */
async function gate(
  expect: ExpectStatic,
  base: Files,
  head: Files,
  inputs: Record<string, string> = {},
): Promise<Gate> {
  const repo = await makeRepo({ base: { "README.md": "# widgets\n", ...base }, head });
  const gh = await standInFor(repo, {});
  try {
    const r = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    // Parsed by the published schema: a report off the schema fails here.
    const report = RunReportSchema.parse(JSON.parse(readFileSync(r.outputs.report!, "utf8")));
    const run = gh.repo(REPO).checkRuns.at(-1)!;
    const comment = gh.repo(REPO).comments.at(-1)?.body ?? "";
    return {
      r,
      report,
      run,
      annotations: run.output.annotations as unknown as Annotation[],
      comment,
    };
  } finally {
    await finish(gh, expect);
  }
}

const findingCodes = (g: Gate) =>
  (g.report.integrity?.findings ?? []).map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);

/**
 * The finding `code` at `path:line` on every surface: the JSON report, a
 * check-run annotation at that line (warning or failure), the check run's
 * summary, the sticky comment and the job summary.
 */
function expectEverywhere(
  expect: ExpectStatic,
  g: Gate,
  code: string,
  at: { path: string; blocking: boolean; message: string },
) {
  const found = g.report.integrity!.findings.find((f) => f.code === code);
  expect(found, code).toMatchObject({ path: at.path, blocking: at.blocking });
  expect(found!.message).toContain(at.message);
  expect(g.annotations).toContainEqual(
    expect.objectContaining({
      path: at.path,
      start_line: found!.line,
      annotation_level: at.blocking ? "failure" : "warning",
      title: `Contract change: ${code}`,
      message: expect.stringContaining(at.message),
    }),
  );
  const listed = `\`${at.path}:${found!.line}\` \`${code}\``;
  for (const [surface, text] of [
    ["check run summary", g.run.output.summary ?? ""],
    ["PR comment", g.comment],
    ["job summary", g.r.summary],
  ] as const) {
    expect(text, surface).toContain("### Contract changes");
    expect(text, surface).toContain(listed);
  }
  expect(g.r.stdout, "step log").toContain(
    `${at.blocking ? "✘ blocking" : "! warning"}  ${at.path}:${found!.line}  ${code}  `,
  );
}

/** No "Contract changes" section and no finding anywhere. */
function expectNoFinding(expect: ExpectStatic, g: Gate) {
  expect(g.report.integrity).toMatchObject({ applies: true, blocking: 0, findings: [] });
  expect(g.annotations.filter((a) => a.title?.startsWith("Contract change"))).toEqual([]);
  for (const text of [g.run.output.summary ?? "", g.comment, g.r.summary]) {
    expect(text).not.toContain("### Contract changes");
  }
  expect(g.r.stdout).toMatch(/^Contract changes against the merge base \w+\n {2}none$/m);
}

describe("the planner and workphase base rules through the bundled action", () => {
  it("QR: a PASS item changed, items added and removed, iteration wound back → warnings on every surface that block nothing", async ({
    expect,
  }) => {
    // Control: the same review progressing honestly, a TODO item now PASS (an
    // item added as the review widens is a warning, so the control keeps the
    // item set; an item recorded FAIL at base changing is criterion-weakened).
    const honest = await gate(
      expect,
      {
        [QR]: qr((q) => {
          q.iteration = 2;
          delete q.items[1]!.status;
          delete q.items[1]!.finding;
        }),
      },
      { [QR]: qr() },
    );
    expectNoFinding(expect, honest);

    const rewound = await gate(
      expect,
      { [QR]: qr() },
      {
        [QR]: qr((q) => {
          q.iteration = 1;
          q.items[0]!.check = "Most decisions have reasoning";
          q.items.splice(1, 1); // qa-002
          q.items.push({
            id: "qa-004",
            scope: "*",
            check: "Waves cover milestones",
            status: "PASS",
          });
        }),
      },
    );
    expect(findingCodes(rewound).sort()).toEqual([
      "W qr-item-added",
      "W qr-item-removed",
      "W qr-iteration-decreased",
      "W qr-pass-changed",
    ]);
    expectEverywhere(expect, rewound, "qr-pass-changed", {
      path: QR,
      blocking: false,
      message: "item qa-001 was PASS at base and changed",
    });
    expectEverywhere(expect, rewound, "qr-item-removed", {
      path: QR,
      blocking: false,
      message: "item qa-002 was removed",
    });
    expectEverywhere(expect, rewound, "qr-item-added", {
      path: QR,
      blocking: false,
      message: "item qa-004 was added",
    });
    expectEverywhere(expect, rewound, "qr-iteration-decreased", {
      path: QR,
      blocking: false,
      message: "iteration went from 3 back to 1",
    });
    // The PASS item's before → after reaches the annotation and the comment.
    const diff = [
      '- {"id":"qa-001","scope":"*","check":"Every decision has reasoning","status":"PASS","finding":null}',
      '+ {"id":"qa-001","scope":"*","check":"Most decisions have reasoning","status":"PASS","finding":null}',
    ];
    expect(rewound.comment).toContain(diff.map((l) => `  ${l}`).join("\n"));
    expect(
      rewound.annotations.find((a) => a.title === "Contract change: qr-pass-changed")!.message,
    ).toContain(diff.join("\n"));

    // Not blocking: the gate decides exactly as in the control. A QR file
    // still present blocks by itself (the planner deletes it on pass), so both
    // fail on that criterion alone, and no contract change is counted.
    expect(rewound.report.integrity!.blocking).toBe(0);
    expect(rewound.run.output.title).not.toMatch(/blocking contract change/);
    for (const g of [honest, rewound]) {
      expect(g.r.code).toBe(1);
      expect(g.run.conclusion).toBe("failure");
      expect(
        g.report.contracts.flatMap((c) => c.criteria.filter((k) => k.blocking).map((k) => k.id)),
      ).toEqual(["in-progress"]);
    }
  });

  it("a QR file the PR deletes is shown as a warning; the gate passes", async ({ expect }) => {
    const g = await gate(
      expect,
      { [QR]: qr(), [RESEARCH]: RESEARCH_TEXT, [PLAN]: PLAIN_PLAN },
      { [QR]: null, [PLAN]: PLAIN_PLAN.replace("validate tokens once", "validate tokens at once") },
    );
    expect(findingCodes(g)).toEqual(["W qr-removed"]);
    expectEverywhere(expect, g, "qr-removed", {
      path: QR,
      blocking: false,
      message: `${QR} was deleted`,
    });
    expect(g.r.code).toBe(0);
    expect(g.run.conclusion).toBe("success");
    expect(g.r.outputs.conclusion).toBe("success");
  });

  it("research deleted while the plan beside it still cites it → a blocking finding at the plan's citation; plan no longer citing → none", async ({
    expect,
  }) => {
    const base = { [RESEARCH]: RESEARCH_TEXT, [PLAN]: CITING_PLAN };
    const cited = await gate(expect, base, { [RESEARCH]: null });
    expect(findingCodes(cited)).toEqual(["B cited-research-removed"]);
    expectEverywhere(expect, cited, "cited-research-removed", {
      path: PLAN,
      blocking: true,
      message: `${RESEARCH} was deleted or moved, but ${PLAN} still cites research:r1, research:r2`,
    });
    const at = cited.report.integrity!.findings[0]!;
    expect(CITING_PLAN.split("\n")[at.line - 1]).toContain("(research:r1)");
    expect(cited.report.integrity!.blocking).toBe(1);
    expect(cited.r.code).toBe(1);
    expect(cited.run.conclusion).toBe("failure");
    expect(cited.run.output.title).toMatch(/^1 blocking contract change \(need approval\)/);
    expect(cited.comment).toContain("**1 blocking change**");

    // Control: the PR also rewrites the plan so it cites nothing.
    const uncited = await gate(expect, base, { [RESEARCH]: null, [PLAN]: PLAIN_PLAN });
    expectNoFinding(expect, uncited);
    expect(uncited.r.code).toBe(0);
    expect(uncited.run.conclusion).toBe("success");
  });

  it("legacy (id-less) research: unchanged since base → accepted with a warning; changed by the PR → refused", async ({
    expect,
  }) => {
    const base = { [LEGACY]: LEGACY_TEXT, "src/app.py": "app = 1\n" };
    // scope all: the gate reads the research the PR leaves alone.
    const kept = await gate(expect, base, { "src/app.py": "app = 2\n" }, { scope: "all" });
    expectNoFinding(expect, kept);
    expect(kept.r.code).toBe(0);
    expect(kept.run.conclusion).toBe("success");
    const legacy = kept.report.contracts.find((c) => c.path === LEGACY)!;
    expect(legacy.problems.map((p) => [p.code, p.severity])).toEqual([
      ["legacy-research", "warning"],
    ]);
    expect(kept.annotations).toContainEqual(
      expect.objectContaining({ path: LEGACY, annotation_level: "warning" }),
    );
    for (const text of [kept.run.output.summary ?? "", kept.comment, kept.r.summary]) {
      expect(text).toContain("legacy-research");
    }

    // Moved unchanged (git pairs the paths): its text is the base's, so still accepted.
    const moved = await gate(expect, base, { [LEGACY]: null, [MOVED]: LEGACY_TEXT });
    expectNoFinding(expect, moved);
    expect(moved.r.code).toBe(0);
    expect(moved.report.contracts.map((c) => [c.path, c.problems.map((p) => p.code)])).toEqual([
      [MOVED, ["legacy-research"]],
    ]);

    const edited = await gate(expect, base, {
      [LEGACY]: LEGACY_TEXT.replace("by hand", "manually"),
    });
    expect(findingCodes(edited)).toEqual(["B legacy-research-changed"]);
    expectEverywhere(expect, edited, "legacy-research-changed", {
      path: LEGACY,
      blocking: true,
      message: `${LEGACY} is changed by this PR with 1 finding in the legacy form`,
    });
    expect(edited.r.code).toBe(1);
    expect(edited.run.conclusion).toBe("failure");

    // Control: the PR gives the findings ids and confidences — an upgrade, accepted.
    const upgraded = await gate(expect, base, {
      [LEGACY]: fixture("legacy-research/twin/.workphase/auth/research.json"),
    });
    expectNoFinding(expect, upgraded);
    expect(upgraded.r.code).toBe(0);
    expect(upgraded.report.contracts.flatMap((c) => c.problems)).toEqual([]);
  });
});
