import type { ProblemCode } from "../../model/problem-codes.js";
import { formatPath } from "../json/path.js";
import type { At, JsonSink } from "../json/sink.js";
import type { PlanParts } from "./read-plan.js";

/**
 * Ids must be unique where something references them, and every reference
 * must resolve: the seed's `Plan.validate_refs()` (002, "Cross-reference
 * validation"), plus milestone ↔ wave membership ("Waves execute in array
 * order. All milestones in W-001 complete before W-002 begins."). Every
 * lookup is a Set or Map probe, so the rules are linear in the plan's size.
 */
export function referenceProblems(sink: JsonSink, parts: PlanParts): void {
  const decisions = unique(sink, parts.decisions, "decision", "duplicate-id");
  const milestones = unique(
    sink,
    parts.milestones.flatMap((m) => (m.id ? [m.id] : [])),
    "milestone",
    "duplicate-id",
  );
  unique(
    sink,
    parts.milestones.flatMap((m) => m.intents),
    "code intent",
    "duplicate-id",
  );
  unique(
    sink,
    parts.diagrams.flatMap((d) => (d.id ? [d.id] : [])),
    "diagram",
    "duplicate-id",
  );
  unique(
    sink,
    parts.waves.flatMap((w) => (w.id ? [w.id] : [])),
    "wave",
    "duplicate-id",
  );

  for (const ref of parts.decisionRefs) {
    resolve(sink, ref, decisions, "decision", "planning_context.decisions");
  }

  for (const m of parts.milestones) {
    // "(within same milestone, when not null)": an intent of another milestone does not count.
    const own = new Set(m.intents.map((i) => i.value));
    const name = m.id ? `milestone ${m.id.value}` : "this milestone";
    for (const ref of m.intentRefs)
      resolve(sink, ref, own, "code intent", `${name}'s code_intents`);
    unique(sink, m.changeIds, `code change of ${name}`, "duplicate-change-id");
  }

  for (const d of parts.diagrams) {
    const name = d.id ? `diagram ${d.id.value}` : "this diagram";
    const nodes = unique(sink, d.nodes, `node of ${name}`, "duplicate-id");
    // "(within same diagram)": an edge may not reach into another diagram.
    for (const end of d.ends) resolve(sink, end, nodes, "node", `${name}'s nodes`);
    if (d.scope) scopeProblems(sink, d.scope, milestones);
  }

  waveProblems(sink, parts, milestones);
}

/** The set of ids, reporting each repeat at the repeat. */
function unique(
  sink: JsonSink,
  ids: readonly At<string>[],
  what: string,
  code: ProblemCode,
): Set<string> {
  const first = new Map<string, At<string>>();
  for (const id of ids) {
    const earlier = first.get(id.value);
    if (earlier === undefined) {
      first.set(id.value, id);
      continue;
    }
    sink.report(code, id.path, `${formatPath(id.path)}: ${what} id "${id.value}" is used twice`, {
      hint: `the first is at line ${sink.at(earlier.path).line}; give each its own id`,
    });
  }
  return new Set(first.keys());
}

function resolve(
  sink: JsonSink,
  ref: At<string>,
  ids: ReadonlySet<string>,
  what: string,
  where: string,
): void {
  if (ids.has(ref.value)) return;
  sink.report(
    "unresolved-reference",
    ref.path,
    `${formatPath(ref.path)}: "${ref.value}" is no ${what} in ${where}`,
    {
      hint: ids.size === 0 ? `${where} is empty` : `known: ${preview(ids)}`,
    },
  );
}

const SCOPES = new Set(["overview", "invisible_knowledge"]);

/** `scope: "overview" | "invisible_knowledge" | "milestone:M-XXX"` (002, DiagramGraph). */
function scopeProblems(sink: JsonSink, scope: At<string>, milestones: ReadonlySet<string>) {
  if (SCOPES.has(scope.value)) return;
  if (!scope.value.startsWith("milestone:")) {
    sink.report(
      "invalid-value",
      scope.path,
      `diagram scope "${scope.value}" is not overview, invisible_knowledge or milestone:<id>`,
    );
    return;
  }
  const id = scope.value.slice("milestone:".length);
  if (milestones.has(id)) return;
  sink.report(
    "unresolved-reference",
    scope.path,
    `${formatPath(scope.path)}: "${id}" is no milestone of this plan`,
    {
      hint: milestones.size === 0 ? "milestones is empty" : `known: ${preview(milestones)}`,
    },
  );
}

/** Every wave's milestones exist, and every milestone is in exactly one wave. */
function waveProblems(sink: JsonSink, parts: PlanParts, milestones: ReadonlySet<string>) {
  const waveOf = new Map<string, At<string>>();
  for (const w of parts.waves) {
    for (const ref of w.milestones) {
      if (!milestones.has(ref.value)) {
        sink.report(
          "unresolved-reference",
          ref.path,
          `${formatPath(ref.path)}: "${ref.value}" is no milestone of this plan`,
          {
            hint: milestones.size === 0 ? "milestones is empty" : `known: ${preview(milestones)}`,
          },
        );
        continue;
      }
      const earlier = waveOf.get(ref.value);
      if (earlier === undefined) waveOf.set(ref.value, ref);
      else {
        sink.report(
          "milestone-wave",
          ref.path,
          `${formatPath(ref.path)}: milestone ${ref.value} is in a second wave`,
          {
            hint: `it is already at line ${sink.at(earlier.path).line}; a milestone runs in one wave`,
          },
        );
      }
    }
  }
  for (const m of parts.milestones) {
    if (m.id === undefined || waveOf.has(m.id.value)) continue;
    sink.report("milestone-wave", m.id.path, `milestone ${m.id.value} is in no wave`, {
      hint: "list it in the `milestones` of one entry of `waves`",
    });
  }
}

/** At most ten ids, for a hint. */
function preview(ids: ReadonlySet<string>): string {
  const list: string[] = [];
  for (const id of ids) {
    if (list.length === 10) break;
    list.push(id);
  }
  return list.join(", ") + (ids.size > 10 ? `, … (${ids.size} in all)` : "");
}
