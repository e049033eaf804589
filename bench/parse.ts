// Benchmark: parse time per MiB over adversarial input shapes
// (bench/parse-shapes.ts), per shape and worst per target, for both contract
// kinds, the evidence parser and `refresh-hash`. Each shape is built just
// under the 1 MiB cap and parsed from src in a worker thread (best of a few
// runs); one that takes longer than the time limit is stopped and reported
// as such. Run by `npm run bench` (through tsx), or alone: `npx tsx bench/parse.ts`
// (PARSE_BENCH_ONLY=<text> picks shapes, PARSE_BENCH_RUNS, PARSE_BENCH_LIMIT_MS).
// Target: under 100 ms per MiB. The x4 column is the time at 1 MiB over the
// time at a quarter MiB: about 4 for a linear parser, 16 for a quadratic one
// (the tests count work instead, test/plan-contract.linear.test.ts; small
// times make this ratio noisy).
// Figures vary with machine load. A shape's first parses in its fresh worker
// also compile the parser and grow the heap (it takes about four runs to
// settle): the best of 8 is the parser's own time per MiB, and the first run
// is shown beside it as the cold figure a process pays once.
import { availableParallelism, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { SHAPES, type ShapeTarget } from "./parse-shapes.js";

const TARGET_MS_PER_MIB = 100;
const SPEC_TARGETS: ReadonlySet<ShapeTarget> = new Set([
  "spec",
  "speckit-tasks",
  "kiro-spec",
  "openspec-spec",
]);
const SIZE = 1024 * 1024 - 64;
const RUNS = Number(process.env.PARSE_BENCH_RUNS ?? 8);
const LIMIT_MS = Number(process.env.PARSE_BENCH_LIMIT_MS ?? 10_000);
/** Only the shapes whose "target name" contains this text. */
const ONLY = process.env.PARSE_BENCH_ONLY;

const WORKER = new URL("./parse-worker.ts", import.meta.url).href;

type Outcome =
  | { ms: number; medianMs: number; firstMs: number; quarterMs: number; bytes: number }
  | { error: string }
  | { timedOut: true };

function runShape(index: number): Promise<Outcome> {
  return new Promise((resolve) => {
    // Workers do not inherit tsx's loader: a plain module loads the TypeScript one through it.
    const worker = new Worker(
      `import { tsImport } from "tsx/esm/api"; await tsImport(${JSON.stringify(WORKER)}, ${JSON.stringify(import.meta.url)});`,
      { eval: true, workerData: { index, size: SIZE, runs: RUNS } },
    );
    // Building the input and every run count against the limit: over 10 s is over target anyway.
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ timedOut: true });
    }, LIMIT_MS);
    worker.once("message", (m: Outcome) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
    worker.once("error", (e) => {
      clearTimeout(timer);
      resolve({ error: `${e.name}: ${e.message}` });
    });
  });
}

console.log(
  `\n## parse: time per MiB over adversarial shapes (target < ${TARGET_MS_PER_MIB} ms/MiB; best of ${RUNS} runs, median in brackets, then the first (cold) run, then x4: time for the input over time for a quarter of it, about 4 when linear; load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
);
let thrown = false;
const worst = new Map<ShapeTarget, { score: number; shown: string; name: string }>();
for (let i = 0; i < SHAPES.length; i++) {
  const shape = SHAPES[i]!;
  if (ONLY && !`${shape.target} ${shape.name}`.includes(ONLY)) continue;
  const outcome = await runShape(i);
  let score: number;
  let shown: string;
  if ("timedOut" in outcome) {
    score = Number.POSITIVE_INFINITY;
    shown = `> ${LIMIT_MS} ms  STOPPED`;
  } else if ("error" in outcome) {
    thrown = true;
    score = Number.POSITIVE_INFINITY;
    shown = `THROWS ${outcome.error}`;
  } else {
    const mib = outcome.bytes / (1024 * 1024);
    score = outcome.ms / mib;
    const typical = `(${(outcome.medianMs / mib).toFixed(1)})`;
    const cold = `cold ${(outcome.firstMs / mib).toFixed(0)}`;
    // Time for the whole input over time for a quarter of it: about 4 when linear, 16 when quadratic.
    const growth = `x4 ${(outcome.ms / Math.max(outcome.quarterMs, 0.001)).toFixed(1)}`;
    shown = `${score.toFixed(1).padStart(8)} ms/MiB ${typical.padStart(8)}  ${cold.padEnd(8)}  ${growth.padEnd(7)}  ${score < TARGET_MS_PER_MIB ? "ok" : "OVER"}`;
  }
  console.log(`${shape.target.padEnd(16)} ${shape.name.padEnd(36)} ${shown}`);
  const prev = worst.get(shape.target);
  if (!prev || score > prev.score) worst.set(shape.target, { score, shown, name: shape.name });
}
for (const [target, { shown, name }] of worst) {
  console.log(`worst ${target.padEnd(16)} ${shown.trim()} (${name})`);
}
// Load moves every figure: the spec kinds are read against the older kinds of the same run.
const worstOf = (spec: boolean) => {
  const scores = [...worst].filter(([t]) => SPEC_TARGETS.has(t) === spec).map(([, w]) => w.score);
  const done = scores.filter(Number.isFinite);
  const stopped = scores.length - done.length;
  if (done.length === 0) return stopped > 0 ? "every one stopped or threw" : undefined;
  const most = `${Math.max(...done).toFixed(1)} ms/MiB`;
  return stopped > 0 ? `${most} (and ${stopped} stopped or threw)` : most;
};
const specWorst = worstOf(true);
const olderWorst = worstOf(false);
if (specWorst !== undefined && olderWorst !== undefined) {
  console.log(
    `this run: worst requirement-spec shape ${specWorst}; worst of the older kinds ${olderWorst}`,
  );
}
// Over target is printed, as by the other benches; a parser that throws fails the bench.
if (thrown) process.exitCode = 1;
