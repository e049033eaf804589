// `npm run bench`: every benchmark in turn; each prints its figures and targets.
// Figures vary with machine load: each takes the best of a few runs.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

await import("./validate.mjs");
await import("./validate-planner.mjs");
await import("./validate-specs.mjs");
await import("./validate-spec-families.mjs");
await import("./run-commands.mjs");
await import("./sandbox.mjs");
// 30,000 oracle checks take minutes per mode: only when asked.
if (process.env.BENCH_SCALE) await import("./scale.mjs");
// Sharding: unsharded vs 4 shards run in turn, then the merge; minutes too: only when asked.
if (process.env.BENCH_SHARD) await import("./shard.mjs");
await import("./grep.mjs");
// Per-contract private trees (issue 32): the run judging a commit against bare spawns.
await import("./trees.mjs");
// The action bench drives the TypeScript API stand-in from test/, so it runs through tsx.
const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));
const action = spawnSync(tsx, [fileURLToPath(new URL("./action.ts", import.meta.url))], {
  stdio: "inherit",
});
if (action.status !== 0) process.exitCode = action.status ?? 1;
// Sharding, the action's side: the merge job against an unsharded run (through tsx too).
if (process.env.BENCH_SHARD) {
  const shard = spawnSync(tsx, [fileURLToPath(new URL("./shard-action.ts", import.meta.url))], {
    stdio: "inherit",
  });
  if (shard.status !== 0) process.exitCode = shard.status ?? 1;
}
// Parse time per MiB over adversarial shapes, from src in worker threads (also through tsx).
const parse = spawnSync(tsx, [fileURLToPath(new URL("./parse.ts", import.meta.url))], {
  stdio: "inherit",
});
if (parse.status !== 0) process.exitCode = parse.status ?? 1;
// The sandbox host's start, the fixed cost of a sandboxed run (through tsx: it imports src/).
const hostStart = spawnSync(tsx, [fileURLToPath(new URL("./host-start.ts", import.meta.url))], {
  stdio: "inherit",
});
if (hostStart.status !== 0) process.exitCode = hostStart.status ?? 1;
// The requirement proof's base view and its overhead around two real vitest runs (through tsx: it imports src/).
const proof = spawnSync(tsx, [fileURLToPath(new URL("./proof.ts", import.meta.url))], {
  stdio: "inherit",
});
if (proof.status !== 0) process.exitCode = proof.status ?? 1;
// Opening one contract's private tree over a 50,000-file checkout (through tsx: it imports src/).
const treeOpen = spawnSync(tsx, [fileURLToPath(new URL("./tree-open.ts", import.meta.url))], {
  stdio: "inherit",
});
if (treeOpen.status !== 0) process.exitCode = treeOpen.status ?? 1;
