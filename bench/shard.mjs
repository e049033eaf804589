// Sharding bench (opt-in, it takes minutes: node bench/shard.mjs after `npm run bundle`):
// 1,000 oracle contracts × 30 no-op checks, run unsharded, then split 4 ways
// with each shard run in turn on this machine (`run --shard i/4 --report-file`),
// then `merge` of the 4 reports (and the merge at 30,000 criteria: bench/shard-merge.mjs). Targets (docs/sharding.md): the slowest
// shard's wall ≤ 0.3 × the unsharded run; the merge ≤ 1 s and ≤ 200 MB peak RSS.
// Prints the shards' max/mean weight and the load average it ran under.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { commitRepo, ms, oracleContractHead, runArgs, runGateOnce } from "./lib-proc.mjs";
import { benchMerge } from "./shard-merge.mjs";

const CONTRACTS = Number(process.env.BENCH_SHARD_CONTRACTS ?? 1000);
const CRITERIA = 30;
const SHARDS = 4;
const PARALLEL = 2;
const SANDBOX = process.env.BENCH_SHARD_SANDBOX ?? "off";

function oracleContract(n) {
  const lines = oracleContractHead(`shard-${n}`);
  for (let i = 1; i <= CRITERIA; i++) {
    lines.push(`${i}. criterion ${i} holds`, `   CHECK: echo OK-${i}`, `   EXPECT: OK-${i}`);
    lines.push("   EVIDENCE: pending");
  }
  lines.push("", "## FILE SCOPE", "src/");
  return `${lines.join("\n")}\n`;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const root = mkdtempSync(join(tmpdir(), "cg-bench-shard-"));
try {
  const dir = join(root, ".claude/tasks/contracts");
  mkdirSync(dir, { recursive: true });
  for (let p = 1; p <= CONTRACTS; p++) {
    writeFileSync(join(dir, `2026-11-29-s${p}-1200.md`), oracleContract(p));
  }
  commitRepo(root);
  console.log(
    `\n## shard: ${CONTRACTS} oracle contracts × ${CRITERIA} checks split ${SHARDS} ways, --max-parallel ${PARALLEL}, sandbox ${SANDBOX}; load average ${load()} at start`,
  );
  const args = runArgs(root, PARALLEL, SANDBOX);
  const whole = await runGateOnce([...args, "--json"]);
  if (whole.code !== 1 && whole.code !== 0)
    throw new Error(`unsharded run exited ${whole.code}:\n${whole.stderr}`);
  console.log(
    `unsharded                     wall ${ms(whole.wallMs)}   peak RSS ${whole.rssMb.toFixed(0)} MB`,
  );

  const reports = join(root, "reports");
  mkdirSync(reports);
  const env = { GITHUB_RUN_ID: "1", GITHUB_RUN_ATTEMPT: "1" };
  Object.assign(process.env, env);
  const walls = [];
  const weights = [];
  for (let i = 1; i <= SHARDS; i++) {
    const r = await runGateOnce([...args, "--shard", `${i}/${SHARDS}`, "--report-file", reports]);
    if (r.code !== 0) throw new Error(`shard ${i} exited ${r.code}:\n${r.stderr}`);
    const share = /shard \d+ of \d+: (\d+) of \d+ contracts, (\d+) criteria, weight (\d+)/.exec(
      r.stderr,
    );
    weights.push(Number(share?.[3]));
    walls.push(r.wallMs);
    console.log(
      `shard ${i}/${SHARDS}: ${share?.[1]} contracts, weight ${share?.[3]}   wall ${ms(r.wallMs)}   peak RSS ${r.rssMb.toFixed(0)} MB`,
    );
  }
  const slowest = Math.max(...walls);
  const ratio = slowest / whole.wallMs;
  const mean = weights.reduce((a, b) => a + b, 0) / weights.length;
  console.log(
    `slowest shard ${ms(slowest)} = ${ratio.toFixed(3)} × unsharded (target ≤ 0.3, ${ratio <= 0.3 ? "ok" : "OVER"}); shard weight max/mean ${(Math.max(...weights) / mean).toFixed(3)} (max ${Math.max(...weights)}, mean ${mean.toFixed(1)})`,
  );

  // The merge at full scale: 30,000 criteria in 4 reports (bench/shard-merge.mjs).
  await benchMerge();
  const merged = await runGateOnce(["merge", "--root", root, reports, "--json"]);
  const same =
    JSON.stringify(JSON.parse(merged.stdout).counts) ===
    JSON.stringify(JSON.parse(whole.stdout).counts);
  console.log(
    `merge of the oracle shards: counts as unsharded: ${same ? "yes" : "NO"}; exit ${merged.code} (unsharded ${whole.code})`,
  );
  console.log(`load average ${load()} at the end`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
