import { fitAnnotationText } from "../github/limits.js";
import type { Annotation } from "../github/types.js";
import type { ContractOutcome } from "../verdict.js";

/**
 * One annotation per contract problem and per blocking criterion (failure),
 * warnings for warnings and notices for manual criteria, at the contract's
 * file and line. `prefix` turns working-directory paths into repository paths.
 * Pure; failures come first so a capped list keeps what blocks; every text
 * within GitHub's limits (`fitAnnotationText`).
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
        title: `${p.severity === "error" ? "Invalid contract" : "Contract warning"}: ${p.code}`,
        message: p.hint ? `${p.message}\nFix: ${p.hint}` : p.message,
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
        title: `${k.status}: ${k.id} ${k.title}`,
        message: k.reason,
        ...(detail ? { raw_details: detail } : {}),
      });
    }
  }
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  return out
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank[x.a.annotation_level] - rank[y.a.annotation_level] || x.i - y.i)
    .map(({ a }) => fitAnnotationText(a));
}
