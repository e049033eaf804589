import { type IntegrityReport, sharesHead } from "../integrity/types.js";
import { type RunSummary, unacknowledged } from "../verdict.js";
import { criteriaCount } from "./problems-text.js";

/** The check run's default name (action.yml's `check-name`), and every report's title. */
export const DEFAULT_CHECK_NAME = "Contract Gate";

/** Check-run title: `3 blocking of 24 criteria — 2 unmet, 1 abandoned`. At most 255 characters? No limit is documented; keep it short. */
export function checkRunTitle(
  summary: RunSummary,
  refused: { invalid: number; drifted: number; skippedCommands?: number } = {
    invalid: 0,
    drifted: 0,
  },
): string {
  const c = summary.counts;
  if (c.contracts === 0) return "No contracts in scope";
  if (summary.conclusion === "failure") {
    const parts = (["unmet", "evidence-missing", "error", "abandoned", "not-run"] as const)
      .filter((s) => c[s] > 0)
      .map((s) => `${c[s]} ${s}`);
    for (const kind of ["invalid", "drifted"] as const) {
      const n = refused[kind];
      if (n > 0) parts.push(`${n} ${kind} contract${n === 1 ? "" : "s"}`);
    }
    return `${c.blocking} blocking of ${criteriaCount(c.criteria)} — ${parts.join(", ")}`;
  }
  const manual = c.manual > 0 ? `, ${c.manual} manual` : "";
  const skipped = refused.skippedCommands ?? 0;
  if (summary.conclusion === "neutral" && skipped > 0) {
    // Never read as green: say what was not decided.
    return `${c.met} of ${criteriaCount(c.criteria)} met${manual} — ${skipped} command${skipped === 1 ? "" : "s"} from a fork not run`;
  }
  return `${c.met} of ${criteriaCount(c.criteria)} met${manual} — nothing blocks`;
}

/** The sticky comment's hidden marker: which gate wrote it (the adapter adds the head's, github/sticky-body.ts). */
export function commentMarker(checkName: string): string {
  // No "--" may remain (a "--->" in the name would otherwise still close the comment early).
  return `<!-- contract-gate:${checkName.replace(/-(?=-)/g, "- ")} -->`;
}

/** The check-run title, led by the contract changes that block. */
export function integrityTitle(title: string, report: IntegrityReport | undefined): string {
  const n = unacknowledged(report).length;
  if (n === 0) return title;
  const lead = sharesHead(report)
    ? `Head commit shared with an open PR into another base${n > 1 ? ` (${n} blocking findings)` : ""}`
    : `${n} blocking contract change${n === 1 ? "" : "s"} (need approval)`;
  return /^No contracts|nothing blocks$|^0 blocking/.test(title) ? lead : `${lead}; ${title}`;
}
