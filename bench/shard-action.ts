// Sharding bench, the action's side (opt-in with BENCH_SHARD, through tsx: it
// drives the TypeScript GitHub stand-in from test/): a pull request adding
// 1,000 plan contracts × 30 file checks (30,000 criteria), gated by the
// bundled action unsharded, then as 4 legs (`shard: i/4`) and the merge job
// (`merge-reports`). Target (docs/sharding.md): the merge job adds no more
// than 2 s over an unsharded run's publishing. From the action's stage timings
// (its debug log): the unsharded run's publishing is its `report` and
// `publish` stages; the merge job's is its `merge` stage (reading and checking
// the reports) plus the same two. Also both jobs' wall time and peak RSS.
// Run `npm run bundle` first. BENCH_SHARD_ACTION_CONTRACTS, _RUNS: scale, repeats.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { examplePayload } from "../test/github/payloads.js";
import { ACTIONS_TOKEN, startStandIn } from "../test/github/standin.js";
import { type BundleRun, runBundle, writeProbe } from "./lib-action.js";
import { planContract, planHash } from "./lib-proc.mjs";

// BENCH_SHARD_ACTION_DIST: another build of the action (a baseline) in place of dist/index.js.
const DIST =
  process.env.BENCH_SHARD_ACTION_DIST ??
  fileURLToPath(new URL("../dist/index.js", import.meta.url));
const CONTRACTS = Number(process.env.BENCH_SHARD_ACTION_CONTRACTS ?? 1000);
const RUNS = Number(process.env.BENCH_SHARD_ACTION_RUNS ?? 3);
const CRITERIA = 30;
const SHARDS = 4;

const root = mkdtempSync(join(tmpdir(), "cg-bench-shard-action-"));
// The child reports its own peak RSS on exit (as bench/action.ts), preloaded.
const probe = writeProbe(join(root, "maxrss.mjs"));
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  }).trim();

// A pull request adding every contract: base without them, head with them.
const repo = join(root, "repo");
mkdirSync(join(repo, ".planning"), { recursive: true });
git(repo, "init", "-q");
writeFileSync(join(repo, "README.md"), "bench\n");
git(repo, "add", "-A");
git(repo, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "base");
const base = git(repo, "rev-parse", "HEAD");
writeFileSync(join(repo, "f.txt"), "present\n");
const files: { filename: string; status: "added" }[] = [{ filename: "f.txt", status: "added" }];
for (let p = 1; p <= CONTRACTS; p++) {
  const plan = `# Phase ${p}\n`;
  const checks = Array.from({ length: CRITERIA }, () => ({ type: "file-exists", path: "f.txt" }));
  writeFileSync(join(repo, `.planning/phase-${p}-plan.md`), plan);
  writeFileSync(
    join(repo, `.planning/phase-${p}-contract.json`),
    planContract(p, planHash(plan), [checks]),
  );
  files.push({ filename: `.planning/phase-${p}-plan.md`, status: "added" });
  files.push({ filename: `.planning/phase-${p}-contract.json`, status: "added" });
}
git(repo, "add", "-A");
git(repo, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "head");
const head = git(repo, "rev-parse", "HEAD");
const payload = examplePayload("pull_request", "opened", {
  owner: "bench",
  repo: "repo",
  number: 7,
  headSha: head,
  baseSha: base,
});
(payload as { pull_request: { changed_files: number } }).pull_request.changed_files = files.length;

type Run = BundleRun & { temp: string };

/** The bundled action on the pull request, against a fresh stand-in, as the runner starts it. */
async function gate(inputs: Record<string, string>): Promise<Run> {
  const standIn = await startStandIn();
  standIn.addRepo("bench/repo");
  standIn.addPull("bench/repo", { number: 7, headSha: head, baseSha: base, files });
  const temp = mkdtempSync(join(root, "runner-"));
  const eventPath = join(temp, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  for (const f of ["output", "summary"]) writeFileSync(join(temp, f), "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: "bench/repo",
    GITHUB_SHA: head,
    GITHUB_WORKSPACE: repo,
    GITHUB_OUTPUT: join(temp, "output"),
    GITHUB_STEP_SUMMARY: join(temp, "summary"),
    RUNNER_TEMP: temp,
    GITHUB_RUN_ID: "1",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: standIn.url,
    "INPUT_GITHUB-TOKEN": ACTIONS_TOKEN,
  };
  for (const [k, v] of Object.entries({ sandbox: "off", "max-parallel": "2", ...inputs })) {
    env[`INPUT_${k.toUpperCase()}`] = v;
  }
  try {
    return { ...(await runBundle(probe, env, { cwd: repo, dist: DIST })), temp };
  } finally {
    await standIn.close();
  }
}

const rss = (r: Run) => r.rssMb;
/** The action's stage timings (`::debug::contract-gate: stage NAME: N ms`), summed over `names`. */
const stages = (r: Run, names: string[]) => {
  let total = 0;
  for (const name of names) {
    const m = new RegExp(`contract-gate: stage ${name}: (\\d+) ms`).exec(r.stdout);
    if (!m) throw new Error(`no timing of stage ${name} in the action's log:\n${r.stdout}`);
    total += Number(m[1]);
  }
  return total;
};
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `best ${s[0]!.toFixed(0)}, median ${s[Math.floor(s.length / 2)]!.toFixed(0)}`;
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `\n## shard (action): ${CONTRACTS} plan contracts × ${CRITERIA} file checks, ${SHARDS} legs then the merge job; ${RUNS} runs each; load average ${load()} at start`,
);
const whole: { wall: number[]; rss: number[]; publish: number[] } = {
  wall: [],
  rss: [],
  publish: [],
};
for (let i = 0; i < RUNS; i++) {
  const r = await gate({});
  const { wallMs } = r;
  if (r.code !== 0) throw new Error(`the unsharded run exited ${r.code}:\n${r.stdout}${r.stderr}`);
  whole.wall.push(wallMs);
  whole.rss.push(rss(r));
  whole.publish.push(stages(r, ["report", "publish"]));
}
console.log(
  `unsharded run: wall ms ${stat(whole.wall)}; its publishing (report + publish stages) ms ${stat(whole.publish)}; peak RSS MB ${stat(whole.rss)}`,
);

const dir = join(root, "download");
mkdirSync(dir);
for (let i = 1; i <= SHARDS; i++) {
  const r = await gate({ shard: `${i}/${SHARDS}` });
  if (r.code !== 0) throw new Error(`leg ${i} exited ${r.code}:\n${r.stdout}${r.stderr}`);
  const name = `contract-gate-shard-${i}-of-${SHARDS}.json`;
  copyFileSync(join(r.temp, "contract-gate", name), join(dir, name));
}
const merge: { wall: number[]; rss: number[]; stage: number[]; publish: number[] } = {
  wall: [],
  rss: [],
  stage: [],
  publish: [],
};
for (let i = 0; i < RUNS; i++) {
  const r = await gate({ "merge-reports": dir });
  const { wallMs } = r;
  if (r.code !== 0 || !r.stdout.includes(`merged ${SHARDS} of ${SHARDS} shards`)) {
    throw new Error(`the merge job exited ${r.code}:\n${r.stdout}${r.stderr}`);
  }
  merge.wall.push(wallMs);
  merge.rss.push(rss(r));
  merge.stage.push(stages(r, ["merge"]));
  merge.publish.push(stages(r, ["merge", "report", "publish"]));
}
const best = (xs: number[]) => Math.min(...xs);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const added = best(merge.publish) - best(whole.publish);
console.log(
  `merge job: wall ms ${stat(merge.wall)}; its merge stage (read + check ${SHARDS} reports) ms ${stat(merge.stage)}; merge + report + publish ms ${stat(merge.publish)}; peak RSS MB ${stat(merge.rss)}`,
);
console.log(
  `the merge job's publishing − the unsharded run's: best ${added.toFixed(0)} ms, median ${(med(merge.publish) - med(whole.publish)).toFixed(0)} ms (target ≤ 2,000, ${added <= 2000 ? "ok" : "OVER"})`,
);
console.log(`load average ${load()} at the end`);
rmSync(root, { recursive: true, force: true });
