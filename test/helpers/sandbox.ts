import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProcessOptions } from "../../src/process/run-process.js";
import { openSandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { SANDBOX_HOST_ARG } from "../../src/sandbox/protocol.js";
import { outputOf } from "./action-harness.js";
import { tempDir } from "./tmp.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = join(ROOT, "node_modules/tsx/dist/esm/index.mjs");

/** The sandbox host from source, as the bundles start it from themselves. */
export const HOST_FROM_SOURCE = [
  process.execPath,
  "--import",
  TSX,
  join(ROOT, "src/sandbox/host-entry.ts"),
  SANDBOX_HOST_ARG,
];

/** Sandbox options for `root` from source: a private home, 48 pids, `over` on top (mode, memory). */
export function sandboxOptions(root: string, over: Partial<SandboxOptions> = {}): SandboxOptions {
  return {
    mode: "auto",
    root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tempDir("cg-home-") },
    hostCommand: HOST_FROM_SOURCE,
    memoryMb: 64,
    pidsMax: 48,
    ...over,
  };
}

/**
 * Why no sandbox boundary opens here, in the gate's own words (no root, no
 * passwordless `sudo -n`, not Linux), or `undefined` when one does: tests
 * that need a boundary skip, loudly, on that reason alone.
 */
export async function boundaryMissing(): Promise<string | undefined> {
  const sandbox = await openSandbox(
    sandboxOptions(tempDir("cg-probe-"), { executor: "per-check" }),
  );
  sandbox.close();
  return sandbox.info.mechanism === "none"
    ? (sandbox.info.warning ?? "no sandbox mechanism")
    : undefined;
}

/** A `bash -c` command in `root`, as a check runs one. */
export function bash(root: string, script: string, timeoutMs = 60_000): ProcessOptions {
  return {
    file: "bash",
    args: ["-c", script],
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    timeoutMs,
  };
}

/**
 * The CLI from source as a separate process (the gate whose environ, fds and
 * children the attacks go after), with exactly `env`.
 */
export async function gateProcess(args: string[], env: Record<string, string>, cwd: string) {
  // Through `| cat`: the runner gives an action a pipe for stdout (node's own
  // 'pipe' is a socket, which /proc/<pid>/fd/1 cannot be opened on).
  const gateArgv = [process.execPath, "--import", TSX, join(ROOT, "src/cli.ts"), ...args];
  const child = spawn("bash", ["-o", "pipefail", "-c", '"$@" | cat', "bash", ...gateArgv], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return outputOf(child);
}

/**
 * Shell that sets `$g` to the check's nearest ancestor running node (the
 * gate), walking `PPid` up from the check, so an attack finds the gate
 * whichever process is its parent (an executor, or the gate itself); empty
 * when no ancestor it can see is node (a sandboxed check sees none).
 */
export const FIND_NODE_ANCESTOR =
  'g=; p=$PPID; while [ "$p" -gt 0 ] 2>/dev/null; do case "$(readlink /proc/$p/exe 2>/dev/null)" in */node) g=$p; break;; esac; p=$(sed -n "s/^PPid:[[:space:]]*//p" /proc/$p/status 2>/dev/null); done';

/** PIDs of live processes whose command line contains `tag` (zombies excluded). */
export function processesWith(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1];
      if (cmdline.includes(tag) && state !== "Z") found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}
