import type { Check } from "../model/contract.js";
import type { EnvHintContext } from "../process/env-hints.js";
import type { ProcessRunner } from "../process/run-process.js";
import type { Resolved } from "./files/confine.js";
import type { FileList } from "./files/glob.js";

/**
 * The seed's outcome vocabulary: a check that ran and passed, ran and failed
 * (criteria unmet / evidence missing), or could not run (`partial`, execution
 * error). A check that could not run is never a pass.
 */
export type CheckVerdict = "pass" | "fail" | "partial";

export type FailureReason =
  | "verification-criteria-unmet"
  | "verification-evidence-missing"
  | "verification-execution-error";

export interface CheckResult {
  result: CheckVerdict;
  /** Set for `fail` and `partial`. */
  failureReason?: FailureReason;
  /** One line a reader acts on: "exit 7 (nonzero), marker present", "no file matched src/**\/*.ts". */
  reason: string;
  /** More context: offending file:line list, last output lines. Plain text, may be multi-line. */
  detail?: string;
  durationMs: number;
  /** Process checks only. */
  exitCode?: number;
  /** Process checks only: the last lines of output, for reports and write-back. */
  outputTail?: string;
}

/** Options every executor shares for one run. */
export interface RunSettings {
  /** Absolute repository root; every contract path is relative to it. */
  root: string;
  /** Default oracle timeout (`--timeout-seconds`), milliseconds. */
  oracleTimeoutMs: number;
  /** Bound for one regex operation (grep over the tree, a stdout match), milliseconds. */
  regexTimeoutMs: number;
  /** Environment for executed commands: the built one (process/env.ts), never the job's. */
  env: NodeJS.ProcessEnv;
  /** What the environment withheld, for the hint on a failing check; none: no hint. */
  envHints?: EnvHintContext;
  /** Aborted on Ctrl-C: executors kill their process trees and settle. */
  signal: AbortSignal;
}

/** One executor per check type, all with this signature. */
export type Executor<C extends Check = Check> = (
  check: C,
  ctx: ExecutionContext,
) => Promise<CheckResult>;

/** What an executor may use: settings plus the run's shared services. */
export interface ExecutionContext extends RunSettings {
  files: FileService;
  /** Where file checks and citations look paths up: the head commit, or the working tree. */
  tree: RepoTree;
  /** Bounds concurrent processes (`--max-parallel`). */
  processSlot: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Where command checks run: the run's sandbox; plain `runProcess` when absent. */
  runProcess?: ProcessRunner;
}

/**
 * The tree the static checks read (issue 32): the head commit's objects
 * where the gate judges a commit, the working tree otherwise (a plain
 * folder, or a developer's uncommitted edits). Paths it hands out (`abs`)
 * are the keys the file service reads.
 */
export interface RepoTree {
  readonly source: { kind: "commit"; commit: string } | { kind: "working-tree" };
  /** What a repo-relative path is, symlinks followed only while they stay inside. */
  resolve(path: string): Promise<Resolved>;
  /** The regular files a `grep-match` path names: the file itself, or a glob's matches. */
  list(path: string): Promise<FileList>;
}

/** Where the file service reads file bytes from when they are not on disk: a commit's blobs. */
export interface BlobSource {
  /** Each file's size in bytes, by key. */
  sizes(): Promise<ReadonlyMap<string, number>>;
  /** The files `keys` name, in one batch: all their bytes, and where each lies in them. */
  read(keys: readonly string[]): Promise<{ data: Uint8Array; spans: [number, number][] }>;
}

/**
 * File reads and regex work for file checks, behind one interface. The
 * implementation reads every file at most once per run and runs every
 * contract-supplied regex under a time bound, so a runaway pattern becomes an
 * execution error instead of a hung gate.
 */
export interface FileService {
  /** Test whether `text` matches `source`/`flags` within the regex time bound. */
  matchText(text: string, source: string, flags: string): Promise<RegexOutcome<boolean>>;
  /**
   * The lines of `files` (absolute paths of regular files, scanned in the
   * order given) that match `source` (no flags), stopping once `limit` lines
   * matched. One time bound covers the regex work of the whole call.
   */
  grep(files: readonly string[], source: string, limit: number): Promise<RegexOutcome<GrepResult>>;
  /** Whether the file's text contains `needle` (an error when it cannot be read). */
  contains(file: string, needle: string): Promise<RegexOutcome<boolean>>;
  /** Line `line` (1-based, without its line ending) of a file, and how many lines it has. */
  readLine(file: string, line: number): Promise<RegexOutcome<LineRead>>;
  /** Counters for tests and diagnostics. */
  stats(): FileServiceStats;
  /** Forget cached file contents (between waves: commands may have changed files). */
  invalidate(): Promise<void>;
  close(): Promise<void>;
}

export interface GrepHit {
  /** As given to `grep`. */
  file: string;
  /** 1-based. */
  line: number;
}

export interface GrepResult {
  /** In file order, then line order; at most `limit`. */
  hits: GrepHit[];
  /** Files read and searched (scanning stops early once `limit` lines matched). */
  scanned: number;
  /** Files that could not be read: a grep that skipped them proves no absence. */
  unreadable: { file: string; error: string }[];
}

export interface LineRead {
  lineCount: number;
  /** Absent when `line` is past the end of the file. */
  text?: string;
}

export interface FileServiceStats {
  /** Files read from disk; a cache hit does not count. */
  diskReads: number;
  requests: number;
  /** Workers stopped because a regex ran over its time bound. */
  regexTimeouts: number;
}

/** What a file-service call yields; `error` is one line a report can show (a read error too). */
export type RegexOutcome<T> = { ok: true; value: T } | { ok: false; error: string };
