/**
 * The two markdown dialects one reader serves. The markdown contract (001)
 * keeps its criteria under `## ACCEPTANCE CRITERIA`, numbered or as
 * checkboxes; unlazy's gate ledger (`GATES.md`, `gates/**\/*.md`, whose
 * format the contract's was adapted from) is a file of checkbox gates
 * `- [ ] G1: <title>` with the same indented attributes and ABANDON lines,
 * anywhere in the file. Everything else (rendering, hidden structure,
 * near-misses, oracles, ABANDON rules) is the same code.
 */
export interface Dialect {
  /** Human name of a criterion in messages: "criterion" or "gate". */
  noun: string;
  /** Criteria are read from the whole file, not only `## ACCEPTANCE CRITERIA` sections. */
  wholeFile: boolean;
  /** `1.` lines are criteria (the contract); in a ledger they are prose that ends a gate. */
  numbered: boolean;
  /**
   * A runnable criterion needs an `EVIDENCE:` line. The contract's write-back
   * records its outcome there; unlazy reads a missing EVIDENCE as `pending`,
   * and nothing here reads evidence for a verdict, so a ledger needs none.
   */
  evidenceRequired: boolean;
  /** `ABANDON: G3: reason` (unlazy strips one colon after the id). */
  abandonIdColon: boolean;
}

export const CONTRACT_DIALECT: Dialect = {
  noun: "criterion",
  wholeFile: false,
  numbered: true,
  evidenceRequired: true,
  abandonIdColon: false,
};

export const LEDGER_DIALECT: Dialect = {
  noun: "gate",
  wholeFile: true,
  numbered: false,
  evidenceRequired: false,
  abandonIdColon: true,
};
