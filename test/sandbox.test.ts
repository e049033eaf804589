/**
 * The sandbox's own guarantees, each against a positive control with the
 * sandbox off: memory and process caps, the `sudo -n` path, `required`,
 * and nothing surviving a SIGKILLed gate.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseInputs } from "../src/action/inputs.js";
import { openSandbox } from "../src/sandbox/index.js";
import { SANDBOX_HOST_ARG } from "../src/sandbox/protocol.js";
import { oracleContract, oraclePath } from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import {
  bash,
  FIND_NODE_ANCESTOR,
  processesWith,
  ROOT,
  sandboxOptions,
} from "./helpers/sandbox.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const TSX = join(ROOT, "node_modules/tsx/dist/esm/index.mjs");
/** A check's group, below its run's: `/…/contract-gate-<hex>/check-<n>`. */
const CHECK_GROUP = /\/contract-gate-[0-9a-f]+\/check-\d+$/;

const options = sandboxOptions;

/** Allocates and touches 256 MiB, then says so. */
const MEMORY_BOMB = `node -e "Buffer.alloc(256 * 1024 * 1024, 1); console.log('allocated')"`;
/**
 * 100 live processes at once: a bounded stand-in for a fork bomb. node, not
 * bash: bash retries a failed fork with a backoff of many seconds.
 */
const HUNDRED = `node -e "const { spawn } = require('node:child_process'); const k = []; for (let i = 0; i < 100; i++) k.push(spawn('sleep', ['30'])); console.log('forked'); for (const c of k) c.kill()"`;

describe("caps", () => {
  it("a memory bomb is an execution error naming the cap (it runs with the sandbox off)", async () => {
    const root = tempDir();
    const off = await openSandbox(options(root, { mode: "off" }));
    const free = await off.run(bash(root, MEMORY_BOMB));
    expect(free).toMatchObject({ kind: "exited", exitCode: 0 });
    expect(free.stdout).toContain("allocated");

    const sandbox = await openSandbox(options(root));
    try {
      expect(sandbox.info).toMatchObject({ mechanism: "namespaces (root)", cgroup: "v1" });
      const capped = await sandbox.run(bash(root, MEMORY_BOMB));
      expect(capped).toMatchObject({ kind: "boundary" });
      expect(capped.kind === "boundary" && capped.reason).toContain("memory cap of 64 MiB reached");
    } finally {
      sandbox.close();
    }
  });

  it("a process cap stops many processes and a fork bomb (100 run with the sandbox off)", async () => {
    const root = tempDir();
    const off = await openSandbox(options(root, { mode: "off" }));
    expect(await off.run(bash(root, HUNDRED))).toMatchObject({ kind: "exited", exitCode: 0 });

    const sandbox = await openSandbox(options(root));
    try {
      const capped = await sandbox.run(bash(root, HUNDRED));
      expect(capped.kind === "boundary" && capped.reason).toContain("process cap of 48");
      // The real thing, kept alive by its parent until the timeout ends it: reported as the cap.
      const bomb = await sandbox.run(bash(root, ":(){ :|:& };:; sleep 300", 3000));
      expect(bomb.kind === "boundary" && bomb.reason).toContain("process cap of 48");
      // Still usable afterwards: the bomb took nothing with it.
      const after = await sandbox.run(bash(root, "echo fine"));
      expect(after).toMatchObject({ kind: "exited", exitCode: 0, stdout: "fine\n" });
    } finally {
      sandbox.close();
    }
  });
  it("each running check is alone in its groups; only a group left as clean as new is reused; the host never joins one", async () => {
    const root = tempDir();
    const sandbox = await openSandbox(options(root));
    try {
      /** The check's memory and pids groups (one name: check-<n> in both hierarchies). */
      const group = async (before = "") => {
        const out = await sandbox.run(
          bash(root, `${before}grep -E ':(memory|pids):' /proc/self/cgroup`),
        );
        expect(out).toMatchObject({ kind: "exited", exitCode: 0 });
        const paths = out.stdout
          .trim()
          .split("\n")
          .map((l) => l.split(":")[2]);
        expect(paths).toHaveLength(2);
        for (const path of paths) expect(path).toMatch(CHECK_GROUP);
        const names = new Set(paths.map((p) => p?.split("/").pop()));
        expect(names.size).toBe(1);
        return [...names][0];
      };
      // Two at once: two groups.
      const [a, b] = await Promise.all([group("sleep 0.5; "), group("sleep 0.5; ")]);
      expect(a).not.toBe(b);
      // tmpfs pages stay charged to the group that wrote them: it goes to no later check.
      const pinned = await group("head -c 1048576 /dev/zero > /tmp/pinned && ");
      const next = await group();
      expect(next).not.toBe(pinned);
      // A check that left nothing behind hands its group on.
      expect(await group()).toBe(next);
      // The host itself (its argv holds this run's config, hence the tree's path) is in none.
      const hostGroups = processesWith(realpathSync(root)).map((pid) =>
        readFileSync(`/proc/${pid}/cgroup`, "utf8"),
      );
      expect(hostGroups.length).toBeGreaterThan(0);
      for (const text of hostGroups) expect(text).not.toContain("/check-");
    } finally {
      sandbox.close();
    }
  });
});

describe("signals", () => {
  it("a check cannot signal the gate, by PID, its process group or -1 (by PID it can when off)", async () => {
    const root = tempDir();
    let received = 0;
    const count = () => {
      received++;
    };
    process.on("SIGUSR2", count);
    try {
      const off = await openSandbox(options(root, { mode: "off" }));
      try {
        // The gate among the check's ancestors, whichever process is its parent.
        const sent = await off.run(
          bash(root, `${FIND_NODE_ANCESTOR}; kill -USR2 "$g" && echo "$g"`),
        );
        expect(sent.stdout).toBe(`${process.pid}\n`);
        // The check's exit can reach the gate before the signal does: wait for it.
        while (received < 1) await new Promise((r) => setTimeout(r, 20));
        expect(received).toBe(1);
      } finally {
        off.close();
      }

      const sandbox = await openSandbox(options(root));
      try {
        // `kill 0` also reaches the check's own unshare (same session), ending the check
        // early: harmless, so each attempt runs alone and leaves a mark first.
        for (const [i, target] of [String(process.pid), "$PPID", "0", "-1"].entries()) {
          await sandbox.run(bash(root, `touch tried-${i}; kill -USR2 -- ${target}`));
          expect(existsSync(join(root, `tried-${i}`))).toBe(true);
        }
        await new Promise((r) => setImmediate(r));
        expect(received).toBe(1);
      } finally {
        sandbox.close();
      }
    } finally {
      process.off("SIGUSR2", count);
    }
  });
});

describe("as the runner's own user (what GitHub-hosted runners get through sudo -n)", () => {
  it("runs as that uid with a writable private home; setuid binaries give no privilege (they do when off)", async () => {
    const root = tempDir();
    chmodSync(root, 0o777);
    const home = tempDir("cg-home-");
    chownSync(home, 65534, 65534);
    // A setuid-root program, as sudo is: it runs as root for anyone, unless no_new_privs.
    copyFileSync("/usr/bin/id", join(root, "suid-id"));
    chmodSync(join(root, "suid-id"), 0o4755);
    const script =
      "id -u; ./suid-id -u; touch ~/cache-file && echo home-ok; touch made-here && echo tree-ok";
    const off = await openSandbox(options(root, { mode: "off" }));
    const asNobody = [
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "--",
      "bash",
      "-c",
      script,
    ];
    const control = await off.run({ ...bash(root, script), file: "setpriv", args: asNobody });
    expect(control.stdout.split("\n").slice(0, 2)).toEqual(["65534", "0"]);

    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
    const sandbox = await openSandbox({
      ...options(root, { user: { uid: 65534, gid: 65534 } }),
      env,
    });
    try {
      const run = await sandbox.run({ ...bash(root, script), env });
      expect(run.stdout).toBe("65534\n65534\nhome-ok\ntree-ok\n");
      expect(statSync(join(root, "made-here")).uid).toBe(65534);
      // The private home took the write; the real one is untouched.
      expect(existsSync(join(home, "cache-file"))).toBe(false);
    } finally {
      sandbox.close();
    }
  });
});

describe("where the boundary comes from", () => {
  it("starts the host through sudo -n when asked (a recording fake sudo on this root machine)", async () => {
    const root = tempDir();
    const bin = tempDir("cg-fake-sudo-");
    const log = join(bin, "calls.log");
    const sudo = join(bin, "sudo");
    writeFileSync(
      sudo,
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n[ "$1" = -n ] && [ "$2" = -- ] || exit 1\nshift 2\nexec "$@"\n`,
    );
    chmodSync(sudo, 0o755);
    const sandbox = await openSandbox(options(root, { sudo }));
    try {
      expect(sandbox.info.mechanism).toBe("namespaces (sudo -n)");
      const calls = readFileSync(log, "utf8").trim().split("\n");
      // Privilege is paid once per run: one sudo for the host, none per check.
      await sandbox.run(bash(root, "true"));
      await sandbox.run(bash(root, "true"));
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(calls);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatch(
        /^-n -- \S*unshare --mount --propagation private --pid --fork --kill-child -- /,
      );
    } finally {
      sandbox.close();
    }
  });

  it("falls back to no boundary (auto) or refuses (required) when sudo -n fails", async () => {
    const root = tempDir();
    const bin = tempDir("cg-no-sudo-");
    const sudo = join(bin, "sudo");
    writeFileSync(sudo, "#!/bin/sh\necho 'sudo: a password is required' >&2\nexit 1\n");
    chmodSync(sudo, 0o755);
    const auto = await openSandbox(options(root, { sudo }));
    expect(auto.info).toMatchObject({ mechanism: "none" });
    expect(auto.info.warning).toContain("a password is required");
    expect(await auto.run(bash(root, "echo ran"))).toMatchObject({
      kind: "exited",
      stdout: "ran\n",
    });

    const required = await openSandbox(options(root, { sudo, mode: "required" }));
    const refused = await required.run(bash(root, "touch RAN"));
    expect(refused.kind === "boundary" && refused.reason).toMatch(/sandbox: required.*Fix:/);
    expect(existsSync(join(root, "RAN"))).toBe(false);
  });
});

describe("settings", () => {
  it("rejects an unknown --sandbox mode and a bad --check-memory-mb as usage errors", async () => {
    const root = tempDir();
    const mode = await runCli(["run", "--root", root, "--sandbox", "maybe"], root);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain("--sandbox 'maybe' is not one of auto, required, off");
    const memory = await runCli(["run", "--root", root, "--check-memory-mb", "0"], root);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain("--check-memory-mb '0' is not a positive integer");
  });

  it("reads the sandbox and check-memory-mb inputs, defaults from action.yml", () => {
    const get = (inputs: Record<string, string>) => (n: string) =>
      ({ "github-token": "t", ...inputs })[n] ?? "";
    const ok = parseInputs(get({}), {});
    expect(ok.ok && ok.settings).toMatchObject({ sandbox: "auto", checkMemoryMb: 4096 });
    const bad = parseInputs(get({ sandbox: "maybe", "check-memory-mb": "lots" }), {});
    expect(bad.ok ? [] : bad.errors).toEqual([
      "Input 'sandbox' is 'maybe'. Allowed values: auto, required, off.",
      "Input 'check-memory-mb' is 'lots'. Expected a whole number from 1 to 1048576.",
    ]);
  });
});

describe("sandbox: required through the CLI", () => {
  const contract = oracleContract("req", [{ title: "runs", check: "echo DONE", expect: "DONE" }]);

  it("every command is an error that blocks when there is no boundary (met when off)", async () => {
    const root = tempDir();
    writeTree(root, { [oraclePath("req")]: contract });
    const off = await runCli(
      ["run", "--root", root, "--no-write", "--sandbox", "off", "--json"],
      root,
    );
    expect(off.code).toBe(0);
    // No sandbox host in-process: `required` has nothing to use.
    const req = await runCli(
      ["run", "--root", root, "--no-write", "--sandbox", "required", "--json"],
      root,
    );
    expect(req.code).toBe(1);
    const report = JSON.parse(req.stdout);
    expect(report.sandbox).toMatchObject({ mode: "required", mechanism: "none" });
    const criterion = report.contracts[0].criteria[0];
    expect(criterion).toMatchObject({ status: "error", blocking: true });
    expect(criterion.reason).toMatch(/sandbox: required, but no boundary is available.*Fix:/);
    expect(req.stderr).toContain("No command ran");
  });

  it("auto without a boundary warns, and says so in the markdown report", async () => {
    const root = tempDir();
    writeTree(root, { [oraclePath("req")]: contract });
    const run = await runCli(["run", "--root", root, "--no-write", "--markdown"], root);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Commands ran UNSANDBOXED");
    expect(run.stdout.split("\n").slice(0, 4).join("\n")).toContain("[!WARNING]");
  });
});

describe("a SIGKILLed gate", () => {
  async function killGateMidCheck(sandbox: "auto" | "off", tag: string) {
    const root = tempDir();
    writeTree(root, {
      [oraclePath("slow")]: oracleContract("slow", [
        {
          title: "slow",
          // One process in the check's own group, one that left it (setsid).
          check: `setsid bash -c 'exec -a ${tag}-setsid sleep 300' </dev/null >/dev/null 2>&1 & touch STARTED; exec -a ${tag}-group sleep 300`,
          expect: "never",
        },
      ]),
    });
    const gate = spawn(
      process.execPath,
      [
        "--import",
        TSX,
        join(ROOT, "src/cli.ts"),
        "run",
        "--root",
        root,
        "--no-write",
        "--sandbox",
        sandbox,
      ],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: tempDir("cg-home-") },
        stdio: "ignore",
      },
    );
    const closed = new Promise((r) => gate.on("close", r));
    while (
      !existsSync(join(root, "STARTED")) ||
      processesWith(`${tag}-group`).length === 0 ||
      processesWith(`${tag}-setsid`).length === 0
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    gate.kill("SIGKILL");
    await closed;
  }

  /** Removes a cgroup directory once its last task has left (exiting tasks leave a moment later). */
  async function removeGroup(dir: string): Promise<void> {
    for (let tries = 0; tries < 40; tries++) {
      try {
        rmdirSync(dir);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  it("a SIGKILLed sandbox host takes every check with it", async () => {
    const root = tempDir();
    const sandbox = await openSandbox(options(root));
    const tag = `cg-host-kill-${process.pid}`;
    const pending = sandbox.run(bash(root, `touch STARTED; exec -a ${tag} sleep 300`));
    while (!existsSync(join(root, "STARTED")) || processesWith(tag).length === 0) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // A SIGKILLed host cannot remove its groups: the test does, once the check is gone.
    // (The check's own processes are in them; the unshare above it is not.)
    const groups = processesWith(tag)
      .flatMap((pid) => readFileSync(`/proc/${pid}/cgroup`, "utf8").split("\n"))
      .map((l) => l.split(":"))
      .filter(([, c, path]) => ["memory", "pids"].includes(c!) && CHECK_GROUP.test(path!))
      .map(([, c, path]) => join("/sys/fs/cgroup", c!, path!));
    expect(new Set(groups).size).toBe(2);
    const hosts = processesWith(SANDBOX_HOST_ARG).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(root),
    );
    expect(hosts.length).toBeGreaterThan(0);
    for (const pid of hosts) process.kill(pid, "SIGKILL");
    // The run settles as an execution error, and nothing of the check is left.
    expect((await pending).kind).toBe("boundary");
    while (processesWith(tag).length > 0) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(tag)).toEqual([]);
    for (const dir of new Set(groups)) {
      for (const d of [dir, dirname(dir)]) await removeGroup(d);
    }
  });

  it("leaves nothing running (with the sandbox off what left the check's group survives a SIGKILLed gate)", async () => {
    const offTag = `cg-orphan-${process.pid}-off`;
    await killGateMidCheck("off", offTag);
    // Off, the executor kills the check's own group when the gate's pipe closes; a setsid daemon escapes it.
    while (processesWith(`${offTag}-group`).length > 0) await new Promise((r) => setTimeout(r, 50));
    const orphans = processesWith(offTag);
    expect(orphans.length).toBeGreaterThan(0);
    for (const pid of orphans) process.kill(pid, "SIGKILL");

    const onTag = `cg-orphan-${process.pid}-on`;
    await killGateMidCheck("auto", onTag);
    // The host sees its pipe close and ends every namespace; wait for that, not for a time.
    while (processesWith(onTag).length > 0) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(onTag)).toEqual([]);
  });
});
