import type { Contract, Criterion, JsonKindHeader } from "../../model/contract.js";
import { type JsonKindParts, parseJsonKind } from "../json/kind-read.js";
import { type JsonObject, type JsonSink, keys } from "../json/sink.js";
import { lineList, linePairs } from "./bounds.js";
import { citationsIn, stringsIn } from "./citations.js";

export const PLAN_KEYS = keys("changes", "verification", "risks", "human_decisions_needed");

/**
 * Parse a sealed plan artifact (`.workphase/<name>/plan.json`, 003's
 * `Plan.Validate`): 1–64 changes with `target` and `intent`, bounded
 * single-line lists. Each `human_decisions_needed` entry is a blocking manual
 * criterion (a person must decide before the plan is acted on); each
 * `verification` entry a manual one. Citations are collected here and
 * resolved against the research beside the plan by `linkResearch`.
 */
export function parseWorkphasePlan(path: string, bytes: Uint8Array): Contract {
  return parseJsonKind("workphase-plan", path, bytes, readPlan);
}

function readPlan(sink: JsonSink, root: JsonObject): JsonKindParts {
  const criteria: Criterion[] = [];
  const citations: NonNullable<JsonKindHeader["citations"]> = [];
  sink.unknownKeys(root, PLAN_KEYS, [], "unknown-key", "a plan artifact");
  linePairs(sink, root, "changes", ["target", "intent"], 1, "a change");
  lineList(sink, root, "risks");
  lineList(sink, root, "verification").forEach((v, i) => {
    criteria.push({
      id: `verify-${i + 1}`,
      title: v.value.trim(),
      location: sink.at(v.path),
      checks: [],
    });
  });
  lineList(sink, root, "human_decisions_needed").forEach((d, i) => {
    criteria.push({
      id: `decision-${i + 1}`,
      title: d.value.trim(),
      location: sink.at(d.path),
      checks: [],
      settled: {
        status: "manual",
        blocking: true,
        reason: "needs a person: the plan names a decision only a human can make",
      },
    });
  });
  for (const s of stringsIn(root)) {
    for (const id of citationsIn(s.value)) citations.push({ id, location: sink.at(s.path) });
  }
  return { criteria, header: { citations } };
}
