import type { Location, Problem } from "./contract.js";

/** One `{path, line, snippet}` the verifier offers for one `evidence_required` entry. */
export interface Citation {
  task: string;
  /** 0-based index in the task's `verification[]`. */
  check: number;
  /** 0-based index in that check's `evidence_required[]`. */
  evidence: number;
  /** Repo-relative and normalised (no `./`, no doubled slashes). */
  path: string;
  /** 1-based. */
  line: number;
  snippet: string;
  /** Where the citation object is in the evidence file. */
  location: Location;
}

export interface EvidenceFile {
  /** Empty whenever `problems` holds an error: an invalid file is trusted for nothing. */
  citations: Citation[];
  /** Sorted (see `sortProblems`). */
  problems: Problem[];
}

/** What `phase-<name>-evidence.json` beside a plan contract holds, as far as the gate trusts it. */
export type EvidenceLoad =
  /** The contract's file name pairs it with no evidence file. */
  | { kind: "none" }
  | { kind: "missing"; path: string }
  /** Read and parsed; a file that could not be read safely is one problem and no citations. */
  | { kind: "read"; path: string; file: EvidenceFile };
