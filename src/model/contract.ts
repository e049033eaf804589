import type { EvidenceLoad } from "./evidence.js";
import type { ProblemCode, Severity } from "./problem-codes.js";

/**
 * The shared language of contract-gate: every contract kind parses into these
 * types, and every later stage (drift, checks, verdict, reports) reads only them.
 */

/** Contract kinds contract-gate understands. */
export const CONTRACT_KINDS = [
  "plan-contract",
  "oracle-contract",
  "planner-plan",
  "planner-context",
  "planner-qr",
  "workphase-research",
  "workphase-plan",
  "gates-ledger",
  "spec",
  "speckit-spec",
  "speckit-tasks",
  "kiro-spec",
  "openspec-change",
  "openspec-spec",
] as const;

export type ContractKind = (typeof CONTRACT_KINDS)[number];

export type { Severity };

/** A place in a contract file. Lines and columns are 1-based. */
export interface Location {
  path: string;
  line: number;
  column: number;
}

/**
 * One thing wrong with a contract. Parsers collect these instead of throwing,
 * so a user can fix every problem in one pass. `code` is a stable kebab-case
 * identifier documented in the README (see `problem-codes.ts`).
 */
export interface Problem extends Location {
  code: ProblemCode;
  severity: Severity;
  message: string;
  hint?: string;
}

/** An oracle's success marker: a literal substring, or `/re/flags`. */
export type Marker =
  | { kind: "literal"; text: string }
  | { kind: "regex"; source: string; flags: string };

export interface Evidence {
  path: string;
  matcher?: string;
  description: string;
}

/** A check a criterion carries. `location` points at the check in its contract. */
export type Check =
  | { type: "file-exists"; location: Location; path: string; mustContain?: string }
  | {
      type: "grep-match";
      location: Location;
      path: string;
      pattern: string;
      expect: "present" | "absent";
    }
  | {
      type: "command-exit";
      location: Location;
      command: string;
      args: string[];
      cwd?: string;
      expectedExit: number;
      timeoutMs: number;
      expectStdoutMatch?: string;
    }
  | {
      type: "behavioral";
      location: Location;
      description: string;
      evidenceRequired: Evidence[];
    }
  | {
      type: "oracle";
      location: Location;
      /** Shell code, run with `bash -c`. */
      command: string;
      /**
       * The success marker: MET needs exit 0 AND it. Absent only for a spec's
       * Verification command, which the requirement-spec workflow (seed 004)
       * judges by its exit status alone.
       */
      expect?: Marker;
      /** Repo-relative directory, default the repo root. */
      cwd?: string;
      /** The EVIDENCE line as written: information only, never trusted for a verdict. */
      evidence?: { text: string; location: Location };
    };

export type CheckType = Check["type"];

/** An ABANDON entry attached to the criterion it names. */
export interface Abandon {
  reason: string;
  location: Location;
}

export interface Criterion {
  /** Oracle contracts: their own id ("1", "AC-2"). Plan contracts: "T<n>.<k>". */
  id: string;
  title: string;
  location: Location;
  /** Empty for manual (reviewer-decided) criteria. */
  checks: Check[];
  abandon?: Abandon;
  /** Plan contracts: the task id this criterion belongs to. */
  group?: string;
  /** Checkbox criteria (`- [x] ID: ...`): whether the box is ticked. Information only. */
  ticked?: boolean;
  /**
   * Decided by what the contract records, with no check to run: a quality-review
   * item's status, a quality review still in progress, a decision that needs a person.
   */
  settled?: SettledCriterion;
}

/** A criterion's outcome as the contract records it (`checks` is then empty). */
export interface SettledCriterion {
  /**
   * `awaiting-proof`: a requirement mapped to a test that no proof has run yet
   * (requirement specs): shown, never green, not blocking. `error`: the
   * requirement proof could not decide it (an execution error): blocking.
   */
  status: "met" | "unmet" | "manual" | "awaiting-proof" | "error";
  blocking: boolean;
  reason: string;
  /** Not yet decided (a `TODO` quality-review item): `status` shows it as pending. */
  pending?: boolean;
}

export interface PlanTaskSummary {
  id: string;
  title: string;
  wave: number;
  dependsOn: string[];
  location: Location;
}

export interface PlanHeader {
  kind: "plan-contract";
  version?: number;
  phase?: number;
  goal?: string;
  generatedBy?: string;
  /** `undefined` when absent; `""` when explicitly empty. */
  sourcePlanHash?: string;
  /** Location of the `source_plan_hash` value (or of the root object when absent). */
  sourcePlanHashLocation: Location;
  /** Repo-relative path of the `phase-N-plan.md` beside the contract, when N is known. */
  planPath?: string;
  tasks: PlanTaskSummary[];
  successCriteria: string[];
}

/** A section of a markdown contract captured verbatim, with its 1-based line range. */
export interface Section {
  heading: string;
  text: string;
  startLine: number;
  endLine: number;
}

export interface OracleHeader {
  kind: "oracle-contract";
  title?: string;
  date?: string;
  flow?: string;
  branch?: string;
  status?: string;
  supersedes?: string;
  request?: Section;
  clarifications?: Section;
  fileScope?: Section;
}

/** unlazy's gate ledger (`GATES.md`, `gates/**\/*.md`): what its lines above the first gate say. */
export interface GatesLedgerHeader {
  kind: "gates-ledger";
  /** `# Gates: <scope name>`. */
  title?: string;
  /** `Scope: <one line>`. */
  scope?: string;
  /** `OWNS: <globs>` (or `Owns:`): the files this unit may write, information only. */
  owns?: string[];
}

/** The planner's files and the sealed workphase artifacts (`formats/planner`, `formats/workphase`). */
export interface JsonKindHeader {
  kind: "planner-plan" | "planner-context" | "planner-qr" | "workphase-research" | "workphase-plan";
  /** Quality-review files: the phase and iteration as recorded. */
  qrPhase?: string;
  iteration?: number;
  /** Research: the findings, for the plan beside it to cite. */
  findings?: { id: string; confidence: string; claim: string; location: Location }[];
  /** Workphase plans: every `research:<id>` in the plan's strings. */
  citations?: { id: string; location: Location }[];
}

/** The requirement specs (`formats/spec`): both layouts and a `tasks.md` read alone. */
export interface SpecHeader {
  kind: "spec" | "speckit-spec" | "speckit-tasks";
  /** The name after `# Specification:` / `# Feature Specification:`. */
  title?: string;
  /** The requirement model every rule reads; absent for a `tasks.md` read alone. */
  model?: RequirementModel;
  /** `tasks.md` (beside the spec, or the contract itself). */
  tasks?: TaskList;
}

/** A line of a spec the rules name: its text as written and where it is. */
export interface SpecLine {
  text: string;
  location: Location;
  /** A nested bullet (`## Guardrails`): the text of the top-level bullet it sits under. */
  under?: string;
}

/** `FR-001 [ADDED]: statement` (spec) or `**FR-001**: System MUST …` (spec-kit). */
export interface Requirement {
  /** `FR-001`, `FR-002a`. */
  id: string;
  /** The statement, continuation lines joined by a space. */
  text: string;
  tag?: "ADDED" | "MODIFIED" | "REMOVED";
  location: Location;
}

/** An id written where it must name something that exists (a scenario's `(FR-001)`). */
export interface SpecReference {
  id: string;
  location: Location;
}

/** `Scenario: <name> (FR-001)` or `- [ ] AC-1 (FR-001): …`: what proves which requirements. */
export interface SpecItem {
  /** `AC-1` for acceptance criteria; the scenario's name for scenarios. */
  id: string;
  text: string;
  refs: SpecReference[];
  location: Location;
  ticked?: boolean;
}

/** A `## Verification` line: a command that proves acceptance criteria, or a manual entry. */
export type VerificationLine =
  | { kind: "command"; command: string; proves: SpecReference[]; location: Location }
  | { kind: "manual"; requirement: SpecReference; why: string; location: Location };

/** A `## Requirement Map` line: `FR-001 → FILE > NAME` or `FR-002 → manual: <how>`. */
export interface MapEntry {
  requirement: SpecReference;
  target: { kind: "test"; file: string; name: string } | { kind: "manual"; text: string };
  location: Location;
}

/**
 * The one requirement model both spec layouts parse into, so every later rule
 * (coverage, the map, the base comparison, the proof) is written once.
 */
export interface RequirementModel {
  layout: "spec" | "speckit-spec";
  requirements: Requirement[];
  scenarios: SpecItem[];
  acceptance: SpecItem[];
  guardrails: SpecLine[];
  verification: VerificationLine[];
  /** The `## Requirement Map` section, when there is one. */
  map?: { location: Location; entries: MapEntry[] };
  /** The status line as read (spec layout), when it is one of the two exact forms. */
  status?: { value: "READY" | "NEEDS CLARIFICATION"; location: Location };
  /** Open questions: `## Open Questions` bullets (spec) and open `[NEEDS CLARIFICATION: …]` markers. */
  openQuestions: SpecLine[];
  /** spec-kit: `### User Story N - Title (Priority: Pn)`, by N. */
  stories: { n: number; title: string; location: Location }[];
  /** spec-kit: `**SC-001**` success criteria. */
  successCriteria: { id: string; text: string; location: Location }[];
}

/** `- [X] T012 [P] [US1] description` in `tasks.md`. */
export interface Task {
  id: string;
  done: boolean;
  parallel: boolean;
  /** `US1` → 1. */
  story?: number;
  /** The description, wrapped lines joined. */
  text: string;
  /** Repository paths the description names (code spans and bare tokens). */
  paths: SpecReference[];
  /** The description says the task deletes, moves or renames: its paths may be gone. */
  removes: boolean;
  /** Another repository's task (`[REPO: name]` on it or its phase): its paths are not this one's. */
  elsewhere?: string;
  location: Location;
}

export interface TaskList {
  path: string;
  tasks: Task[];
}

/**
 * OpenSpec's files as the gate reads them (Fission-AI/OpenSpec): a change
 * folder `openspec/changes/<id>/` (proposal, tasks, design, delta specs) and
 * the main specs `openspec/specs/<capability>/spec.md` it is read against.
 */

/** `### Requirement: <name>` with its body and its `#### Scenario:` children. */
export interface OpenspecRequirement {
  name: string;
  /** The body lines (metadata lines `**Key**: value` dropped unless nothing else), joined by "\n". */
  text: string;
  /** How many times SHALL or MUST (upper case, whole words) occur in the body. */
  normative: number;
  scenarios: { name: string; location: Location }[];
  location: Location;
}

/** A name listed under `## REMOVED Requirements`. */
export interface OpenspecRemoved {
  name: string;
  location: Location;
}

/** A `FROM:`/`TO:` pair under `## RENAMED Requirements`. */
export interface OpenspecRenamed {
  from: string;
  to: string;
  location: Location;
}

/** One delta spec, `openspec/changes/<id>/specs/<capability>/spec.md`. */
export interface OpenspecDelta {
  path: string;
  /** `auth`, or `area/auth` for a nested capability. */
  capability: string;
  added: OpenspecRequirement[];
  modified: OpenspecRequirement[];
  removed: OpenspecRemoved[];
  renamed: OpenspecRenamed[];
}

/** A main spec, `openspec/specs/<capability>/spec.md`. */
export interface OpenspecMainSpec {
  path: string;
  capability: string;
  requirements: OpenspecRequirement[];
}

/** `- [x] 1.1 <text>` in a change's `tasks.md`. */
export interface OpenspecTask {
  /** `1.1`, when the text starts with a number. */
  id?: string;
  done: boolean;
  text: string;
  /** Repository paths the text names. */
  paths: SpecReference[];
  /** The text says the task deletes, moves or renames: its paths may be gone. */
  removes: boolean;
  location: Location;
}

/** What a change folder holds, as the loader linked it. */
export interface OpenspecChange {
  /** The folder name. */
  id: string;
  deltas: OpenspecDelta[];
  tasks?: { path: string; tasks: OpenspecTask[] };
  /** Every file the gate read for the change (the proposal first), repo-relative. */
  files: string[];
}

export interface OpenspecHeader {
  kind: "openspec-change" | "openspec-spec";
  /** A change: its folder; its deltas and tasks once the loader linked it. */
  change?: OpenspecChange;
  /** A main spec: its requirements. */
  spec?: OpenspecMainSpec;
}

export type ContractHeader =
  | PlanHeader
  | OracleHeader
  | JsonKindHeader
  | GatesLedgerHeader
  | SpecHeader
  | KiroHeader
  | OpenspecHeader;

/**
 * A Kiro spec (`.kiro/specs/<feature>/`, `formats/kiro`): its `requirements.md`
 * with the `design.md` and `tasks.md` beside it, linked by the loader.
 */
export interface KiroHeader {
  kind: "kiro-spec";
  /** `### Requirement N[: title]` blocks in file order. */
  requirements: KiroRequirement[];
  /** `design.md`'s correctness properties, when the file was read. */
  design?: { path: string; properties: KiroProperty[] };
  /** `tasks.md`'s checkbox tasks, when the file was read. */
  tasks?: { path: string; tasks: KiroTask[] };
}

export interface KiroRequirement {
  /** `1` for `### Requirement 1`, `REQ-RC-001` for hand-written ids. */
  id: string;
  title: string;
  location: Location;
  criteria: KiroCriterion[];
}

/** A numbered acceptance criterion, `N.M`: an EARS line with its wrapped lines joined. */
export interface KiroCriterion {
  /** `<requirement>.<item>`: `1.3`. */
  id: string;
  text: string;
  location: Location;
}

/** One requirement or criterion a `_Requirements:_` or `Validates:` line cites, as resolved ids. */
export interface KiroReference {
  /** `1.2` (a criterion), `1` (a whole requirement), `*` (`All`). */
  id: string;
  /** A range `1.2-1.5`: the last item number (5); the reference cites `id` through it. */
  through?: number;
  location: Location;
}

/** `### Property N: title` in design.md, with the criteria its `Validates:` line cites. */
export interface KiroProperty {
  /** `1`, `3a`. */
  id: string;
  title: string;
  refs: KiroReference[];
  location: Location;
}

/** `- [x] 1.1 title` in tasks.md. */
export interface KiroTask {
  /** The written number (`1`, `1.1`), or `#<k>` for the k-th unnumbered task. */
  id: string;
  title: string;
  /** `[x]`/`[X]`; `[ ]`, `[-]` (running) and `[~]` (queued) are open. */
  done: boolean;
  /** `- [ ]* …`: Kiro's optional task (typically a test), never blocking. */
  optional: boolean;
  /** 0 for a top-level task, deeper by indentation. */
  depth: number;
  refs: KiroReference[];
  /** Repository paths its description names in code spans, where they are written. */
  paths: SpecReference[];
  /** Set by the loader: the named paths that do not exist at the commit gated. */
  missing?: string[];
  location: Location;
}

/**
 * Plan contracts only: how `source_plan_hash` compares with `phase-N-plan.md`.
 * `disabled` when the hash is empty or absent (a warning, not an error).
 */
export type DriftState = "match" | "drifted" | "plan-missing" | "disabled" | "invalid-hash";

export interface Contract {
  kind: ContractKind;
  /** Repo-relative, forward slashes. */
  path: string;
  header: ContractHeader;
  criteria: Criterion[];
  /** Sorted by line, then column, then code (see `sortProblems`). */
  problems: Problem[];
  /** Set by the loader for plan contracts once the plan has been compared. */
  drift?: DriftState;
  /**
   * `sha256:` hex of the bytes the loader parsed: write-back writes nothing
   * when the file on disk no longer has them (a check may rewrite it mid-run).
   */
  digest?: string;
  /**
   * Set by the loader for a contract with behavioral checks: its evidence
   * file, read and parsed with the contract, so the run reads nothing more.
   */
  evidence?: EvidenceLoad;
}

/** True when the contract has at least one error (warnings do not invalidate). */
export function isInvalid(contract: Pick<Contract, "problems">): boolean {
  return contract.problems.some((p) => p.severity === "error");
}

/** A plan contract's header when its JSON could not be read at all. */
export function emptyPlanHeader(path: string): PlanHeader {
  return {
    kind: "plan-contract",
    sourcePlanHashLocation: { path, line: 1, column: 1 },
    tasks: [],
    successCriteria: [],
  };
}

/** The header of a contract whose file could not be read at all: nothing but its kind. */
export function emptyHeader(kind: ContractKind, path: string): Contract["header"] {
  if (kind === "kiro-spec") return { kind, requirements: [] };
  return kind === "plan-contract" ? emptyPlanHeader(path) : { kind };
}
