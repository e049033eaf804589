/**
 * A sharded leg judges the change as an unsharded run does (issue 35): it
 * loads its contracts with the PR's merge base, so a phantom completion (a
 * task this PR marks done whose file is absent at head) blocks in the leg's
 * report and in the merge, while a task done at the base (its file moved by
 * a later refactor) does not. Before, legs loaded with no base: every
 * missing path was a warning, and the attack merged green. Runs the bundle
 * (dist/index.js): `npm run bundle` after changing src/.
 */
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Files,
  finish,
  makeRepo,
  posted,
  runAction,
  scratch,
  standInFor,
} from "./helpers/action-harness.js";

const TWIN = join(import.meta.dirname, "fixtures", "specs", "phantom-completion", "twin");
const TASKS = "specs/002-albums/tasks.md";
const OPEN_T008 = "- [ ] T008 [US2] Add album titles in `src/services/titles.ts`";

function filesOf(dir: string, under = dir): Files {
  const out: Files = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) Object.assign(out, filesOf(abs, under));
    else out[relative(under, abs)] = readFileSync(abs, "utf8");
  }
  return out;
}

/** The base: spec-kit's tree with T005 done, its service since moved by a refactor. */
function base(): Files {
  const files = filesOf(TWIN);
  files["src/app/services/albums.ts"] = files["src/services/albums.ts"]!;
  delete files["src/services/albums.ts"];
  // T008 open at the base, its description free of the words (rename, move, delete…) that
  // exempt a task whose path may rightly be gone.
  files[TASKS] = (files[TASKS] as string).replace(
    "- [ ] T008 [US2] Add rename to `src/services/rename.ts`",
    OPEN_T008,
  );
  if (!(files[TASKS] as string).includes(OPEN_T008)) throw new Error("fixture: T008 not found");
  return files;
}

const tasksAtBase = () => base()[TASKS] as string;
const HEADS: Record<"attack" | "honest", () => Files> = {
  // The PR checks T008 off, naming a file nobody wrote.
  attack: () => ({
    [TASKS]: tasksAtBase().replace(OPEN_T008, OPEN_T008.replace("[ ]", "[X]")),
  }),
  // The PR adds an open task: T005's moved file is the history's, not this PR's.
  honest: () => ({
    [TASKS]: tasksAtBase().replace("- [ ] T003", "- [ ] T010 [P] Add a README\n- [ ] T003"),
  }),
};

async function job(repo: Awaited<ReturnType<typeof makeRepo>>, inputs: Record<string, string>) {
  const gh = await standInFor(repo);
  try {
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      // The proof off: the fixture maps tests but has no runner, and this is about change rules.
      inputs: { sandbox: "off", "requirement-proof": "off", ...inputs },
    });
    return { r, ...posted(gh) };
  } finally {
    await finish(gh, expect);
  }
}

async function shardedConclusion(repo: Awaited<ReturnType<typeof makeRepo>>) {
  const dir = scratch("cg-download-");
  const leg = await job(repo, { shard: "1/1" });
  expect(leg.r.code, leg.r.stdout + leg.r.stderr).toBe(0);
  const file = leg.r.outputs["report-file"]!;
  copyFileSync(file, join(dir, basename(file)));
  const merged = await job(repo, { "merge-reports": dir });
  return { leg: readFileSync(file, "utf8"), merged };
}

describe("a sharded leg loads its contracts with the merge base", () => {
  it("attack: a task this PR checks off whose file is absent blocks sharded as unsharded", async () => {
    const repo = await makeRepo({ base: base(), head: HEADS.attack() });
    const whole = await job(repo, {});
    expect(whole.checkRuns[0]!.conclusion).toBe("failure");
    const { leg, merged } = await shardedConclusion(repo);
    expect(leg).toContain("task T008 is marked done by this change");
    expect(merged.checkRuns[0]!.conclusion).toBe("failure");
  });

  it("honest twin: a task done at the base whose file a later commit moved does not block sharded", async () => {
    const repo = await makeRepo({ base: base(), head: HEADS.honest() });
    const whole = await job(repo, {});
    // Neutral, not success: the mapped requirements await a proof that is off.
    expect(whole.checkRuns[0]!.conclusion, JSON.stringify(whole.checkRuns[0]!.output)).toBe(
      "neutral",
    );
    const { merged } = await shardedConclusion(repo);
    expect(merged.checkRuns[0]!.conclusion, JSON.stringify(merged.checkRuns[0]!.output)).toBe(
      "neutral",
    );
  });
});
