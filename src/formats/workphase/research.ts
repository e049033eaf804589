import type { Contract, JsonKindHeader } from "../../model/contract.js";
import { type JsonKindParts, parseJsonKind } from "../json/kind-read.js";
import { type At, type JsonObject, type JsonSink, keys } from "../json/sink.js";
import { unsafePathReason } from "../paths.js";
import { countProblems, lineList, linePairs, lineProblems } from "./bounds.js";

export const RESEARCH_KEYS = keys(
  "findings",
  "relevant_code",
  "invariants",
  "dead_ends",
  "unknowns",
);
export const FINDING_KEYS = keys("id", "claim", "evidence", "confidence");
export const CODE_KEYS = keys("path", "why");
export const CONFIDENCES: ReadonlySet<string> = new Set(["fact", "inference", "assumption"]);

/**
 * "findingID is deliberately narrow. An id appears in plan prose as
 * "research:<id>", so anything with spaces or punctuation would make the
 * citation ambiguous" (003). Anchored, no nested quantifier: linear.
 */
export const FINDING_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

type Finding = NonNullable<JsonKindHeader["findings"]>[number];

/**
 * Parse a sealed research artifact (`.workphase/<name>/research.json`, 003's
 * `Research.Validate`). Every problem is collected, where the seed stops at
 * the first. Findings without `id`/`confidence` are the legacy form that
 * `DecodeStoredResearch` backfills (`legacy-<n>`, `inference`): accepted with
 * a warning here.
 */
export function parseWorkphaseResearch(path: string, bytes: Uint8Array): Contract {
  return parseJsonKind("workphase-research", path, bytes, readResearch);
}

function readResearch(sink: JsonSink, root: JsonObject): JsonKindParts {
  sink.unknownKeys(root, RESEARCH_KEYS, [], "unknown-key", "a research artifact");
  const list = sink.objects(root, "findings", []);
  countProblems(sink, root, "findings", list, 1);
  const seen = new Map<string, At<string>>();
  const findings = list.map((f, i) => readFinding(sink, f, i, seen));
  const code = sink.objects(root, "relevant_code", [], false);
  countProblems(sink, root, "relevant_code", code, 0);
  for (const c of code) {
    sink.unknownKeys(c.value, CODE_KEYS, c.path, "unknown-key", "a relevant_code entry");
    const p = sink.string(c.value, "path", c.path);
    lineProblems(sink, p, true);
    const why = p && p.value.trim() !== "" ? unsafePathReason(p.value.trim()) : undefined;
    if (p && why) {
      sink.report(
        "unsafe-path",
        p.path,
        `relevant_code path "${p.value}" ${why}; it must be repository-relative`,
      );
    }
    lineProblems(sink, sink.string(c.value, "why", c.path, { required: false }), false);
  }
  linePairs(sink, root, "dead_ends", ["tried", "why_failed"], 0, "a dead_ends entry");
  lineList(sink, root, "invariants");
  lineList(sink, root, "unknowns");
  return { header: { findings } };
}

/** One finding: id, confidence, claim and evidence (003's loop in `Research.Validate`). */
function readFinding(
  sink: JsonSink,
  f: At<JsonObject>,
  i: number,
  seen: Map<string, At<string>>,
): Finding {
  sink.unknownKeys(f.value, FINDING_KEYS, f.path, "unknown-key", "a finding");
  const legacy = !Object.hasOwn(f.value, "id") || !Object.hasOwn(f.value, "confidence");
  const id = sink.string(f.value, "id", f.path, { required: false });
  const confidence = sink.string(f.value, "confidence", f.path, { required: false });
  const claim = sink.string(f.value, "claim", f.path);
  lineProblems(sink, claim, true);
  lineProblems(sink, sink.string(f.value, "evidence", f.path), true);
  if (legacy) {
    const missing = [id ? "" : "id", confidence ? "" : "confidence"].filter(Boolean).join(" or ");
    sink.report(
      "legacy-research",
      f.path,
      `finding ${i + 1} has no ${missing}; read as ${id?.value ?? `legacy-${i + 1}`}, ${confidence?.value ?? "inference"}`,
      {
        hint: "the form sealed before ids existed; give it an id and a confidence (fact, inference or assumption)",
      },
    );
  }
  if (id && !FINDING_ID.test(id.value)) {
    sink.report(
      "invalid-finding-id",
      id.path,
      `finding id ${JSON.stringify(id.value)} must be lowercase letters, digits, dash or underscore, at most 64 characters`,
    );
  } else if (id) {
    const earlier = seen.get(id.value);
    if (earlier) {
      sink.report("duplicate-id", id.path, `finding id "${id.value}" is used twice`, {
        hint: `the first is at line ${sink.at(earlier.path).line}`,
      });
    } else seen.set(id.value, id);
  }
  if (confidence && !CONFIDENCES.has(confidence.value)) {
    sink.report(
      "invalid-value",
      confidence.path,
      `confidence "${confidence.value}" is not fact, inference, or assumption`,
    );
  }
  return {
    id: id?.value ?? `legacy-${i + 1}`,
    confidence: confidence?.value ?? "inference",
    claim: claim?.value.trim() ?? "",
    location: sink.at(f.path),
  };
}
