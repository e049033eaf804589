/**
 * The requirement proof under sharding, end to end through the bundled
 * action (dist/index.js, against the local GitHub stand-in) and the CLI: a
 * sharded run is never weaker than an unsharded one. The leg holding a spec
 * proves its mapped tests against the PR's merge base and the merge checks
 * it proved against its own base; a PR whose mapped test already passes on
 * the code before the change blocks with "proves nothing" sharded exactly as
 * unsharded, and its honest twin (the test fails at base, passes at head) is
 * green both ways. Run `npm run bundle` after changing src/.
 */
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
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
  reportOf,
  runAction,
  scratch,
  standInFor,
} from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { BASE_FILES, repo as cliRepo, linkNodeModules, SPEC_PATH } from "./helpers/proof-repo.js";
import { editJson } from "./helpers/shard-repo.js";
import { tempDir } from "./helpers/tmp.js";

// vitest comes from this repository's node_modules, inside the action's own folder (which the
// sandbox keeps read-only over anything inside it): the runs go unsandboxed, as in proof-e2e.
const INPUTS = { sandbox: "off" };

// The PR adds FR-001 to a spec that has FR-002 (an invariant), so FR-001's test must fail on
// the code before the change. Honest: the base does not trim. Attack: it already trims.
const { [SPEC_PATH]: spec, ...rest } = BASE_FILES;
const withoutFr1 = spec!
  .split("\n")
  .filter((l) => !l.includes("FR-001"))
  .join("\n");
const TRIMS = "export const trim = (s: string) => s.trim();\n";
const BASES = {
  honest: { ...rest, [SPEC_PATH]: withoutFr1 },
  attack: { ...rest, [SPEC_PATH]: withoutFr1, "src/trim.ts": TRIMS },
};

/** The PR: the spec gains FR-001, trim is (re)written, and three oracle contracts to spread over the legs. */
function head(): Files {
  const files: Files = {
    [SPEC_PATH]: spec!,
    "src/trim.ts": `${TRIMS}// trims both ends\n`,
  };
  for (let i = 1; i <= 3; i++) {
    files[oraclePath(`c${i}`)] = oracleContract(
      `c${i}`,
      Array.from({ length: i }, (_, k) => ({
        title: `c${i} step ${k + 1}`,
        check: `echo OK-${k}`,
        expect: `OK-${k}`,
      })),
    );
  }
  return files;
}

async function pr(kind: keyof typeof BASES) {
  const repo = await makeRepo({ base: BASES[kind], head: head() });
  linkNodeModules(repo.dir);
  return repo;
}

type Repo = Awaited<ReturnType<typeof pr>>;

/** One job on a fresh stand-in: what it printed and posted. */
async function job(repo: Repo, inputs: Record<string, string>) {
  const gh = await standInFor(repo);
  try {
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { ...INPUTS, ...inputs },
    });
    return { r, ...posted(gh) };
  } finally {
    await finish(gh, expect);
  }
}

/** The n legs; their reports downloaded into one directory. */
async function legs(repo: Repo, n: number, inputs: Record<string, string> = {}) {
  const dir = scratch("cg-download-");
  const results: ActionResult[] = [];
  for (let i = 1; i <= n; i++) {
    const { r, checkRuns, comments } = await job(repo, { ...inputs, shard: `${i}/${n}` });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(checkRuns).toEqual([]);
    expect(comments).toEqual([]);
    const file = r.outputs["report-file"]!;
    copyFileSync(file, join(dir, basename(file)));
    results.push(r);
  }
  return { dir, results };
}

/** Timings, and the temp paths each runner invocation gets, are all two runs of the same proof do not share. */
const untimed = (v: unknown) =>
  JSON.parse(
    JSON.stringify(v)
      .replace(/\d+(\.\d+)? ?(ms|s)\b/g, "T")
      .replace(/contract-gate-proof-[^/]+/g, "TMP"),
  );

/** The spec's FR-001 row of a run's JSON report. */
function fr1(r: ActionResult) {
  const proofOf = reportOf(r).contracts.find((c: { path: string }) => c.path === SPEC_PATH).proof;
  return proofOf.tests.find((t: { requirement: string }) => t.requirement === "FR-001");
}

function expectSame(
  merged: Awaited<ReturnType<typeof job>>,
  whole: Awaited<ReturnType<typeof job>>,
) {
  expect(merged.checkRuns).toHaveLength(1);
  expect(untimed(merged.checkRuns)).toEqual(untimed(whole.checkRuns));
  expect(untimed(merged.comments)).toEqual(untimed(whole.comments));
  expect(untimed(merged.r.summary)).toEqual(untimed(whole.r.summary));
  const { report: _a, ...mergedOutputs } = merged.r.outputs;
  const { report: _b, ...wholeOutputs } = whole.r.outputs;
  expect(mergedOutputs).toEqual(wholeOutputs);
  expect(merged.r.code).toBe(whole.r.code);
}

describe("sharded action: the requirement proof runs in the leg that holds the spec", () => {
  it('a mapped test that passes at base blocks with "proves nothing", sharded as unsharded', async () => {
    const repo = await pr("attack");
    const whole = await job(repo, {});
    expect(whole.r.code, whole.r.stdout).toBe(1);
    expect(whole.checkRuns[0]!.conclusion).toBe("failure");
    expect(fr1(whole.r)).toMatchObject({
      base: "passed",
      head: "passed",
      verdict: "passes-at-base",
    });
    expect(whole.checkRuns[0]!.output.summary).toContain("proves nothing");

    const { dir } = await legs(repo, 3);
    const merged = await job(repo, { "merge-reports": dir });
    expect(merged.checkRuns[0]!.conclusion).toBe("failure");
    expect(fr1(merged.r)).toMatchObject({ base: "passed", verdict: "passes-at-base" });
    expectSame(merged, whole);

    // Control: with the proof off in every job (the legs proving nothing), the same PR does not
    // block: the failure above is the proof's.
    const off = { "requirement-proof": "off" };
    const unproved = await legs(repo, 3, off);
    const lax = await job(repo, { ...off, "merge-reports": unproved.dir });
    expect(lax.r.code, lax.r.stdout).toBe(0);
    expect(lax.checkRuns[0]!.conclusion).not.toBe("failure");
  });

  it("its honest twin is green sharded and unsharded, with the same rows", async () => {
    const repo = await pr("honest");
    const whole = await job(repo, {});
    expect(whole.r.code, whole.r.stdout).toBe(0);
    expect(fr1(whole.r)).toMatchObject({ base: "failed", head: "passed", verdict: "proven" });
    const { dir } = await legs(repo, 2);
    const merged = await job(repo, { "merge-reports": dir });
    expect(merged.checkRuns[0]!.conclusion).toBe("success");
    expect(fr1(merged.r)).toMatchObject({ base: "failed", head: "passed", verdict: "proven" });
    expectSame(merged, whole);

    // A leg whose proof ran against another base, or with the proof off, is a failing row.
    const report = readdirSync(dir)
      .map((f) => join(dir, f))
      .find((f) =>
        JSON.parse(readFileSync(f, "utf8")).contracts.some(
          (c: { path: string }) => c.path === SPEC_PATH,
        ),
      )!;
    editJson(report, (d) => {
      d.contracts.find((c: { path: string }) => c.path === SPEC_PATH).proof.base = "e".repeat(40);
    });
    const stale = await job(repo, { "merge-reports": dir });
    expect(stale.checkRuns[0]!.conclusion).toBe("failure");
    expect(JSON.stringify(stale.checkRuns[0]!.output)).toContain(
      `proved its mapped tests against ${"e".repeat(12)}`,
    );
    const { dir: offDir } = await legs(repo, 2, { "requirement-proof": "off" });
    const mixed = await job(repo, { "merge-reports": offDir });
    expect(mixed.checkRuns[0]!.conclusion).toBe("failure");
    expect(JSON.stringify(mixed.checkRuns[0]!.output)).toContain("ran with requirement-proof off");
  });
});

describe("the CLI: run --shard i/n --base REV, then merge --base REV", () => {
  const RUN = ["--sandbox", "off", "--no-write"];
  // The proof's runner is found on PATH (npx); runCli passes no other environment.
  const ENV = { PATH: process.env.PATH, GITHUB_RUN_ID: "77", GITHUB_RUN_ATTEMPT: "1" };
  const headFiles = () => {
    const files: Record<string, string> = {};
    for (const [p, t] of Object.entries(head())) files[p] = t as string;
    return files;
  };

  async function sharded(root: string, n: number, base: string[]) {
    const out = tempDir("cg-shards-");
    for (let i = 1; i <= n; i++) {
      const r = await runCli(
        ["run", ...RUN, ...base, "--shard", `${i}/${n}`, "--report-file", out],
        root,
        ENV,
      );
      expect(r.code, r.stderr).toBe(0);
    }
    return out;
  }

  const fr1Of = (json: string) =>
    JSON.parse(json)
      .contracts.find((c: { path: string }) => c.path === SPEC_PATH)
      .proof.tests.find((t: { requirement: string }) => t.requirement === "FR-001");
  const rows = (json: string) =>
    untimed(
      JSON.parse(json, (k, v) => (k === "durationMs" ? 0 : v)).contracts.map(
        (c: { criteria: unknown }) => c.criteria,
      ),
    );

  it('a mapped test that passes at base blocks with "proves nothing"; the honest twin is green', async () => {
    for (const kind of ["attack", "honest"] as const) {
      const root = cliRepo(headFiles(), BASES[kind] as Record<string, string>);
      const whole = await runCli(["run", ...RUN, "--base", "main", "--json"], root, ENV);
      const dir = await sharded(root, 2, ["--base", "main"]);
      const merged = await runCli(["merge", dir, "--base", "main", "--json"], root, ENV);
      if (kind === "attack") {
        expect(whole.code, whole.stderr).toBe(1);
        expect(merged.code, merged.stderr).toBe(1);
        expect(fr1Of(merged.stdout)).toMatchObject({ base: "passed", verdict: "passes-at-base" });
        expect(merged.stdout).toContain("proves nothing");
      } else {
        expect(whole.code, whole.stderr).toBe(0);
        expect(merged.code, merged.stderr).toBe(0);
        expect(fr1Of(merged.stdout)).toMatchObject({ base: "failed", verdict: "proven" });
      }
      expect(rows(merged.stdout)).toEqual(rows(whole.stdout));

      if (kind === "attack") {
        // Control: legs without --base prove nothing, and the merge with --base refuses them.
        const unproved = await sharded(root, 2, []);
        const refused = await runCli(["merge", unproved, "--base", "main", "--json"], root, ENV);
        expect(refused.code).toBe(1);
        expect(refused.stdout).toContain("proved its mapped tests against no base");
        // …and without --base anywhere nothing is proved: awaiting proof, not blocking.
        const none = await runCli(["merge", unproved, "--json"], root, ENV);
        expect(none.code, none.stdout).toBe(0);
      }
    }
  });
});
