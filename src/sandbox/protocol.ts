import { z } from "zod";

/**
 * The pipe between the gate and its sandbox host: one JSON object per line in
 * each direction. The host never trusts anything but this pipe, and ends every
 * boundary when the pipe closes (the gate exited, or was SIGKILLed).
 */

/** Given once, as the host's last argument. Paths are absolute and real. */
export const HostConfigSchema = z.object({
  /** The working tree: the one directory checks may change. */
  root: z.string(),
  /**
   * Set: the tree is a private overlay (docs/security.md, "A private tree"):
   * checks see `root` and change only their own upper layer, thrown away with
   * the run, so the tree on disk is never written. `layer`: a tree-layer file
   * (tree-layer.ts) laid on top first: files replaced, paths left out.
   */
  privateTree: z.object({ layer: z.string().optional() }).optional(),
  /** Directories outside the tree checks may write, bound at their own paths (a proof's results). */
  writable: z.array(z.string()).optional(),
  /**
   * The uid/gid checks run as (check-user.ts): the gate's own, so files they
   * write stay the runner's; or, when the gate is root, the dedicated check
   * user with `idmap` set.
   */
  uid: z.number().int().nonnegative(),
  gid: z.number().int().nonnegative(),
  /** Show the tree, its git metadata and `writable` through idmapped mounts, each owner as `uid`/`gid`. */
  idmap: z.boolean().optional(),
  /** A private, empty home at this path: writable, thrown away with the run. */
  home: z.string().optional(),
  /** Replaced by empty writable tmpfs (e.g. RUNNER_TEMP). */
  emptyDirs: z.array(z.string()),
  /** Replaced by empty read-only tmpfs: the runner's file-command directories. */
  hiddenDirs: z.array(z.string()),
  /** Files replaced by an empty read-only file (file-command files outside hidden dirs). */
  hiddenFiles: z.array(z.string()),
  /** Kept read-only even inside the working tree (the action's own files). */
  readOnly: z.array(z.string()),
  /**
   * The allowlisted view (docs/security.md): top-level system paths bound
   * read-only (symlinks recreated); nothing else of the machine exists.
   */
  system: z.array(z.string()).optional(),
  /** Read-only binds: toolchains into the private home, the tool cache, `sandbox-read`; `owned`: idmapped as the tree. */
  binds: z
    .array(z.object({ source: z.string(), target: z.string(), owned: z.boolean().optional() }))
    .optional(),
  /** Git directories mounted read-only onto themselves. */
  gitDirs: z.array(z.string()).optional(),
  /** `.git` files mounted read-only onto themselves. */
  gitFiles: z.array(z.string()).optional(),
  /** Git config files checks see sanitized copies of. */
  gitConfigs: z.array(z.string()).optional(),
  /** The runner's `~/.gitconfig`, already sanitized (read by the gate, as the runner's user): it starts the private home. */
  homeGitconfig: z.string().optional(),
  /**
   * `lane` (default): one executor per parallel lane when the system has a C
   * compiler; `per-check`: a fresh namespace chain per check (tests, and the fallback).
   */
  executor: z.enum(["lane", "per-check"]).optional(),
  /** `none`: every check in a network namespace of its own, loopback only. */
  network: z.enum(["host", "none"]).optional(),
  /** 0 = no memory cap. */
  memoryMb: z.number().int().nonnegative(),
  /** 0 = no process cap. */
  pidsMax: z.number().int().nonnegative(),
});
export type HostConfig = z.infer<typeof HostConfigSchema>;

export const HostRequestSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("run"),
    id: z.number().int(),
    file: z.string(),
    args: z.array(z.string()),
    cwd: z.string(),
    env: z.record(z.string(), z.string()),
  }),
  z.object({ op: z.literal("kill"), id: z.number().int() }),
]);
export type HostRequest = z.infer<typeof HostRequestSchema>;

/** Which cap a check ran into; the host reads it from the check's cgroup. */
export const LimitSchema = z.enum(["memory", "pids"]);
export type Limit = z.infer<typeof LimitSchema>;

export const HostEventSchema = z.discriminatedUnion("ev", [
  z.object({
    ev: z.literal("ready"),
    /** `v1`, `v2` or `none`: where the caps come from. */
    cgroup: z.enum(["v1", "v2", "none"]),
    /** Set when caps were asked for but could not be set up. */
    cgroupError: z.string().optional(),
    /** How checks are started: one executor per lane, or a namespace chain per check. */
    executor: z.enum(["lane", "per-check"]).optional(),
    /** Why there is no lane executor (no C compiler): checks still run, per check. */
    executorError: z.string().optional(),
    /** How long the checks' view took to build, a private tree's layer included (benches). */
    viewMs: z.number().nonnegative().optional(),
    /** Of `viewMs`, how long a private tree's layer took to lay into the upper (benches). */
    treeMs: z.number().nonnegative().optional(),
    /** The uid checks run as (the host's word: it may differ from the config's, check-user.ts). */
    uid: z.number().int().nonnegative().optional(),
    /** Why checks do not run as the dedicated user asked for (no idmapped mount of the tree). */
    uidError: z.string().optional(),
    /** How long the host took from its start to ready (benches). */
    startMs: z.number().nonnegative().optional(),
  }),
  z.object({ ev: z.literal("fatal"), message: z.string() }),
  z.object({
    ev: z.literal("out"),
    id: z.number().int(),
    fd: z.union([z.literal(1), z.literal(2)]),
    data: z.string(),
  }),
  z.object({
    ev: z.literal("spawn-error"),
    id: z.number().int(),
    code: z.string(),
    message: z.string(),
  }),
  z.object({
    ev: z.literal("exit"),
    id: z.number().int(),
    code: z.number().int().nullable(),
    signal: z.string().nullable(),
    limits: z.array(LimitSchema),
    /** The boundary itself failed (cgroup join, namespace setup): never a verdict. */
    boundaryError: z.string().optional(),
  }),
]);
export type HostEvent = z.infer<typeof HostEventSchema>;

/** The argument that turns an entry script into the sandbox host. */
export const SANDBOX_HOST_ARG = "--contract-gate-sandbox-host";
