// Sharding bench, the action's side (opt-in with BENCH_SHARD, through tsx: it
// drives the TypeScript GitHub stand-in from test/): a pull request adding
// 1,000 plan contracts × 30 file checks (30,000 criteria), gated by the
// bundled action unsharded, then as 4 legs (`shard: i/4`) and the merge job
// (`merge-reports`). Target (docs/sharding.md): the merge job adds no more
// than 2 s over an unsharded run's publishing. Its own stage, reading and
// checking the reports, is what an unsharded run does not do: the action logs
// its time, and the bench prints it beside both jobs' wall time and peak RSS.
// Run `npm run bundle` first. BENCH_SHARD_ACTION_CONTRACTS, _RUNS: scale, repeats.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type Files,
  makeRepo,
  planContract,
  runAction,
  scratch,
  standInFor,
} from "../test/helpers/action-harness.js";

const CONTRACTS = Number(process.env.BENCH_SHARD_ACTION_CONTRACTS ?? 1000);
const RUNS = Number(process.env.BENCH_SHARD_ACTION_RUNS ?? 3);
const CRITERIA = 30;
const SHARDS = 4;
const INPUTS = { sandbox: "off", "max-parallel": "2" };

// The child reports its own peak RSS on exit (as bench/action.ts), preloaded through NODE_OPTIONS.
const probe = join(tmpdir(), `cg-bench-shard-maxrss-${process.pid}.mjs`);
writeFileSync(
  probe,
  'if (!process.argv.includes("--contract-gate-sandbox-host")) process.on("exit", () => process.stderr.write("\\n@@maxrss " + process.resourceUsage().maxRSS + "\\n"));\n',
);
const env = { NODE_OPTIONS: `--import ${pathToFileURL(probe).href}` };

const head: Files = { "f.txt": "present\n" };
for (let p = 1; p <= CONTRACTS; p++) {
  Object.assign(
    head,
    planContract(p, [
      {
        id: "T1",
        title: `Task ${p}`,
        verification: Array.from({ length: CRITERIA }, () => ({
          type: "file-exists",
          path: "f.txt",
        })),
      },
    ]),
  );
}
const repo = await makeRepo({ base: { "README.md": "# bench\n" }, head });

type Run = Awaited<ReturnType<typeof runAction>>;
async function gate(inputs: Record<string, string>): Promise<{ r: Run; wallMs: number }> {
  const gh = await standInFor(repo);
  try {
    const start = process.hrtime.bigint();
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { ...INPUTS, ...inputs },
      env,
    });
    return { r, wallMs: Number(process.hrtime.bigint() - start) / 1e6 };
  } finally {
    await gh.close();
  }
}
const rss = (r: Run) => Number(/@@maxrss (\d+)/.exec(r.stderr)?.[1]) / 1024;
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
const whole: { wall: number[]; rss: number[] } = { wall: [], rss: [] };
for (let i = 0; i < RUNS; i++) {
  const { r, wallMs } = await gate({});
  if (r.code !== 0) throw new Error(`the unsharded run exited ${r.code}:\n${r.stdout}${r.stderr}`);
  whole.wall.push(wallMs);
  whole.rss.push(rss(r));
}
console.log(
  `unsharded run (checks, then publishing)   wall ms ${stat(whole.wall)}   peak RSS MB ${stat(whole.rss)}`,
);

const dir = scratch("cg-bench-download-");
mkdirSync(dir, { recursive: true });
for (let i = 1; i <= SHARDS; i++) {
  const { r } = await gate({ shard: `${i}/${SHARDS}` });
  const file = r.outputs["report-file"];
  if (r.code !== 0 || !file) throw new Error(`leg ${i} exited ${r.code}:\n${r.stdout}${r.stderr}`);
  copyFileSync(file, join(dir, basename(file)));
}
const merge: { wall: number[]; rss: number[]; stage: number[] } = { wall: [], rss: [], stage: [] };
for (let i = 0; i < RUNS; i++) {
  const { r, wallMs } = await gate({ "merge-reports": dir });
  const stage = /merged (\d+) of \d+ shards .* in (\d+) ms/.exec(r.stdout);
  if (r.code !== 0 || Number(stage?.[1]) !== SHARDS) {
    throw new Error(`the merge job exited ${r.code}:\n${r.stdout}${r.stderr}`);
  }
  merge.wall.push(wallMs);
  merge.rss.push(rss(r));
  merge.stage.push(Number(stage?.[2]));
}
const added = Math.min(...merge.stage);
console.log(
  `merge job (reports, then publishing)      wall ms ${stat(merge.wall)}   peak RSS MB ${stat(merge.rss)}`,
);
console.log(
  `merge job's own stage (read + check 4 reports) ms ${stat(merge.stage)} (target: adds ≤ 2,000, ${added <= 2000 ? "ok" : "OVER"}); merge job wall − unsharded wall, best: ${(Math.min(...merge.wall) - Math.min(...whole.wall)).toFixed(0)} ms`,
);
console.log(`load average ${load()} at the end`);
