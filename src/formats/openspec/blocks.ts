import type { OpenspecRequirement } from "../../model/contract.js";
import { atxText, type Doc } from "../markdown/lines.js";
import { at, shown } from "./read.js";

/**
 * OpenSpec's requirement blocks (`src/core/parsers/requirement-blocks.ts`,
 * `requirement-text.ts`), read the same way in a delta section and under a
 * main spec's `## Requirements`: a block runs from `### Requirement: <name>`
 * to the next one or the end of the section; its text is the lines up to
 * the first heading of any level (blank lines skipped, metadata lines such as
 * `**ID**: x` dropped unless nothing else is there); every `####` heading in
 * the block is a scenario.
 */
const REQUIREMENT = /^###[ \t]*Requirement:[ \t]*(.*?)[ \t]*$/i;
const HEADING = /^#{1,6}[ \t]/;
const H3 = /^###(?:[ \t]|$)/;
const SCENARIO = /^####[ \t]+/;
const METADATA = /^\*\*[^*]+\*\*:/;
const NORMATIVE = /\b(?:SHALL|MUST)\b/g;
const SCENARIO_PREFIX = /^scenario:[ \t]*/i;
/** What authors write for a scenario that OpenSpec does not read as one. */
const SCENARIO_LOOKALIKE = /^(?:###[ \t]*Scenario\b|[-*+][ \t]+\*\*Scenario\b|\*\*Scenario\b)/i;

/** A `###` line in a requirements range that is not `### Requirement: <name>`. */
export interface StrayHeading {
  index: number;
  text: string;
}

export interface Blocks {
  requirements: OpenspecRequirement[];
  /** Other `###` headings, and `### Requirement:` with no name. */
  stray: StrayHeading[];
  /** Requirement name → a scenario written in a form OpenSpec does not read (line index). */
  lookalike: Map<OpenspecRequirement, number>;
}

/** Whether a line is `### Requirement: <name>` (any case of the word, as OpenSpec ≥ 1.5). */
export function requirementName(line: string): string | undefined {
  const m = REQUIREMENT.exec(line);
  return m ? m[1]! : undefined;
}

/** How many SHALL/MUST a text holds. */
export function normativeCount(text: string): number {
  return text.match(NORMATIVE)?.length ?? 0;
}

/** The requirement blocks of the lines `[from, to)`. */
export function readBlocks(doc: Doc, from: number, to: number): Blocks {
  const requirements: OpenspecRequirement[] = [];
  const stray: StrayHeading[] = [];
  const lookalike = new Map<OpenspecRequirement, number>();
  let current: OpenspecRequirement | undefined;
  let body: string[] | undefined;
  let meta: string[] = [];
  const close = () => {
    if (current === undefined || body === undefined) return;
    const lines = body.length > 0 ? body : meta;
    current.text = lines.join("\n");
    current.normative = normativeCount(current.text);
    body = undefined;
  };
  for (let i = from; i < to; i++) {
    const line = shown(doc, i);
    if (line === undefined) continue;
    const name = requirementName(line);
    if (name !== undefined && name !== "") {
      if (body !== undefined) close();
      current = {
        name,
        text: "",
        normative: 0,
        scenarios: [],
        location: at(doc, i),
      };
      requirements.push(current);
      body = [];
      meta = [];
      continue;
    }
    if (H3.test(line)) {
      stray.push({ index: i, text: line.trim() });
      if (body !== undefined) close();
      continue;
    }
    if (HEADING.test(line)) {
      if (body !== undefined) close();
      if (current !== undefined && SCENARIO.test(line)) {
        current.scenarios.push({
          name: atxText(line).replace(SCENARIO_PREFIX, "").trim(),
          location: at(doc, i),
        });
      }
      continue;
    }
    const trimmed = line.trim();
    if (current !== undefined && SCENARIO_LOOKALIKE.test(trimmed) && !lookalike.has(current)) {
      lookalike.set(current, i);
    }
    if (body === undefined || trimmed === "") continue;
    (METADATA.test(trimmed) ? meta : body).push(trimmed);
  }
  close();
  return { requirements, stray, lookalike };
}
