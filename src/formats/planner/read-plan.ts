import { formatPath, type JsonPath } from "../json/path.js";
import { type At, type JsonObject, type JsonSink, own } from "../json/sink.js";
import { pathReason } from "../memo.js";
import {
  CHANGE_KEYS,
  CONSTRAINT_KEYS,
  CONTEXT_SECTION_KEYS,
  DECISION_KEYS,
  DIAGRAM_KEYS,
  DIAGRAM_TYPES,
  DOCUMENTATION_KEYS,
  EDGE_KEYS,
  INTENT_KEYS,
  KNOWLEDGE_KEYS,
  MILESTONE_KEYS,
  NODE_KEYS,
  OVERVIEW_KEYS,
  PLAN_KEYS,
  REJECTED_KEYS,
  RISK_KEYS,
  SPELLINGS,
  TESTS_OBJECT_KEYS,
  WAVE_KEYS,
} from "./keys.js";

/** What the cross-reference rules need from a plan, each id and reference with its path. */
export interface PlanParts {
  decisions: At<string>[];
  /** `code_intents.decision_refs`, `rejected_alternatives.decision_ref`, `risks.decision_ref`. */
  decisionRefs: At<string>[];
  diagrams: DiagramParts[];
  milestones: MilestoneParts[];
  waves: WaveParts[];
}

export interface DiagramParts {
  id: At<string> | undefined;
  scope: At<string> | undefined;
  nodes: At<string>[];
  /** Edge sources and targets. */
  ends: At<string>[];
}

export interface MilestoneParts {
  id: At<string> | undefined;
  path: JsonPath;
  intents: At<string>[];
  intentRefs: At<string>[];
  changeIds: At<string>[];
  tests: At<unknown>[];
}

export interface WaveParts {
  id: At<string> | undefined;
  milestones: At<string>[];
}

const UNKNOWN = "the planner's plan.json";

/**
 * Walk a `plan.json` once against the seed's model (002, "plan.json"),
 * reporting type errors and unknown keys (warnings) as it goes, and collect
 * the ids and references for the cross-reference rules.
 */
export function readPlan(sink: JsonSink, root: JsonObject): PlanParts {
  const parts: PlanParts = {
    decisions: [],
    decisionRefs: [],
    diagrams: [],
    milestones: [],
    waves: [],
  };
  sink.unknownKeys(root, PLAN_KEYS, [], "planner-unknown-key", UNKNOWN);
  const overview = section(sink, root, "overview", true);
  if (overview) {
    sink.unknownKeys(overview, OVERVIEW_KEYS, ["overview"], "planner-unknown-key", UNKNOWN);
    sink.text(overview, "problem", ["overview"]);
    sink.text(overview, "approach", ["overview"]);
  }
  const context = section(sink, root, "planning_context", true);
  if (context) readContext(sink, context, parts);
  const knowledge = section(sink, root, "invisible_knowledge", false);
  if (knowledge) {
    const base = ["invisible_knowledge"];
    sink.unknownKeys(knowledge, KNOWLEDGE_KEYS, base, "planner-unknown-key", UNKNOWN);
    // Each has a default in the planner's model (`system: str = ""`): none is required.
    sink.text(knowledge, "system", base, { required: false });
    sink.textList(knowledge, "invariants", base, false);
    sink.textList(knowledge, "tradeoffs", base, false);
  }
  sink.text(root, "plan_id", [], { required: false });
  sink.text(root, "created_at", [], { required: false });
  sink.text(root, "frozen_at", [], { required: false, nullable: true });
  for (const d of sink.objects(root, "diagram_graphs", [], false)) {
    parts.diagrams.push(readDiagram(sink, d));
  }
  for (const m of sink.objects(root, "milestones", [])) {
    parts.milestones.push(readMilestone(sink, m, parts));
  }
  for (const w of sink.objects(root, "waves", [], false)) {
    sink.unknownKeys(w.value, WAVE_KEYS, w.path, "planner-unknown-key", UNKNOWN);
    // Real plans write waves without `id`; nothing references a wave by it.
    parts.waves.push({
      id: sink.string(w.value, "id", w.path, { required: false }),
      milestones: sink.strings(w.value, "milestones", w.path),
    });
  }
  return parts;
}

function section(
  sink: JsonSink,
  root: JsonObject,
  key: string,
  required: boolean,
): JsonObject | undefined {
  if (!Object.hasOwn(root, key)) {
    if (required) sink.report("missing-key", [], `the top level has no \`${key}\``);
    return undefined;
  }
  return sink.object(own(root, key), [key]);
}

function readContext(sink: JsonSink, context: JsonObject, parts: PlanParts): void {
  const base = ["planning_context"];
  sink.unknownKeys(context, CONTEXT_SECTION_KEYS, base, "planner-unknown-key", UNKNOWN);
  // The seed lists decisions first; the planner's model defaults every list to empty.
  const decisions = spelling(sink, context, SPELLINGS.decisions, base, true);
  for (const d of sink.objects(context, decisions, base, false)) {
    sink.unknownKeys(d.value, DECISION_KEYS, d.path, "planner-unknown-key", UNKNOWN);
    const id = sink.string(d.value, "id", d.path);
    if (id) parts.decisions.push(id);
    sink.text(d.value, "decision", d.path);
    textOf(sink, d.value, SPELLINGS.reasoning, d.path);
  }
  for (const r of sink.objects(context, "rejected_alternatives", base, false)) {
    sink.unknownKeys(r.value, REJECTED_KEYS, r.path, "planner-unknown-key", UNKNOWN);
    sink.text(r.value, "id", r.path, { required: false });
    sink.text(r.value, "alternative", r.path);
    textOf(sink, r.value, SPELLINGS.reason, r.path);
    const ref = sink.string(r.value, "decision_ref", r.path);
    if (ref) parts.decisionRefs.push(ref);
  }
  // The seed's constraints are strings; schema-v2 plans write objects.
  for (const c of sink.array(context, "constraints", base, false)) {
    if (typeof c.value === "string") continue;
    const obj = sink.object(c.value, c.path);
    if (obj === undefined) continue;
    sink.unknownKeys(obj, CONSTRAINT_KEYS, c.path, "planner-unknown-key", UNKNOWN);
    sink.text(obj, "description", c.path);
    for (const key of ["id", "type", "source"]) sink.text(obj, key, c.path, { required: false });
  }
  const risks = spelling(sink, context, SPELLINGS.risks, base, false);
  for (const r of sink.objects(context, risks, base, false)) {
    sink.unknownKeys(r.value, RISK_KEYS, r.path, "planner-unknown-key", UNKNOWN);
    sink.text(r.value, "id", r.path, { required: false });
    sink.text(r.value, "risk", r.path);
    sink.text(r.value, "mitigation", r.path);
    sink.text(r.value, "anchor", r.path, { required: false, nullable: true });
    const ref = sink.string(r.value, "decision_ref", r.path, { required: false, nullable: true });
    if (ref) parts.decisionRefs.push(ref);
  }
}

/**
 * Which of a field's two spellings (the seed's, the planner's alias) the
 * object uses. Both at once is an error when the field holds ids others
 * refer to: which list the references resolve against would be a guess.
 */
function spelling(
  sink: JsonSink,
  obj: JsonObject,
  names: readonly [string, string],
  base: JsonPath,
  strict: boolean,
): string {
  const [seed, alias] = names;
  const hasSeed = Object.hasOwn(obj, seed);
  if (hasSeed && Object.hasOwn(obj, alias) && strict) {
    sink.report(
      "invalid-value",
      [...base, alias],
      `both \`${seed}\` and \`${alias}\` are present`,
      {
        key: true,
        hint: `they are two spellings of one list; keep one (the planner's code reads \`${alias}\` first)`,
      },
    );
  }
  return hasSeed || !Object.hasOwn(obj, alias) ? seed : alias;
}

/** A required prose field that may be written in either spelling; missing both names both. */
function textOf(
  sink: JsonSink,
  obj: JsonObject,
  names: readonly [string, string],
  base: JsonPath,
): void {
  const present = names.filter((n) => Object.hasOwn(obj, n));
  if (present.length === 0) {
    sink.report(
      "missing-key",
      base,
      `${formatPath(base)} has no \`${names[0]}\` (or \`${names[1]}\`)`,
      {
        hint: `add "${names[1]}" (the planner's spelling) or "${names[0]}"`,
      },
    );
  }
  for (const n of present) sink.text(obj, n, base);
}

function readDiagram(sink: JsonSink, d: At<JsonObject>): DiagramParts {
  sink.unknownKeys(d.value, DIAGRAM_KEYS, d.path, "planner-unknown-key", UNKNOWN);
  const type = sink.string(d.value, "type", d.path);
  if (type && !DIAGRAM_TYPES.has(type.value)) {
    sink.report(
      "invalid-value",
      type.path,
      `diagram type "${type.value}" is not one of ${[...DIAGRAM_TYPES].join(", ")}`,
    );
  }
  sink.text(d.value, "title", d.path);
  sink.text(d.value, "ascii_render", d.path, { required: false, nullable: true });
  const nodes: At<string>[] = [];
  for (const n of sink.objects(d.value, "nodes", d.path, false)) {
    sink.unknownKeys(n.value, NODE_KEYS, n.path, "planner-unknown-key", UNKNOWN);
    const id = sink.string(n.value, "id", n.path);
    if (id) nodes.push(id);
    sink.text(n.value, "label", n.path);
    sink.text(n.value, "type", n.path, { required: false, nullable: true });
  }
  const ends: At<string>[] = [];
  for (const e of sink.objects(d.value, "edges", d.path, false)) {
    sink.unknownKeys(e.value, EDGE_KEYS, e.path, "planner-unknown-key", UNKNOWN);
    const source = sink.string(e.value, "source", e.path);
    const target = sink.string(e.value, "target", e.path);
    if (source) ends.push(source);
    if (target) ends.push(target);
    sink.text(e.value, "label", e.path, { required: false });
    sink.text(e.value, "protocol", e.path, { required: false, nullable: true });
  }
  return {
    id: sink.string(d.value, "id", d.path),
    scope: sink.string(d.value, "scope", d.path),
    nodes,
    ends,
  };
}

function readMilestone(sink: JsonSink, m: At<JsonObject>, parts: PlanParts): MilestoneParts {
  sink.unknownKeys(m.value, MILESTONE_KEYS, m.path, "planner-unknown-key", UNKNOWN);
  const id = sink.string(m.value, "id", m.path);
  sink.text(m.value, "name", m.path);
  for (const f of sink.strings(m.value, "files", m.path)) warnPath(sink, f, "a milestone file");
  sink.textList(m.value, "requirements", m.path, false);
  sink.textList(m.value, "acceptance_criteria", m.path, false);
  sink.textList(m.value, "flags", m.path, false);
  sink.text(m.value, "delegated_to", m.path, { required: false, nullable: true });
  flag(sink, m.value, "is_documentation_only", m.path);
  readDocumentation(sink, m.value, m.path, parts);
  const tests = readTests(sink, m.value, m.path);
  const intents: At<string>[] = [];
  for (const ci of sink.objects(m.value, "code_intents", m.path, false)) {
    sink.unknownKeys(ci.value, INTENT_KEYS, ci.path, "planner-unknown-key", UNKNOWN);
    const intentId = sink.string(ci.value, "id", ci.path);
    if (intentId) intents.push(intentId);
    const file = sink.string(ci.value, "file", ci.path);
    if (file) warnPath(sink, file, "a code intent's file");
    sink.text(ci.value, "behavior", ci.path);
    parts.decisionRefs.push(...sink.strings(ci.value, "decision_refs", ci.path, false));
  }
  const intentRefs: At<string>[] = [];
  const changeIds: At<string>[] = [];
  for (const cc of sink.objects(m.value, "code_changes", m.path, false)) {
    sink.unknownKeys(cc.value, CHANGE_KEYS, cc.path, "planner-unknown-key", UNKNOWN);
    const changeId = sink.string(cc.value, "id", cc.path, { required: false });
    if (changeId) changeIds.push(changeId);
    // "null for cross-cutting docs (README.md)" (002, CodeChange.intent_ref).
    const ref = sink.string(cc.value, "intent_ref", cc.path, { required: false, nullable: true });
    if (ref) intentRefs.push(ref);
    const file = sink.string(cc.value, "file", cc.path);
    if (file) warnPath(sink, file, "a code change's file");
    sink.text(cc.value, "diff", cc.path, { required: false });
    sink.text(cc.value, "comments", cc.path, { required: false, nullable: true });
    sink.text(cc.value, "delegated_to", cc.path, { required: false, nullable: true });
    sink.text(cc.value, "doc_diff", cc.path, { required: false });
    flag(sink, cc.value, "is_documentation_only", cc.path);
  }
  return { id, path: m.path, intents, intentRefs, changeIds, tests };
}

function flag(sink: JsonSink, obj: JsonObject, key: string, base: JsonPath): void {
  if (!Object.hasOwn(obj, key) || typeof obj[key] === "boolean") return;
  sink.report("wrong-type", [...base, key], `${key} must be true or false`);
}

/**
 * A milestone's `documentation` (the planner's `Documentation` model): its
 * function blocks and inline comments may cite a decision, and the
 * planner's `validate_refs()` resolves those citations like any other.
 */
function readDocumentation(sink: JsonSink, m: JsonObject, base: JsonPath, parts: PlanParts): void {
  if (!Object.hasOwn(m, "documentation")) return;
  const path = [...base, "documentation"];
  const doc = sink.object(m.documentation, path);
  if (doc === undefined) return;
  sink.unknownKeys(doc, DOCUMENTATION_KEYS, path, "planner-unknown-key", UNKNOWN);
  sink.text(doc, "module_comment", path, { required: false, nullable: true });
  sink.array(doc, "docstrings", path, false);
  for (const key of ["function_blocks", "inline_comments"]) {
    for (const c of sink.objects(doc, key, path, false)) {
      const ref = sink.string(c.value, "decision_ref", c.path, { required: false, nullable: true });
      if (ref) parts.decisionRefs.push(ref);
    }
  }
}

/**
 * A milestone's `tests`: the seed's list of free-form entries, or the object
 * schema-v2 plans write (`files`, `type`, `backing`, `scenarios`,
 * `skip_reason`). The object's `files` become `file:` entries, so each is a
 * file-exists criterion exactly as the list form's would be; its scenarios
 * and skip reason become `scenario:` and `skip:` entries, manual criteria.
 */
function readTests(sink: JsonSink, m: JsonObject, base: JsonPath): At<unknown>[] {
  if (!Object.hasOwn(m, "tests")) return [];
  const path = [...base, "tests"];
  if (Array.isArray(m.tests)) return sink.array(m, "tests", base, false);
  const tests = sink.object(m.tests, path);
  if (tests === undefined) return [];
  sink.unknownKeys(tests, TESTS_OBJECT_KEYS, path, "planner-unknown-key", UNKNOWN);
  sink.text(tests, "type", path, { required: false });
  sink.text(tests, "backing", path, { required: false });
  const out: At<unknown>[] = sink
    .strings(tests, "files", path, false)
    .map((f) => ({ value: `file:${f.value}`, path: f.path }));
  if (Object.hasOwn(tests, "scenarios")) {
    const scenarios = sink.object(tests.scenarios, [...path, "scenarios"]);
    for (const kind of Object.keys(scenarios ?? {})) {
      for (const s of sink.strings(scenarios!, kind, [...path, "scenarios"])) {
        out.push({ value: `scenario:${kind} ${s.value}`, path: s.path });
      }
    }
  }
  const skip = sink.string(tests, "skip_reason", path, { required: false, nullable: true });
  if (skip) out.push({ value: `skip:${skip.value}`, path: skip.path });
  return out;
}

/**
 * Real plans carry `/workspaces/<repo>/...` paths: a warning, since the plan
 * still reads, but no check can confirm such a file at the PR head.
 */
export function warnPath(sink: JsonSink, file: At<string>, what: string): void {
  const why = pathReason(file.value);
  if (why === undefined) return;
  sink.report("absolute-path", file.path, `${what}, "${file.value}", ${why}`, {
    hint: "write paths relative to the repository root",
  });
}
