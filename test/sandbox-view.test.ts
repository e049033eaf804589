/**
 * The allowlisted view, attacked from a contract's CHECK: lines through the
 * CLI as a separate process. Every attack runs twice: with `--sandbox off`
 * it must succeed (the positive control: the attack is real), and with the
 * sandbox it must fail. Two workspaces: a monorepo whose gate root is a
 * directory below the git top level (reads), and a repository gated at its
 * top level with a second checkout inside it (writes to git state, then the
 * later git calls a workflow makes, to show nothing took effect).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { ProcessOptions } from "../src/process/run-process.js";
import { describeSandbox } from "../src/sandbox/describe.js";
import { openSandbox, type SandboxOptions } from "../src/sandbox/index.js";
import { oracleContract, oraclePath, scratch } from "./helpers/action-harness.js";
import { gateProcess, HOST_FROM_SOURCE } from "./helpers/sandbox.js";

const CANARY = `cgcanary${randomBytes(6).toString("hex")}`;
/** The path an `[includeIf]` section names: a sanitized config keeps no trace of it. */
const INCLUDED = `/cg-included-${CANARY}.inc`;

type Report = {
  sandbox?: { mechanism: string; view?: { toolchains: string[]; gitDirs: number } };
  contracts: { criteria: { title: string; status: string; reason: string }[] }[];
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent", LANG: "C" },
  });

function persistToken(repo: string): void {
  git(repo, "config", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${CANARY}`);
}

/** A runner's home after earlier steps logged in to things, and a toolchain under it. */
function plantedHome(): string {
  const home = scratch("cg-view-home-");
  const plant = (rel: string, text: string, mode = 0o600) => {
    mkdirSync(join(home, rel, ".."), { recursive: true });
    writeFileSync(join(home, rel), text, { mode });
  };
  plant(".docker/config.json", `{"auths":{"ghcr.io":{"auth":"${CANARY}"}}}`);
  plant(".kube/config", `users:\n- name: ci\n  user:\n    token: ${CANARY}\n`);
  plant(".config/gh/hosts.yml", `github.com:\n  oauth_token: ${CANARY}\n`);
  plant(".npmrc", `//registry.npmjs.org/:_authToken=${CANARY}\n`);
  plant(".netrc", `machine github.com login x password ${CANARY}\n`);
  plant(".cargo/credentials.toml", `[registry]\ntoken = "${CANARY}"\n`);
  plant(".cargo/bin/cg-toolchain", "#!/bin/sh\necho toolchain-ran\n", 0o755);
  plant(
    ".gitconfig",
    `[user]\n  name = Runner\n[credential]\n  helper = store --file=${CANARY}\n[includeIf "gitdir:/"]\n  path = ${INCLUDED}\n`,
  );
  // JVM, ssh and cloud logins beside the JVM caches the view does bind: a bind widened
  // from ~/.m2/repository to ~/.m2 would show settings.xml.
  plant(".m2/repository/org/acme/lib/1.0/lib-1.0.pom", "<project/>\n");
  plant(
    ".m2/settings.xml",
    `<settings><servers><server><password>${CANARY}</password></server></servers></settings>\n`,
  );
  plant(".gradle/caches/modules-2/cache.properties", "version=1\n");
  plant(".gradle/gradle.properties", `signing.password=${CANARY}\n`);
  plant(".ssh/id_rsa", `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY}\n`);
  plant(".aws/credentials", `[default]\naws_secret_access_key = ${CANARY}\n`);
  return home;
}

interface Gate {
  status: Record<string, string>;
  report: Report;
  stderr: string;
}

async function gate(root: string, home: string, sandbox: "off" | "auto"): Promise<Gate> {
  const env = {
    PATH: `${join(home, ".cargo/bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    LANG: "C.UTF-8",
  };
  const args = ["run", "--root", root, "--json", "--no-write", "--sandbox", sandbox];
  const run = await gateProcess([...args, "--max-parallel", "1"], env, root);
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{\n"))) as Report;
  const status = Object.fromEntries(report.contracts[0]!.criteria.map((k) => [k.title, k.status]));
  return { status, report, stderr: run.stderr };
}

function contract(root: string, checks: { title: string; check: string }[]): void {
  mkdirSync(join(root, ".claude/tasks/contracts"), { recursive: true });
  writeFileSync(
    join(root, oraclePath("view")),
    oracleContract(
      "view",
      checks.map((c) => ({ ...c, expect: "PWNED" })),
    ),
  );
}

// ---------------------------------------------------------------- reads

/** System directories a check running as root must not be able to write. */
const SYSTEM_WRITES = ["/usr", "/etc", "/opt"];

interface Monorepo {
  parent: string;
  top: string;
  root: string;
  home: string;
}

/** `<parent>/repo` (the git top level, gated at `repo/app`) beside `<parent>/sibling`. */
function monorepo(): Monorepo {
  const parent = scratch("cg-view-work-");
  const top = join(parent, "repo");
  const root = join(top, "app");
  mkdirSync(join(parent, "sibling"));
  writeFileSync(join(parent, "sibling/.env"), `API_KEY=${CANARY}\n`);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "index.txt"), "app\n");
  // A project with its dependencies installed, as `npm ci` leaves it.
  writeFileSync(join(root, "package.json"), '{"name":"app","scripts":{"test":"node test.js"}}\n');
  writeFileSync(join(root, "test.js"), 'console.log(require("dep"));\n');
  mkdirSync(join(root, "node_modules/dep"), { recursive: true });
  writeFileSync(join(root, "node_modules/dep/index.js"), 'module.exports = "dep-ok";\n');
  git(parent, "init", "-q", "repo");
  git(top, "add", "-A");
  git(top, "commit", "-qm", "monorepo-initial");
  persistToken(top);
  // Config sections that would pull in, or carry, what no one sanitized.
  writeFileSync(join(top, ".git/config"), `[includeIf "gitdir:/"]\n\tpath = ${INCLUDED}\n`, {
    flag: "a",
  });
  writeFileSync(
    join(top, ".git/config.worktree"),
    `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${CANARY}\n`,
  );
  // google-github-actions/auth's key file, untracked, at the workspace root.
  writeFileSync(join(top, "gha-creds-0a1b2c3d4e5f.json"), `{"private_key":"${CANARY}"}`);
  const home = plantedHome();
  contract(root, [
    { title: "parent-git-config", check: `grep -q ${CANARY} ../.git/config && echo PWNED` },
    { title: "gha-creds", check: `cat ../gha-creds-*.json | grep -q ${CANARY} && echo PWNED` },
    {
      title: "home-credentials",
      check: `for f in ~/.docker/config.json ~/.kube/config ~/.config/gh/hosts.yml ~/.npmrc ~/.netrc ~/.cargo/credentials.toml ~/.gitconfig; do grep -qs ${CANARY} "$f" && { echo PWNED; break; }; done`,
    },
    ...[".m2/settings.xml", ".gradle/gradle.properties", ".ssh/id_rsa", ".aws/credentials"].map(
      (f) => ({ title: `home ${f}`, check: `grep -qs ${CANARY} ~/${f} && echo PWNED` }),
    ),
    {
      title: "include-if",
      check: `cat ../.git/config ~/.gitconfig | grep -qF ${INCLUDED} && echo PWNED`,
    },
    { title: "config-worktree", check: `grep -qs ${CANARY} ../.git/config.worktree && echo PWNED` },
    // access(2) says EROFS on a read-only mount, even to root; nothing is written.
    ...SYSTEM_WRITES.map((d) => ({ title: `writable ${d}`, check: `test -w ${d} && echo PWNED` })),
    { title: "list-home", check: "ls -A /home | grep -q . && echo PWNED" },
    { title: "list-run", check: "ls -A /run | grep -q . && echo PWNED" },
    { title: "repo-parent", check: "ls -A ../.. | grep -qx sibling && echo PWNED" },
    { title: "sibling-workspace", check: `grep -q ${CANARY} ${parent}/sibling/.env && echo PWNED` },
    // Still works inside: the toolchain under $HOME, git from below the top level, node, python3.
    { title: "toolchain", check: "cg-toolchain | grep -q toolchain-ran && echo PWNED" },
    {
      title: "maven-cache",
      check: "test -f ~/.m2/repository/org/acme/lib/1.0/lib-1.0.pom && echo PWNED",
    },
    { title: "git-log", check: "git log --oneline | grep -q monorepo-initial && echo PWNED" },
    { title: "git-status", check: "git status --porcelain >/dev/null && echo PWNED" },
    { title: "node-python", check: "node -e 'process.exit(0)' && python3 -c 'pass' && echo PWNED" },
    { title: "npm-test", check: "npm test --silent 2>&1 | grep -q dep-ok && echo PWNED" },
  ]);
  return { parent, top, root, home };
}

describe("what a check can read (gated below the git top level)", () => {
  let off: Gate;
  let on: Gate;
  beforeAll(async () => {
    const a = monorepo();
    off = await gate(a.root, a.home, "off");
    const b = monorepo();
    on = await gate(b.root, b.home, "auto");
  });

  it("runs sandboxed, and names the toolchains it bound", () => {
    expect(on.report.sandbox?.mechanism).toBe("namespaces (root)");
    expect(on.report.sandbox?.view?.toolchains).toContain("~/.cargo/bin");
    expect(off.report.sandbox?.mechanism).toBe("none");
  });

  it("cannot read the token in the top level's .git/config from a root below it", () => {
    expect(off.status["parent-git-config"]).toBe("met");
    expect(on.status["parent-git-config"]).toBe("unmet");
  });

  it("cannot read an untracked gha-creds-*.json an earlier step left in the workspace", () => {
    expect(off.status["gha-creds"]).toBe("met");
    expect(on.status["gha-creds"]).toBe("unmet");
  });

  it("cannot read credentials earlier steps left in $HOME (docker, kube, gh, npm, netrc, cargo, git)", () => {
    expect(off.status["home-credentials"]).toBe("met");
    expect(on.status["home-credentials"]).toBe("unmet");
  });

  it("cannot read Maven's settings.xml, Gradle's gradle.properties, ~/.ssh or ~/.aws beside the bound JVM caches", () => {
    for (const f of [
      ".m2/settings.xml",
      ".gradle/gradle.properties",
      ".ssh/id_rsa",
      ".aws/credentials",
    ]) {
      const t = `home ${f}`;
      expect([t, off.status[t]]).toEqual([t, "met"]);
      expect([t, on.status[t]]).toEqual([t, "unmet"]);
    }
  });

  it("sees no [includeIf] section and no config.worktree token (both read when off)", () => {
    for (const t of ["include-if", "config-worktree"]) {
      expect([t, off.status[t]]).toEqual([t, "met"]);
      expect([t, on.status[t]]).toEqual([t, "unmet"]);
    }
  });

  it("as root, cannot write /usr, /etc or /opt: they are mounted read-only (writable when off)", () => {
    for (const d of SYSTEM_WRITES) {
      const t = `writable ${d}`;
      expect([t, off.status[t]]).toEqual([t, "met"]);
      expect([t, on.status[t]]).toEqual([t, "unmet"]);
    }
  });

  it("cannot list /home, /run, the repository's parent or read a sibling workspace", () => {
    for (const t of ["list-home", "list-run", "repo-parent", "sibling-workspace"]) {
      expect([t, off.status[t]]).toEqual([t, "met"]);
      expect([t, on.status[t]]).toEqual([t, "unmet"]);
    }
  });

  it("still runs a toolchain under $HOME, git log and status below the top level, node, python3 and npm test", () => {
    for (const t of [
      "toolchain",
      "maven-cache",
      "git-log",
      "git-status",
      "node-python",
      "npm-test",
    ]) {
      expect([t, off.status[t]]).toEqual([t, "met"]);
      expect([t, on.status[t]]).toEqual([t, "met"]);
    }
  });
});

// ---------------------------------------------------------------- writes

interface Checkout {
  root: string;
  home: string;
  /** Where the planted hooks leave their mark when a later step's git runs them. */
  marks: string;
  nested: string;
}

function checkout(): Checkout {
  const root = scratch("cg-view-repo-");
  const marks = scratch("cg-view-marks-");
  writeFileSync(join(root, "base.txt"), "original\n");
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "initial");
  persistToken(root);
  // A second checkout inside the tree (actions/checkout with `path: vendor/tool`).
  const nested = join(root, "vendor/tool");
  mkdirSync(nested, { recursive: true });
  git(nested, "init", "-q");
  persistToken(nested);
  writeFileSync(join(root, ".gitignore"), "vendor/\n.claude/\n*.sh\n");
  const hook = (name: string) => `printf '#!/bin/sh\\ntouch ${marks}/${name}\\n'`;
  contract(root, [
    { title: "nested-token", check: `grep -rqs ${CANARY} vendor/tool/.git && echo PWNED` },
    {
      title: "hook",
      check: `${hook("post-checkout")} > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout && echo PWNED`,
    },
    {
      title: "fsmonitor",
      check: `${hook("fsmonitor")} > fsmon.sh && chmod +x fsmon.sh && git config core.fsmonitor "$PWD/fsmon.sh" && echo PWNED`,
    },
    { title: "attributes", check: "echo '* diff=evil' > .git/info/attributes && echo PWNED" },
    {
      title: "nested-config",
      check: `git -C vendor/tool config core.hooksPath ${marks} && echo PWNED`,
    },
    {
      title: "replace",
      check:
        "w=$(echo weakened | git hash-object -w --stdin) && git replace -f $(git rev-parse HEAD:base.txt) $w && echo PWNED",
    },
    {
      title: "rename-nested",
      check:
        "cd vendor/tool && cp -a .git .git-copy && mv .git .git-x && mv .git-copy .git && echo PWNED",
    },
    {
      // Last: with the sandbox off it leaves a writable copy in place of the real directory.
      title: "rename-git",
      check: "cp -a .git .git-copy && mv .git .git-x && mv .git-copy .git && echo PWNED",
    },
  ]);
  return { root, home: plantedHome(), marks, nested };
}

/** What a later workflow step's git sees: the base file, a status and a checkout. */
function laterSteps(c: Checkout) {
  const base = git(c.root, "cat-file", "-p", "HEAD:base.txt");
  git(c.root, "status", "--porcelain");
  git(c.root, "checkout", "-q", "-b", "later-step");
  return {
    base,
    marks: ["post-checkout", "fsmonitor"].filter((m) => existsSync(join(c.marks, m))),
  };
}

describe("what a check can write in git state (gated at the top level)", () => {
  let off: Gate;
  let on: Gate;
  let offWorld: Checkout;
  let onWorld: Checkout;
  let onConfig: string;
  beforeAll(async () => {
    offWorld = checkout();
    off = await gate(offWorld.root, offWorld.home, "off");
    onWorld = checkout();
    onConfig = readFileSync(join(onWorld.root, ".git/config"), "utf8");
    on = await gate(onWorld.root, onWorld.home, "auto");
  });

  it("cannot read a nested checkout's persisted token", () => {
    expect(off.status["nested-token"]).toBe("met");
    expect(on.status["nested-token"]).toBe("unmet");
  });

  it("cannot write hooks, config, info/attributes, a nested repository's config or refs/replace", () => {
    for (const t of ["hook", "fsmonitor", "attributes", "nested-config", "replace"]) {
      expect([t, off.status[t]]).toEqual([t, "met"]);
      expect([t, on.status[t]]).toEqual([t, "unmet"]);
    }
    expect(readFileSync(join(onWorld.root, ".git/config"), "utf8")).toBe(onConfig);
    expect(existsSync(join(onWorld.root, ".git/info/attributes"))).toBe(false);
    expect(existsSync(join(onWorld.root, ".git/refs/replace"))).toBe(false);
    expect(readFileSync(join(onWorld.nested, ".git/config"), "utf8")).not.toContain("hooksPath");
  });

  it("cannot rename or replace a .git directory, its own or a nested checkout's", () => {
    expect(off.status["rename-git"]).toBe("met");
    expect(off.status["rename-nested"]).toBe("met");
    expect(existsSync(join(offWorld.root, ".git-x"))).toBe(true);
    expect(on.status["rename-git"]).toBe("unmet");
    expect(on.status["rename-nested"]).toBe("unmet");
    expect(existsSync(join(onWorld.root, ".git-x"))).toBe(false);
  });

  it("later steps' git (cat-file, status, checkout) see none of it; with the sandbox off they run it", () => {
    const after = laterSteps(offWorld);
    expect(after.base).toBe("weakened\n");
    expect(after.marks).toEqual(["post-checkout", "fsmonitor"]);
    const clean = laterSteps(onWorld);
    expect(clean.base).toBe("original\n");
    expect(clean.marks).toEqual([]);
  });
});

// ---------------------------------------------------------------- the gate's own tools

describe("the host's programs cannot be steered through PATH", () => {
  const TOOLS = [
    "sh",
    "mount",
    "umount",
    "mkdir",
    "chown",
    "chmod",
    "ln",
    "sudo",
    "setpriv",
    "unshare",
    "env",
  ];

  /** Shims that record each call, then run the real program so nothing else changes. */
  function shims(dir: string, log: string): void {
    mkdirSync(dir, { recursive: true });
    for (const t of TOOLS) {
      const real = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        .map((d) => join(d, t))
        .find(existsSync);
      writeFileSync(
        join(dir, t),
        `#!/bin/sh\necho "${t}" >> '${log}'\n${real ? `exec ${real} "$@"` : "exit 1"}\n`,
        { mode: 0o755 },
      );
    }
  }

  it("runs none of the shims planted early in PATH and in the tree's node_modules/.bin (bare names run them)", async () => {
    const root = scratch("cg-shim-repo-");
    const log = join(scratch("cg-shim-log-"), "calls");
    writeFileSync(log, "");
    const early = scratch("cg-shim-path-");
    shims(early, log);
    shims(join(root, "node_modules/.bin"), log);
    contract(root, [{ title: "runs", check: "echo PWNED" }]);
    const env = {
      PATH: `${early}:${join(root, "node_modules/.bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: scratch("cg-shim-home-"),
      LANG: "C.UTF-8",
    };
    const run = await gateProcess(
      ["run", "--root", root, "--json", "--no-write", "--sandbox", "required"],
      env,
      root,
    );
    const report = JSON.parse(run.stdout) as Report;
    expect(report.sandbox?.mechanism).toBe("namespaces (root)");
    expect(report.contracts[0]!.criteria[0]!.status).toBe("met");
    expect(readFileSync(log, "utf8")).toBe("");
    // Control: the same PATH, bare names, and every shim runs.
    execFileSync(
      "sh",
      ["-c", TOOLS.map((t) => `${t} --version >/dev/null 2>&1 || true`).join("; ")],
      {
        env,
      },
    );
    expect([...new Set(readFileSync(log, "utf8").trim().split("\n"))].sort()).toEqual(
      [...TOOLS].sort(),
    );
  });
});

// ---------------------------------------------------------------- network and extra reads

describe("check-network and sandbox-read", () => {
  const options = (root: string, over: Partial<SandboxOptions> = {}): SandboxOptions => ({
    mode: "required",
    root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch("cg-net-home-") },
    hostCommand: HOST_FROM_SOURCE,
    memoryMb: 512,
    ...over,
  });
  const node = (root: string, script: string): ProcessOptions => ({
    file: "node",
    args: ["-e", script],
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    timeoutMs: 60_000,
  });
  /** Connects to `target` (a port on 127.0.0.1, or an abstract socket) and prints what it got. */
  const dial = (target: string) =>
    `const c = require("node:net").connect(${target}); c.on("data", (d) => { console.log(String(d)); c.destroy(); }); c.on("error", (e) => console.log("ERR " + e.code));`;
  /** A server inside the check, on its own loopback, dialled from inside. */
  const selfLoop = `const net = require("node:net"); const s = net.createServer((c) => c.end("self")); s.listen(0, "127.0.0.1", () => { const c = net.connect(s.address().port, "127.0.0.1"); c.on("data", (d) => { console.log(String(d)); process.exit(0); }); });`;

  it("none: no service on the runner's loopback or abstract socket answers; the check's own loopback works (both answer under host)", async () => {
    const root = scratch("cg-net-repo-");
    const tcp = createServer((c) => c.end("runner-tcp"));
    const abstract = createServer((c) => c.end("runner-abstract"));
    const name = `\\0cg-abstract-${randomBytes(4).toString("hex")}`;
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => abstract.listen(name.replace("\\0", "\0"), r));
    const port = (tcp.address() as { port: number }).port;
    try {
      const host = await openSandbox(options(root, { network: "host" }));
      // The default: network by grant.
      const none = await openSandbox(options(root));
      try {
        expect(host.info.view?.network).toBe("host");
        expect(none.info.view?.network).toBe("none");
        expect((await host.run(node(root, dial(`${port}, "127.0.0.1"`)))).stdout).toContain(
          "runner-tcp",
        );
        expect((await host.run(node(root, dial(`"${name}"`)))).stdout).toContain("runner-abstract");
        expect((await none.run(node(root, dial(`${port}, "127.0.0.1"`)))).stdout).toContain(
          "ERR ECONNREFUSED",
        );
        expect((await none.run(node(root, dial(`"${name}"`)))).stdout).toContain(
          "ERR ECONNREFUSED",
        );
        expect((await none.run(node(root, selfLoop))).stdout).toContain("self");
        expect(describeSandbox(none.info).line).toContain(
          "no network (loopback only; check-network: none)",
        );
        expect(describeSandbox(host.info).line).toContain("checks could reach the network");
      } finally {
        host.close();
        none.close();
      }
    } finally {
      tcp.close();
      abstract.close();
    }
  });

  it("a same-uid service's path socket outside the tree (as under /run/user/<uid>) is absent, even under host (it answers when off)", async () => {
    const root = scratch("cg-sock-repo-");
    const path = join(scratch("cg-sock-run-"), "bus");
    const server = createServer((c) => c.end("service"));
    await new Promise<void>((r) => server.listen(path, r));
    try {
      const off = await openSandbox(options(root, { mode: "off" }));
      expect((await off.run(node(root, dial(JSON.stringify(path))))).stdout).toContain("service");
      const on = await openSandbox(options(root));
      try {
        expect((await on.run(node(root, dial(JSON.stringify(path))))).stdout).toContain(
          "ERR ENOENT",
        );
      } finally {
        on.close();
      }
    } finally {
      server.close();
    }
  });

  it("sandbox-read: the path is readable, not writable, and named in the report (absent without it)", async () => {
    const root = scratch("cg-read-repo-");
    const data = scratch("cg-read-data-");
    writeFileSync(join(data, "fixture.txt"), "shared data\n");
    const script = `try { console.log(require("node:fs").readFileSync(${JSON.stringify(join(data, "fixture.txt"))}, "utf8").trim()); } catch (e) { console.log("ERR " + e.code); } try { require("node:fs").writeFileSync(${JSON.stringify(join(data, "w"))}, "x"); console.log("wrote"); } catch (e) { console.log("ERR " + e.code); }`;
    const without = await openSandbox(options(root));
    const withRead = await openSandbox(options(root, { extraReads: [data] }));
    try {
      expect((await without.run(node(root, script))).stdout).toBe("ERR ENOENT\nERR ENOENT\n");
      expect((await withRead.run(node(root, script))).stdout).toBe("shared data\nERR EROFS\n");
      expect(withRead.info.view?.extraReads).toEqual([data]);
      expect(describeSandbox(withRead.info).line).toContain(`sandbox-read ${data} (read-only)`);
    } finally {
      without.close();
      withRead.close();
    }
    expect(existsSync(join(data, "w"))).toBe(false);
  });

  it("sandbox-read inside a protected path (the action's node_modules) is granted read-only; the rest of that path stays as without the grant (all of it readable and writable off)", async () => {
    const root = scratch("cg-read-repo-");
    // Outside /tmp (private in the view), as the runner's _actions directory is.
    const action = mkdtempSync("/var/tmp/cg-read-action-");
    onTestFinished(() => rmSync(action, { recursive: true, force: true }));
    const grant = join(action, "node_modules");
    mkdirSync(join(grant, "pkg"), { recursive: true });
    mkdirSync(join(action, "dist"));
    writeFileSync(join(grant, "pkg/index.js"), "granted\n");
    writeFileSync(join(action, "dist/index.js"), "the bundle\n");
    const fs = (op: string) => `try { ${op}; } catch (e) { console.log("ERR " + e.code); }`;
    const read = (p: string) =>
      fs(`console.log(require("node:fs").readFileSync(${JSON.stringify(p)}, "utf8").trim())`);
    const write = (p: string) =>
      fs(`require("node:fs").writeFileSync(${JSON.stringify(p)}, "x"); console.log("wrote")`);
    const probe = [
      read(join(grant, "pkg/index.js")),
      write(join(grant, "pkg/w")),
      write(join(grant, "w")),
      read(join(action, "dist/index.js")),
      write(join(action, "w")),
    ].join("\n");
    const seen = async (over: Partial<SandboxOptions>) => {
      const sandbox = await openSandbox(options(root, over));
      try {
        return (await sandbox.run(node(root, probe))).stdout.split("\n").filter(Boolean);
      } finally {
        sandbox.close();
      }
    };
    // The controls: without the sandbox all of it is the check's; the grant alone shows only itself.
    expect(await seen({ mode: "off", protect: [action] })).toEqual([
      "granted",
      "wrote",
      "wrote",
      "the bundle",
      "wrote",
    ]);
    for (const f of ["pkg/w", "w"]) rmSync(join(grant, f));
    rmSync(join(action, "w"));
    const grantOnly = await seen({ extraReads: [grant] });
    expect(grantOnly).toEqual(["granted", "ERR EROFS", "ERR EROFS", "ERR ENOENT", "ERR EROFS"]);
    // The protected path over the grant: the grant still read-only, nothing more of the path.
    expect(await seen({ extraReads: [grant], protect: [action] })).toEqual(grantOnly);
    // Protected and not granted: none of it.
    expect(await seen({ protect: [action] })).toEqual(Array(5).fill("ERR ENOENT"));
    expect(existsSync(join(grant, "w")) || existsSync(join(action, "w"))).toBe(false);
  });

  it("a protected path inside the tree (a local action's checkout) is read-only and keeps every cover inside it: its git config sanitized (the token readable off)", async () => {
    const root = scratch("cg-protect-repo-");
    const act = join(root, ".gate-action");
    mkdirSync(act);
    git(act, "init", "-q");
    persistToken(act);
    writeFileSync(join(act, "action.yml"), "name: gate\n");
    const script = `grep -rqs ${CANARY} .gate-action/.git && echo token-read; echo x >> .gate-action/action.yml && echo action-written; touch tree-file && echo tree-written`;
    const sh = (over: Partial<SandboxOptions>) => async () => {
      const sandbox = await openSandbox(options(root, over));
      try {
        return (await sandbox.run({ ...node(root, ""), file: "bash", args: ["-c", script] }))
          .stdout;
      } finally {
        sandbox.close();
      }
    };
    expect(await sh({ mode: "off", protect: [act] })()).toBe(
      "token-read\naction-written\ntree-written\n",
    );
    writeFileSync(join(act, "action.yml"), "name: gate\n");
    // Without the protection the action is the tree's to write; the token is hidden either way.
    expect(await sh({})()).toBe("action-written\ntree-written\n");
    writeFileSync(join(act, "action.yml"), "name: gate\n");
    expect(await sh({ protect: [act] })()).toBe("tree-written\n");
    expect(readFileSync(join(act, "action.yml"), "utf8")).toBe("name: gate\n");
  });

  it("sandbox-read: a path that does not exist runs nothing, in every mode but off, and is a usage error in the CLI", async () => {
    const root = scratch("cg-read-repo-");
    const missing = join(scratch("cg-read-gone-"), "nope");
    for (const mode of ["auto", "required"] as const) {
      const sandbox = await openSandbox(options(root, { mode, extraReads: [missing] }));
      const out = await sandbox.run(node(root, "require('node:fs').writeFileSync('RAN', '')"));
      expect(out.kind === "boundary" && out.reason).toContain(
        `sandbox-read: '${missing}' does not exist`,
      );
      expect(describeSandbox(sandbox.info).warning).toMatch(/^No command ran: sandbox-read/);
      expect(existsSync(join(root, "RAN"))).toBe(false);
    }
    contract(root, [{ title: "runs", check: "echo PWNED" }]);
    const cli = await gateProcess(
      ["run", "--root", root, "--no-write", "--sandbox-read", missing],
      { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch("cg-read-home-") },
      root,
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`--sandbox-read: '${missing}' does not exist`);
  });
});

describe("the check's environment reaches only the check", () => {
  const cc = ["/usr/bin/cc", "/usr/bin/gcc"].find(existsSync);

  it.skipIf(cc === undefined)(
    "an LD_PRELOAD from the gate's environment loads into the command only, never into unshare, sh or setpriv (it does when they get that environment)",
    async () => {
      const root = scratch("cg-preload-repo-");
      const log = join(root, "preload.log");
      const so = join(root, "mark.so");
      writeFileSync(
        join(root, "mark.c"),
        `#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { char c[64] = ""; FILE *p = fopen("/proc/self/comm", "r"); if (p) { fgets(c, sizeof c, p); fclose(p); } FILE *f = fopen("${log}", "a"); if (f) { fputs(c, f); fclose(f); } }\n`,
      );
      execFileSync(cc!, ["-shared", "-fPIC", "-o", so, join(root, "mark.c")]);
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LD_PRELOAD: so };
      const layers = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
      // Control: the chain run with the check's environment, as before, loads it into every layer.
      writeFileSync(log, "");
      execFileSync(
        "/usr/bin/unshare",
        [
          "--pid",
          "--fork",
          "--",
          "/bin/sh",
          "-c",
          'exec "$@"',
          "sh",
          "/usr/bin/setpriv",
          "--reuid=0",
          "--",
          "/bin/true",
        ],
        { env },
      );
      expect(layers()).toEqual(expect.arrayContaining(["unshare", "sh", "setpriv"]));

      writeFileSync(log, "");
      const sandbox = await openSandbox({
        mode: "required",
        root,
        env: { PATH: env.PATH, HOME: scratch("cg-preload-home-") },
        hostCommand: HOST_FROM_SOURCE,
        memoryMb: 512,
      });
      try {
        const out = await sandbox.run({
          file: "true",
          args: [],
          cwd: root,
          env,
          timeoutMs: 60_000,
        });
        expect(out).toMatchObject({ kind: "exited", exitCode: 0 });
      } finally {
        sandbox.close();
      }
      expect(layers()).toEqual(["true"]);
    },
  );
});
