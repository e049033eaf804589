// The bundled action run as the runner runs it (`node dist/index.js`), for
// bench/action.ts and bench/shard-action.ts. A preloaded probe reports the
// gate's own peak RSS (KiB) and CPU time (ms) on stderr as `@@maxrss RSS CPU`:
// the gate's, not its sandbox host's, which runs the same bundle.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));

/** Writes the probe at `path`; returns it. */
export function writeProbe(path: string): string {
  writeFileSync(
    path,
    'if (!process.argv.includes("--contract-gate-sandbox-host")) process.on("exit", () => { const u = process.resourceUsage(); process.stderr.write("\\n@@maxrss " + u.maxRSS + " " + Math.round((u.userCPUTime + u.systemCPUTime) / 1000) + "\\n"); });\n',
  );
  return path;
}

export interface BundleRun {
  code: number | null;
  wallMs: number;
  stdout: string;
  stderr: string;
  /** The gate's peak RSS in MB and CPU time in ms, from the probe (NaN when it did not report). */
  rssMb: number;
  cpuMs: number;
}

/** Runs the action bundle (`dist`, default DIST) with `env` (and `nodeArgs` before it), the probe preloaded. */
export function runBundle(
  probe: string,
  env: NodeJS.ProcessEnv,
  opts: { cwd?: string; nodeArgs?: readonly string[]; dist?: string } = {},
): Promise<BundleRun> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [...(opts.nodeArgs ?? []), "--import", pathToFileURL(probe).href, opts.dist ?? DIST],
      { ...(opts.cwd !== undefined && { cwd: opts.cwd }), env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
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
        stdout,
        stderr,
        rssMb: m ? Number(m[1]) / 1024 : Number.NaN,
        cpuMs: m ? Number(m[2]) : Number.NaN,
      });
    });
  });
}
