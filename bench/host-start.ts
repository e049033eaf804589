// Benchmark: the sandbox host's start (issue 31, "Speed"), the fixed cost
// every sandboxed run pays once: from the gate's spawn of the bundle's host
// to its ready line (the view built, the uid chosen, the tree idmapped when
// the gate is root, the lane executor ready), and the host's own share of it.
// Target < 150 ms. The lane executor is compiled on the first start and kept
// (src/sandbox/executor-cache.ts): the first start is shown apart.
// Run by `npm run bench` (through tsx: it imports src/). Needs root or sudo -n and the bundle.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSandbox } from "../src/sandbox/index.js";
import { SANDBOX_HOST_ARG } from "../src/sandbox/protocol.js";

const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3) * 3);
const TARGET_MS = 150;
const bundle = fileURLToPath(new URL("../dist/cli/index.js", import.meta.url));
const boundary =
  process.platform === "linux" &&
  (process.getuid?.() === 0 || spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0);

if (!existsSync(bundle) || !boundary) {
  console.log("\n## sandbox host start: skipped (no bundle, or no root / sudo -n here)");
} else {
  const root = mkdtempSync(join(tmpdir(), "cg-bench-host-"));
  try {
    writeFileSync(join(root, "README.md"), "bench\n");
    const starts: { spawn: number; host: number; view: number; uid: number | undefined }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const home = mkdtempSync(join(tmpdir(), "cg-bench-home-"));
      const sandbox = await openSandbox({
        mode: "required",
        root,
        env: { PATH: process.env.PATH, HOME: home },
        hostCommand: [process.execPath, bundle, SANDBOX_HOST_ARG],
        memoryMb: 4096,
      });
      // One check, so a start that cannot run one is not counted as a start.
      const r = await sandbox.run({
        file: "true",
        args: [],
        cwd: root,
        env: { PATH: process.env.PATH },
        timeoutMs: 60_000,
      });
      sandbox.close();
      rmSync(home, { recursive: true, force: true });
      if (sandbox.info.mechanism === "none" || sandbox.hostMs === undefined || r.kind !== "exited")
        throw new Error(`no boundary: ${sandbox.info.warning ?? r.kind}`);
      starts.push({
        spawn: sandbox.hostMs.spawn,
        host: sandbox.hostMs.host ?? Number.NaN,
        view: sandbox.viewMs ?? Number.NaN,
        uid: sandbox.info.view?.uid,
      });
    }
    const [first, ...rest] = starts;
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const spawn = sorted(rest.map((s) => s.spawn));
    const host = sorted(rest.map((s) => s.host));
    const view = sorted(rest.map((s) => s.view));
    const median = (xs: number[]) => xs[Math.floor(xs.length / 2)] ?? Number.NaN;
    const best = spawn[0] ?? Number.NaN;
    console.log(`\n## sandbox host start (${RUNS} starts, checks as uid ${first?.uid})`);
    console.log(
      `spawn to ready: best ${best.toFixed(0)} ms, median ${median(spawn).toFixed(0)} ms (the host's own share: best ${(host[0] ?? Number.NaN).toFixed(0)} ms, median ${median(host).toFixed(0)} ms, of which building the view ${median(view).toFixed(0)} ms); target < ${TARGET_MS} ms, ${best < TARGET_MS ? "ok" : "OVER"}`,
    );
    console.log(
      `first start of this bench (compiles the lane executor unless an earlier run kept it): ${first?.spawn.toFixed(0)} ms`,
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
