import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { MAX_CONTRACT_BYTES } from "../src/formats/text.js";
import { linkResearch } from "../src/formats/workphase/index.js";
import type { ContractKind } from "../src/model/contract.js";
import { measure } from "./helpers/work-meter.js";

// Every planner and workphase parser ends on 1 MiB adversarial inputs with
// problems, never a throw or a stack overflow. No timing here: the work a
// parse does is counted (test/helpers/work-meter.ts) at two sizes, and a
// quadratic rule shows as the count growing 16-fold when the input grows 4-fold.

const SIZE = MAX_CONTRACT_BYTES - 64;
const encoder = new TextEncoder();

/** Copies of `item` joined by commas inside `open`…`close`, as many as fit in `size`. */
function fill(open: string, item: (i: number) => string, close: string, size: number): string {
  const parts: string[] = [];
  let length = open.length + close.length;
  for (let i = 0; ; i++) {
    const next = item(i);
    if (length + next.length + 1 > size) break;
    parts.push(next);
    length += next.length + 1;
  }
  return `${open}${parts.join(",")}${close}`;
}

const SHAPES: {
  name: string;
  kind: ContractKind;
  path: string;
  /** The input, close to `size` characters. */
  text: (size: number) => string;
  errors: boolean;
}[] = [
  {
    name: "a QR file with every item a criterion",
    kind: "planner-qr",
    path: "plans/qr-plan-code.json",
    text: (size) =>
      fill(
        '{"phase":"plan-code","iteration":1,"items":[',
        (i) => `{"id":"q${i}","check":"c","status":"PASS"}`,
        "]}",
        size,
      ),
    errors: false,
  },
  {
    name: "a plan whose every decision_ref is broken",
    kind: "planner-plan",
    path: "plans/p-plan.json",
    text: (size) =>
      fill(
        '{"overview":{"problem":"p","approach":"a"},"planning_context":{"decisions":[]},"milestones":[{"id":"M-1","name":"n","files":[],"code_intents":[{"id":"CI-1","file":"a","behavior":"b","decision_refs":[',
        (i) => `"DL-${i}"`,
        ']}]}],"waves":[{"milestones":["M-1"]}]}',
        size,
      ),
    errors: true,
  },
  {
    name: "a plan with every milestone in no wave",
    kind: "planner-plan",
    path: "plans/p-plan.json",
    text: (size) =>
      fill(
        '{"overview":{"problem":"p","approach":"a"},"planning_context":{"decisions":[]},"waves":[],"milestones":[',
        (i) => `{"id":"M-${i}","name":"n","files":[]}`,
        "]}",
        size,
      ),
    errors: true,
  },
  {
    name: "research with every finding id repeated",
    kind: "workphase-research",
    path: ".workphase/a/research.json",
    text: (size) =>
      fill(
        '{"findings":[',
        () => '{"id":"r1","claim":"c","evidence":"e","confidence":"fact"}',
        "]}",
        size,
      ),
    errors: true,
  },
  {
    name: "one claim of a megabyte",
    kind: "workphase-research",
    path: ".workphase/a/research.json",
    text: (size) =>
      `{"findings":[{"id":"r1","claim":"${"x".repeat(size - 100)}","evidence":"e","confidence":"fact"}]}`,
    errors: true,
  },
  {
    name: "a plan that is all citations",
    kind: "workphase-plan",
    path: ".workphase/a/plan.json",
    text: (size) =>
      `{"changes":[{"target":"t","intent":"${"research:r1 ".repeat((size - 100) / 12)}"}]}`,
    errors: true,
  },
  {
    name: "a context file of empty strings",
    kind: "planner-context",
    path: "plans/context.json",
    text: (size) => fill('{"task_spec":[', () => '""', "]}", size),
    errors: true,
  },
];

describe("1 MiB adversarial inputs: every planner and workphase parser ends, with problems", () => {
  it.each(SHAPES)("$name", ({ kind, path, text, errors }) => {
    const bytes = encoder.encode(text(SIZE));
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

/** Input size of the work comparison: big enough that the fixed part of a shape is noise. */
const SMALL = 64 * 1024;
/** Four times as much input may cost at most this many times the work (linear: about 4). */
const MAX_GROWTH = 5;

describe("adversarial inputs: every planner and workphase parser's work grows linearly", () => {
  it.each(SHAPES)("$name", ({ kind, path, text }) => {
    // Built before measuring: the count is the parse's alone.
    const small = encoder.encode(text(SMALL));
    const large = encoder.encode(text(4 * SMALL));
    const work = (bytes: Uint8Array) =>
      measure(() => linkResearch(parseContract(kind, path, bytes), undefined));
    expect(work(large) / work(small)).toBeLessThanOrEqual(MAX_GROWTH);
  });
});
