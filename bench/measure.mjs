// Run the CLI bundle in a child process and measure wall time and peak RSS.
// The child reports its own peak RSS (process.resourceUsage) on exit, so the
// figure is the gate's, not the benchmark driver's.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli/index.js", import.meta.url));
const probe = `process.on("exit", () => process.stderr.write("\\n@@maxrss " + process.resourceUsage().maxRSS + "\\n")); await import(${JSON.stringify(cli)});`;

/** Best of `runs` runs (the least disturbed by the rest of the machine). */
export async function measure(args, { expectExit, runs = 3, cwd } = {}) {
  let best;
  for (let i = 0; i < runs; i++) {
    const r = await once(args, cwd);
    if (expectExit !== undefined && r.code !== expectExit) {
      throw new Error(
        `contract-gate ${args.join(" ")} exited ${r.code}:\n${r.stderr.slice(-2000)}`,
      );
    }
    if (!best || r.wallMs < best.wallMs) best = r;
  }
  return { wallMs: best.wallMs, rssMb: best.rssMb };
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
      const m = /@@maxrss (\d+)/.exec(stderr);
      resolve({ code, wallMs, rssMb: m ? Number(m[1]) / 1024 : Number.NaN, stderr });
    });
  });
}

/** Print one table of figures against their targets. */
export function report(title, rows, target) {
  console.log(`\n## ${title}`);
  for (const r of rows) {
    const wallOk = r.wallMs <= target.wallMs ? "ok" : "OVER";
    const rssOk = r.rssMb <= target.rssMb ? "ok" : "OVER";
    console.log(
      `${r.name.padEnd(48)} wall ${r.wallMs.toFixed(0).padStart(6)} ms (target ≤ ${target.wallMs}, ${wallOk})` +
        `   peak RSS ${r.rssMb.toFixed(0).padStart(4)} MB (target ≤ ${target.rssMb}, ${rssOk})`,
    );
  }
}
