import { keys } from "../json-sink.js";

/**
 * The keys of each planner entity, per the seed's `Plan` model (002, "plan.json").
 * `version` is everywhere: "Each versionable entity has a `version: int` field
 * starting at 1" (002, "CAS Versioning Model"). Anything else is a warning, not
 * an error: the planner's own validator ignores extras.
 */
export const PLAN_KEYS = keys(
  "overview",
  "planning_context",
  "invisible_knowledge",
  "diagram_graphs",
  "milestones",
  "waves",
  // Real plans carry `schema_version: 2` although the seed says "No schema versioning".
  "schema_version",
);
export const OVERVIEW_KEYS = keys("problem", "approach");
export const CONTEXT_SECTION_KEYS = keys(
  "decisions",
  "rejected_alternatives",
  "constraints",
  "risks",
);
export const DECISION_KEYS = keys("id", "decision", "reasoning", "version");
export const REJECTED_KEYS = keys("alternative", "reason", "decision_ref", "version");
export const RISK_KEYS = keys("risk", "mitigation", "anchor", "decision_ref", "version");
export const KNOWLEDGE_KEYS = keys("system", "invariants", "tradeoffs");
export const DIAGRAM_KEYS = keys(
  "id",
  "type",
  "scope",
  "title",
  "nodes",
  "edges",
  "ascii_render",
  "version",
);
export const NODE_KEYS = keys("id", "label", "type");
export const EDGE_KEYS = keys("source", "target", "label", "protocol");
export const MILESTONE_KEYS = keys(
  "id",
  "name",
  "files",
  "requirements",
  "acceptance_criteria",
  "tests",
  "code_intents",
  "code_changes",
  "version",
);
export const INTENT_KEYS = keys("id", "file", "behavior", "decision_refs", "version");
export const CHANGE_KEYS = keys(
  "id",
  "intent_ref",
  "file",
  "diff",
  "comments",
  "is_documentation_only",
  "delegated_to",
  "version",
);
export const WAVE_KEYS = keys("id", "milestones");

/** `type: "architecture" | "state" | "sequence" | "dataflow"` (002, DiagramGraph). */
export const DIAGRAM_TYPES: ReadonlySet<string> = new Set([
  "architecture",
  "state",
  "sequence",
  "dataflow",
]);

/** `context.json`: "All fields are string arrays. Empty arrays are acceptable; omitting fields is not." (002) */
export const CONTEXT_FIELDS = [
  "task_spec",
  "constraints",
  "entry_points",
  "rejected_alternatives",
  "current_understanding",
  "assumptions",
  "invisible_knowledge",
  "user_quotes",
  "reference_docs",
] as const;

/** A quality-review file's keys (002, "qr-{phase}.json"); `severity` is read and ignored. */
export const QR_KEYS = keys("phase", "iteration", "items");
export const QR_ITEM_KEYS = keys(
  "id",
  "scope",
  "check",
  "status",
  "finding",
  "severity",
  "version",
);
