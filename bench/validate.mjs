// Benchmark: validate 1,000 plan contracts (20 tasks × 3 checks) and 1,000
// oracle contracts (30 criteria) generated into a temp dir, through the real
// CLI bundle in a child process. Prints wall time and peak RSS per set.
// Targets (2-core machine): each set under 1 s wall, peak RSS under 200 MB.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oracleContractHead } from "./lib-proc.mjs";
import { measure, report } from "./measure.mjs";

function planContract(phase, planHash) {
  const tasks = [];
  for (let t = 1; t <= 20; t++) {
    tasks.push({
      id: `T${t}`,
      title: `Task ${t}`,
      wave: t,
      depends_on: t > 1 ? [`T${t - 1}`] : [],
      persona: "backend",
      files_modify: [`src/m${t}.ts`],
      files_create: [`src/c${t}.ts`],
      files_delete: [],
      acceptance_criteria: [`task ${t} works`],
      action: "Implement the module and its tests.",
      context_files: ["src/index.ts"],
      verification: [
        { type: "file-exists", path: `src/c${t}.ts`, must_contain: "export" },
        { type: "grep-match", path: "src/**/*.ts", pattern: `fn${t}\\(`, expect: "present" },
        { type: "command-exit", command: "npm", args: ["test", "--", `t${t}`], expected_exit: 0 },
      ],
    });
  }
  return JSON.stringify(
    {
      version: 1,
      phase,
      goal: "Generated goal.",
      why: "Benchmark.",
      generated_at: "2026-11-29T12:00:00Z",
      generated_by: "planner",
      source_plan_hash: planHash,
      tasks,
      success_criteria: ["it works"],
    },
    null,
    2,
  );
}

function oracleContract(n) {
  const lines = oracleContractHead(`bench-${n}`);
  for (let i = 1; i <= 30; i++) {
    lines.push(`${i}. criterion ${i} holds`);
    if (i % 3 !== 0) {
      lines.push(
        `   CHECK: npm test -- --grep c${i}`,
        `   EXPECT: OK-${i}`,
        "   EVIDENCE: pending",
      );
    }
  }
  lines.push("", "## FILE SCOPE", "src/");
  return `${lines.join("\n")}\n`;
}

const root = mkdtempSync(join(tmpdir(), "cg-bench-validate-"));
try {
  const plans = join(root, "plans");
  const oracles = join(root, "oracles");
  mkdirSync(join(plans, ".planning"), { recursive: true });
  mkdirSync(join(oracles, ".claude/tasks/contracts"), { recursive: true });
  for (let p = 1; p <= 1000; p++) {
    const plan = `# Phase ${p}\n`;
    const hash = `sha256:${createHash("sha256").update(plan).digest("hex")}`;
    writeFileSync(join(plans, `.planning/phase-${p}-plan.md`), plan);
    writeFileSync(join(plans, `.planning/phase-${p}-contract.json`), planContract(p, hash));
    writeFileSync(
      join(oracles, `.claude/tasks/contracts/2026-11-29-c${p}-1200.md`),
      oracleContract(p),
    );
  }
  const rows = [];
  for (const [name, dir] of [
    ["1,000 plan contracts (20 tasks × 3 checks)", plans],
    ["1,000 oracle contracts (30 criteria)", oracles],
  ]) {
    rows.push({ name, ...(await measure(["validate", "--root", dir], { expectExit: 0 })) });
  }
  report("validate", rows, { wallMs: 1000, rssMb: 200 });
} finally {
  rmSync(root, { recursive: true, force: true });
}
