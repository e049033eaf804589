// Run the CLI bundle in a child process and measure wall time, CPU time and
// peak RSS. The child reports its own peak RSS and CPU time
// (process.resourceUsage) on exit, so the figures are the gate's, not the
// benchmark driver's. On a loaded machine wall time waits for a core; the CPU
// time (user + system) is the work the gate did.
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli/index.js", import.meta.url));
const probe = `process.on("exit", () => { const u = process.resourceUsage(); process.stderr.write("\\n@@maxrss " + u.maxRSS + " " + (u.userCPUTime + u.systemCPUTime) + "\\n"); }); await import(${JSON.stringify(cli)});`;

/** Best of `runs` runs (the least disturbed by the rest of the machine), with the median wall time. */
export async function measure(args, { expectExit, runs = 3, cwd } = {}) {
  let best;
  const walls = [];
  const cpus = [];
  for (let i = 0; i < runs; i++) {
    const r = await once(args, cwd);
    if (expectExit !== undefined && r.code !== expectExit) {
      throw new Error(
        `contract-gate ${args.join(" ")} exited ${r.code}:\n${r.stderr.slice(-2000)}`,
      );
    }
    walls.push(r.wallMs);
    cpus.push(r.cpuMs);
    if (!best || r.wallMs < best.wallMs) best = r;
  }
  return {
    wallMs: best.wallMs,
    rssMb: best.rssMb,
    medianWallMs: median(walls),
    cpuMs: Math.min(...cpus),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function once(args, cwd) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", probe, "--", "contract-gate", ...args],
      {
        cwd,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      const m = /@@maxrss (\d+) (\d+)/.exec(stderr);
      resolve({
        code,
        wallMs,
        rssMb: m ? Number(m[1]) / 1024 : Number.NaN,
        cpuMs: m ? Number(m[2]) / 1000 : Number.NaN,
        stderr,
      });
    });
  });
}

/** Print one table of figures against their targets, with the machine's load (1-minute average). */
export function report(title, rows, target) {
  const cores = availableParallelism();
  console.log(`\n## ${title} (load ${loadavg()[0].toFixed(1)} on ${cores} cores)`);
  for (const r of rows) {
    const wallOk = r.wallMs <= target.wallMs ? "ok" : "OVER";
    const rssOk = r.rssMb <= target.rssMb ? "ok" : "OVER";
    console.log(
      `${r.name.padEnd(48)} wall ${r.wallMs.toFixed(0).padStart(6)} ms (target ≤ ${target.wallMs}, ${wallOk})` +
        `   peak RSS ${r.rssMb.toFixed(0).padStart(4)} MB (target ≤ ${target.rssMb}, ${rssOk})` +
        (r.medianWallMs === undefined
          ? ""
          : `   median wall ${r.medianWallMs.toFixed(0)} ms, best CPU ${r.cpuMs.toFixed(0)} ms`),
    );
  }
}
