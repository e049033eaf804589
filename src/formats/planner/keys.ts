import { keys } from "../json/sink.js";

/**
 * The keys of each planner entity: the seed's `Plan` model (002, "plan.json")
 * and, where the planner's own pydantic models (`shared/schema.py` upstream)
 * and the plans they write differ from its wording, those too: decisions'
 * `reasoning_chain`, rejected alternatives' `rejection_reason` and `id`, the
 * `decision_log` and `known_risks` spellings, the plan's `plan_id`,
 * `created_at`, `frozen_at`. `version` is everywhere: "Each versionable
 * entity has a `version: int` field starting at 1" (002, "CAS Versioning
 * Model"). Anything else is a warning, not an error: the planner's own
 * validator ignores extras.
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
  "plan_id",
  "created_at",
  "frozen_at",
  "readme_entries",
);
/** Schema-v2 plans (the planner's plan-json-schema document) add `title` here, a `timestamp` per decision, and the architecture and data-flow diagrams to `invisible_knowledge`. */
export const OVERVIEW_KEYS = keys("problem", "approach", "title");
export const CONTEXT_SECTION_KEYS = keys(
  "decisions",
  "decision_log",
  "rejected_alternatives",
  "constraints",
  "risks",
  "known_risks",
);
/** Two spellings of one field: the seed's first, the planner's code's second (an alias upstream). */
export const SPELLINGS = {
  decisions: ["decisions", "decision_log"],
  risks: ["risks", "known_risks"],
  reasoning: ["reasoning", "reasoning_chain"],
  reason: ["reason", "rejection_reason"],
} as const;
export const DECISION_KEYS = keys(
  "id",
  "decision",
  "reasoning",
  "reasoning_chain",
  "timestamp",
  "version",
);
export const REJECTED_KEYS = keys(
  "id",
  "alternative",
  "reason",
  "rejection_reason",
  "decision_ref",
  "version",
);
/** Schema-v2 plans write a constraint as an object; the seed's is a string. */
export const CONSTRAINT_KEYS = keys("id", "type", "description", "source", "version");
export const RISK_KEYS = keys("id", "risk", "mitigation", "anchor", "decision_ref", "version");
export const KNOWLEDGE_KEYS = keys(
  "system",
  "invariants",
  "tradeoffs",
  "architecture",
  "data_flow",
  "structure_rationale",
);
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
  "number",
  "name",
  "flags",
  "files",
  "requirements",
  "acceptance_criteria",
  "tests",
  "code_intents",
  "code_changes",
  "documentation",
  "is_documentation_only",
  "delegated_to",
  "version",
);
/** A schema-v2 milestone's `tests` object; its `files` are file-exists criteria like `file:` entries. */
export const TESTS_OBJECT_KEYS = keys("files", "type", "backing", "scenarios", "skip_reason");
/** The documentation a milestone carries upstream; its comments may cite decisions. */
export const DOCUMENTATION_KEYS = keys(
  "module_comment",
  "docstrings",
  "function_blocks",
  "inline_comments",
);
export const INTENT_KEYS = keys(
  "id",
  "file",
  "function",
  "behavior",
  "decision_refs",
  "params",
  "version",
);
export const CHANGE_KEYS = keys(
  "id",
  "intent_ref",
  "file",
  "diff",
  "doc_diff",
  "comments",
  "is_documentation_only",
  "delegated_to",
  "version",
);
export const WAVE_KEYS = keys("id", "wave", "milestones");

/** `type: "architecture" | "state" | "sequence" | "dataflow"` (002, DiagramGraph). */
export const DIAGRAM_TYPES: ReadonlySet<string> = new Set([
  "architecture",
  "state",
  "sequence",
  "dataflow",
]);

/**
 * `context.json`: "All fields are string arrays. Empty arrays are acceptable;
 * omitting fields is not." (002). The seed lists `user_quotes` too, but the
 * planner's `Context` model has no such field and real files omit it: it is
 * read when present (`CONTEXT_OPTIONAL`), never required.
 */
export const CONTEXT_FIELDS = [
  "task_spec",
  "constraints",
  "entry_points",
  "rejected_alternatives",
  "current_understanding",
  "assumptions",
  "invisible_knowledge",
  "reference_docs",
] as const;
export const CONTEXT_OPTIONAL = ["user_quotes"] as const;

/**
 * A quality-review file's keys (002, "qr-{phase}.json", and the planner's
 * `QRItem` model, which adds `parent_id` and `group_id`); `severity` is read
 * and ignored ("All severity levels block on all iterations").
 */
export const QR_KEYS = keys("phase", "iteration", "items");
export const QR_ITEM_KEYS = keys(
  "id",
  "scope",
  "check",
  "status",
  "finding",
  "severity",
  "parent_id",
  "group_id",
  "version",
);
