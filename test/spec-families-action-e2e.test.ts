/**
 * Kiro specs and OpenSpec changes through the bundled action (dist/index.js)
 * against the GitHub stand-in, whole and sharded: an honest PR is green, a PR
 * that un-checks a Kiro task and softens an OpenSpec main spec with no delta
 * saying so blocks, and the sharded legs plus their merge post the same
 * verdict and findings as the whole run; archiving the change as OpenSpec does
 * is the softening's honest twin. Run `npm run bundle` after changing src/.
 */
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ActionResult,
  type Files,
  finish,
  makeRepo,
  posted,
  REPO,
  runAction,
  scratch,
  standInFor,
} from "./helpers/action-harness.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const INPUTS = { sandbox: "off", "requirement-proof": "off" };
const KIRO_TASKS = ".kiro/specs/export-reports/tasks.md";
const MAIN = "openspec/specs/notifications/spec.md";
const CHANGE_TASKS = "openspec/changes/add-digest-emails/tasks.md";

function tree(dir: string): Files {
  const out: Files = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else out[relative(dir, abs)] = readFileSync(abs, "utf8");
    }
  };
  walk(dir);
  return out;
}

const BASE: Files = {
  ...tree(join(FIXTURES, "kiro", "honest")),
  ...tree(join(FIXTURES, "openspec", "twin")),
};
const text = (path: string) => BASE[path] as string;

/** The honest PR: progress on both (a Kiro task whose file exists checked off, an OpenSpec task done). */
const HONEST: Files = {
  [KIRO_TASKS]: text(KIRO_TASKS).replace("  - [ ] 2.2 Enforce", "  - [x] 2.2 Enforce"),
  [CHANGE_TASKS]: text(CHANGE_TASKS).replace("- [ ] 1.2 Write", "- [x] 1.2 Write"),
};
/** The weakening PR: a done Kiro task re-opened, a main-spec SHALL softened with no delta. */
const WEAKENING: Files = {
  [KIRO_TASKS]: text(KIRO_TASKS).replace("  - [x] 2.1 Wire", "  - [ ] 2.1 Wire"),
  [MAIN]: text(MAIN).replace("The dashboard SHALL show", "The dashboard SHOULD show"),
};

/**
 * The archive flow, the weakening's honest twin: the change moved into
 * archive/ with its tasks done and the main spec rewritten as its delta says
 * (a requirement removed, one renamed) — the main spec's change is declared.
 */
const CHANGE = "openspec/changes/add-digest-emails";
const ARCHIVED = "openspec/changes/archive/2026-03-09-add-digest-emails";
const ARCHIVED_MAIN = readFileSync(join(FIXTURES, "openspec", "archived-main.md"), "utf8");
const ARCHIVE: Files = {
  ...Object.fromEntries(
    Object.keys(BASE)
      .filter((p) => p.startsWith(`${CHANGE}/`))
      .flatMap((p) => [
        [p, null],
        [
          p.replace(CHANGE, ARCHIVED),
          p === CHANGE_TASKS ? text(p).replace(/- \[ \]/g, "- [x]") : text(p),
        ],
      ]),
  ),
  [MAIN]: ARCHIVED_MAIN,
};

interface Report {
  contracts: { path: string; kind: string }[];
  integrity?: { findings: { code: string; blocking: boolean; path: string }[] };
}
const reportOf = (r: ActionResult) => JSON.parse(readFileSync(r.outputs.report!, "utf8")) as Report;
const blocking = (report: Report) =>
  (report.integrity?.findings ?? [])
    .filter((f) => f.blocking)
    .map((f) => `${f.code} ${f.path}`)
    .sort();

async function whole(head: Files) {
  const repo = await makeRepo({ base: BASE, head });
  const gh = await standInFor(repo);
  try {
    const r = await runAction({ repo, gh, event: "pull_request", inputs: INPUTS });
    return { r, report: reportOf(r), ...posted(gh) };
  } finally {
    await finish(gh, expect);
  }
}

describe("the action on a Kiro spec and an OpenSpec change", () => {
  it("an honest PR (tasks checked off on both) is green, no blocking change", async () => {
    const { r, report, checkRuns } = await whole(HONEST);
    expect(r.code, r.stdout).toBe(0);
    expect(report.contracts.map((c) => `${c.kind} ${c.path}`).sort()).toEqual([
      "kiro-spec .kiro/specs/export-reports/requirements.md",
      "openspec-change openspec/changes/add-digest-emails/proposal.md",
    ]); // the main spec is untouched: out of the PR's scope
    expect(blocking(report)).toEqual([]);
    expect(checkRuns[0]!.conclusion).not.toBe("failure");
  });

  it("the archive flow (main spec rewritten as the archived delta says) is green; the same main spec alone blocks", async () => {
    const archived = await whole(ARCHIVE);
    expect(archived.r.code, archived.r.stdout).toBe(0);
    expect(blocking(archived.report)).toEqual([]);
    // Control: the main spec rewritten with no change archived in the PR drops what it dropped.
    const bare = await whole({ [MAIN]: ARCHIVED_MAIN });
    expect(bare.r.code).toBe(1);
    expect(blocking(bare.report)).toEqual([
      `openspec-requirement-dropped ${MAIN}`,
      `openspec-requirement-dropped ${MAIN}`,
      `openspec-requirement-dropped ${MAIN}`,
    ]);
  });

  it("a PR re-opening a Kiro task and softening a main spec blocks, whole and sharded alike", async () => {
    const one = await whole(WEAKENING);
    expect(one.r.code).toBe(1);
    expect(one.checkRuns[0]!.conclusion).toBe("failure");
    expect(blocking(one.report)).toEqual([
      `kiro-task-unchecked ${KIRO_TASKS}`,
      `openspec-requirement-softened ${MAIN}`,
    ]);
    // Two legs, each on its own runner, then the merge job.
    const repo = await makeRepo({ base: BASE, head: WEAKENING });
    const dir = scratch("cg-download-");
    const legs = await standInFor(repo);
    try {
      for (const shard of ["1/2", "2/2"]) {
        const r = await runAction({
          repo,
          gh: legs,
          event: "pull_request",
          inputs: { ...INPUTS, shard },
        });
        expect(r.code, r.stdout + r.stderr).toBe(0); // a leg never fails its step
        copyFileSync(r.outputs["report-file"]!, join(dir, basename(r.outputs["report-file"]!)));
      }
    } finally {
      await finish(legs, expect);
    }
    const gh = await standInFor(repo);
    try {
      const r = await runAction({
        repo,
        gh,
        event: "pull_request",
        inputs: { ...INPUTS, "merge-reports": dir },
      });
      expect(r.code).toBe(1);
      expect(blocking(reportOf(r))).toEqual(blocking(one.report));
      const merged = posted(gh);
      expect(merged.checkRuns.map((c) => c.conclusion)).toEqual(["failure"]);
      expect(gh.repo(REPO).checkRuns).toHaveLength(1);
    } finally {
      await finish(gh, expect);
    }
  });
});
