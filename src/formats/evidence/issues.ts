import type { Problem } from "../../model/contract.js";
import type { JsonDocument } from "../json/document.js";
import { type Dialect, type Issue, zodProblems } from "../json/zod-problems.js";
import { EVIDENCE_KEYS, type EvidenceFileSchema } from "./schema.js";

/** The schema's verdict on an evidence file. */
export type EvidenceResult = ReturnType<typeof EvidenceFileSchema.safeParse>;

/**
 * Schema problems of an evidence file, worded and located like a plan
 * contract's (same codes, same "did you mean" hints), by the same mapping.
 */
export function evidenceSchemaProblems(doc: JsonDocument, result: EvidenceResult): Problem[] {
  return result.success ? [] : zodProblems(doc, result.error.issues, EVIDENCE);
}

/** Indexes of the citations the schema refused (an issue at or inside `citations[i]`). */
export function refusedCitations(issues: readonly Issue[]): Set<number> {
  const refused = new Set<number>();
  for (const issue of issues) {
    const index = issue.path[1];
    if (issue.path[0] === "citations" && typeof index === "number") refused.add(index);
  }
  return refused;
}

const EVIDENCE: Dialect = {
  rootName: "the evidence file",
  allowedKeys: (path) => (path.length === 0 ? EVIDENCE_KEYS.root : EVIDENCE_KEYS.citation),
  union: { noun: "an allowed value", options: [] },
};
