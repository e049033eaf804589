import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Limit } from "./protocol.js";

/**
 * Per-check cgroups: a memory cap and a process cap that a check cannot
 * leave (the cgroup tree is read-only inside the boundary) and that bind
 * root too, unlike rlimits. cgroup v2 (GitHub-hosted runners) and v1
 * (memory and pids hierarchies, as on this project's machines) both work.
 */
export interface CheckGroup {
  /** `cgroup.procs` files the check's first process writes itself into before anything else runs. */
  procs: string[];
  /** The run's parent group of each of `procs`, in the same order (lanes join below them). */
  parents: string[];
  /** Which caps the check ran into; call once it has ended. */
  limitsHit(): Limit[];
  /**
   * Whether the ended check left the group as a new one: no task, no cap
   * hit (every counter still 0) and no memory it cannot give back (tmpfs
   * pages stay charged to the group that wrote them, and there is no swap).
   */
  clean(): boolean;
  /** Whether every directory is gone. */
  remove(): boolean;
}

export interface CgroupHost {
  version: "v1" | "v2";
  /** The run's parent group(s): v2 one, v1 memory then pids. */
  parents: string[];
  create(id: number): CheckGroup;
  close(): void;
}

/**
 * Hands each check a group that holds nothing but it. Creating and removing
 * a cgroup costs milliseconds of kernel time each (memory and pids, both
 * ways: more than the check's own spawn), so a group a check left clean
 * goes to the next check; one that is not clean is removed, never reused.
 * At most one check is ever in a group, and its caps and counters start
 * from zero as in a new one.
 */
export class GroupPool {
  private readonly idle: CheckGroup[] = [];
  /** Every group not yet removed: idle, in use, or busy when removal was tried. */
  private readonly live = new Set<CheckGroup>();
  private nextName = 1;

  constructor(private readonly cgroups: CgroupHost) {}

  acquire(): CheckGroup {
    const reused = this.idle.pop();
    if (reused) return reused;
    const group = this.cgroups.create(this.nextName++);
    this.live.add(group);
    return group;
  }

  /** Call once the check has ended (its `limitsHit` read). */
  release(group: CheckGroup): void {
    if (group.clean()) this.idle.push(group);
    else if (group.remove()) this.live.delete(group);
  }

  /** Removes every group it can; true when none is left. */
  sweep(): boolean {
    this.idle.length = 0;
    for (const g of this.live) if (g.remove()) this.live.delete(g);
    return this.live.size === 0;
  }
}

/**
 * Sets up the run's parent group(s), or explains why caps are unavailable.
 * `base` is where cgroupfs is mounted (tests use a plain directory for v2,
 * which this project's v1 machines cannot mount).
 */
export function openCgroups(
  memoryMb: number,
  pidsMax: number,
  base = "/sys/fs/cgroup",
): { ok: true; host: CgroupHost } | { ok: false; error: string } {
  try {
    if (existsSync(join(base, "cgroup.controllers"))) {
      return { ok: true, host: v2(base, memoryMb, pidsMax) };
    }
    if (existsSync(join(base, "memory")) && existsSync(join(base, "pids"))) {
      return { ok: true, host: v1(base, memoryMb, pidsMax) };
    }
    return { ok: false, error: "no cgroup v2 and no cgroup v1 memory/pids hierarchy is mounted" };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** The host is PID 1 of its namespace: a random name keeps concurrent runs apart. */
const name = () => `contract-gate-${randomBytes(6).toString("hex")}`;

function v2(base: string, memoryMb: number, pidsMax: number): CgroupHost {
  // Under the root: a service's own group holds processes, and v2 forbids
  // enabling controllers for children of a group that has processes.
  const parent = join(base, name());
  mkdirSync(parent);
  writeFileSync(join(parent, "cgroup.subtree_control"), "+memory +pids");
  return {
    version: "v2",
    parents: [parent],
    create(id) {
      const dir = join(parent, `check-${id}`);
      mkdirSync(dir);
      if (memoryMb > 0) {
        writeFileSync(join(dir, "memory.max"), String(memoryMb * 1024 * 1024));
        tryWrite(join(dir, "memory.swap.max"), "0");
      }
      if (pidsMax > 0) writeFileSync(join(dir, "pids.max"), String(pidsMax));
      const group: CheckGroup = {
        procs: [join(dir, "cgroup.procs")],
        parents: [parent],
        limitsHit: () => [
          ...(counter(join(dir, "memory.events"), "oom_kill") > 0 ? (["memory"] as const) : []),
          ...(counter(join(dir, "pids.events"), "max") > 0 ? (["pids"] as const) : []),
        ],
        clean: () =>
          empty(join(dir, "cgroup.procs")) &&
          group.limitsHit().length === 0 &&
          counter(join(dir, "memory.stat"), "shmem") === 0,
        remove: () => removeDir(dir),
      };
      return group;
    },
    close: () => {
      removeDir(parent);
    },
  };
}

function v1(base: string, memoryMb: number, pidsMax: number): CgroupHost {
  const run = name();
  const memParent = join(base, "memory", ownPath("memory"), run);
  const pidsParent = join(base, "pids", ownPath("pids"), run);
  mkdirSync(memParent);
  mkdirSync(pidsParent);
  return {
    version: "v1",
    parents: [memParent, pidsParent],
    create(id) {
      const mem = join(memParent, `check-${id}`);
      const pids = join(pidsParent, `check-${id}`);
      mkdirSync(mem);
      mkdirSync(pids);
      if (memoryMb > 0) {
        const bytes = String(memoryMb * 1024 * 1024);
        writeFileSync(join(mem, "memory.limit_in_bytes"), bytes);
        tryWrite(join(mem, "memory.memsw.limit_in_bytes"), bytes);
      }
      if (pidsMax > 0) writeFileSync(join(pids, "pids.max"), String(pidsMax));
      const group: CheckGroup = {
        procs: [join(mem, "cgroup.procs"), join(pids, "cgroup.procs")],
        parents: [memParent, pidsParent],
        limitsHit: () => {
          const oom = join(mem, "memory.oom_control");
          // Kernels before 4.13 have no oom_kill counter: any hit of the cap counts.
          const oomKills = readFileSafe(oom).includes("oom_kill ")
            ? counter(oom, "oom_kill")
            : Number(readFileSafe(join(mem, "memory.failcnt")) || 0);
          return [
            ...(oomKills > 0 ? (["memory"] as const) : []),
            ...(counter(join(pids, "pids.events"), "max") > 0 ? (["pids"] as const) : []),
          ];
        },
        clean: () =>
          group.procs.every(empty) &&
          group.limitsHit().length === 0 &&
          counter(join(mem, "memory.stat"), "shmem") === 0,
        remove: () => [removeDir(mem), removeDir(pids)].every(Boolean),
      };
      return group;
    },
    close: () => {
      removeDir(memParent);
      removeDir(pidsParent);
    },
  };
}

/** This process's path in a v1 hierarchy (`4:memory:/a/b`), from /proc/self/cgroup. */
function ownPath(controller: string): string {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers = "", path = "/"] = line.split(":");
    if (controllers.split(",").includes(controller)) return path;
  }
  return "/";
}

function counter(file: string, key: string): number {
  const m = new RegExp(`^${key} (\\d+)$`, "m").exec(readFileSafe(file));
  return m ? Number(m[1]) : 0;
}

/** No task left in the group (one that cannot be read is not known to be empty). */
function empty(procs: string): boolean {
  try {
    return readFileSync(procs, "utf8").trim() === "";
  } catch {
    return false;
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function tryWrite(file: string, value: string): void {
  try {
    writeFileSync(file, value);
  } catch {
    // Optional knob (no swap accounting): the cap itself is set.
  }
}

/** Whether `dir` is gone. Busy (tasks still exiting): the host retries at close. */
function removeDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}
