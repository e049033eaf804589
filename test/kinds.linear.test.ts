import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { MAX_CONTRACT_BYTES } from "../src/formats/text.js";
import { linkResearch } from "../src/formats/workphase/index.js";
import type { ContractKind } from "../src/model/contract.js";

// Every planner and workphase parser ends on 1 MiB adversarial inputs with
// problems, never a throw or a stack overflow. No timing here: a quadratic
// rule shows as this file timing out.

const SIZE = MAX_CONTRACT_BYTES - 64;
const encoder = new TextEncoder();

/** `count` copies of `item` joined by commas inside `open`…`close`, as many as fit in SIZE. */
function fill(open: string, item: (i: number) => string, close: string): string {
  const parts: string[] = [];
  let length = open.length + close.length;
  for (let i = 0; ; i++) {
    const next = item(i);
    if (length + next.length + 1 > SIZE) break;
    parts.push(next);
    length += next.length + 1;
  }
  return `${open}${parts.join(",")}${close}`;
}

const SHAPES: {
  name: string;
  kind: ContractKind;
  path: string;
  text: () => string;
  errors: boolean;
}[] = [
  {
    name: "a QR file with every item a criterion",
    kind: "planner-qr",
    path: "plans/qr-plan-code.json",
    text: () =>
      fill(
        '{"phase":"plan-code","iteration":1,"items":[',
        (i) => `{"id":"q${i}","check":"c","status":"PASS"}`,
        "]}",
      ),
    errors: false,
  },
  {
    name: "a plan whose every decision_ref is broken",
    kind: "planner-plan",
    path: "plans/p-plan.json",
    text: () =>
      fill(
        '{"overview":{"problem":"p","approach":"a"},"planning_context":{"decisions":[]},"milestones":[{"id":"M-1","name":"n","files":[],"code_intents":[{"id":"CI-1","file":"a","behavior":"b","decision_refs":[',
        (i) => `"DL-${i}"`,
        ']}]}],"waves":[{"milestones":["M-1"]}]}',
      ),
    errors: true,
  },
  {
    name: "a plan with every milestone in no wave",
    kind: "planner-plan",
    path: "plans/p-plan.json",
    text: () =>
      fill(
        '{"overview":{"problem":"p","approach":"a"},"planning_context":{"decisions":[]},"waves":[],"milestones":[',
        (i) => `{"id":"M-${i}","name":"n","files":[]}`,
        "]}",
      ),
    errors: true,
  },
  {
    name: "research with every finding id repeated",
    kind: "workphase-research",
    path: ".workphase/a/research.json",
    text: () =>
      fill(
        '{"findings":[',
        () => '{"id":"r1","claim":"c","evidence":"e","confidence":"fact"}',
        "]}",
      ),
    errors: true,
  },
  {
    name: "one claim of a megabyte",
    kind: "workphase-research",
    path: ".workphase/a/research.json",
    text: () =>
      `{"findings":[{"id":"r1","claim":"${"x".repeat(SIZE - 100)}","evidence":"e","confidence":"fact"}]}`,
    errors: true,
  },
  {
    name: "a plan that is all citations",
    kind: "workphase-plan",
    path: ".workphase/a/plan.json",
    text: () =>
      `{"changes":[{"target":"t","intent":"${"research:r1 ".repeat((SIZE - 100) / 12)}"}]}`,
    errors: true,
  },
  {
    name: "a context file of empty strings",
    kind: "planner-context",
    path: "plans/context.json",
    text: () => fill('{"task_spec":[', () => '""', "]}"),
    errors: true,
  },
];

describe("1 MiB adversarial inputs: every planner and workphase parser ends, with problems", () => {
  it.each(SHAPES)("$name", ({ kind, path, text, errors }) => {
    const bytes = encoder.encode(text());
    expect(bytes.length).toBeGreaterThan(SIZE - 1024);
    expect(bytes.length).toBeLessThanOrEqual(MAX_CONTRACT_BYTES);
    const contract = linkResearch(parseContract(kind, path, bytes), undefined);
    for (const p of contract.problems.slice(0, 100)) {
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.message).not.toBe("");
    }
    expect(contract.problems.some((p) => p.severity === "error")).toBe(errors);
  });
});
