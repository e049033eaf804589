// Shared by run-commands.mjs and grep.mjs: run the CLI bundle (or a baseline)
// in a child process and time it. Like measure.mjs, the child reports its own
// peak RSS (process.resourceUsage) on exit, so the figure is the child's, not
// the benchmark driver's. A shell baseline's peak RSS comes from GNU time.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../dist/cli/index.js", import.meta.url));

const RSS_PROBE =
  'process.on("exit", () => { const u = process.resourceUsage(); process.stderr.write("\\n@@maxrss " + u.maxRSS + " " + Math.round((u.userCPUTime + u.systemCPUTime) / 1000) + "\\n"); });';

/** Run the bundled CLI (or `cli`, another build of it) once: `{ code, wallMs, rssMb, cpuMs, stdout, stderr }`. */
export function runGateOnce(args, { cwd, cli = CLI } = {}) {
  const script = `${RSS_PROBE} await import(${JSON.stringify(cli)});`;
  return timed(
    process.execPath,
    ["--input-type=module", "-e", script, "--", "contract-gate", ...args],
    { cwd },
  );
}

/** `contract-gate run` over `root` without write-back, `parallel` lanes, a sandbox mode. */
export function runArgs(root, parallel, sandbox) {
  return [
    "run",
    "--root",
    root,
    "--no-write",
    "--max-parallel",
    String(parallel),
    "--sandbox",
    sandbox,
  ];
}

/**
 * The baseline: a Node module that spawns `true` `count` times, `parallel` at
 * a time; or `argv` instead (the sandbox's layers, one by one).
 */
export function spawnLoopSource(count, parallel, argv = ["true"]) {
  return `
import { spawn } from "node:child_process";
let next = 0;
const argv = ${JSON.stringify(argv)};
const one = () => new Promise((resolve, reject) => {
  const child = spawn(argv[0], argv.slice(1));
  child.on("error", reject);
  child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error("exit " + code))));
});
const lane = async () => { while (next < ${count}) { next++; await one(); } };
await Promise.all(Array.from({ length: ${parallel} }, lane));
`;
}

/** Run an ES-module script in a fresh Node process once, with the same RSS probe. */
export function runNodeOnce(source, { cwd } = {}) {
  return timed(process.execPath, ["--input-type=module", "-e", `${RSS_PROBE}\n${source}`], { cwd });
}

/** Run a bash script once, peak RSS (of the largest process) from GNU time when available. */
export function runShellOnce(script, { cwd } = {}) {
  const gnuTime = "/usr/bin/time";
  if (existsSync(gnuTime)) {
    return timed(gnuTime, ["-f", "\n@@maxrss %M", "bash", "-c", script], { cwd });
  }
  return timed("bash", ["-c", script], { cwd });
}

function timed(file, args, { cwd } = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(file, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    const out = [];
    let stderr = "";
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      // The probe's CPU time (user + system, ms) is absent from GNU time's line.
      const m = /@@maxrss (\d+)(?: (\d+))?/.exec(stderr);
      resolve({
        code,
        wallMs,
        rssMb: m ? Number(m[1]) / 1024 : Number.NaN,
        cpuMs: m?.[2] !== undefined ? Number(m[2]) : Number.NaN,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: stderr.replace(/\n?@@maxrss \d+( \d+)?\n?/, ""),
      });
    });
  });
}

/** `sha256:…` of a plan file's text, as `source_plan_hash` expects. */
export function planHash(text) {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * A plan contract whose tasks all run in wave 1 with no dependencies, so the
 * engine never serialises them: `verifications[t]` is task T(t+1)'s list.
 */
export function planContract(phase, hash, verifications) {
  return JSON.stringify(
    {
      version: 1,
      phase,
      goal: "Generated benchmark goal.",
      why: "Benchmark.",
      generated_at: "2026-11-29T12:00:00Z",
      generated_by: "planner",
      source_plan_hash: hash,
      tasks: verifications.map((verification, i) => ({
        id: `T${i + 1}`,
        title: `Task ${i + 1}`,
        wave: 1,
        depends_on: [],
        persona: "backend",
        files_modify: [],
        files_create: [],
        files_delete: [],
        acceptance_criteria: [`task ${i + 1} holds`],
        action: "Benchmark task.",
        context_files: [],
        verification,
      })),
      success_criteria: ["every check passes"],
    },
    null,
    2,
  );
}

/** Every check outcome of a `run --json` report, in report order. */
export function checkOutcomes(report) {
  const out = [];
  for (const contract of report.contracts ?? []) {
    for (const criterion of contract.criteria ?? []) {
      for (const check of criterion.checks ?? []) {
        out.push({ contract: contract.path, criterion: criterion.id, ...check });
      }
    }
  }
  return out;
}

export function ms(n) {
  return `${n.toFixed(0).padStart(6)} ms`;
}

/** The opening of a generated oracle contract, up to its criteria (`n. …`, `CHECK:`, `EXPECT:`). */
export function oracleContractHead(name) {
  return [
    `# CONTRACT — ${name}`,
    "- date: 2026-11-29 | flow: feat | branch: bench",
    "- status: active",
    "",
    "## REQUEST (verbatim — IMMUTABLE)",
    "Generated request.",
    "",
    "## ACCEPTANCE CRITERIA",
  ];
}

/** `git init` and one commit of everything in `root`, isolated from the machine's git config. */
export function commitRepo(root) {
  const git = (...a) =>
    execFileSync("git", a, {
      cwd: root,
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "bench");
}
