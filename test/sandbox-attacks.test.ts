/**
 * Attacks a hostile contract runs from its own CHECK: lines against the gate,
 * through the CLI as a separate process. Every attack runs twice: with
 * `--sandbox off` it must succeed (the positive control: the attack is real),
 * and with the sandbox it must fail.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oracleContract, oraclePath, scratch } from "./helpers/action-harness.js";
import { FIND_NODE_ANCESTOR, gateProcess, processesWith } from "./helpers/sandbox.js";

const CANARY = `cgcanary${randomBytes(6).toString("hex")}`;
const TAG = `cg-daemon-${randomBytes(6).toString("hex")}`;
const INJECTED = `::warning::injected-${CANARY.slice(-6)}`;

interface World {
  root: string;
  home: string;
  runnerTemp: string;
  files: Record<"GITHUB_ENV" | "GITHUB_OUTPUT" | "GITHUB_STEP_SUMMARY" | "GITHUB_STATE", string>;
  outside: string;
  env: Record<string, string>;
}

type Report = {
  sandbox?: { mechanism: string; executor?: string };
  contracts: { criteria: { title: string; status: string; reason: string }[] }[];
};

const ATTACKS = (w: World) => [
  {
    // Every ancestor's, up from its parent: the gate is one of them, whichever is the parent.
    title: "environ-ancestors",
    check: `p=$PPID; while [ "$p" -gt 0 ] 2>/dev/null; do if tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | grep -q ${CANARY}; then echo PWNED; break; fi; p=$(sed -n "s/^PPid:[[:space:]]*//p" /proc/$p/status 2>/dev/null); done`,
  },
  {
    title: "environ-scan",
    check: `for f in /proc/[0-9]*/environ; do if tr '\\0' '\\n' < "$f" 2>/dev/null | grep -q ${CANARY}; then echo PWNED; break; fi; done`,
  },
  {
    title: "gate-stdout",
    check: `${FIND_NODE_ANCESTOR}; [ -n "$g" ] && echo '${INJECTED}' > /proc/$g/fd/1 && echo PWNED`,
  },
  {
    title: "file-commands-by-path",
    check: `echo BASH_ENV=/tmp/evil >> ${w.files.GITHUB_ENV} && echo x=1 >> ${w.files.GITHUB_OUTPUT} && echo forged >> ${w.files.GITHUB_STEP_SUMMARY} && echo s=1 >> ${w.files.GITHUB_STATE} && echo PWNED`,
  },
  {
    title: "file-commands-by-listing",
    // By the runner's layout: checks no longer get RUNNER_TEMP, but the path is no secret.
    check: `n=0; for f in "${w.runnerTemp}"/_runner_file_commands/*; do echo BASH_ENV=/tmp/evil2 >> "$f" && n=$((n+1)); done; [ $n -gt 0 ] && echo PWNED`,
  },
  {
    title: "git-extraheader",
    check: `git config --get-regexp extraheader | grep -q ${CANARY} && echo PWNED`,
  },
  // Everywhere under .git: checkout persists the token in each submodule's config too.
  { title: "git-config-file", check: `grep -rqs ${CANARY} .git && echo PWNED` },
  {
    title: "home-gitconfig",
    check: `printf '[alias]\\n  st = !evil\\n' >> ~/.gitconfig && echo PWNED`,
  },
  { title: "outside-tree", check: `echo evil >> ${w.outside} && echo PWNED` },
  {
    // Writes back the current value: harmless as a control, and proof that core_pattern
    // (a program the kernel runs as root on the machine) was the check's to set.
    title: "sysctl",
    check: `v=$(cat /proc/sys/kernel/core_pattern) && printf '%s\\n' "$v" > /proc/sys/kernel/core_pattern && echo PWNED`,
  },
  {
    // Root's device nodes (a capability-less root still owns them): disks, kvm, the kernel log.
    title: "root-devices",
    check: `for d in /dev/kvm /dev/loop0 /dev/vda /dev/sda /dev/nvme0n1 /dev/kmsg; do if [ -e "$d" ] && : < "$d" 2>/dev/null; then echo PWNED; break; fi; done`,
  },
  {
    title: "setsid-daemon",
    // It reports once it has left the check's session, so the positive control cannot lose a race.
    check: `setsid bash -c 'touch .daemon-up; exec -a ${TAG} sleep 300' </dev/null >/dev/null 2>&1 & while [ ! -e .daemon-up ]; do sleep 0.05; done; echo PWNED`,
  },
];

function makeWorld(): World {
  const root = scratch("cg-attack-repo-");
  const home = scratch("cg-attack-home-");
  const runnerTemp = scratch("cg-attack-temp-");
  const fc = join(runnerTemp, "_runner_file_commands");
  mkdirSync(fc);
  const files = {
    GITHUB_ENV: join(fc, "set_env_1"),
    GITHUB_OUTPUT: join(fc, "set_output_1"),
    GITHUB_STEP_SUMMARY: join(fc, "step_summary_1"),
    GITHUB_STATE: join(fc, "save_state_1"),
  };
  for (const f of Object.values(files)) writeFileSync(f, "");
  writeFileSync(join(home, ".gitconfig"), "[user]\n  name = Runner\n");
  const outside = join(scratch("cg-attack-outside-"), "runner-file");
  writeFileSync(outside, "");
  execFileSync("git", ["init", "-q", root]);
  execFileSync("git", [
    "-C",
    root,
    "config",
    "http.https://github.com/.extraheader",
    `AUTHORIZATION: basic ${CANARY}`,
  ]);
  mkdirSync(join(root, ".git/modules/sub"), { recursive: true });
  writeFileSync(
    join(root, ".git/modules/sub/config"),
    `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${CANARY}\n`,
  );
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    GITHUB_TOKEN: CANARY,
    "INPUT_GITHUB-TOKEN": CANARY,
    RUNNER_TEMP: runnerTemp,
    ...files,
  };
  const world = { root, home, runnerTemp, files, outside, env };
  mkdirSync(join(root, ".claude/tasks/contracts"), { recursive: true });
  writeFileSync(
    join(root, oraclePath("attacks")),
    oracleContract(
      "attacks",
      ATTACKS(world).map((a) => ({ ...a, expect: "PWNED" })),
    ),
  );
  return world;
}

function snapshot(w: World): Record<string, string> {
  const paths = [...Object.values(w.files), join(w.home, ".gitconfig"), w.outside];
  return Object.fromEntries(paths.map((p) => [p, readFileSync(p, "utf8")]));
}

async function gate(w: World, sandbox: "off" | "auto") {
  const run = await gateProcess(
    ["run", "--root", w.root, "--json", "--no-write", "--sandbox", sandbox, "--max-parallel", "2"],
    w.env,
    w.root,
  );
  // An injected line may precede the report: the report is the JSON object at the end.
  const json = run.stdout.slice(run.stdout.indexOf("{\n"));
  const report = JSON.parse(json) as Report;
  const status = Object.fromEntries(report.contracts[0]!.criteria.map((k) => [k.title, k.status]));
  return { ...run, report, status };
}

describe("attacks from a contract's commands", () => {
  let off: Awaited<ReturnType<typeof gate>>;
  let on: Awaited<ReturnType<typeof gate>>;
  let offWorld: World;
  let onWorld: World;
  let onBefore: Record<string, string>;
  let offBefore: Record<string, string>;
  let daemonsAfterOff: number[];
  let daemonsAfterOn: number[];

  beforeAll(async () => {
    offWorld = makeWorld();
    offBefore = snapshot(offWorld);
    off = await gate(offWorld, "off");
    daemonsAfterOff = processesWith(TAG);
    for (const pid of daemonsAfterOff) process.kill(pid, "SIGKILL");
    onWorld = makeWorld();
    onBefore = snapshot(onWorld);
    on = await gate(onWorld, "auto");
    daemonsAfterOn = processesWith(TAG);
  });

  afterAll(() => {
    for (const pid of processesWith(TAG)) process.kill(pid, "SIGKILL");
  });

  it("runs sandboxed here (root), and unsandboxed when off", () => {
    expect(on.report.sandbox?.mechanism).toBe("namespaces (root)");
    expect(on.stderr).toBe("");
    expect(off.report.sandbox?.mechanism).toBe("none");
    // How each check started: an executor per lane both ways, the unsandboxed one when off.
    expect(on.report.sandbox?.executor).toBe("lane executor");
    expect(off.report.sandbox?.executor).toBe("unsandboxed executor");
  });

  it("cannot read the gate's environment through /proc/<an ancestor> or a /proc scan", () => {
    expect(off.status["environ-ancestors"]).toBe("met");
    expect(off.status["environ-scan"]).toBe("met");
    expect(on.status["environ-ancestors"]).toBe("unmet");
    expect(on.status["environ-scan"]).toBe("unmet");
  });

  it("cannot write workflow commands into the gate's stdout through /proc/<gate>/fd/1", () => {
    expect(off.status["gate-stdout"]).toBe("met");
    // A workflow command is a line of its own; the report quotes the attack's command text inside JSON strings.
    const injected = (out: string) => out.split("\n").some((l) => l.startsWith(INJECTED));
    expect(injected(off.stdout)).toBe(true);
    expect(on.status["gate-stdout"]).toBe("unmet");
    expect(injected(on.stdout)).toBe(false);
  });

  it("cannot append to GITHUB_ENV, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY or GITHUB_STATE", () => {
    expect(off.status["file-commands-by-path"]).toBe("met");
    expect(off.status["file-commands-by-listing"]).toBe("met");
    const offAfter = snapshot(offWorld);
    for (const f of Object.values(offWorld.files)) expect(offAfter[f]).not.toBe(offBefore[f]);
    expect(on.status["file-commands-by-path"]).toBe("unmet");
    expect(on.status["file-commands-by-listing"]).toBe("unmet");
    const onAfter = snapshot(onWorld);
    for (const f of Object.values(onWorld.files)) expect(onAfter[f]).toBe(onBefore[f]);
  });

  it("cannot read the checkout's extraheader from .git/config", () => {
    expect(off.status["git-extraheader"]).toBe("met");
    expect(off.status["git-config-file"]).toBe("met");
    expect(on.status["git-extraheader"]).toBe("unmet");
    expect(on.status["git-config-file"]).toBe("unmet");
    // The real file still has it: later steps (git push) keep working.
    expect(readFileSync(join(onWorld.root, ".git/config"), "utf8")).toContain(CANARY);
  });

  it("cannot change ~/.gitconfig or files outside the working tree as later steps see them", () => {
    expect(off.status["home-gitconfig"]).toBe("met");
    expect(off.status["outside-tree"]).toBe("met");
    const offAfter = snapshot(offWorld);
    expect(offAfter[join(offWorld.home, ".gitconfig")]).toContain("evil");
    expect(offAfter[offWorld.outside]).toContain("evil");
    // A private $HOME takes the write (met), but nothing changes outside the boundary.
    expect(on.status["home-gitconfig"]).toBe("met");
    expect(on.status["outside-tree"]).toBe("unmet");
    expect(snapshot(onWorld)).toEqual(onBefore);
  });

  it("cannot set kernel.core_pattern (or any sysctl) through its own /proc", () => {
    expect(off.status.sysctl).toBe("met");
    expect(on.status.sysctl).toBe("unmet");
  });

  it("cannot open the machine's device nodes (disks, kvm, the kernel log)", () => {
    expect(off.status["root-devices"]).toBe("met");
    expect(on.status["root-devices"]).toBe("unmet");
  });

  it("leaves no setsid daemon running after its check", () => {
    expect(off.status["setsid-daemon"]).toBe("met");
    expect(daemonsAfterOff.length).toBeGreaterThan(0);
    expect(on.status["setsid-daemon"]).toBe("met");
    expect(daemonsAfterOn).toEqual([]);
  });
});
