// One shape of the parse bench (bench/parse.ts), in a worker thread so that
// a parse that runs away can be stopped: build the input, parse it a few
// times, post the best time in milliseconds (or what was thrown), and the
// best time for a quarter of the input (the linearity ratio).
import { parentPort, workerData } from "node:worker_threads";
import { parseEvidenceFile } from "../src/formats/evidence/index.js";
import { parseContract } from "../src/formats/index.js";
import { refreshPlanHash } from "../src/load/refresh-hash.js";
import { SHAPE_PATHS, SHAPES, type ShapeTarget } from "./parse-shapes.js";

const { index, size, runs } = workerData as { index: number; size: number; runs: number };
const shape = SHAPES[index]!;
const plan = new TextEncoder().encode("# plan\n");

function parse(target: ShapeTarget, bytes: Uint8Array): void {
  switch (target) {
    case "plan-contract":
    case "oracle-contract":
    case "gates-ledger":
    case "planner-plan":
    case "workphase-research":
    case "spec":
    case "speckit-tasks":
    case "kiro-spec":
    case "openspec-spec":
      parseContract(target, SHAPE_PATHS[target], bytes);
      return;
    case "evidence":
      parseEvidenceFile(".planning/phase-2-evidence.json", bytes);
      return;
    case "refresh-hash":
      refreshPlanHash(bytes, plan);
      return;
  }
}

const bytes = new TextEncoder().encode(shape.build(size));
// A quarter of the input too: time at size over time at a quarter is about 4 for a linear parser.
const quarter = new TextEncoder().encode(shape.build(Math.floor(size / 4)));
const times: number[] = [];
try {
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    parse(shape.target, bytes);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const firstMs = times[0];
  times.sort((a, b) => a - b);
  // Measured after the full size, so that it runs warm like the best of those.
  let quarterMs = Number.POSITIVE_INFINITY;
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    parse(shape.target, quarter);
    quarterMs = Math.min(quarterMs, Number(process.hrtime.bigint() - start) / 1e6);
  }
  // The best run is the least disturbed by the rest of the machine; the median is the typical one.
  parentPort!.postMessage({
    ms: times[0],
    medianMs: times[Math.floor(times.length / 2)],
    firstMs,
    quarterMs,
    bytes: bytes.length,
  });
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
}
