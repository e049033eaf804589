// Benchmark: 500 `command-exit` checks running `true` through the real CLI
// bundle with `--max-parallel 2 --no-write`, against a plain Node loop that
// spawns `true` 500 times, two at a time, in a fresh Node process (so both
// sides pay one Node start-up). All checks sit in wave 1 so the engine's
// wave ordering serialises nothing. Target: gate / loop ≤ 1.3.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkOutcomes,
  ms,
  planContract,
  planHash,
  runArgs,
  runGateOnce,
  runNodeOnce,
  spawnLoopSource,
} from "./lib-proc.mjs";

const CHECKS = 500;
const PARALLEL = 2;
const CONTRACTS = 2;
const TASKS_PER_CONTRACT = 25;
const CHECKS_PER_TASK = CHECKS / CONTRACTS / TASKS_PER_CONTRACT;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_RATIO = 1.3;

const root = mkdtempSync(join(tmpdir(), "cg-bench-commands-"));
try {
  mkdirSync(join(root, ".planning"));
  for (let p = 1; p <= CONTRACTS; p++) {
    const plan = `# Phase ${p}\n\nRun true ${CHECKS / CONTRACTS} times.\n`;
    const verifications = Array.from({ length: TASKS_PER_CONTRACT }, () =>
      Array.from({ length: CHECKS_PER_TASK }, () => ({
        type: "command-exit",
        command: "true",
        args: [],
        expected_exit: 0,
      })),
    );
    writeFileSync(join(root, `.planning/phase-${p}-plan.md`), plan);
    writeFileSync(
      join(root, `.planning/phase-${p}-contract.json`),
      planContract(p, planHash(plan), verifications),
    );
  }

  // Unsandboxed: the sandbox's own price is measured in sandbox.mjs.
  const args = runArgs(root, PARALLEL, "off");
  // Once with --json, to make sure every check really ran and passed.
  const probe = await runGateOnce([...args, "--json"]);
  const outcomes = checkOutcomes(JSON.parse(probe.stdout));
  const passed = outcomes.filter((o) => o.result === "pass").length;
  if (outcomes.length !== CHECKS || passed !== CHECKS) {
    throw new Error(
      `expected ${CHECKS} passing checks, got ${passed} of ${outcomes.length} (exit ${probe.code}):\n${probe.stderr.slice(-2000)}`,
    );
  }

  const loop = spawnLoopSource(CHECKS, PARALLEL);
  // Interleaved, so a busy machine slows both sides alike.
  let gate;
  let base;
  for (let i = 0; i < RUNS; i++) {
    const g = await runGateOnce(args);
    if (g.code !== 0) throw new Error(`contract-gate exited ${g.code}:\n${g.stderr.slice(-2000)}`);
    if (!gate || g.wallMs < gate.wallMs) gate = g;
    const b = await runNodeOnce(loop);
    if (b.code !== 0) throw new Error(`baseline loop exited ${b.code}:\n${b.stderr}`);
    if (!base || b.wallMs < base.wallMs) base = b;
  }

  const ratio = gate.wallMs / base.wallMs;
  console.log(
    `\n## command-exit: ${CHECKS} × \`true\`, --max-parallel ${PARALLEL} (best of ${RUNS})`,
  );
  console.log(
    `contract-gate run (${CONTRACTS} plan contracts, wave 1)     wall ${ms(gate.wallMs)}   peak RSS ${gate.rssMb.toFixed(0).padStart(4)} MB`,
  );
  console.log(
    `node loop: spawn true ×${CHECKS}, ${PARALLEL} at a time        wall ${ms(base.wallMs)}   peak RSS ${base.rssMb.toFixed(0).padStart(4)} MB`,
  );
  console.log(
    `ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}, ${ratio <= TARGET_RATIO ? "ok" : "OVER"})`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
