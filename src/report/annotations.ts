import type { Annotation } from "../github/types.js";
import type { ContractOutcome } from "../verdict.js";

/** GitHub's limits: a title of 255 characters, a message of 64 KB. */
const TITLE_MAX = 255;
const MESSAGE_MAX = 64 * 1024 - 1;

function cap(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * One annotation per contract problem and per blocking criterion (failure),
 * warnings for warnings and notices for manual criteria, at the contract's
 * file and line. `prefix` turns working-directory paths into repository paths.
 * Pure; failures come first so a capped list keeps what blocks.
 */
export function annotationsFor(contracts: readonly ContractOutcome[], prefix = ""): Annotation[] {
  const repoPath = (p: string) => (prefix === "" ? p : `${prefix}/${p}`);
  const out: Annotation[] = [];
  for (const c of contracts) {
    for (const p of c.problems) {
      out.push({
        path: repoPath(p.path),
        start_line: Math.max(1, p.line),
        end_line: Math.max(1, p.line),
        annotation_level: p.severity === "error" ? "failure" : "warning",
        title: cap(
          `${p.severity === "error" ? "Invalid contract" : "Contract warning"}: ${p.code}`,
          TITLE_MAX,
        ),
        message: cap(p.hint ? `${p.message}\nFix: ${p.hint}` : p.message, MESSAGE_MAX),
      });
    }
    for (const k of c.criteria) {
      // A fork's command not run (neutral contract) is a notice, as a manual criterion is.
      const skipped = k.status === "not-run" && c.verdict === "neutral";
      const shown = k.status === "manual" || k.status === "awaiting-proof";
      if (!k.blocking && !shown && !skipped) continue;
      // Not-run criteria of an invalid or drifted contract are covered by its problems
      // (a drifted contract has its plan-drift error): one annotation, not one per criterion.
      if (
        k.status === "not-run" &&
        (c.verdict === "invalid" || c.verdict === "drifted") &&
        c.problems.some((p) => p.severity === "error")
      )
        continue;
      const detail = k.checks
        .map((x) => x.detail)
        .filter(Boolean)
        .join("\n");
      out.push({
        path: repoPath(k.location.path),
        start_line: Math.max(1, k.location.line),
        end_line: Math.max(1, k.location.line),
        annotation_level: k.blocking ? "failure" : "notice",
        title: cap(`${k.status}: ${k.id} ${k.title}`, TITLE_MAX),
        message: cap(k.reason, MESSAGE_MAX),
        ...(detail ? { raw_details: cap(detail, MESSAGE_MAX) } : {}),
      });
    }
  }
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  return out
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank[x.a.annotation_level] - rank[y.a.annotation_level] || x.i - y.i)
    .map(({ a }) => a);
}
