import { posix } from "node:path";
import type { HostConfig } from "./protocol.js";
import { type HostTools, hostTools, SYSTEM_PATH } from "./system-tools.js";

/**
 * The mount namespace every check sees, as shell steps, run once per run by
 * the host inside its private mount namespace. It is an allowlist
 * (docs/security.md, "What a check sees"): `R` (`stage/root`) starts as an
 * empty tmpfs, and only these are put in it:
 *
 * - the system directories, each bound read-only (merged-`/usr` symlinks
 *   such as `/bin -> usr/bin` recreated as they are);
 * - a minimal `/dev`, fresh tmpfs on `/tmp` and `/dev/shm`, an empty
 *   private `$HOME` owned by the check's uid, and a mount point for the
 *   check's own `/proc`;
 * - read-only binds: toolchains under `$HOME`, the tool cache, the
 *   resolver's file, `sandbox-read`, and the repository's top level when
 *   the working tree lies below it;
 * - the working tree, read-write; inside it (and wherever they are) every
 *   git directory and `.git` file read-only onto itself, sanitized copies of
 *   every git config, credential files hidden, the action's own files
 *   read-only (with every mount inside them: a grant stays a grant).
 *
 * Then `R` itself turns read-only: a check can create nothing outside its
 * private directories. Part one (`stageScript`) binds the system; the host
 * reads `/proc/self/mountinfo` (which mounts the binds brought along) and
 * part two (`layoutScript`) makes each read-only and builds on it. Every
 * program is named by the absolute path `hostTools` resolved.
 */
export function stageScript(
  stage: string,
  system: readonly { path: string; link?: string }[] = [],
  tools: HostTools = hostTools(),
): string {
  const R = `${stage}/root`;
  const steps: Step[] = [
    [tools.mount, "-t", "tmpfs", "-o", "mode=0700", "cg-stage", stage],
    [tools.mkdir, "-p", R, `${stage}/private`],
    [tools.mount, "-t", "tmpfs", "-o", "mode=0755", "cg-root", R],
  ];
  for (const s of system) {
    const at = posix.join(R, s.path);
    if (s.link !== undefined) steps.push([tools.ln, "-s", s.link, at]);
    else steps.push([tools.mkdir, "-p", at], [tools.mount, "--rbind", s.path, at]);
  }
  return script(steps);
}

export interface LayoutInput {
  stage: string;
  config: HostConfig;
  /** Mount points under `stage/root`, from mountinfo, parents first. */
  mountPoints: readonly string[];
  /** Git config files (absolute) whose sanitized copies are `stage/private/git-config-<i>`. */
  gitConfigs: readonly string[];
  /** A private tree (`HostConfig.privateTree`): its upper layer, already laid out by `privateTree.ts`. */
  tree?: PrivateTreeMount;
  /** Idmapped mounts to bind instead of these paths (the tree, git metadata, `writable`): host.ts. */
  idmapped?: IdmappedSources;
  tools?: HostTools;
}

/**
 * Path on disk → the same path as an idmapped mount in the host's stage, its
 * owner shown as the check user (check-user.ts): the view binds from there.
 */
export type IdmappedSources = ReadonlyMap<string, string>;

/** The overlay a private tree is: the tree on disk as its only lower layer, the upper on the host's tmpfs. */
export interface PrivateTreeMount {
  upper: string;
  work: string;
  /** Relative paths the view leaves out: removed through the overlay, which records whiteouts in the upper. */
  hide: readonly string[];
  /** A file listing them as absolute paths in the view, each ended by NUL (private-tree.ts). */
  hideList: string;
}

export function layoutScript({
  stage,
  config,
  mountPoints,
  gitConfigs,
  tree,
  idmapped,
  tools = hostTools(),
}: LayoutInput): string {
  const R = `${stage}/root`;
  const from = (p: string) => idmapped?.get(p) ?? p;
  const P = `${stage}/private`;
  const { mount, mkdir, chown } = tools;
  const at = (p: string) => posix.join(R, p);
  const owner = `uid=${config.uid},gid=${config.gid}`;
  // Under /proc a failure is harmless: every check mounts its own /proc over it.
  const steps: Step[] = mountPoints
    .filter((m) => m !== R)
    .map((m) =>
      m.startsWith(`${R}/proc/`)
        ? { raw: `${q(mount)} -o remount,bind,ro ${q(m)} 2>/dev/null || true` }
        : [mount, "-o", "remount,bind,ro", m],
    );
  steps.push([mkdir, "-p", at("/proc"), at("/tmp"), at("/dev")]);
  steps.push([mount, "-t", "tmpfs", "-o", "mode=1777,nosuid,nodev", "cg-tmp", at("/tmp")]);
  steps.push(...minimalDev(at("/dev"), tools));

  // Parents first, so a later mount point may lie inside an earlier mount.
  type Op = { path: string; steps: Step[] };
  const ops: Op[] = [];
  const home = config.home !== undefined && config.home !== "/" ? config.home : undefined;
  if (home !== undefined) {
    ops.push({
      path: home,
      steps: [
        ensureDir(at(home), tools),
        [mount, "-t", "tmpfs", "-o", `mode=0700,${owner}`, "cg-home", at(home)],
      ],
    });
  }
  for (const b of config.binds ?? []) {
    const pre: Step[] = [];
    // Directories the host makes inside the private home belong to the check's uid.
    if (home !== undefined && b.target.startsWith(`${home}/`)) {
      let dir = home;
      for (const part of posix.relative(home, posix.dirname(b.target)).split("/").filter(Boolean)) {
        dir = posix.join(dir, part);
        pre.push({
          raw: `${q(mkdir)} -p ${q(at(dir))} && ${q(chown)} ${config.uid}:${config.gid} ${q(at(dir))}`,
        });
      }
    }
    pre.push({
      raw: `if test -d ${q(b.source)}; then ${q(mkdir)} -p ${q(at(b.target))} 2>/dev/null || test -d ${q(at(b.target))}; else ${q(mkdir)} -p ${q(at(posix.dirname(b.target)))} 2>/dev/null; test -e ${q(at(b.target))} || : > ${q(at(b.target))}; fi`,
    });
    ops.push({
      path: b.target,
      steps: [
        ...pre,
        [mount, "--bind", from(b.source), at(b.target)],
        [mount, "-o", "remount,bind,ro", at(b.target)],
      ],
    });
  }
  ops.push({
    path: config.root,
    steps: [
      { raw: `${q(mkdir)} -p ${q(at(config.root))} 2>/dev/null || test -d ${q(at(config.root))}` },
    ],
  });
  ops.sort((a, b) => depth(a.path) - depth(b.path));
  for (const op of ops) steps.push(...op.steps);
  for (const d of config.emptyDirs) {
    steps.push({
      when: at(d),
      run: [mount, "-t", "tmpfs", "-o", `mode=0700,${owner}`, "cg-empty", at(d)],
    });
  }
  if (tree === undefined) steps.push([mount, "--bind", from(config.root), at(config.root)]);
  else {
    // The tree on disk is the read-only lower layer: whatever a check writes lands in the
    // upper, on this host's tmpfs, and goes with it. Right after the mount, before anything
    // is mounted inside it, the left-out paths go: every directory above them is the
    // upper's own (privateTree.ts made them), so no link in the tree steers the removal.
    steps.push([
      mount,
      "-t",
      "overlay",
      "-o",
      `lowerdir=${from(config.root)},upperdir=${tree.upper},workdir=${tree.work}`,
      "cg-tree",
      at(config.root),
    ]);
    // From a NUL-separated list file (`hideList`), never on the command line: the whole script
    // is one argument, which the kernel caps at 128 KiB.
    if (tree.hide.length > 0) {
      steps.push({
        raw: `${q(tools.xargs)} -0 -r ${q(tools.rm)} -rf -- < ${q(tree.hideList)}`,
      });
    }
  }
  for (const w of config.writable ?? []) {
    steps.push(ensureDir(at(w), tools), [mount, "--bind", from(w), at(w)]);
  }
  for (const d of config.hiddenDirs) {
    steps.push({
      when: at(d),
      run: [mount, "-t", "tmpfs", "-o", "ro,mode=0555", "cg-hidden", at(d)],
    });
  }
  // Git metadata: read-only on the directories themselves, wherever they are.
  for (const d of config.gitDirs ?? []) {
    steps.push(ensureDir(at(d), tools), ...readOnlyBind(from(d), at(d), false, mount));
  }
  for (const f of config.gitFiles ?? []) steps.push(...readOnlyBind(from(f), at(f), true, mount));
  steps.push({ raw: `: > ${q(`${P}/empty`)}` });
  for (const f of config.hiddenFiles) steps.push(...readOnlyBind(`${P}/empty`, at(f), true, mount));
  for (const [i, file] of gitConfigs.entries()) {
    // Optional: a config hidden by an earlier layer (under /tmp, say) is unreadable anyway.
    steps.push(...readOnlyBind(`${P}/git-config-${i}`, at(file), true, mount));
  }
  // Recursive: a protected path turns read-only as the check would see it, every
  // mount inside it kept as it is (a `sandbox-read` grant, git directories
  // read-only, sanitized configs, hidden credential files). A plain bind would
  // lay the bare directory over them: the grant gone, the real configs back.
  for (const p of config.readOnly) {
    steps.push(
      { when: at(p), run: [mount, "--rbind", at(p), at(p)] },
      { when: at(p), run: [mount, "-o", "remount,bind,ro", at(p)] },
    );
  }
  // Last: nothing outside the private directories can be created any more.
  steps.push([mount, "-o", "remount,bind,ro", R]);
  return script(steps);
}

type Step = string[] | { when: string; run: string[] } | { raw: string };

function depth(p: string): number {
  return p.split("/").filter(Boolean).length;
}

/** The devices programs expect, as bubblewrap's `--dev` gives them, and nothing else. */
const DEVICES = ["null", "zero", "full", "random", "urandom", "tty"];

function minimalDev(dev: string, tools: HostTools): Step[] {
  const { mount, mkdir, ln } = tools;
  const steps: Step[] = [[mount, "-t", "tmpfs", "-o", "mode=0755,nosuid,noexec", "cg-dev", dev]];
  for (const d of DEVICES) {
    steps.push({ raw: `: > ${q(`${dev}/${d}`)}` }, [mount, "--bind", `/dev/${d}`, `${dev}/${d}`]);
  }
  steps.push([mkdir, `${dev}/shm`, `${dev}/pts`]);
  steps.push([mount, "-t", "tmpfs", "-o", "mode=1777,nosuid,nodev", "cg-shm", `${dev}/shm`]);
  // A private pty instance for tools that need a terminal; none is fine too.
  steps.push({
    raw: `${q(mount)} -t devpts -o newinstance,ptmxmode=0666,mode=0620 cg-pts ${q(`${dev}/pts`)} 2>/dev/null && ${q(ln)} -s pts/ptmx ${q(`${dev}/ptmx`)} || true`,
  });
  for (const [name, target] of [
    ["fd", "/proc/self/fd"],
    ["stdin", "/proc/self/fd/0"],
    ["stdout", "/proc/self/fd/1"],
    ["stderr", "/proc/self/fd/2"],
  ] as const) {
    steps.push([ln, "-s", target, `${dev}/${name}`]);
  }
  return steps;
}

/** A mount point inside a tmpfs laid down earlier (R, /tmp, the home). */
function ensureDir(path: string, tools: HostTools): Step {
  return { raw: `${q(tools.mkdir)} -p ${q(path)} 2>/dev/null || test -d ${q(path)}` };
}

function readOnlyBind(source: string, target: string, optional: boolean, mount: string): Step[] {
  const bind = [mount, "--bind", source, target];
  const ro = [mount, "-o", "remount,bind,ro", target];
  if (!optional) return [bind, ro];
  return [
    { when: target, run: bind },
    { when: target, run: ro },
  ];
}

function script(steps: readonly Step[]): string {
  // The PATH, too, is the system's: `test` and `:` are built-ins, and nothing else runs by name.
  const lines = ["set -e", `PATH=${SYSTEM_PATH}`];
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
