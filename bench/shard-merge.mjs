// The merge at full scale (part of bench/shard.mjs; alone: node bench/shard-merge.mjs
// after `npm run bundle`): 4 shard reports of 1,000 plan contracts × 30 file
// checks (30,000 criteria; file checks, so the legs are quick), then
// `contract-gate merge DIR --json` and `--markdown`, each several times
// (the machine may be shared: best and median wall, and the CPU time, user +
// system, which load inflates less). Targets (docs/sharding.md):
// the merge ≤ 1 s and ≤ 200 MB peak RSS. Also the bundle's start alone
// (`--version`), which every merge pays.
// BENCH_SHARD_MERGE_CONTRACTS: scale; BENCH_SHARD_MERGE_RUNS: repeats (5);
// BENCH_SHARD_MERGE_DIR: keep the repository and reports there, and reuse them when present.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { commitRepo, ms, planContract, planHash, runArgs, runGateOnce } from "./lib-proc.mjs";

const CONTRACTS = Number(process.env.BENCH_SHARD_MERGE_CONTRACTS ?? 1000);
const RUNS = Number(process.env.BENCH_SHARD_MERGE_RUNS ?? 5);
const CRITERIA = 30;
const SHARDS = 4;

/** A committed repository of `n` plan contracts × 30 file checks: 30,000 criteria with no process to spawn. */
function planRepo(root, n) {
  mkdirSync(join(root, ".planning"), { recursive: true });
  writeFileSync(join(root, "f.txt"), "present\n");
  for (let p = 1; p <= n; p++) {
    const plan = `# Phase ${p}\n`;
    writeFileSync(join(root, ".planning", `phase-${p}-plan.md`), plan);
    const checks = Array.from({ length: CRITERIA }, () => ({ type: "file-exists", path: "f.txt" }));
    writeFileSync(
      join(root, ".planning", `phase-${p}-contract.json`),
      planContract(p, planHash(plan), [checks]),
    );
  }
  commitRepo(root);
}

const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { best: s[0], median: s[Math.floor(s.length / 2)] };
};

/** Build (or reuse) the reports, then time the merge in both forms and the bundle's start. */
export async function benchMerge() {
  const keep = process.env.BENCH_SHARD_MERGE_DIR;
  const base = keep ?? mkdtempSync(join(tmpdir(), "cg-bench-merge-"));
  const repo = join(base, "repo");
  const reports = join(base, "reports");
  try {
    if (!existsSync(join(reports, `contract-gate-shard-${SHARDS}-of-${SHARDS}.json`))) {
      rmSync(base, { recursive: true, force: true });
      planRepo(repo, CONTRACTS);
      mkdirSync(reports);
      Object.assign(process.env, { GITHUB_RUN_ID: "1", GITHUB_RUN_ATTEMPT: "1" });
      for (let i = 1; i <= SHARDS; i++) {
        const r = await runGateOnce([
          ...runArgs(repo, 2, "off"),
          "--shard",
          `${i}/${SHARDS}`,
          "--report-file",
          reports,
        ]);
        if (r.code !== 0) throw new Error(`merge bench shard ${i} exited ${r.code}:\n${r.stderr}`);
      }
    }
    const size = readFileSync(join(reports, `contract-gate-shard-1-of-${SHARDS}.json`)).length;
    console.log(
      `\n## merge of ${SHARDS} reports: ${CONTRACTS * CRITERIA} criteria, ${(size / 1e6).toFixed(1)} MB each; ${RUNS} runs each, load average ${loadavg()[0].toFixed(2)}`,
    );
    const forms = [["node + bundle start (--version)", ["--version"]]];
    for (const form of ["--json", "--markdown"]) {
      forms.push([`merge ${form}`, ["merge", "--root", repo, reports, form]]);
    }
    for (const [label, args] of forms) {
      const walls = [];
      const rss = [];
      const cpu = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await runGateOnce(args);
        if (r.code !== 0) throw new Error(`${label} exited ${r.code}:\n${r.stderr}`);
        if (args[0] === "merge" && !r.stderr.includes(`merged ${SHARDS} of ${SHARDS} shards`)) {
          throw new Error(`${label} did not merge every shard:\n${r.stderr}`);
        }
        walls.push(r.wallMs);
        rss.push(r.rssMb);
        cpu.push(r.cpuMs);
      }
      const w = summary(walls);
      const m = summary(rss);
      const c = summary(cpu);
      const targets =
        args[0] === "merge"
          ? ` (target ≤ 1 s, ${w.best <= 1000 ? "ok" : "OVER"})   peak RSS best ${m.best.toFixed(0)} MB, median ${m.median.toFixed(0)} MB (target ≤ 200, ${m.median <= 200 ? "ok" : "OVER"})`
          : `   peak RSS ${m.median.toFixed(0)} MB`;
      console.log(
        `${label.padEnd(32)} wall best ${ms(w.best)}, median ${ms(w.median)}; CPU best ${ms(c.best)}${targets}`,
      );
    }
    console.log(`load average ${loadavg()[0].toFixed(2)} at the end`);
  } finally {
    if (!keep) rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchMerge();
