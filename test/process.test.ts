import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { MarkerScanner, TailBuffer } from "../src/process/output.js";
import { killAllRunning, type ProcessOptions, runProcess } from "../src/process/run-process.js";
import { tempDir } from "./helpers/tmp.js";

const FIX = resolve(import.meta.dirname, "fixtures/process");
const NODE = process.execPath;

function opts(over: Partial<ProcessOptions> & Pick<ProcessOptions, "file">): ProcessOptions {
  return { args: [], cwd: tempDir(), env: process.env, timeoutMs: 20_000, ...over };
}

/** Kill a process we know the pid of, ignoring "already gone". */
function reap(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
}

describe("runProcess: how a run ends", () => {
  it("reports the exit code and captures both streams", async () => {
    const run = await runProcess(
      opts({
        file: NODE,
        args: ["-e", "console.log('out'); console.error('err'); process.exit(3)"],
      }),
    );
    expect(run).toMatchObject({ kind: "exited", exitCode: 3, signal: null, stdout: "out\n" });
    expect(run.stdoutTail).toBe("out");
    expect(run.stderrTail).toBe("err");
    expect(run.stdoutExceeded).toBe(false);
  });

  it("reports a death by signal", async () => {
    const run = await runProcess(opts({ file: "bash", args: ["-c", "kill -SEGV $$"] }));
    expect(run).toMatchObject({ kind: "exited", exitCode: null, signal: "SIGSEGV" });
  });

  it("passes args verbatim, without a shell", async () => {
    const run = await runProcess(
      opts({ file: NODE, args: ["-e", "console.log(process.argv[1])", "$HOME; echo hi"] }),
    );
    expect(run.stdout).toBe("$HOME; echo hi\n");
  });

  it("reports a missing command as spawn-error ENOENT", async () => {
    const run = await runProcess(opts({ file: "cg-no-such-command-xyz" }));
    expect(run).toMatchObject({ kind: "spawn-error", code: "ENOENT" });
  });

  it("reports a non-executable file as spawn-error EACCES", async () => {
    const dir = tempDir();
    const script = join(dir, "script.sh");
    writeFileSync(script, "#!/bin/sh\necho hi\n");
    chmodSync(script, 0o644);
    const run = await runProcess(opts({ file: script, cwd: dir }));
    expect(run).toMatchObject({ kind: "spawn-error", code: "EACCES" });
  });

  it("turns a synchronous spawn failure into a spawn-error instead of throwing", async () => {
    const run = await runProcess(opts({ file: "bad\0name" }));
    expect(run.kind).toBe("spawn-error");
  });

  it("refuses a missing cwd or a file as cwd without spawning", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "");
    const missing = await runProcess(
      opts({ file: NODE, args: ["-e", ""], cwd: join(dir, "nope") }),
    );
    expect(missing).toMatchObject({ kind: "bad-cwd", message: "does not exist" });
    const file = await runProcess(opts({ file: NODE, args: ["-e", ""], cwd: join(dir, "f") }));
    expect(file).toMatchObject({ kind: "bad-cwd", message: "not a directory" });
  });
});

describe("runProcess: process trees", () => {
  it("positive control: the tree fixture's grandchild creates the sentinel if left alone", async () => {
    const sentinel = join(tempDir(), "sentinel");
    spawnSync("bash", [join(FIX, "tree.sh")], {
      env: { ...process.env, SENTINEL: sentinel, DELAY: "0.2", HOLD: "0" },
      stdio: "ignore",
    });
    await sleep(1500);
    expect(existsSync(sentinel)).toBe(true);
  });

  it("on timeout kills the whole process group", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const run = await runProcess(
      opts({
        file: "bash",
        args: [join(FIX, "tree.sh")],
        env: { ...process.env, SENTINEL: sentinel },
        timeoutMs: 300,
      }),
    );
    expect(run.kind).toBe("timeout");
    await sleep(2500);
    expect(existsSync(sentinel)).toBe(false);
  });

  it("on abort kills the whole process group", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const controller = new AbortController();
    const pending = runProcess(
      opts({
        file: "bash",
        args: [join(FIX, "tree.sh")],
        env: { ...process.env, SENTINEL: sentinel },
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(), 300);
    expect((await pending).kind).toBe("aborted");
    await sleep(2500);
    expect(existsSync(sentinel)).toBe(false);
  });

  it("does not start anything when already aborted", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const run = await runProcess(
      opts({ file: "touch", args: [sentinel], signal: AbortSignal.abort() }),
    );
    expect(run.kind).toBe("aborted");
    expect(existsSync(sentinel)).toBe(false);
  });

  it("killAllRunning kills every live group and the runs settle as aborted", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const pending = runProcess(
      opts({
        file: "bash",
        args: [join(FIX, "tree.sh")],
        env: { ...process.env, SENTINEL: sentinel },
      }),
    );
    await sleep(300);
    expect(killAllRunning()).toBe(1);
    expect((await pending).kind).toBe("aborted");
    await sleep(2500);
    expect(existsSync(sentinel)).toBe(false);
    expect(killAllRunning()).toBe(0);
  });

  it("kills background jobs left behind after the leader exits", async () => {
    const sentinel = join(tempDir(), "sentinel");
    const run = await runProcess(
      opts({
        file: "bash",
        args: [join(FIX, "stray.sh")],
        env: { ...process.env, SENTINEL: sentinel },
      }),
    );
    expect(run).toMatchObject({ kind: "exited", exitCode: 0, stdoutTail: "leader done" });
    await sleep(1500);
    expect(existsSync(sentinel)).toBe(false);
  });

  it("settles when a grandchild outside the group holds the pipes open", async () => {
    const pidFile = join(tempDir(), "pid");
    try {
      const run = await runProcess(
        opts({
          file: NODE,
          args: [join(FIX, "escape.mjs")],
          env: { ...process.env, PIDFILE: pidFile },
        }),
      );
      expect(run).toMatchObject({ kind: "exited", exitCode: 0, stdoutTail: "leader exiting" });
    } finally {
      if (existsSync(pidFile)) reap(Number(readFileSync(pidFile, "utf8")));
    }
  });

  it("leaves no timer behind once settled", () => {
    // In a fresh Node process, so the test runner's own timers do not count.
    const child = spawnSync(NODE, ["--import", "tsx", join(FIX, "no-timers.ts")], {
      cwd: resolve(import.meta.dirname, ".."),
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect(child.stdout.trim()).toBe("timers=0");
  });
});

describe("runProcess: output", () => {
  it("caps stdout at the limit and flags the excess", async () => {
    const print = (n: number) =>
      runProcess(
        opts({
          file: NODE,
          args: ["-e", `process.stdout.write("a".repeat(${n}))`],
          stdoutLimitBytes: 10,
        }),
      );
    const over = await print(11);
    expect(over).toMatchObject({ stdout: "a".repeat(10), stdoutExceeded: true });
    const exact = await print(10);
    expect(exact).toMatchObject({ stdout: "a".repeat(10), stdoutExceeded: false });
  });

  it("caps stdout at 1 MiB by default, still keeping the tail", async () => {
    const run = await runProcess(
      opts({ file: NODE, args: [join(FIX, "big-stdout.mjs"), String(1024 * 1024 + 500), "LAST"] }),
    );
    expect(run.stdoutExceeded).toBe(true);
    expect(Buffer.byteLength(run.stdout)).toBe(1024 * 1024);
    expect(run.stdoutTail.split("\n").pop()).toBe("LAST");
  });

  it("captures combined output in arrival order when asked", async () => {
    const script = "echo a; sleep 0.2; echo b >&2; sleep 0.2; echo c";
    const run = await runProcess(opts({ file: "bash", args: ["-c", script], combined: true }));
    expect(run.combined).toBe("a\nb\nc\n");
    expect(run.combinedTail).toBe("a\nb\nc");
    const plain = await runProcess(opts({ file: "bash", args: ["-c", script] }));
    expect(plain.combined).toBe("");
  });

  it("finds a literal marker split across two writes", async () => {
    const run = await runProcess(
      opts({
        file: NODE,
        args: [join(FIX, "split-marker.mjs"), "ALL_", "GREEN"],
        literalMarker: "ALL_GREEN",
      }),
    );
    expect(run.markerFound).toBe(true);
    const miss = await runProcess(
      opts({
        file: NODE,
        args: [join(FIX, "split-marker.mjs"), "ALL_", "RED"],
        literalMarker: "ALL_GREEN",
      }),
    );
    expect(miss.markerFound).toBe(false);
  });

  it("finds a literal marker on stderr, past any output cap", async () => {
    const run = await runProcess(
      opts({
        file: "bash",
        args: ["-c", "head -c 2000000 /dev/zero | tr '\\0' x; echo; echo DONE_OK >&2"],
        literalMarker: "DONE_OK",
        stdoutLimitBytes: 1000,
      }),
    );
    expect(run.stdoutExceeded).toBe(true);
    expect(run.markerFound).toBe(true);
  });

  it("keeps the last 20 lines by default", async () => {
    const run = await runProcess(
      opts({ file: NODE, args: ["-e", "for (let i = 1; i <= 30; i++) console.log('line ' + i)"] }),
    );
    const lines = run.stdoutTail.split("\n");
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe("line 11");
    expect(lines[19]).toBe("line 30");
  });
});

describe("output collectors", () => {
  it("MarkerScanner matches across every split point, multi-byte characters included", () => {
    const text = Buffer.from("noise ✓ ALL PASS ✓ more", "utf8");
    for (let cut = 0; cut <= text.length; cut++) {
      for (let cut2 = cut; cut2 <= text.length; cut2 += 3) {
        const scanner = new MarkerScanner("✓ ALL PASS ✓");
        scanner.push(text.subarray(0, cut));
        scanner.push(text.subarray(cut, cut2));
        scanner.push(text.subarray(cut2));
        expect(scanner.found).toBe(true);
      }
    }
    const absent = new MarkerScanner("ALL PASS!");
    absent.push(Buffer.from("ALL PA"));
    absent.push(Buffer.from("SS"));
    expect(absent.found).toBe(false);
  });

  it("TailBuffer keeps whole last lines within its byte budget", () => {
    const tail = new TailBuffer(64);
    for (let i = 0; i < 100; i++) tail.push(Buffer.from(`line ${i}\n`));
    const lines = tail.lines(3).split("\n");
    expect(lines).toEqual(["line 97", "line 98", "line 99"]);
    const all = tail.lines(1000).split("\n");
    expect(all[0]).toMatch(/^line \d+$/);
    expect(all.length).toBeLessThan(10);
  });
});
