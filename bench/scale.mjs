// Benchmark at scale (opt-in: BENCH_SCALE=1 npm run bench, or node bench/scale.mjs; it takes minutes): 1,000 oracle
// contracts × 30 criteria, each a `CHECK:` run through `bash -c`, 30,000
// checks at --max-parallel 2, sandboxed and unsandboxed, against a Node loop
// that spawns the same 30,000 `bash -c` commands two at a time. Targets
// (sandboxed: one executor per lane): the gate ≤ 1.5× the loop, its peak RSS
// ≤ 200 MB; `--json` streams the report. BENCH_SCALE_CONTRACTS=100 for a
// tenth of it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkOutcomes,
  ms,
  oracleContractHead,
  runArgs,
  runGateOnce,
  runNodeOnce,
} from "./lib-proc.mjs";

const CONTRACTS = Number(process.env.BENCH_SCALE_CONTRACTS ?? 1000);
const CRITERIA = 30;
const CHECKS = CONTRACTS * CRITERIA;
const PARALLEL = 2;
const MODES = (process.env.BENCH_SCALE_MODES ?? "required,off").split(",");

function oracleContract(n) {
  const lines = oracleContractHead(`scale-${n}`);
  for (let i = 1; i <= CRITERIA; i++) {
    lines.push(`${i}. criterion ${i} holds`, `   CHECK: echo OK-${i}`, `   EXPECT: OK-${i}`);
    lines.push("   EVIDENCE: pending");
  }
  lines.push("", "## FILE SCOPE", "src/");
  return `${lines.join("\n")}\n`;
}

const loop = `
import { spawn } from "node:child_process";
let next = 0;
const one = (i) => new Promise((resolve, reject) => {
  const child = spawn("bash", ["-c", "echo OK-" + ((i % ${CRITERIA}) + 1)], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.resume();
  child.stderr.resume();
  child.on("error", reject);
  child.on("close", (code) => (code === 0 ? resolve() : reject(new Error("exit " + code))));
});
const lane = async () => { while (next < ${CHECKS}) await one(next++); };
await Promise.all(Array.from({ length: ${PARALLEL} }, lane));
`;

const root = mkdtempSync(join(tmpdir(), "cg-bench-scale-"));
try {
  const dir = join(root, ".claude/tasks/contracts");
  mkdirSync(dir, { recursive: true });
  for (let p = 1; p <= CONTRACTS; p++) {
    writeFileSync(join(dir, `2026-11-29-s${p}-1200.md`), oracleContract(p));
  }
  console.log(
    `\n## scale: ${CONTRACTS} oracle contracts × ${CRITERIA} criteria = ${CHECKS} \`bash -c\` checks, --max-parallel ${PARALLEL}`,
  );
  const base = await runNodeOnce(loop);
  if (base.code !== 0) throw new Error(`baseline loop exited ${base.code}:\n${base.stderr}`);
  const line = (label, r, extra = "") =>
    `${label.padEnd(44)} wall ${ms(r.wallMs)}   peak RSS ${r.rssMb.toFixed(0).padStart(4)} MB${extra}`;
  for (const mode of MODES) {
    const r = await runGateOnce([...runArgs(root, PARALLEL, mode), "--json"]);
    const report = JSON.parse(r.stdout);
    const outcomes = checkOutcomes(report);
    const passed = outcomes.filter((o) => o.result === "pass").length;
    if (passed !== CHECKS) {
      throw new Error(
        `${mode}: expected ${CHECKS} passing checks, got ${passed} (exit ${r.code}):\n${r.stderr.slice(-2000)}`,
      );
    }
    const ratio = r.wallMs / base.wallMs;
    const rssOk = r.rssMb <= 200 ? "ok" : "OVER";
    console.log(
      line(
        `contract-gate --json, sandbox ${mode} (${report.sandbox?.mechanism}, ${report.sandbox?.executor ?? "-"})`,
        r,
        `  ratio ${ratio.toFixed(2)} (target ≤ 1.5, ${ratio <= 1.5 ? "ok" : "OVER"}); RSS target ≤ 200 (${rssOk}); ${Math.round((r.wallMs * 1000 * PARALLEL) / CHECKS)} µs per check per lane`,
      ),
    );
  }
  console.log(
    line(
      `node loop: spawn bash -c ×${CHECKS}, ${PARALLEL} at a time`,
      base,
      `  ${Math.round((base.wallMs * 1000 * PARALLEL) / CHECKS)} µs per spawn per lane`,
    ),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
