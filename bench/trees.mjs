// Benchmark: per-contract private trees (issue 32). The run judges a commit
// (`--committed`, a git repository), so each contract's commands run in a
// private tree of the head commit: with a boundary a sandbox host of its own
// over the checkout, without one a private copy. Against a Node loop spawning
// the same `bash -c` commands two at a time. Targets (issue 32): C contracts ×
// 30 no-op oracle checks ≤ 1.1× the loop and ≤ 200 MB RSS; 500 no-op checks
// in one contract ≤ 1.2×. BENCH_TREES_CONTRACTS (default 20, or the issue's
// 1,000 under BENCH_SCALE: minutes per mode), BENCH_TREES_MODES (default
// `required,off`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkOutcomes,
  commitRepo,
  ms,
  oracleContractHead,
  runArgs,
  runGateOnce,
  runNodeOnce,
} from "./lib-proc.mjs";

const PARALLEL = 2;
const MODES = (process.env.BENCH_TREES_MODES ?? "required,off").split(",");

function oracleContract(n, criteria) {
  const lines = oracleContractHead(`trees-${n}`);
  for (let i = 1; i <= criteria; i++) {
    lines.push(`${i}. criterion ${i} holds`, `   CHECK: echo OK-${i}`, `   EXPECT: OK-${i}`);
    lines.push("   EVIDENCE: pending");
  }
  lines.push("", "## FILE SCOPE", "src/");
  return `${lines.join("\n")}\n`;
}

const loopOf = (checks, criteria) => `
import { spawn } from "node:child_process";
let next = 0;
const one = (i) => new Promise((resolve, reject) => {
  const child = spawn("bash", ["-c", "echo OK-" + ((i % ${criteria}) + 1)], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.resume();
  child.stderr.resume();
  child.on("error", reject);
  child.on("close", (code) => (code === 0 ? resolve() : reject(new Error("exit " + code))));
});
const lane = async () => { while (next < ${checks}) await one(next++); };
await Promise.all(Array.from({ length: ${PARALLEL} }, lane));
`;

async function shape(label, contracts, criteria, target) {
  const root = mkdtempSync(join(tmpdir(), "cg-bench-trees-"));
  try {
    const dir = join(root, ".claude/tasks/contracts");
    mkdirSync(dir, { recursive: true });
    for (let p = 1; p <= contracts; p++) {
      writeFileSync(join(dir, `2026-11-29-t${p}-1200.md`), oracleContract(p, criteria));
    }
    commitRepo(root);
    const checks = contracts * criteria;
    console.log(`\n## private trees: ${label} (${checks} checks, --max-parallel ${PARALLEL})`);
    const base = await runNodeOnce(loopOf(checks, criteria));
    if (base.code !== 0) throw new Error(`baseline loop exited ${base.code}:\n${base.stderr}`);
    for (const mode of MODES) {
      const r = await runGateOnce([...runArgs(root, PARALLEL, mode), "--committed", "--json"]);
      const report = JSON.parse(r.stdout);
      const passed = checkOutcomes(report).filter((o) => o.result === "pass").length;
      if (passed !== checks)
        throw new Error(
          `${mode}: ${passed} of ${checks} passed (exit ${r.code}):\n${r.stderr.slice(-1500)}`,
        );
      const ratio = r.wallMs / base.wallMs;
      console.log(
        `contract-gate --committed, sandbox ${mode.padEnd(8)} wall ${ms(r.wallMs)}   peak RSS ${r.rssMb.toFixed(0).padStart(4)} MB  ratio ${ratio.toFixed(2)} (target ≤ ${target}, ${ratio <= target ? "ok" : "OVER"}); RSS ${r.rssMb <= 200 ? "ok" : "OVER"}`,
      );
      console.log(`  ${report.sandbox?.trees ?? "(no trees named)"}`);
    }
    console.log(`node loop: spawn bash -c ×${checks}        wall ${ms(base.wallMs)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const contracts = Number(
  process.env.BENCH_TREES_CONTRACTS ?? (process.env.BENCH_SCALE ? 1000 : 20),
);
await shape(`${contracts} contracts × 30 no-op oracle checks`, contracts, 30, 1.1);
await shape("one contract × 500 no-op oracle checks", 1, 500, 1.2);
