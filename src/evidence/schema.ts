import { z } from "zod";
import { list } from "../formats/plan-contract/bounded-list.js";

/**
 * `phase-N-evidence.json` v1: the verifier's citations for behavioral checks,
 * beside `phase-N-contract.json`. Objects are strict, as in the contract, so
 * a misspelt key is an error rather than a citation silently missing.
 */

export const EVIDENCE_VERSION = 1;

const nonBlank = z.string().refine((s) => s.trim() !== "", { message: "must not be empty" });
const index = z.int().min(0);

export const CitationSchema = z.strictObject({
  /** Task id, e.g. "T2". */
  task: nonBlank,
  /** 0-based index in the task's `verification[]`. */
  check: index,
  /** 0-based index in that check's `evidence_required[]`. */
  evidence: index,
  /** Repo-relative; safety has its own code (`unsafe-path`). */
  path: z.string(),
  /** 1-based. */
  line: z.int().positive(),
  /** Text of the cited line (or part of it); a blank snippet would cite nothing. */
  snippet: nonBlank,
});

export const EvidenceFileSchema = z.strictObject({
  // Other numbers are reported once as `unsupported-version` before this runs.
  version: z.literal(EVIDENCE_VERSION),
  phase: z.int().positive(),
  citations: list(CitationSchema),
});

/** Keys each object allows, for "did you mean" hints. */
export const EVIDENCE_KEYS = {
  root: Object.keys(EvidenceFileSchema.shape),
  citation: Object.keys(CitationSchema.shape),
};
