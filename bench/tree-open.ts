// Benchmark: opening a contract's private tree over a checkout of 50,000
// files (issue 32: ≤ 50 ms). Measured in parts: the head layer (one diff
// through a private index, one batched blob read; once per run), laying it
// into a host's upper (`treeMs`, per contract), the whole host start (per
// contract, with a boundary), and a private copy (per contract, without one).
// Run by `npm run bench` (through tsx: it imports src/). Best of 3.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openGit } from "../src/git/index.js";
import { headLayer, openContractTrees } from "../src/run/contract-trees.js";
import { openSandbox } from "../src/sandbox/index.js";
import { SANDBOX_HOST_ARG } from "../src/sandbox/protocol.js";

const FILES = Number(process.env.BENCH_TREE_FILES ?? 50_000);
const TARGET_MS = 50;

function sandboxHost(): string[] | undefined {
  const bundle = fileURLToPath(new URL("../dist/cli/index.js", import.meta.url));
  if (process.platform !== "linux" || !existsSync(bundle)) return undefined;
  const root = process.getuid?.() === 0;
  if (!root && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status !== 0)
    return undefined;
  return [process.execPath, bundle, SANDBOX_HOST_ARG];
}

const root = mkdtempSync(join(tmpdir(), "cg-bench-tree-open-"));
const home = mkdtempSync(join(tmpdir(), "cg-bench-tree-home-"));
try {
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(root, `src/d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++)
      writeFileSync(join(root, `src/d${d}/f${f}.ts`), `export const v = ${d * 100 + f};\n`);
  }
  const git = (...a: string[]) =>
    execFileSync("git", a, {
      cwd: root,
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "bench");
  // What a step before the gate left: ten files edited, one added.
  for (let f = 0; f < 10; f++) writeFileSync(join(root, `src/d0/f${f}.ts`), "edited\n");
  writeFileSync(join(root, "src/extra.ts"), "added\n");
  const g = openGit(root);
  const sha = (await g.resolveCommit("HEAD"))!;
  const times = {
    layer: [] as number[],
    lay: [] as number[],
    host: [] as number[],
    copy: [] as number[],
  };
  const host = sandboxHost();
  const options = {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    hostCommand: host,
    memoryMb: 512,
    executor: "per-check" as const,
  };
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const layer = await headLayer(g, sha, root);
    times.layer.push(performance.now() - t);
    if (layer.files.length !== 10 || layer.hide.length !== 1)
      throw new Error("unexpected head layer");
    if (host !== undefined) {
      const run = await openSandbox({ ...options, mode: "required", root });
      const trees = await openContractTrees({
        git: g,
        sha,
        root,
        sandbox: run,
        options: { ...options, mode: "required" },
      });
      t = performance.now();
      const tree = await trees.open("c");
      times.host.push(performance.now() - t);
      tree.close();
      trees.close();
      run.close();
      const probe = await openSandbox({ ...options, mode: "required", root, privateTree: {} });
      if (probe.treeMs !== undefined) times.lay.push(probe.treeMs);
      probe.close();
    }
    const off = await openSandbox({ ...options, mode: "off", root });
    const copies = await openContractTrees({
      git: g,
      sha,
      root,
      sandbox: off,
      options: { ...options, mode: "off" },
    });
    t = performance.now();
    const copy = await copies.open("c");
    times.copy.push(performance.now() - t);
    copy.close();
    copies.close();
    off.close();
  }
  const best = (xs: number[]) => (xs.length ? `${Math.min(...xs).toFixed(0)} ms` : "n/a");
  const open = times.host.length ? Math.min(...times.host) : Number.NaN;
  console.log(`\n## private tree over a checkout of ${FILES} files (best of 3)`);
  console.log(
    `head layer (diff via a private index + blob read; once per run)   ${best(times.layer)}`,
  );
  console.log(
    `a contract's tree, boundary: its own sandbox host (per contract)    ${best(times.host)} (target ≤ ${TARGET_MS}, ${open <= TARGET_MS ? "ok" : "OVER"})`,
  );
  console.log(
    `  of which the layer laid in the host's upper (treeMs, no layer)   ${best(times.lay)}`,
  );
  console.log(
    `a contract's tree, no boundary: a private copy (per contract)      ${best(times.copy)}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
