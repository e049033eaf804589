import type { ContractKind } from "../../model/contract.js";

/**
 * Which JSON contract kind a file is, from its name and place, and whether its
 * top level has that kind's shape. The name decides for default and user globs
 * alike; the shape only confirms, so a file is never silently read as a kind
 * its name does not say.
 */

/** The five quality-review phases: "Five phases: plan-design, plan-code, plan-docs, impl-code, impl-docs." (002) */
export const QR_PHASES = [
  "plan-design",
  "plan-code",
  "plan-docs",
  "impl-code",
  "impl-docs",
] as const;

/**
 * Default globs of the planner's files. Upstream keeps them in a state
 * directory (`{state_dir}/qr-{phase}.json`, 002); committed copies are found
 * under names such as `plans/<slug>-plan.json`, so a slug prefix is accepted
 * before `-qr-<phase>.json` and `-context.json` too.
 */
export const PLANNER_GLOBS: readonly string[] = [
  "plans/**/*plan.json",
  "plans/**/qr-*.json",
  "plans/**/*-qr-*.json",
  "plans/**/context.json",
  "plans/**/*-context.json",
  ".planner/**/plan.json",
  ".planner/**/qr-*.json",
  ".planner/**/context.json",
];

/**
 * Workphase artifacts live in a content store upstream (003); this project's
 * convention for committing them is one directory per phase pair.
 */
export const WORKPHASE_GLOBS: readonly string[] = [
  ".workphase/*/research.json",
  ".workphase/*/plan.json",
];

type JsonKind = Extract<
  ContractKind,
  | "plan-contract"
  | "planner-plan"
  | "planner-context"
  | "planner-qr"
  | "workphase-research"
  | "workphase-plan"
>;

/**
 * The kind a `.json` path names: `.workphase/<name>/{research,plan}.json`,
 * `phase-*-contract.json`, `[<slug>-]qr-<phase>.json`, `[<slug>-]context.json`,
 * `*plan.json`; any other JSON is read as a plan contract, as before the
 * planner kinds existed.
 */
export function jsonKindOf(path: string): JsonKind {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  if (parts.length >= 3 && parts[parts.length - 3] === ".workphase") {
    if (name === "research.json") return "workphase-research";
    if (name === "plan.json") return "workphase-plan";
  }
  if (name.startsWith("phase-") && name.endsWith("-contract.json")) return "plan-contract";
  if (qrPhaseOfName(name) !== undefined) return "planner-qr";
  if (name === "context.json" || name.endsWith("-context.json")) return "planner-context";
  if (name.endsWith("plan.json")) return "planner-plan";
  return "plan-contract";
}

/** The `<phase>` of `[<slug>-]qr-<phase>.json` as written (possibly not one of the five). */
export function qrPhaseOfName(name: string): string | undefined {
  if (!name.endsWith(".json")) return undefined;
  const slugged = name.lastIndexOf("-qr-");
  const start = name.startsWith("qr-") ? 3 : slugged >= 0 ? slugged + 4 : -1;
  if (start < 0) return undefined;
  const phase = name.slice(start, -".json".length);
  return phase === "" ? undefined : phase;
}

/**
 * Top-level keys only one kind has. A file shows a kind's shape when it has
 * any of them: deleting one key (say `milestones`) leaves the others, so the
 * file is still read as that kind and the missing key reported.
 */
export const DISTINCT_KEYS: Readonly<Record<JsonKind, readonly string[]>> = {
  "plan-contract": ["tasks", "success_criteria", "source_plan_hash", "generated_by"],
  "planner-plan": ["milestones", "planning_context", "overview", "waves", "diagram_graphs"],
  "planner-context": [
    "task_spec",
    "entry_points",
    "current_understanding",
    "user_quotes",
    "reference_docs",
  ],
  "planner-qr": ["items", "iteration"],
  "workphase-research": ["findings", "relevant_code", "dead_ends", "unknowns"],
  "workphase-plan": ["changes", "human_decisions_needed", "verification"],
};

/** Human names, for messages that name both kinds. */
export const KIND_NAMES: Readonly<Record<JsonKind, string>> = {
  "plan-contract": "a phase contract",
  "planner-plan": "a planner plan",
  "planner-context": "a planner context file",
  "planner-qr": "a quality-review file",
  "workphase-research": "a workphase research artifact",
  "workphase-plan": "a workphase plan artifact",
};

export type ShapeVerdict =
  /** The top level has the named kind's shape (or is not an object: the schema says so). */
  | { kind: "match" }
  /** It has another kind's shape and none of its own. */
  | { kind: "other"; shape: JsonKind }
  /** It has no known kind's shape. */
  | { kind: "none" };

/**
 * Whether `value` is an object holding any of `kind`'s identifying keys; a
 * top level that is not an object counts as having it (the schema says what
 * is wrong with it).
 */
export function hasOwnShape(kind: JsonKind, value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return true;
  return DISTINCT_KEYS[kind].some((key) => Object.hasOwn(value, key));
}

/** Whether `value`'s top level has the shape of `named`. Linear in the number of top-level keys. */
export function confirmShape(named: JsonKind, value: unknown): ShapeVerdict {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "match" };
  const has = (key: string) => Object.hasOwn(value, key);
  if (DISTINCT_KEYS[named].some(has)) return { kind: "match" };
  for (const [kind, keys] of Object.entries(DISTINCT_KEYS) as [JsonKind, readonly string[]][]) {
    if (kind !== named && keys.some(has)) return { kind: "other", shape: kind };
  }
  return { kind: "none" };
}
