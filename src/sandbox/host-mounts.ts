import { posix } from "node:path";
import type { HostConfig } from "./protocol.js";

/**
 * The mount namespace every check sees, as shell steps for util-linux
 * `mount`, run once by the host inside its private mount namespace:
 *
 * - `R` (`stage/root`) is a recursive bind of `/`, every mount read-only, so
 *   nothing outside the working tree changes as later steps see it, whatever
 *   uid the check has (a capability-less root still owns root's files);
 * - a minimal `/dev` (no disks, consoles or kvm: a capability-less root still
 *   owns root's device nodes), fresh tmpfs on `/tmp` and `/dev/shm`, an overlay on `$HOME` whose writes
 *   land in a throw-away layer (caches work, dotfiles stay as they were);
 * - `RUNNER_TEMP` empty, file-command directories empty and read-only;
 * - the working tree bound read-write, its `.git/config` replaced by a
 *   sanitized read-only copy, the action's own files read-only.
 *
 * Part one binds; the host then reads `/proc/self/mountinfo` (which mounts
 * the bind brought along) and part two makes each read-only and builds on it.
 */
export function stageScript(stage: string): string {
  return script([
    ["mount", "-t", "tmpfs", "-o", "mode=0700", "cg-stage", stage],
    ["mkdir", "-p", `${stage}/root`, `${stage}/private`],
    ["mount", "--rbind", "/", `${stage}/root`],
  ]);
}

export interface LayoutInput {
  stage: string;
  config: HostConfig;
  /** Mount points under `stage/root`, from mountinfo, parents first. */
  mountPoints: readonly string[];
  /** Git config files (absolute) whose sanitized copies are `stage/private/git-config-<i>`. */
  gitConfigs: readonly string[];
}

export function layoutScript({ stage, config, mountPoints, gitConfigs }: LayoutInput): string {
  const R = `${stage}/root`;
  const P = `${stage}/private`;
  const at = (p: string) => posix.join(R, p);
  const owner = `uid=${config.uid},gid=${config.gid}`;
  // Under /proc a failure is harmless: every check mounts its own /proc over it.
  const steps: Step[] = mountPoints.map((m) =>
    m.startsWith(`${R}/proc/`)
      ? { raw: `mount -o remount,bind,ro ${q(m)} 2>/dev/null || true` }
      : ["mount", "-o", "remount,bind,ro", m],
  );
  steps.push(["mount", "-t", "tmpfs", "-o", "mode=1777,nosuid,nodev", "cg-tmp", at("/tmp")]);
  steps.push(...minimalDev(at("/dev")));
  if (config.home !== undefined && config.home !== "/") {
    const up = `${P}/home-up`;
    const work = `${P}/home-work`;
    steps.push(["mkdir", "-p", up, work], ensureDir(at(config.home)));
    steps.push(["chown", `--reference=${config.home}`, up]);
    steps.push(["chmod", `--reference=${config.home}`, up]);
    // An overlay keeps toolchains under $HOME (~/.cargo, ~/.rustup) usable;
    // where overlayfs is missing, an empty private home still protects the real one.
    steps.push({
      raw: `mount -t overlay -o ${q(`lowerdir=${config.home},upperdir=${up},workdir=${work}`)} cg-home ${q(at(config.home))} 2>/dev/null || mount -t tmpfs -o ${q(`mode=0700,${owner}`)} cg-home ${q(at(config.home))}`,
    });
  }
  for (const d of config.emptyDirs) {
    steps.push(ensureDir(at(d)));
    steps.push({
      when: at(d),
      run: ["mount", "-t", "tmpfs", "-o", `mode=0700,${owner}`, "cg-empty", at(d)],
    });
  }
  steps.push({
    raw: `mkdir -p ${q(at(config.root))} 2>/dev/null || test -d ${q(at(config.root))}`,
  });
  steps.push(["mount", "--bind", config.root, at(config.root)]);
  for (const d of config.hiddenDirs) {
    steps.push({
      when: at(d),
      run: ["mount", "-t", "tmpfs", "-o", "ro,mode=0555", "cg-hidden", at(d)],
    });
  }
  steps.push({ raw: `: > ${q(`${P}/empty`)}` });
  for (const f of config.hiddenFiles) steps.push(...readOnlyBind(`${P}/empty`, at(f), true));
  for (const [i, file] of gitConfigs.entries()) {
    // Optional: a config hidden by an earlier layer (under /tmp, say) is unreadable anyway.
    steps.push(...readOnlyBind(`${P}/git-config-${i}`, at(file), true));
  }
  for (const p of config.readOnly) steps.push(...readOnlyBind(at(p), at(p), true));
  return script(steps);
}

type Step = string[] | { when: string; run: string[] } | { raw: string };

/** The devices programs expect, as bubblewrap's `--dev` gives them, and nothing else. */
const DEVICES = ["null", "zero", "full", "random", "urandom", "tty"];

function minimalDev(dev: string): Step[] {
  const steps: Step[] = [["mount", "-t", "tmpfs", "-o", "mode=0755,nosuid,noexec", "cg-dev", dev]];
  for (const d of DEVICES) {
    steps.push({ raw: `: > ${q(`${dev}/${d}`)}` }, ["mount", "--bind", `/dev/${d}`, `${dev}/${d}`]);
  }
  steps.push(["mkdir", `${dev}/shm`, `${dev}/pts`]);
  steps.push(["mount", "-t", "tmpfs", "-o", "mode=1777,nosuid,nodev", "cg-shm", `${dev}/shm`]);
  // A private pty instance for tools that need a terminal; none is fine too.
  steps.push({
    raw: `mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 cg-pts ${q(`${dev}/pts`)} 2>/dev/null && ln -s pts/ptmx ${q(`${dev}/ptmx`)} || true`,
  });
  for (const [name, target] of [
    ["fd", "/proc/self/fd"],
    ["stdin", "/proc/self/fd/0"],
    ["stdout", "/proc/self/fd/1"],
    ["stderr", "/proc/self/fd/2"],
  ] as const) {
    steps.push(["ln", "-s", target, `${dev}/${name}`]);
  }
  return steps;
}

/** A mount point that a tmpfs laid down earlier (on /tmp, say) may have hidden. */
function ensureDir(path: string): Step {
  return { raw: `mkdir -p ${q(path)} 2>/dev/null || test -d ${q(path)}` };
}

function readOnlyBind(source: string, target: string, optional: boolean): Step[] {
  const bind = ["mount", "--bind", source, target];
  const ro = ["mount", "-o", "remount,bind,ro", target];
  if (!optional) return [bind, ro];
  return [
    { when: target, run: bind },
    { when: target, run: ro },
  ];
}

function script(steps: readonly Step[]): string {
  const lines = ["set -e"];
  for (const s of steps) {
    if (Array.isArray(s)) lines.push(s.map(q).join(" "));
    else if ("raw" in s) lines.push(s.raw);
    else lines.push(`if test -e ${q(s.when)}; then ${s.run.map(q).join(" ")}; fi`);
  }
  return `${lines.join("\n")}\n`;
}

/** Single-quoted for sh. */
export function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
