import type { JsonDocument } from "../formats/plan-contract/json-document.js";
import { type Dialect, zodProblems } from "../formats/plan-contract/zod-problems.js";
import type { Problem } from "../model.js";
import { EVIDENCE_KEYS, EvidenceFileSchema } from "./schema.js";

/**
 * Schema problems of an evidence file, worded and located like a plan
 * contract's (same codes, same "did you mean" hints), by the same mapping.
 */
export function evidenceSchemaProblems(doc: JsonDocument): Problem[] {
  const result = EvidenceFileSchema.safeParse(doc.value);
  return result.success ? [] : zodProblems(doc, result.error.issues, EVIDENCE);
}

const EVIDENCE: Dialect = {
  rootName: "the evidence file",
  allowedKeys: (path) => (path.length === 0 ? EVIDENCE_KEYS.root : EVIDENCE_KEYS.citation),
  union: { noun: "an allowed value", options: [] },
};
