import type { ProblemCode } from "../model/problem-codes.js";
import { problem } from "../model/problems.js";
import { weakestTrees } from "../run/contract-trees.js";
import type { SandboxInfo } from "../sandbox/index.js";
import type { ContractOutcome } from "../verdict.js";
import { scopeDigest } from "./assign.js";
import { type ShardReport, type ShardReportRead, sandboxOf, shardFileName } from "./report.js";

/** One file found where the shard reports were downloaded. */
export interface FoundReport {
  /** Its name relative to the reports' directory (what every message names). */
  file: string;
  read: ShardReportRead;
}

/** What the merge job itself computed: every shard must agree with it. */
export interface MergeExpectation {
  /** The scope, recomputed from the merge job's own checkout. */
  scope: readonly string[];
  headSha: string;
  gateVersion: string;
  /** This workflow run's id (`GITHUB_RUN_ID`); null outside Actions. */
  runId: string | null;
}

/** The merged run: the shards' outcomes in scope order, after one row per thing wrong. */
export interface MergedRun {
  /** Rows for what is wrong with the shards first (each fails the gate), then every contract's outcome. */
  outcomes: ContractOutcome[];
  /** How many rows say what is wrong with the shards (0: the merge is complete). */
  failures: number;
  /** The shards' sandbox: the weakest one any shard reported. */
  sandbox: SandboxInfo | undefined;
  /** The shard count the reports agree on (undefined when there are none). */
  total: number | undefined;
  /** The report used for each index, in index order. */
  used: { index: number; file: string; runAttempt: number | null }[];
}

interface Complaint {
  path: string;
  code: ProblemCode;
  message: string;
}

/**
 * Merge the shard reports into one run, against what the merge job computed
 * itself (pure). Fails closed: a report that is invalid or disagrees with
 * this run (commit, gate version, scope, workflow run, shard count) is a
 * failing row and none of its results are used; every index 1..n needs a
 * report (several for one index: the newest run attempt wins, two of the
 * same attempt fail); the shards' contracts must be exactly the scope, each
 * in one shard. The verdict is not taken from any report: it is recomputed
 * from the outcomes by whoever publishes them.
 */
export function mergeShardReports(
  found: readonly FoundReport[],
  expect: MergeExpectation,
  dirLabel: string,
): MergedRun {
  const complaints: Complaint[] = [];
  const say = (path: string, code: ProblemCode, message: string) =>
    complaints.push({ path, code, message });
  const digest = scopeDigest(expect.scope);
  const sorted = [...found].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

  const valid: { file: string; report: ShardReport }[] = [];
  for (const f of sorted) {
    if (!f.read.ok) {
      say(
        f.file,
        "shard-report-invalid",
        `${f.file}: ${f.read.why}; re-run the shard that wrote it`,
      );
      continue;
    }
    const wrong = disagreement(f.read.report, expect, digest);
    if (wrong) {
      const { index, total } = f.read.report.shard;
      say(f.file, "shard-report-mismatch", `${f.file}: shard ${index} of ${total} ${wrong}`);
      continue;
    }
    valid.push({ file: f.file, report: f.read.report });
  }

  // The shard count: what most valid reports say (ties: the larger), the others disagree.
  const votes = new Map<number, number>();
  for (const v of valid)
    votes.set(v.report.shard.total, (votes.get(v.report.shard.total) ?? 0) + 1);
  const total = [...votes].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];

  const byIndex = new Map<number, { file: string; report: ShardReport }[]>();
  for (const v of valid) {
    const { index, total: n } = v.report.shard;
    if (n !== total) {
      say(
        v.file,
        "shard-report-mismatch",
        `${v.file}: shard ${index} of ${n}, but the other reports split the scope ${total} ways; every leg must use one shard count`,
      );
      continue;
    }
    byIndex.set(index, [...(byIndex.get(index) ?? []), v]);
  }

  if (total === undefined && complaints.length === 0) {
    say(
      dirLabel,
      "shard-report-missing",
      `no shard report in ${dirLabel} (looked for contract-gate-shard-<i>-of-<n>.json): every shard's job failed or was cancelled before uploading, or the download step looked elsewhere`,
    );
  }

  const used: MergedRun["used"] = [];
  const chosen: { file: string; report: ShardReport }[] = [];
  for (let i = 1; total !== undefined && i <= total; i++) {
    const claims = byIndex.get(i) ?? [];
    if (claims.length === 0) {
      say(
        shardFileName({ index: i, total }),
        "shard-report-missing",
        `shard ${i} of ${total} missing: no ${shardFileName({ index: i, total })} in ${dirLabel}; its job failed or was cancelled before uploading, re-run it`,
      );
      continue;
    }
    // A re-run of a matrix leg: the newest attempt is what the leg says now.
    const newest = Math.max(...claims.map((c) => c.report.shard.runAttempt ?? 0));
    const top = claims.filter((c) => (c.report.shard.runAttempt ?? 0) === newest);
    if (top.length > 1) {
      say(
        top[0]!.file,
        "shard-report-duplicate",
        `shard ${i} of ${total}: ${top.length} reports of the same run attempt (${top.map((t) => t.file).join(", ")}); none is used: give each leg its own artifact name`,
      );
      continue;
    }
    chosen.push(top[0]!);
    used.push({ index: i, file: top[0]!.file, runAttempt: top[0]!.report.shard.runAttempt });
  }

  const inScope = new Set(expect.scope);
  const owner = new Map<string, string>();
  const results = new Map<string, ContractOutcome>();
  for (const { file, report } of chosen) {
    for (const outcome of report.outcomes) {
      const where = `shard ${report.shard.index} of ${report.shard.total} (${file})`;
      if (!inScope.has(outcome.path)) {
        say(
          file,
          "shard-scope-mismatch",
          `${where} reports ${outcome.path}, which is not in this merge's scope`,
        );
      } else if (owner.has(outcome.path)) {
        say(
          outcome.path,
          "shard-scope-mismatch",
          `${outcome.path} is reported by ${owner.get(outcome.path)} and by ${where}: a contract runs in one shard`,
        );
        results.delete(outcome.path);
      } else {
        owner.set(outcome.path, where);
        results.set(outcome.path, outcome);
      }
    }
  }
  // A contract no shard ran is not a pass; with a shard missing or refused, that shard's row says why.
  if (total !== undefined && chosen.length === total) {
    for (const path of expect.scope) {
      if (!owner.has(path)) {
        say(
          path,
          "shard-scope-mismatch",
          `${path} is in scope but in no shard's report: it never ran`,
        );
      }
    }
  }

  const rows = failureRows(complaints);
  const outcomes = [
    ...rows,
    ...expect.scope.flatMap((p) => {
      const r = results.get(p);
      return r ? [r] : [];
    }),
  ];
  return {
    outcomes,
    failures: rows.length,
    sandbox: weakestSandbox(chosen.map((c) => sandboxOf(c.report))),
    total,
    used,
  };
}

/** What in a report disagrees with this merge, as the rest of a sentence; undefined when nothing. */
function disagreement(
  report: ShardReport,
  expect: MergeExpectation,
  digest: string,
): string | undefined {
  const s = report.shard;
  if (s.headSha !== expect.headSha) {
    return `gated commit ${s.headSha.slice(0, 12)}, but this merge gates ${expect.headSha.slice(0, 12)}: a report from another commit; re-run the workflow`;
  }
  if (s.gateVersion !== expect.gateVersion) {
    return `was written by contract-gate ${s.gateVersion}, but this merge is ${expect.gateVersion}: every leg must run the same gate version (one ref for both jobs)`;
  }
  if (expect.runId !== null && s.runId !== expect.runId) {
    return `comes from workflow run ${s.runId ?? "(none)"}, not this run ${expect.runId}: download only this run's artifacts`;
  }
  if (s.scopeDigest !== digest) {
    return "saw other contracts in scope than this checkout (its scope digest differs): every leg must check out the same commit with the same contracts and scope inputs";
  }
  return undefined;
}

/** One failing row per path, its complaints as error problems. */
function failureRows(complaints: readonly Complaint[]): ContractOutcome[] {
  const byPath = new Map<string, Complaint[]>();
  for (const c of complaints) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
  return [...byPath].map(([path, cs]) => ({
    path,
    kind: "oracle-contract",
    verdict: "invalid",
    problems: cs.map((c) => problem(c.code, { path, line: 1, column: 1 }, c.message)),
    criteria: [],
  }));
}

/**
 * Fail-closed reading of several shards' sandboxes: the first that ran
 * nothing, else unbounded, else warned, else the first; with the weakest
 * trees any of them reported (issue 32), whichever leg that was: a leg whose
 * commands shared a folder makes the whole run's isolation that.
 */
function weakestSandbox(infos: readonly (SandboxInfo | undefined)[]): SandboxInfo | undefined {
  const present = infos.filter((s): s is SandboxInfo => s !== undefined);
  const weakest = weakestBoundary(present);
  if (weakest === undefined) return undefined;
  const trees = weakestTrees(present.map((s) => s.trees));
  return trees === undefined ? weakest : { ...weakest, trees };
}

function weakestBoundary(present: readonly SandboxInfo[]): SandboxInfo | undefined {
  const rank = (s: SandboxInfo) =>
    s.error !== undefined
      ? 0
      : s.mechanism === "none"
        ? 1
        : s.mode === "off"
          ? 2
          : s.warning
            ? 3
            : 4;
  return [...present].sort((a, b) => rank(a) - rank(b))[0];
}
