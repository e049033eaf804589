import { z } from "zod";
import { type ListOf, list, plainList } from "../json/bounded-list.js";
import { strictObject } from "../json/strict-object.js";

/**
 * `phase-N-evidence.json` v1: the verifier's citations for behavioral checks,
 * beside `phase-N-contract.json`. Objects are strict, as in the contract, so
 * a misspelt key is an error rather than a citation silently missing.
 */

export const EVIDENCE_VERSION = 1;

/** Not blank: `\S` is exactly what `trim()` removes, so the JSON Schema export states the same rule. */
const NON_BLANK = /\S/;
const nonBlank = z
  .string()
  .refine((s) => NON_BLANK.test(s), { message: "must not be empty" })
  .meta({ pattern: NON_BLANK.source });
const index = z.int().min(0);

export const CitationSchema = strictObject({
  task: nonBlank.describe("Task id, e.g. `T2`."),
  check: index.describe("0-based index of the behavioral check in the task's `verification`."),
  evidence: index.describe("0-based index in that check's `evidence_required`."),
  // Safety has its own code (`unsafe-path`).
  path: z
    .string()
    .describe(
      "The cited file: repository-relative, `/` separators (`unsafe-path`); the entry's `path`.",
    ),
  line: z.int().positive().describe("1-based line number of the cited line."),
  snippet: nonBlank.describe(
    "Text of the cited line, or part of it; must be on that line when re-read, and match the entry's `matcher`.",
  ),
});

/** The evidence file, its list made by `listOf` (see the contract schema's `schemas`). */
function evidenceFile(listOf: ListOf) {
  return strictObject({
    // Other numbers are reported once as `unsupported-version` before this runs.
    version: z
      .literal(EVIDENCE_VERSION)
      .describe("Evidence file version; 1 is the only one (`unsupported-version`)."),
    phase: z
      .int()
      .positive()
      .describe(
        "Phase number; equals N of `phase-N-evidence.json` when the name is a number (`phase-mismatch`).",
      ),
    citations: listOf(CitationSchema).describe(
      "One citation per `evidence_required` entry (a second for the same entry is `invalid-value`).",
    ),
    // Editors find the JSON Schema through it; the gate reads nothing from it.
    $schema: z
      .string()
      .optional()
      .describe("URL or path of the JSON Schema, for editors; the gate ignores it."),
  });
}

export const EvidenceFileSchema = evidenceFile(list);

/**
 * The same rules with plain arrays, for the JSON Schema export: `list` checks
 * its entries in a refinement, which a JSON Schema cannot see.
 */
export const PlainEvidenceFileSchema = evidenceFile(plainList);

/** Keys each object allows, for "did you mean" hints. */
export const EVIDENCE_KEYS = {
  // `$schema` is for editors: a hint names the keys an evidence file is made of.
  root: Object.keys(EvidenceFileSchema.shape).filter((k) => k !== "$schema"),
  citation: Object.keys(CitationSchema.shape),
};
