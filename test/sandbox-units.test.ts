import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseInputs } from "../src/action/inputs.js";
import { gitConfigFiles, sanitizeGitConfig } from "../src/sandbox/git-config.js";
import { gitLayout } from "../src/sandbox/git-dirs.js";
import { GroupPool, openCgroups } from "../src/sandbox/host-cgroups.js";
import { runnerRoot } from "../src/sandbox/host-config.js";
import { layoutScript } from "../src/sandbox/host-mounts.js";
import { boundaryFailed, checkEntry, withEnv } from "../src/sandbox/host-per-check.js";
import { systemTool, untrustedReason } from "../src/sandbox/system-tools.js";
import { resolveExtraReads } from "../src/sandbox/view.js";
import { runCli } from "./helpers/cli.js";
import { tempDir } from "./helpers/tmp.js";

/** One step of a generated script: its command's argv, and the path `if test -e` guards it by. */
interface ScriptStep {
  argv: string[];
  when?: string;
}

/** The steps of a script `script()` in host-mounts.ts wrote: single-quoted words, guards unwrapped. */
function layoutSteps(script: string): ScriptStep[] {
  const words = (line: string) =>
    [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
      m[1] !== undefined ? m[1].replaceAll("'\\''", "'") : m[2]!,
    );
  return script
    .split("\n")
    .filter((l) => l !== "")
    .map((line) => {
      const guarded = /^if test -e ('(?:[^']|'\\'')*'); then (.*); fi$/.exec(line);
      if (guarded === null) return { argv: words(line) };
      return { argv: words(guarded[2]!), when: words(guarded[1]!)[0]! };
    });
}

const equal = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

describe("sanitizeGitConfig", () => {
  it("drops extraheader lines and URL credentials, keeps everything else", () => {
    const text = [
      "[core]",
      "\trepositoryformatversion = 0",
      '[remote "origin"]',
      "\turl = https://x-access-token:ghs_SECRET@github.com/acme/widgets",
      '[http "https://github.com/"]',
      "\textraheader = AUTHORIZATION: basic U0VDUkVU",
      "\tExtraHeader=AUTHORIZATION: \\",
      "\t  continued",
      "\tsslVerify = true",
      "",
    ].join("\n");
    const out = sanitizeGitConfig(text);
    expect(out).not.toMatch(/SECRET|U0VDUkVU|continued/i);
    expect(out).toContain("url = https://github.com/acme/widgets");
    expect(out).toContain("sslVerify = true");
    expect(out).toContain("repositoryformatversion = 0");
  });
});

describe("cgroup v2 (a plain directory standing in for cgroupfs: these machines mount v1)", () => {
  it("enables the controllers below the run's group and sets each check's caps", () => {
    const base = tempDir();
    writeFileSync(join(base, "cgroup.controllers"), "cpu memory pids\n");
    const opened = openCgroups(64, 32, base);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.host.version).toBe("v2");
    const [runDir] = readdirSync(base).filter((d) => d.startsWith("contract-gate-"));
    const parent = join(base, runDir!);
    expect(readFileSync(join(parent, "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
    const group = opened.host.create(7);
    const dir = join(parent, "check-7");
    expect(group.procs).toEqual([join(dir, "cgroup.procs")]);
    expect(readFileSync(join(dir, "memory.max"), "utf8")).toBe(String(64 * 1024 * 1024));
    expect(readFileSync(join(dir, "pids.max"), "utf8")).toBe("32");
    expect(group.limitsHit()).toEqual([]);
    writeFileSync(join(dir, "memory.events"), "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n");
    writeFileSync(join(dir, "pids.events"), "max 3\n");
    expect(group.limitsHit()).toEqual(["memory", "pids"]);
  });

  it("hands a group on only when its check left it as clean as new", () => {
    const base = tempDir();
    writeFileSync(join(base, "cgroup.controllers"), "cpu memory pids\n");
    const opened = openCgroups(64, 32, base);
    if (!opened.ok) throw new Error(opened.error);
    const pool = new GroupPool(opened.host);
    const first = pool.acquire();
    // Unreadable task list: not known to be empty.
    pool.release(first);
    const second = pool.acquire();
    expect(second).not.toBe(first);
    const secondDir = dirname(second.procs[0]!);
    writeFileSync(second.procs[0]!, "");
    writeFileSync(join(secondDir, "memory.stat"), "anon 0\nfile 8192\nshmem 0\n");
    pool.release(second);
    expect(pool.acquire()).toBe(second);
    // A task left, a memory page it cannot give back, a cap hit: each retires the group.
    for (const [file, text] of [
      ["cgroup.procs", "4242\n"],
      ["memory.stat", "anon 0\nshmem 4096\n"],
      ["pids.events", "max 1\n"],
    ] as const) {
      writeFileSync(join(secondDir, file), text);
      pool.release(second);
      expect(pool.acquire()).not.toBe(second);
      writeFileSync(join(secondDir, file), file === "cgroup.procs" ? "" : "shmem 0\nmax 0\n");
    }
  });

  it("reports no caps where no hierarchy is mounted", () => {
    const base = tempDir();
    mkdirSync(join(base, "memory"));
    expect(openCgroups(64, 32, base)).toMatchObject({ ok: false });
  });
});

describe("layoutScript", () => {
  it("makes every mount read-only before laying the private and hidden parts over it", () => {
    const script = layoutScript({
      stage: "/s",
      config: {
        root: "/work/repo",
        uid: 1001,
        gid: 118,
        home: "/home/runner",
        emptyDirs: ["/home/runner/work/_temp"],
        hiddenDirs: ["/home/runner/work/_temp/_runner_file_commands"],
        hiddenFiles: [],
        readOnly: ["/work/repo/.gate-action"],
        memoryMb: 64,
        pidsMax: 32,
      },
      mountPoints: ["/s/root", "/s/root/proc"],
      gitConfigs: ["/work/repo/.git/config"],
    });
    const steps = layoutSteps(script);
    /** Where the step running exactly `argv` is; -1 when none does. */
    const at = (...argv: string[]) => steps.findIndex((s) => equal(s.argv, argv));
    const M = "/usr/bin/mount";
    const rootReadOnly = at(M, "-o", "remount,bind,ro", "/s/root");
    const procReadOnly = at(M, "-o", "remount,bind,ro", "/s/root/proc");
    const tmp = at(M, "-t", "tmpfs", "-o", "mode=1777,nosuid,nodev", "cg-tmp", "/s/root/tmp");
    const home = at(
      M,
      "-t",
      "tmpfs",
      "-o",
      "mode=0700,uid=1001,gid=118",
      "cg-home",
      "/s/root/home/runner",
    );
    const empty = at(
      M,
      "-t",
      "tmpfs",
      "-o",
      "mode=0700,uid=1001,gid=118",
      "cg-empty",
      "/s/root/home/runner/work/_temp",
    );
    const tree = at(M, "--bind", "/work/repo", "/s/root/work/repo");
    const gitConfig = at(M, "--bind", "/s/private/git-config-0", "/s/root/work/repo/.git/config");
    const gitConfigReadOnly = at(M, "-o", "remount,bind,ro", "/s/root/work/repo/.git/config");
    const gate = "/s/root/work/repo/.gate-action";
    const gateBound = at(M, "--rbind", gate, gate);
    const gateReadOnly = at(M, "-o", "remount,bind,ro", gate);
    for (const step of [
      procReadOnly,
      tmp,
      home,
      empty,
      tree,
      gitConfig,
      gitConfigReadOnly,
      gateBound,
      gateReadOnly,
    ])
      expect(step).toBeGreaterThanOrEqual(0);
    // What mountinfo listed turns read-only before anything private is laid over it.
    expect(procReadOnly).toBeLessThan(tmp);
    // A cover goes on before what it may hold: the tree is bound over an empty directory, not under it.
    expect(empty).toBeLessThan(tree);
    // The git config's sanitized copy and the action's own files lie inside the tree: after it.
    expect(tree).toBeLessThan(gitConfig);
    expect(gitConfig).toBeLessThan(gitConfigReadOnly);
    // Recursively, after every cover and grant inside the tree: they stay (sandbox-view.test.ts).
    expect(gitConfigReadOnly).toBeLessThan(gateBound);
    expect(gateBound).toBeLessThan(gateReadOnly);
    // Paths that may be absent are guarded; the root turns read-only last of all.
    expect(steps[gateBound]!.when).toBe(gate);
    expect(steps[gitConfig]!.when).toBe("/s/root/work/repo/.git/config");
    expect(rootReadOnly).toBe(steps.length - 1);
    expect(script).toContain("uid=1001,gid=118");
  });
});

describe("runnerRoot", () => {
  it("finds the runner's directory from the node it runs actions with", () => {
    expect(runnerRoot("/home/runner/runners/2.330.0/externals/node24/bin/node")).toBe(
      "/home/runner/runners/2.330.0",
    );
    expect(runnerRoot("/usr/bin/node")).toBeUndefined();
  });
});

describe("boundaryFailed", () => {
  it("reads a layer's own error before the command ran as a boundary failure, never a verdict", () => {
    expect(boundaryFailed(1, "unshare: mount /proc failed: Operation not permitted\n")).toBe(true);
    expect(boundaryFailed(1, "setpriv: setresuid failed: Operation not permitted\n")).toBe(true);
    expect(boundaryFailed(127, "setpriv: failed to execute x: No such file\n")).toBe(true);
    expect(boundaryFailed(125, "contract-gate-sandbox: cannot join the check cgroup\n")).toBe(true);
    // The command's own exit codes and messages stay the command's.
    expect(boundaryFailed(1, "error: tests failed\n")).toBe(false);
    expect(boundaryFailed(0, "unshare: looks like it\n")).toBe(false);
    expect(boundaryFailed(null, "unshare: killed\n")).toBe(false);
  });
});

describe("checkEntry", () => {
  /** Runs the entry as PID 1 would, with `fds` as 3 and up, and a command that lists its own fds. */
  const enter = (fds: number[]) => {
    const [sh, ...rest] = checkEntry(fds.length);
    const run = spawnSync(sh!, [...rest, "sh", "-c", "ls /proc/$$/fd; echo ran"], {
      stdio: ["ignore", "pipe", "pipe", ...fds],
      encoding: "utf8",
    });
    for (const fd of fds) closeSync(fd);
    return run;
  };

  it("joins every group through its fd, then closes them before the command runs", () => {
    const dir = tempDir();
    const files = ["memory", "pids"].map((n) => join(dir, n));
    const run = enter(files.map((f) => openSync(f, "w")));
    expect(run.status).toBe(0);
    for (const f of files) expect(readFileSync(f, "utf8")).toBe("0\n");
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("ran");
    expect(lines).not.toContain("3");
    expect(lines).not.toContain("4");
  });

  it("a group it cannot join stops the check as a boundary failure, before the command", () => {
    const run = enter([openSync("/dev/full", "w")]);
    expect(run.stdout).not.toContain("ran");
    expect(boundaryFailed(run.status, run.stderr)).toBe(true);
    expect(run.stderr).toContain("cannot join the check's cgroup");
  });

  it("is nothing at all with no group to join and no /proc to guard", () => {
    expect(checkEntry(0)).toEqual([]);
  });

  it("guards /proc with the mount it was given, never one the check's PATH finds", () => {
    // The shell runs with every capability and the check's PATH, which may point
    // into the PR's tree. A stand-in "mount" records its calls instead of mounting.
    const dir = tempDir();
    const log = join(dir, "log");
    const tool = (name: string) => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\necho "${name} $*" >> ${log}\n`, { mode: 0o755 });
      return path;
    };
    mkdirSync(join(dir, "bin"));
    tool("bin/mount"); // the PR's own, early in PATH
    const trusted = tool("trusted-mount");
    const enter = (mount: string) => {
      writeFileSync(log, "");
      const [sh, ...rest] = checkEntry(0, mount);
      const run = spawnSync(sh!, [...rest, "true"], {
        env: { PATH: `${join(dir, "bin")}:/usr/bin:/bin` },
        encoding: "utf8",
      });
      return { status: run.status, calls: readFileSync(log, "utf8") };
    };
    const guarded = enter(trusted);
    expect(guarded.status).toBe(0);
    expect(guarded.calls).toContain("trusted-mount -n --bind -o ro /proc/sys /proc/sys");
    expect(guarded.calls).not.toContain("bin/mount");
    // Positive control: a bare name is looked up in PATH and runs the PR's tool.
    expect(enter("mount").calls).toContain("bin/mount -n --bind -o ro /proc/sys /proc/sys");
  });
});

describe("gitConfigFiles", () => {
  it("finds the repository's, a linked worktree's common and every submodule's config", () => {
    const main = tempDir();
    mkdirSync(join(main, ".git/worktrees/wt"), { recursive: true });
    mkdirSync(join(main, ".git/modules/libs/foo/modules/bar"), { recursive: true });
    writeFileSync(join(main, ".git/config"), "");
    writeFileSync(join(main, ".git/modules/libs/foo/config"), "");
    writeFileSync(join(main, ".git/modules/libs/foo/HEAD"), "");
    writeFileSync(join(main, ".git/modules/libs/foo/modules/bar/config"), "");
    writeFileSync(join(main, ".git/worktrees/wt/commondir"), "../..\n");
    expect(gitConfigFiles(main).sort()).toEqual(
      [
        join(main, ".git/config"),
        join(main, ".git/modules/libs/foo/config"),
        join(main, ".git/modules/libs/foo/modules/bar/config"),
      ].sort(),
    );
    const linked = tempDir();
    writeFileSync(join(linked, ".git"), `gitdir: ${join(main, ".git/worktrees/wt")}\n`);
    expect(gitConfigFiles(linked)).toContain(join(main, ".git/config"));
    expect(gitConfigFiles(tempDir())).toEqual([]);
  });
});

describe("systemTool", () => {
  it("takes the first root-owned copy writable by no one else, and says why it refused the others", () => {
    const make = (dir: string, mode: number, uid = 0) => {
      mkdirSync(dir, { recursive: true });
      const path = join(dir, "tool");
      writeFileSync(path, "#!/bin/sh\n", { mode });
      chmodSync(path, mode);
      chownSync(path, uid, 0);
      return path;
    };
    const base = tempDir();
    make(join(base, "group-writable"), 0o775);
    make(join(base, "not-root"), 0o755, 65534);
    const good = make(join(base, "good"), 0o755);
    const dirs = ["group-writable", "not-root", "good"].map((d) => join(base, d));
    expect(systemTool("tool", dirs.join(":"))).toBe(good);
    expect(() => systemTool("tool", dirs.slice(0, 2).join(":"))).toThrow(
      /writable by its group.*owned by uid 65534, not root/,
    );
    expect(() => systemTool("absent-tool", dirs.join(":"))).toThrow(/not found/);
    expect(untrustedReason(good)).toBeUndefined();
  });

  it("hands the check its environment only after every privileged layer (env -i)", () => {
    expect(withEnv("/usr/bin/env", { A: "1", PATH: "/x" }, "/usr/bin/true")).toEqual([
      "/usr/bin/env",
      "-i",
      "--",
      "A=1",
      "PATH=/x",
      "/usr/bin/true",
    ]);
    const odd = spawnSync(
      "/usr/bin/env",
      [...withEnv("/usr/bin/env", { A: "x y" }, "/bin/echo").slice(1), "ran"],
      { encoding: "utf8", env: { LD_DEBUG: "x" } },
    );
    expect(odd.stdout).toBe("ran\n");
  });
});

describe("sanitizeGitConfig: credential helpers and includes", () => {
  it("drops [credential] and [include] sections, including one-line forms", () => {
    const out = sanitizeGitConfig(
      '[user]\n\tname = R\n[credential "https://x"]\n\thelper = store\n[credential] helper = cache\n[include]\n\tpath = /secret\n[core]\n\tbare = false\n',
    );
    expect(out).not.toMatch(/helper|store|cache|secret/);
    expect(out).toContain("name = R");
    expect(out).toContain("bare = false");
  });
});

describe("gitLayout", () => {
  it("finds the top level above the root, nested checkouts, .git files and linked worktrees' common directories", () => {
    const top = realpathSync(tempDir());
    mkdirSync(join(top, ".git/modules/lib"), { recursive: true });
    writeFileSync(join(top, ".git/config"), "");
    writeFileSync(join(top, ".git/modules/lib/config"), "");
    writeFileSync(join(top, ".git/modules/lib/HEAD"), "");
    mkdirSync(join(top, "app/vendor/tool/.git"), { recursive: true });
    writeFileSync(join(top, "app/vendor/tool/.git/config"), "");
    mkdirSync(join(top, "app/lib"), { recursive: true });
    writeFileSync(join(top, "app/lib/.git"), "gitdir: ../../.git/modules/lib\n");
    const other = realpathSync(tempDir());
    mkdirSync(join(other, ".git/worktrees/wt"), { recursive: true });
    writeFileSync(join(other, ".git/config"), "");
    writeFileSync(join(other, ".git/worktrees/wt/commondir"), "../..\n");
    mkdirSync(join(top, "app/linked"));
    writeFileSync(join(top, "app/linked/.git"), `gitdir: ${join(other, ".git/worktrees/wt")}\n`);
    writeFileSync(join(top, "gha-creds-abc123.json"), "{}");
    writeFileSync(join(top, "app/gha-creds-notes.txt"), "");

    const layout = gitLayout(join(top, "app"));
    expect(layout.topLevel).toBe(top);
    expect(layout.dirs.sort()).toEqual(
      [join(top, ".git"), join(top, "app/vendor/tool/.git"), join(other, ".git")].sort(),
    );
    expect(layout.files.sort()).toEqual(
      [join(top, "app/lib/.git"), join(top, "app/linked/.git")].sort(),
    );
    expect(layout.configs).toEqual(
      expect.arrayContaining([
        join(top, ".git/config"),
        join(top, ".git/modules/lib/config"),
        join(top, "app/vendor/tool/.git/config"),
        join(other, ".git/config"),
      ]),
    );
    expect(layout.credentialFiles).toEqual([join(top, "gha-creds-abc123.json")]);
    // Gated at the top level: no separate top level to bind.
    expect(gitLayout(top).topLevel).toBeUndefined();
  });
});

describe("resolveExtraReads", () => {
  it("takes absolute and ~/ paths that exist; refuses relative, missing, / and paths inside the tree", () => {
    const home = realpathSync(tempDir());
    const root = realpathSync(tempDir());
    mkdirSync(join(home, "data"));
    expect(resolveExtraReads(["~/data", home], root, home)).toEqual({
      ok: true,
      paths: [join(home, "data"), home],
    });
    const error = (entry: string) => {
      const r = resolveExtraReads([entry], root, home);
      return r.ok ? "" : r.error;
    };
    expect(error("data")).toContain("is not an absolute path");
    expect(error(join(home, "missing"))).toContain("does not exist");
    expect(error("/")).toContain("whole file system");
    expect(error(root)).toContain("inside the working tree");
  });

  it("parses the action inputs check-network and sandbox-read", () => {
    const get = (inputs: Record<string, string>) => (n: string) =>
      ({ "github-token": "t", ...inputs })[n] ?? "";
    const ok = parseInputs(get({ "check-network": "host", "sandbox-read": "/opt/x\n~/y" }), {});
    expect(ok.ok && ok.settings).toMatchObject({
      checkNetwork: "host",
      sandboxRead: ["/opt/x", "~/y"],
    });
    // Network by grant: without the input, checks get loopback only.
    expect(parseInputs(get({}), {})).toMatchObject({
      settings: { checkNetwork: "none", sandboxRead: [], checkEnv: [] },
    });
    const bad = parseInputs(get({ "check-network": "off", "sandbox-read": "data" }), {});
    expect(bad.ok ? [] : bad.errors).toEqual([
      "Input 'sandbox-read' path 'data' is not absolute. Write it as /path or ~/path.",
      "Input 'check-network' is 'off'. Allowed values: host, none.",
    ]);
  });
});

describe("check-env", () => {
  const get = (inputs: Record<string, string>) => (n: string) =>
    ({ "github-token": "t", ...inputs })[n] ?? "";

  it("parses the action input: names by line or comma", () => {
    const ok = parseInputs(get({ "check-env": "DATABASE_URL\nREDIS_URL, API_KEY" }), {});
    expect(ok.ok && ok.settings.checkEnv).toEqual(["DATABASE_URL", "REDIS_URL", "API_KEY"]);
  });

  it("refuses a value or the runner's machinery, in the input's spelling", () => {
    const bad = parseInputs(get({ "check-env": "DATABASE_URL=x\nGITHUB_ENV" }), {});
    expect(bad.ok ? [] : bad.errors).toEqual([
      "Input 'check-env': 'DATABASE_URL=x' gives a value: name the variable only (its value comes from the job's environment).",
      "Input 'check-env': 'GITHUB_ENV' cannot be granted: a file command: a check could set the job's environment.",
    ]);
  });

  it("refuses the same as a CLI usage error, and the help names the flag", async () => {
    const root = tempDir();
    const bad = await runCli(["run", "--root", root, "--check-env", "A=b"], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--check-env: 'A=b' gives a value");
    const help = await runCli(["run", "--help"], root);
    expect(help.stdout).toContain("--check-env NAME,NAME");
  });
});

describe("--check-network", () => {
  it("rejects an unknown mode as a usage error, and the help names both new flags", async () => {
    const root = tempDir();
    const bad = await runCli(["run", "--root", root, "--check-network", "off"], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--check-network 'off' is not one of host, none");
    const help = await runCli(["run", "--help"], root);
    expect(help.stdout).toContain("--sandbox-read PATH");
    expect(help.stdout).toContain("--check-network MODE");
  });
});
