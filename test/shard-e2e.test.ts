/**
 * Sharding end to end through the bundled action (dist/index.js) against the
 * local GitHub stand-in: n legs with `shard: i/n`, then one job with
 * `merge-reports`, must post the one check run, comment and job summary an
 * unsharded run posts; a missing, stale or duplicate shard fails closed, each
 * beside its passing twin. Run `npm run bundle` after changing src/.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ActionResult,
  type Files,
  finish,
  makeRepo,
  oracleContract,
  oraclePath,
  posted,
  runAction,
  scratch,
  standInFor,
} from "./helpers/action-harness.js";
import { editJson } from "./helpers/shard-repo.js";

const INPUTS = { sandbox: "off" };

/** Seven contracts of different weights; with `failing`, two of them fail. */
function contracts(failing: boolean): Files {
  const files: Files = {};
  for (let i = 1; i <= 7; i++) {
    const criteria = Array.from({ length: i }, (_, k) => ({
      title: `step ${k + 1} holds`,
      check: failing && i % 3 === 0 && k === 0 ? "echo NO; exit 4" : `echo OK-${k}`,
      expect: `OK-${k}`,
    }));
    files[oraclePath(`c${i}`)] = oracleContract(`c${i}`, criteria);
  }
  files["src/app.js"] = "export {};\n";
  return files;
}

async function prRepo(failing: boolean) {
  return makeRepo({ base: { "README.md": "# widgets\n" }, head: contracts(failing) });
}

/** Run the n legs, each with its own runner; their reports downloaded into one directory. */
async function legs(
  repo: Awaited<ReturnType<typeof prRepo>>,
  n: number,
): Promise<{ dir: string; results: ActionResult[]; writes: number }> {
  const gh = await standInFor(repo);
  const dir = scratch("cg-download-");
  const results: ActionResult[] = [];
  try {
    for (let i = 1; i <= n; i++) {
      const r = await runAction({
        repo,
        gh,
        event: "pull_request",
        inputs: { ...INPUTS, shard: `${i}/${n}` },
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const file = r.outputs["report-file"]!;
      expect(basename(file)).toBe(`contract-gate-shard-${i}-of-${n}.json`);
      expect(r.stdout).toContain(`contract-gate: shard ${i} of ${n}:`);
      copyFileSync(file, join(dir, basename(file)));
      results.push(r);
    }
    // The legs post nothing: no check run, no comment.
    const writes = gh.requests.filter((q) => q.method !== "GET").length;
    return { dir, results, writes };
  } finally {
    await finish(gh, expect);
  }
}

/** The merge job on a fresh stand-in; what it posted. */
async function merge(repo: Awaited<ReturnType<typeof prRepo>>, dir: string) {
  const gh = await standInFor(repo);
  try {
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { ...INPUTS, "merge-reports": dir },
    });
    return { r, ...posted(gh) };
  } finally {
    await finish(gh, expect);
  }
}

/** Timings are the one thing two runs of the same checks do not share. */
const untimed = (v: unknown) =>
  JSON.parse(JSON.stringify(v).replace(/\d+(\.\d+)? ?(ms|s)\b/g, "T"));

describe("sharded action: n legs, then one merge", () => {
  it("posts the same check run, comment, job summary and outputs as an unsharded run", async () => {
    const repo = await prRepo(true);
    const gh = await standInFor(repo);
    let whole: ActionResult;
    let wholePosted: ReturnType<typeof posted>;
    try {
      whole = await runAction({ repo, gh, event: "pull_request", inputs: INPUTS });
      wholePosted = posted(gh);
    } finally {
      await finish(gh, expect);
    }
    const { dir, writes } = await legs(repo, 3);
    expect(writes).toBe(0);
    const merged = await merge(repo, dir);
    expect(merged.checkRuns).toHaveLength(1);
    expect(wholePosted.checkRuns).toHaveLength(1);
    expect(merged.checkRuns[0]!.conclusion).toBe("failure");
    expect(untimed(merged.checkRuns)).toEqual(untimed(wholePosted.checkRuns));
    expect(untimed(merged.comments)).toEqual(untimed(wholePosted.comments));
    expect(untimed(merged.r.summary)).toEqual(untimed(whole.summary));
    const { report: _a, ...mergedOutputs } = merged.r.outputs;
    const { report: _b, ...wholeOutputs } = whole.outputs;
    expect(mergedOutputs).toEqual(wholeOutputs);
    expect(merged.r.code).toBe(whole.code);
  });

  it("a shard leg with blocking results does not fail its step; its report says so", async () => {
    const repo = await prRepo(true);
    const { results } = await legs(repo, 2);
    const conclusions = results.map((r) => r.outputs.conclusion);
    expect(conclusions).toContain("failure");
    for (const r of results) expect(r.code).toBe(0);
  });

  it("rejects a bad shard input with the allowed form", async () => {
    const repo = await prRepo(false);
    for (const bad of ["0/4", "5/4", "a/b"]) {
      const r = await runAction({ repo, event: "pull_request", inputs: { ...INPUTS, shard: bad } });
      expect(r.code).not.toBe(0);
      expect(r.stdout + r.stderr).toContain(`Input 'shard' '${bad}'`);
      expect(r.stdout + r.stderr).toContain("1 ≤ i ≤ n ≤ 256");
    }
  });
});

describe("sharded action: a merge fails closed", () => {
  it("on a missing shard; green with it", async () => {
    const repo = await prRepo(false);
    const { dir } = await legs(repo, 3);
    const green = await merge(repo, dir);
    expect(green.checkRuns[0]!.conclusion).toBe("success");
    expect(green.r.code).toBe(0);

    const partial = scratch("cg-partial-");
    for (const i of [1, 3]) {
      const f = `contract-gate-shard-${i}-of-3.json`;
      copyFileSync(join(dir, f), join(partial, f));
    }
    const missing = await merge(repo, partial);
    expect(missing.checkRuns).toHaveLength(1);
    expect(missing.checkRuns[0]!.conclusion).toBe("failure");
    const output = missing.checkRuns[0]!.output;
    expect(output.summary).toContain("shard 2 of 3 missing");
    // The row names the shard's file, and an annotation says what to do.
    expect(JSON.stringify(output.annotations)).toContain("re-run it");
    if (process.env.SHOW_MERGE) console.log(output.title, "\n", output.summary);
    expect(missing.r.code).not.toBe(0);
  });

  it("on a stale shard (another commit); green without the edit", async () => {
    const repo = await prRepo(false);
    const { dir } = await legs(repo, 2);
    const fresh = await merge(repo, dir);
    expect(fresh.checkRuns[0]!.conclusion).toBe("success");
    editJson(join(dir, "contract-gate-shard-2-of-2.json"), (d) => {
      d.shard.headSha = "f".repeat(40);
    });
    const stale = await merge(repo, dir);
    expect(stale.checkRuns[0]!.conclusion).toBe("failure");
    expect(JSON.stringify(stale.checkRuns[0]!.output)).toContain("a report from another commit");
  });

  it("on two reports for one shard of the same attempt; the newer attempt wins", async () => {
    const repo = await prRepo(false);
    const { dir } = await legs(repo, 2);
    // A re-run of leg 1, downloaded into an artifact directory of its own.
    mkdirSync(join(dir, "shard-1-rerun"));
    const rerun = join(dir, "shard-1-rerun", "contract-gate-shard-1-of-2.json");
    copyFileSync(join(dir, "contract-gate-shard-1-of-2.json"), rerun);
    editJson(rerun, (d) => {
      d.shard.runAttempt = 2;
    });
    const newer = await merge(repo, dir);
    expect(newer.checkRuns[0]!.conclusion).toBe("success");
    editJson(rerun, (d) => {
      d.shard.runAttempt = 1;
    });
    const dup = await merge(repo, dir);
    expect(dup.checkRuns[0]!.conclusion).toBe("failure");
    expect(JSON.stringify(dup.checkRuns[0]!.output)).toContain("reports of the same run attempt");
    expect(readFileSync(rerun, "utf8")).toContain('"runAttempt": 1');
  });
});
