// Benchmark: the price of the sandbox. 500 `command-exit` checks running
// `true` through the real CLI bundle at --max-parallel 2, sandboxed and
// unsandboxed, against a plain Node loop that spawns `true` 500 times two at
// a time, all in the same run and interleaved. Targets: sandboxed ≤ 1.2× the
// loop (issue 31: the host's start kept below 150 ms, host-start.ts), unsandboxed ≤ 1.2×. Privilege is paid once (one sandbox host per run,
// one executor per lane); what remains per check is one fork and exec from
// the lane executor and the cgroup join. The allowlisted file-system view is
// built once per run, by the host. Then each layer's cost per check, in µs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { compileLaneExecutor, laneLoopSource } from "./lib-lane.mjs";
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
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * Another build's CLI bundle (`dist/cli/index.js` of an earlier commit, e.g.
 * from `git archive <rev> dist`): its sandboxed run is timed in the same
 * interleaved rounds, so a change to the sandbox is compared side by side.
 */
const BASELINE_CLI = process.env.BENCH_BASELINE_CLI;

const root = mkdtempSync(join(tmpdir(), "cg-bench-sandbox-"));
try {
  mkdirSync(join(root, ".planning"));
  const plan = "# Phase 1\n\nRun true 500 times.\n";
  const verifications = Array.from({ length: 50 }, () =>
    Array.from({ length: CHECKS / 50 }, () => ({
      type: "command-exit",
      command: "true",
      args: [],
      expected_exit: 0,
    })),
  );
  writeFileSync(join(root, ".planning/phase-1-plan.md"), plan);
  writeFileSync(
    join(root, ".planning/phase-1-contract.json"),
    planContract(1, planHash(plan), verifications),
  );
  const args = (sandbox) => runArgs(root, PARALLEL, sandbox);

  // Every check must really run and pass, and the sandboxed run must really be sandboxed.
  const probe = await runGateOnce([...args("required"), "--json"]);
  const report = JSON.parse(probe.stdout);
  const passed = checkOutcomes(report).filter((o) => o.result === "pass").length;
  if (passed !== CHECKS || report.sandbox?.mechanism === "none") {
    throw new Error(
      `expected ${CHECKS} sandboxed passing checks, got ${passed} (${report.sandbox?.mechanism}):\n${probe.stderr.slice(-2000)}`,
    );
  }

  const loop = spawnLoopSource(CHECKS, PARALLEL);
  const best = {};
  const keep = (name, r) => {
    if (r.code !== 0) throw new Error(`${name} exited ${r.code}:\n${r.stderr.slice(-2000)}`);
    if (!best[name] || r.wallMs < best[name].wallMs) best[name] = r;
  };
  for (let i = 0; i < RUNS; i++) {
    keep("sandboxed", await runGateOnce(args("required")));
    keep("unsandboxed", await runGateOnce(args("off")));
    keep("loop", await runNodeOnce(loop));
    if (BASELINE_CLI) keep("baseline", await runGateOnce(args("required"), { cli: BASELINE_CLI }));
  }

  const base = best.loop.wallMs;
  const line = (label, r, target) => {
    const ratio = r.wallMs / base;
    const verdict = target
      ? `  ratio ${ratio.toFixed(2)} (target ≤ ${target}, ${ratio <= target ? "ok" : "OVER"})`
      : "";
    return `${label.padEnd(44)} wall ${ms(r.wallMs)}   peak RSS ${r.rssMb.toFixed(0).padStart(4)} MB${verdict}`;
  };
  console.log(
    `\n## sandbox: ${CHECKS} × \`true\` command-exit, --max-parallel ${PARALLEL} (best of ${RUNS})`,
  );
  console.log(
    line(
      `contract-gate, sandbox (${report.sandbox.mechanism}, ${report.sandbox.executor ?? "per-check namespaces"})`,
      best.sandboxed,
      1.2,
    ),
  );
  console.log(line("contract-gate, --sandbox off", best.unsandboxed, 1.2));
  console.log(line(`node loop: spawn true ×${CHECKS}, ${PARALLEL} at a time`, best.loop));
  if (best.baseline)
    console.log(line("baseline build (BENCH_BASELINE_CLI), sandbox", best.baseline));
  const perCheck = (best.sandboxed.wallMs - best.unsandboxed.wallMs) / CHECKS;
  const lane = (r) => Math.round((r.wallMs * 1000 * PARALLEL) / CHECKS);
  console.log(
    `sandbox cost: ${Math.round(perCheck * 1000)} µs per check of wall time at ${PARALLEL} lanes (one host per run, one executor per lane; sudo, when used, once per run)`,
  );
  console.log(
    `per check per lane: sandboxed ${lane(best.sandboxed)} µs, unsandboxed ${lane(best.unsandboxed)} µs, bare spawn ${lane(best.loop)} µs (over bare: ${lane(best.sandboxed) - lane(best.loop)} µs sandboxed, ${lane(best.unsandboxed) - lane(best.loop)} µs unsandboxed)`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );

  // Where a sandboxed check's time goes: the same loop, with each layer of
  // the check's process chain added in turn (root only: the layers need it),
  // and the lane executor driven directly. Per check per lane, in µs, and
  // what each costs over the bare spawn.
  if (process.getuid?.() === 0) {
    const unshare = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", "--"];
    const guard = [
      "/bin/sh",
      "-c",
      'mount -n --bind -o ro /proc/sys /proc/sys 2>/dev/null || exit 125; exec "$@"',
      "sh",
    ];
    const setpriv = [
      "setpriv",
      "--reuid=0",
      "--regid=0",
      "--clear-groups",
      "--no-new-privs",
      "--bounding-set=-all",
      "--inh-caps=-all",
      "--ambient-caps=-all",
      "--",
    ];
    const layers = [
      ["bare spawn: true", spawnLoopSource(CHECKS, PARALLEL, ["true"])],
      ["setpriv true", spawnLoopSource(CHECKS, PARALLEL, [...setpriv, "true"])],
      [
        "unshare (PID + mount ns, /proc) true",
        spawnLoopSource(CHECKS, PARALLEL, [...unshare, "true"]),
      ],
      [
        "unshare sh(/proc guard) setpriv true",
        spawnLoopSource(CHECKS, PARALLEL, [...unshare, ...guard, ...setpriv, "true"]),
      ],
      // The per-check chain (the fallback without a C compiler): the check's environment last, by `env -i`.
      [
        "per-check chain: unshare sh setpriv env -i true",
        spawnLoopSource(CHECKS, PARALLEL, [
          ...unshare,
          ...guard,
          ...setpriv,
          "/usr/bin/env",
          "-i",
          "--",
          "PATH=/usr/bin:/bin",
          "true",
        ]),
      ],
    ];
    const executor = compileLaneExecutor(root);
    if (executor)
      layers.push([
        "lane executor (one per lane, PID 1): true",
        laneLoopSource(CHECKS, PARALLEL, executor),
      ]);
    else console.log("(no cc: the lane executor layer is not measured)");
    // Interleaved, like the runs above, so a busy machine slows every layer alike.
    const bestMs = new Map();
    for (let i = 0; i < RUNS; i++) {
      for (const [label, source] of layers) {
        const r = await runNodeOnce(source);
        if (r.code !== 0) throw new Error(`${label} exited ${r.code}:\n${r.stderr.slice(-2000)}`);
        bestMs.set(label, Math.min(bestMs.get(label) ?? Number.POSITIVE_INFINITY, r.wallMs));
      }
    }
    const us = (wallMs) => Math.round((wallMs * 1000 * PARALLEL) / CHECKS);
    const bare = bestMs.get("bare spawn: true");
    console.log(
      `layers (no cgroups, no gate; best of ${RUNS}; µs per check per lane, ${PARALLEL} lanes):`,
    );
    for (const [label, wallMs] of bestMs) {
      const over = us(wallMs) - us(bare);
      console.log(
        `  ${label.padEnd(48)} ${String(us(wallMs)).padStart(7)} µs  (+${String(over).padStart(6)} µs, ${(wallMs / bare).toFixed(2)}× bare)`,
      );
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
