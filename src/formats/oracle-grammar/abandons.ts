import { problem } from "../../model/problems.js";
import { type Doc, locate } from "../markdown/lines.js";
import type { ProblemSink } from "../markdown/problem-sink.js";
import type { AbandonLine, DraftCriterion } from "./criteria.js";

/**
 * Attach each `ABANDON: <id> <reason>` to the criterion it names. Resolved
 * after every criterion is read, so an ABANDON may sit anywhere in the block.
 * An abandonment blocks a full pass, so one that names nothing, names the
 * wrong thing or gives no reason is an error rather than a silent no-op.
 */
export function attachAbandons(
  doc: Doc,
  abandons: readonly AbandonLine[],
  drafts: readonly DraftCriterion[],
  problems: ProblemSink,
): void {
  const byId = new Map(drafts.map((d) => [d.criterion.id, d]));
  for (const a of abandons) {
    const at = locate(doc, a.index);
    if (a.id === "") {
      if (problems.full("abandon-missing-id", at)) continue;
      problems.push(
        problem("abandon-missing-id", at, "ABANDON: names no criterion id", {
          hint: "write ABANDON: <criterion id> <reason and handoff>",
        }),
      );
      continue;
    }
    const target = byId.get(a.id);
    // Past the cap a problem is only counted, never built: a ledger of 10^5
    // ABANDON lines naming no criterion built 10^5 messages nobody reads.
    if (!target) {
      if (!problems.full("abandon-unknown-id", at)) {
        problems.push(
          problem(
            "abandon-unknown-id",
            at,
            `ABANDON: names criterion ${a.id}, which does not exist`,
            { hint: `use the id of a criterion in this section (${idList(drafts)})` },
          ),
        );
      }
    } else if (target.criterion.abandon) {
      if (!problems.full("abandon-duplicate", at)) {
        problems.push(
          problem(
            "abandon-duplicate",
            at,
            `criterion ${a.id} is already abandoned on line ${target.criterion.abandon.location.line}`,
            { hint: `keep one ABANDON: ${a.id} line; put the whole reason on it` },
          ),
        );
      }
    } else {
      // Attached even with a blank reason, so a second ABANDON of the same
      // criterion is still reported as a duplicate.
      target.criterion.abandon = { reason: a.reason, location: at };
    }
    if (a.reason === "" && !problems.full("abandon-blank-reason", at)) {
      problems.push(
        problem("abandon-blank-reason", at, `ABANDON: ${a.id} gives no reason`, {
          hint: `write why criterion ${a.id} is impossible and who takes it over after the id`,
        }),
      );
    }
  }
}

function idList(drafts: readonly DraftCriterion[]): string {
  if (drafts.length === 0) return "there are none";
  const ids = drafts.slice(0, 10).map((d) => d.criterion.id);
  return drafts.length > 10 ? `${ids.join(", ")}, …` : ids.join(", ");
}
