/** How a run asks for its sandbox: the mode, the caps, what checks may see and change. */

/** `auto`: the boundary when one is available; `required`: no command runs without it; `off`. */
export type SandboxMode = "auto" | "required" | "off";
export const SANDBOX_MODES = ["auto", "required", "off"] as const;

/** Default per-check memory cap: generous for builds, small enough that a bomb cannot starve the runner. */
export const DEFAULT_CHECK_MEMORY_MB = 4096;
/** Per-check process (task) cap: room for parallel test runners and their threads. */
export const DEFAULT_CHECK_PIDS = 4096;

/** `host`: the runner's network (service containers on localhost); `none`: loopback only. */
export type CheckNetwork = "host" | "none";
export const CHECK_NETWORKS = ["host", "none"] as const;
/** Network by grant: a check gets loopback only unless the maintainer sets `check-network: host`. */
export const DEFAULT_CHECK_NETWORK: CheckNetwork = "none";

export interface SandboxOptions {
  mode: SandboxMode;
  /** The working tree: the one directory checks may change. */
  root: string;
  /** The gate's environment (file-command paths, RUNNER_TEMP, HOME). */
  env: NodeJS.ProcessEnv;
  /** How to start the host: `[node, entry script, SANDBOX_HOST_ARG]`. */
  hostCommand: readonly string[] | undefined;
  memoryMb: number;
  pidsMax?: number;
  /** Paths kept read-only even inside the working tree: the action's own files. */
  protect?: readonly string[];
  /** Start the host through this `sudo` (default: `sudo`, and only when not root). */
  sudo?: string;
  /** Run checks as this user rather than the gate's own (tests: the non-root path on a root machine). */
  user?: { uid: number; gid: number };
  /** `sandbox-read`: extra paths checks see read-only (absolute or `~/…`; each must exist). */
  extraReads?: readonly string[];
  /** Default `none` (DEFAULT_CHECK_NETWORK). */
  network?: CheckNetwork;
  /** `per-check`: never an executor (tests of the fallbacks). Default: executors when possible. */
  executor?: "lane" | "per-check";
  /**
   * Show the tree as a private overlay (docs/security.md, "A private tree"):
   * checks change only their own copy-on-write layer, the tree on disk is
   * never written; `layer` (a tree-layer file) is laid on top first. Only
   * where `privateTreeFits(root)`.
   */
  privateTree?: { layer?: string };
  /** Directories outside the tree checks may write (a proof's results), each existing. */
  writable?: readonly string[];
}

/**
 * Whether a tree at `root` can be a private overlay: the overlay's options
 * are one comma- and colon-separated string, so a path holding either (or a
 * double quote, a backslash, or a control character) cannot be named in it. Such trees are copied instead.
 */
export function privateTreeFits(root: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return !/[,:"\\\x00-\x1f]/.test(root);
}
