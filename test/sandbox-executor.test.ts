/**
 * One executor per lane (docs/security.md, "One executor per lane"): what a
 * check can do to the next check in its lane and to the executor itself,
 * each attack beside a positive control that shows it works where the
 * defence is absent, and the executor's death failing closed.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { killAllRunning, type ProcessOutcome } from "../src/process/run-process.js";
import { openSandbox, type SandboxOptions } from "../src/sandbox/index.js";
import { LANE_EXECUTOR_C } from "../src/sandbox/lane-executor-source.js";
import { bash, processesWith, ROOT, sandboxOptions } from "./helpers/sandbox.js";
import { tempDir } from "./helpers/tmp.js";

function options(root: string, over: Partial<SandboxOptions> = {}): SandboxOptions {
  return sandboxOptions(root, { mode: "required", memoryMb: 256, ...over });
}

const TSX = join(ROOT, "node_modules/tsx/dist/esm/index.mjs");

function parent(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** The check's PID namespace: one per lane. */
const LANE = "readlink /proc/self/ns/pid";

function laneOf(out: ProcessOutcome): string {
  const m = /pid:\[\d+\]/.exec(out.stdout);
  expect(m, out.stdout + out.stderrTail).not.toBeNull();
  return m![0];
}

/** A daemon that left its session and keeps rewriting `marker`, and says its PID. */
const DAEMON =
  "setsid sh -c ': daemon-loop; echo $$ > daemon.pid; while :; do date +%s%N > marker; sleep 0.02; done' </dev/null >/dev/null 2>&1 & " +
  "while [ ! -s marker ] || [ ! -s daemon.pid ]; do sleep 0.01; done; echo started";
/**
 * Fails while the daemon lives (its PID still runs the loop: no timing) or
 * anything still rewrites `marker`.
 */
const MARKER_STILL =
  'p=$(cat daemon.pid); a=$(cat marker); sleep 0.3; b=$(cat marker); if grep -qs daemon-loop /proc/$p/cmdline; then echo alive; exit 1; fi; [ "$a" = "$b" ] && echo still';

describe("the lane executor", () => {
  it("the bundles carry exactly lane-executor.c (run scripts/embed-lane-executor.mjs after editing it)", () => {
    const c = readFileSync(join(ROOT, "src/sandbox/lane-executor.c"), "utf8");
    expect(LANE_EXECUTOR_C === c, "src/sandbox/lane-executor-source.ts is stale").toBe(true);
  });

  it("compiles with the system's cc, warning-free", () => {
    const dir = tempDir("cg-exec-");
    const src = join(ROOT, "src/sandbox/lane-executor.c");
    const cc = spawnSync("cc", ["-O2", "-Wall", "-Wextra", "-o", join(dir, "x"), src], {
      encoding: "utf8",
    });
    expect(cc.status, cc.stderr).toBe(0);
    expect(cc.stderr).toBe("");
  });

  it("a setsid daemon does not outlive its check into the next in the same lane (it does when off)", async () => {
    const root = tempDir();
    const off = await openSandbox(options(root, { mode: "off" }));
    expect((await off.run(bash(root, DAEMON))).stdout).toBe("started\n");
    const leaked = Number(readFileSync(join(root, "daemon.pid"), "utf8"));
    try {
      expect(await off.run(bash(root, MARKER_STILL))).toMatchObject({ exitCode: 1 });
    } finally {
      process.kill(leaked, "SIGKILL");
    }

    const sandbox = await openSandbox(options(root));
    try {
      expect(sandbox.info.executor).toBe("lane executor");
      const a = await sandbox.run(bash(root, `${LANE}; ${DAEMON}`));
      expect(a.stdout).toContain("started");
      const b = await sandbox.run(bash(root, `${LANE}; ${MARKER_STILL}`));
      expect(laneOf(b)).toBe(laneOf(a));
      expect(b).toMatchObject({ kind: "exited", exitCode: 0 });
      expect(b.stdout).toContain("still");
    } finally {
      sandbox.close();
    }
  });

  /**
   * Tries to stop, kill, trace and write the executor (PID 1), then does the
   * same to a process of its own uid it started itself: the control.
   */
  const ATTACK = `
for s in STOP KILL TERM USR1 SEGV; do kill -$s 1 2>/dev/null; done
sleep 0.1; grep -q '^State:.*[TZ]' /proc/1/status && echo executor-stopped
cat /proc/1/environ >/dev/null 2>&1 && echo executor-environ-read
(printf x | dd of=/proc/1/mem bs=1 seek=4194304 conv=notrunc) 2>/dev/null && echo executor-mem-written
python3 -c 'import ctypes,sys; l=ctypes.CDLL(None); sys.exit(0 if l.ptrace(16, int(sys.argv[1]), 0, 0) == 0 else 1)' 1 && echo executor-traced
sleep 100 & v=$!
python3 -c 'import ctypes,sys; l=ctypes.CDLL(None); sys.exit(0 if l.ptrace(16, int(sys.argv[1]), 0, 0) == 0 else 1)' $v && echo sibling-traced
(printf x | dd of=/proc/$v/mem bs=1 seek=4194304 conv=notrunc) 2>/dev/null; [ -w /proc/$v/mem ] && echo sibling-mem-writable
kill -STOP $v && echo sibling-stopped
exit 5`;

  for (const [who, user] of [
    ["as root without capabilities", undefined],
    ["as another uid", { uid: 65534, gid: 65534 }],
  ] as const) {
    it(`a check cannot signal, trace or write its executor, ${who}; the next check's result stands (its own sibling it can)`, async () => {
      const root = tempDir();
      const sandbox = await openSandbox(options(root, user ? { user } : {}));
      try {
        const a = await sandbox.run(bash(root, `${LANE}; ${ATTACK}`));
        expect(a).toMatchObject({ kind: "exited", exitCode: 5 });
        // The controls: the same calls work on a process without the executor's defences.
        expect(a.stdout).toContain("sibling-traced");
        expect(a.stdout).toContain("sibling-stopped");
        if (user === undefined) expect(a.stdout).toContain("sibling-mem-writable");
        // Sent (the kernel drops them: no handler in a namespace's init) or refused: no effect.
        expect(a.stdout).not.toMatch(/executor-/);
        const b = await sandbox.run(bash(root, `${LANE}; echo after; exit 3`));
        expect(laneOf(b)).toBe(laneOf(a));
        expect(b).toMatchObject({ kind: "exited", exitCode: 3 });
        expect(b.stdout).toContain("after");
      } finally {
        sandbox.close();
      }
    });
  }

  it("a check that fills the lane's process cap leaves the lane able to start the next", async () => {
    const root = tempDir();
    // node, not bash: bash retries a failed fork with a backoff of many seconds.
    // Leaves 100 sleeping processes behind it (or as many as the cap lets it start).
    const fill = `${LANE}; node -e "const { spawn } = require('node:child_process'); for (let i = 0; i < 100; i++) spawn('sleep', ['300'], { stdio: 'ignore' }).unref(); console.log('forked')"`;
    const off = await openSandbox(options(root, { mode: "off" }));
    const control = await off.run(bash(root, fill));
    expect(control).toMatchObject({ kind: "exited", exitCode: 0 });
    expect(control.stdout).toContain("forked");

    const sandbox = await openSandbox(options(root));
    try {
      const a = await sandbox.run(bash(root, fill));
      expect(a.kind === "boundary" && a.reason).toContain("process cap of 48");
      const b = await sandbox.run(bash(root, `${LANE}; echo started`));
      expect(laneOf(b)).toBe(laneOf(a));
      expect(b).toMatchObject({ kind: "exited", exitCode: 0 });
      expect(b.stdout).toContain("started");
    } finally {
      sandbox.close();
    }
  });

  it("an executor that dies fails its check and every later one closed, naming why (they pass before)", async () => {
    const root = tempDir();
    const sandbox = await openSandbox(options(root));
    try {
      expect(await sandbox.run(bash(root, "true"))).toMatchObject({ kind: "exited", exitCode: 0 });
      const running = sandbox.run(bash(root, "touch started; sleep 300"));
      while (!existsSync(join(root, "started"))) await new Promise((r) => setTimeout(r, 20));
      // From outside, as only root on the machine can: the lane's executor.
      const executors = processesWith("/proc/self/fd/").filter(
        (pid) =>
          readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("/proc/self/fd/") &&
          // This sandbox's: executor → unshare → the host, whose argv names the tree.
          readFileSync(`/proc/${parent(parent(pid))}/cmdline`, "utf8").includes(realpathSync(root)),
      );
      expect(executors.length).toBeGreaterThan(0);
      for (const pid of executors) process.kill(pid, "SIGKILL");
      const killed = await running;
      expect(killed.kind).toBe("boundary");
      expect(killed.kind === "boundary" && killed.reason).toContain("lane executor");
      const later = await sandbox.run(bash(root, "touch later-ran"));
      expect(later.kind === "boundary" && later.reason).toContain("lane executor");
      expect(existsSync(join(root, "later-ran"))).toBe(false);
    } finally {
      sandbox.close();
    }
  });

  it("falls back to a namespace chain per check when asked, with the same boundary", async () => {
    const root = tempDir();
    const sandbox = await openSandbox(options(root, { executor: "per-check" }));
    try {
      expect(sandbox.info.executor).toBe("per-check namespaces");
      const out = await sandbox.run(bash(root, "echo $$; exit 4"));
      expect(out).toMatchObject({ kind: "exited", exitCode: 4, stdout: "1\n" });
    } finally {
      sandbox.close();
    }
  });

  it("unsandboxed, checks fork from a small executor, not from the gate (from the gate without one); its group dies with it", async () => {
    const root = tempDir();
    const gate = await openSandbox(options(root, { mode: "off", executor: "per-check" }));
    expect(gate.info.executor).toBe("gate");
    expect((await gate.run(bash(root, "echo $PPID"))).stdout).toBe(`${process.pid}\n`);

    const off = await openSandbox(options(root, { mode: "off" }));
    try {
      expect(off.info.executor).toBe("unsandboxed executor");
      const parentOf = await off.run(
        bash(root, "echo $PPID; cat /proc/$PPID/cmdline | tr '\\0' ' '"),
      );
      const [ppid, cmdline] = parentOf.stdout.split("\n");
      expect(Number(ppid)).not.toBe(process.pid);
      expect(cmdline).toMatch(/lane-executor(-[0-9a-f]+)? 0 0 0 g/);
      // What the check leaves in its group ends with it, as runProcess's own spawns.
      const bg = await off.run(bash(root, "sleep 300 & echo $! > bg.pid"));
      expect(bg).toMatchObject({ kind: "exited", exitCode: 0 });
      const left = Number(readFileSync(join(root, "bg.pid"), "utf8"));
      const alive = () => {
        try {
          return !/^State:\s+Z/m.test(readFileSync(`/proc/${left}/status`, "utf8"));
        } catch {
          return false;
        }
      };
      while (alive()) await new Promise((r) => setTimeout(r, 20));
      const slow = await off.run(bash(root, "trap '' TERM; sleep 300", 500));
      expect(slow.kind).toBe("timeout");
      expect(await off.run(bash(root, "exit 6"))).toMatchObject({ kind: "exited", exitCode: 6 });
    } finally {
      off.close();
    }
  });
});

/** Whether `pid` is a live process (not a zombie). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function untilDead(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
}

async function untilFile(path: string): Promise<number> {
  while (!existsSync(path) || readFileSync(path, "utf8").trim() === "") {
    await new Promise((r) => setTimeout(r, 20));
  }
  return Number(readFileSync(path, "utf8"));
}

/**
 * What `sandbox: off` promised before its checks forked from an executor
 * (docs/security.md): each compared with the gate's own spawns
 * (`runProcess`, what `executor: per-check` gives unsandboxed).
 */
describe("the unsandboxed executor keeps what off promised", () => {
  const off = (root: string, executor?: "per-check") =>
    openSandbox(options(root, { mode: "off", ...(executor && { executor }) }));

  it("a check gets exactly the environment it is given, as from the gate (nothing of the gate's or the executor's)", async () => {
    const root = tempDir();
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", CG_ONLY: "this" };
    const lines = (s: string) => s.split("\n").filter(Boolean).sort();
    const gate = await off(root, "per-check");
    const fromGate = await gate.run({ ...bash(root, ""), file: "env", args: [], env });
    const sandbox = await off(root);
    try {
      expect(sandbox.info.executor).toBe("unsandboxed executor");
      const fromExecutor = await sandbox.run({ ...bash(root, ""), file: "env", args: [], env });
      expect(lines(fromExecutor.stdout)).toEqual([`CG_ONLY=this`, `PATH=${env.PATH}`]);
      expect(lines(fromExecutor.stdout)).toEqual(lines(fromGate.stdout));
      // stdin is /dev/null, as the gate's spawns have it.
      const stdin = await sandbox.run(bash(root, "readlink /proc/self/fd/0"));
      expect(stdin.stdout).toBe("/dev/null\n");
      // Not found and not a directory stay what they were.
      const missing = await sandbox.run({ ...bash(root, ""), file: "no-such-cg-command" });
      expect(missing).toMatchObject({ kind: "spawn-error", code: "ENOENT" });
      const badCwd = await sandbox.run({ ...bash(root, "true"), cwd: join(root, "nope") });
      expect(badCwd.kind).toBe("bad-cwd");
    } finally {
      sandbox.close();
    }
  });

  it("a timeout kills the whole process group, a TERM-ignoring one too; an abort and Ctrl-C (killAllRunning) end a running check", async () => {
    const root = tempDir();
    const sandbox = await off(root);
    try {
      const slow = await sandbox.run(
        bash(root, "trap '' TERM; sleep 300 & echo $! > slow.pid; wait", 500),
      );
      expect(slow.kind).toBe("timeout");
      await untilDead(Number(readFileSync(join(root, "slow.pid"), "utf8")));

      const controller = new AbortController();
      const aborted = sandbox.run({
        ...bash(root, "sleep 300 & echo $! > abort.pid; wait"),
        signal: controller.signal,
      });
      const abortPid = await untilFile(join(root, "abort.pid"));
      controller.abort();
      expect((await aborted).kind).toBe("aborted");
      await untilDead(abortPid);

      const interrupted = sandbox.run(bash(root, "sleep 300 & echo $! > int.pid; wait"));
      const intPid = await untilFile(join(root, "int.pid"));
      expect(killAllRunning()).toBe(1);
      expect((await interrupted).kind).toBe("aborted");
      await untilDead(intPid);
      // The lane goes on.
      expect(await sandbox.run(bash(root, "exit 7"))).toMatchObject({ exitCode: 7 });
    } finally {
      sandbox.close();
    }
  });

  it("a check's process group dies with the gate, even SIGKILLed (from the gate itself it outlives it)", async () => {
    const survivor = async (executor: "lane" | "per-check") => {
      const root = tempDir();
      const script = `
const { openSandbox } = await import(${JSON.stringify(join(ROOT, "src/sandbox/index.ts"))});
const s = await openSandbox({ mode: "off", executor: ${JSON.stringify(executor)}, root: ${JSON.stringify(root)},
  env: { PATH: process.env.PATH }, memoryMb: 64 });
console.log(s.info.executor);
void s.run({ file: "bash", args: ["-c", "sleep 300 & echo $! > check.pid; wait"], cwd: ${JSON.stringify(root)},
  env: { PATH: process.env.PATH }, timeoutMs: 600000 });`;
      const gate = spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let said = "";
      gate.stdout.on("data", (d: Buffer) => {
        said += d.toString("utf8");
      });
      const pid = await untilFile(join(root, "check.pid"));
      const exited = new Promise((r) => gate.on("close", r));
      gate.kill("SIGKILL");
      await exited;
      return { pid, executor: said.trim() };
    };
    const control = await survivor("per-check");
    expect(control.executor).toBe("gate");
    try {
      expect(alive(control.pid)).toBe(true);
    } finally {
      process.kill(control.pid, "SIGKILL");
    }
    const withExecutor = await survivor("lane");
    expect(withExecutor.executor).toBe("unsandboxed executor");
    await untilDead(withExecutor.pid);
  });
});
