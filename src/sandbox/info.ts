import type { ProcessRunner } from "../process/run-process.js";
import type { CheckNetwork, SandboxMode } from "./options.js";

/** What a run's sandbox is, as every surface reports it, and the runner it hands back. */

/** What a check's view holds, as the report names it (docs/security.md). */
export interface SandboxView {
  /** The working tree, read-write. */
  tree: string;
  /** System directories, read-only. */
  system: string[];
  /** Toolchains bound read-only into the private home, as `~/…`. */
  toolchains: string[];
  /** `sandbox-read`, read-only. */
  extraReads: string[];
  /** Git directories mounted read-only. */
  gitDirs: number;
  /** Credential files hidden (`gha-creds-*.json`). */
  hiddenCredentials: number;
  network: CheckNetwork;
  /**
   * The uid checks ran as: the gate's own, or the dedicated check user (65532)
   * when the gate is root; 0 only where the tree could not be idmapped (warned).
   */
  uid?: number;
}

/** What the run used, for the log, the JSON report and the check run. */
export interface SandboxInfo {
  mode: SandboxMode;
  /** `namespaces (root)`, `namespaces (sudo -n)`, or `none`. */
  mechanism: "namespaces (root)" | "namespaces (sudo -n)" | "none";
  /**
   * How each check is started (docs/security.md, "One executor per lane"):
   * `lane executor` (one small executor per parallel lane, PID 1 of the
   * lane's namespaces), `per-check namespaces` (a fresh namespace chain per
   * check: no C compiler on the machine); without a boundary `unsandboxed
   * executor` (the same program, forking each check as its own process
   * group) or `gate` (spawned by the gate itself: no C compiler).
   */
  executor?: SandboxExecutor;
  /** Where the caps come from; `none` without a boundary or without cgroups. */
  cgroup: "v1" | "v2" | "none";
  memoryMb: number;
  /** What checks saw, when there was a boundary. */
  view?: SandboxView;
  /** Why there is no boundary (or no caps): shown with the warning. */
  warning?: string;
  /** The boundary was asked for something it cannot give (a `sandbox-read` path missing): no command ran. */
  error?: string;
  /** The environment's names (never values): what `check-env` granted, what checks did not get. */
  checkEnv?: CheckEnvNames;
  /**
   * Where each contract's commands ran (issue 32), as the sentence after
   * "Each contract's commands ran in": a private tree, a private copy, or
   * (a plain folder, nothing committed to judge) the folder itself.
   */
  trees?: string;
}

export interface CheckEnvNames {
  granted: string[];
  withheld: string[];
}

export type SandboxExecutor =
  | "lane executor"
  | "per-check namespaces"
  | "unsandboxed executor"
  | "gate";

export interface Sandbox {
  info: SandboxInfo;
  /** How long the host took to build the checks' view (benches); absent without a boundary. */
  viewMs?: number;
  /** Of `viewMs`, laying a private tree's layer (benches). */
  treeMs?: number;
  /** The host's start (benches): from the gate's spawn to ready, and the host's own share of it. */
  hostMs?: { spawn: number; host?: number };
  /** Runs every command of a check; under `required` without a boundary, refuses. */
  run: ProcessRunner;
  close(): void;
  /**
   * Settles once every process the sandbox started has ended (its host
   * exited, the pid namespace with it), after `close`. Absent without a
   * host: there is no namespace whose end says so.
   */
  ended?: () => Promise<void>;
}
