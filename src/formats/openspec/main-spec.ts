import type { Location, OpenspecMainSpec, Problem } from "../../model/contract.js";
import { atxText } from "../markdown/lines.js";
import { readBlocks, requirementName } from "./blocks.js";
import { push } from "./delta.js";
import { at, type OpenspecDoc, readOpenspecDoc, shown } from "./read.js";
import { requirementRules } from "./requirement-rules.js";

/**
 * A main spec, `openspec/specs/<capability>/spec.md` (OpenSpec's
 * `markdown-parser.ts` and `spec-structure.ts`): a non-empty `Purpose`
 * section, a `Requirements` section holding `### Requirement: <name>` blocks,
 * each with text holding SHALL or MUST and a scenario; no delta headers, no
 * requirement outside `## Requirements`, no name twice. OpenSpec counts every
 * child heading of `## Requirements` as a requirement; the gate requires the
 * `Requirement:` prefix there too, as the delta reader and archive do. Pure.
 */
const HEADING = /^(#{1,6})[ \t]/;
const DELTA_HEADER = /^##[ \t]+(?:ADDED|MODIFIED|REMOVED|RENAMED)[ \t]+Requirements[ \t]*$/i;

export interface ParsedMainSpec {
  spec: OpenspecMainSpec;
  problems: Problem[];
}

interface Heading {
  index: number;
  level: number;
  title: string;
}

export function parseMainSpec(path: string, capability: string, bytes: Uint8Array): ParsedMainSpec {
  const spec: OpenspecMainSpec = { path, capability, requirements: [] };
  const read = readOpenspecDoc(path, bytes);
  if (!("doc" in read)) return { spec, problems: [read] };
  const { doc } = read;
  const headings: Heading[] = [];
  for (let i = 0; i < doc.lines.length; i++) {
    const line = shown(doc, i);
    const m = line === undefined ? null : HEADING.exec(line);
    if (m) headings.push({ index: i, level: m[1]!.length, title: atxText(line!) });
  }
  /** The end of a heading's section: the next heading of its level or higher. */
  const endOf = (k: number) => {
    const h = headings[k]!;
    for (let j = k + 1; j < headings.length; j++) {
      if (headings[j]!.level <= h.level) return headings[j]!.index;
    }
    return doc.lines.length;
  };
  const find = (title: string) => headings.findIndex((h) => h.title.toLowerCase() === title);
  const top = at(doc, headings[0]?.index ?? 0);
  const purpose = find("purpose");
  if (purpose === -1) {
    missing(
      read,
      top,
      "the main spec has no ## Purpose section: it says what the capability is for",
    );
  } else {
    let text = "";
    for (let i = headings[purpose]!.index + 1; i < endOf(purpose); i++) {
      text += (shown(doc, i) ?? "").trim();
    }
    if (text === "") {
      missing(
        read,
        at(doc, headings[purpose]!.index),
        "the main spec's ## Purpose section is empty",
      );
    }
  }
  const reqs = find("requirements");
  let from = -1;
  let to = -1;
  if (reqs === -1) {
    missing(
      read,
      top,
      "the main spec has no ## Requirements section: its requirements are read from there",
    );
  } else {
    from = headings[reqs]!.index + 1;
    to = endOf(reqs);
    const blocks = readBlocks(doc, from, to);
    spec.requirements = blocks.requirements;
    for (const s of blocks.stray) {
      push(
        read,
        "openspec-requirement-header",
        at(doc, s.index),
        requirementName(s.text) !== undefined
          ? "this requirement header has no name"
          : `"${s.text.slice(0, 80)}" under ## Requirements is not a \`### Requirement: <name>\` header: OpenSpec's archive and every change's MODIFIED/REMOVED name requirements by that header`,
        `write it as \`### Requirement: ${atxText(s.text).slice(0, 60)}\``,
      );
    }
    const seen = new Map<string, Location>();
    for (const r of spec.requirements) {
      const first = seen.get(r.name);
      if (first !== undefined) {
        push(
          read,
          "openspec-conflict",
          r.location,
          `"${r.name}" is already a requirement of this spec (line ${first.line})`,
          "give each requirement its own name, or merge the two blocks",
        );
      } else seen.set(r.name, r.location);
      requirementRules(read, "Requirement", r, blocks.lookalike.get(r));
    }
    if (spec.requirements.length === 0) {
      push(
        read,
        "no-criteria",
        at(doc, headings[reqs]!.index),
        "the spec's ## Requirements holds no `### Requirement: <name>` block: there is nothing to gate",
        "add `### Requirement: <name>` blocks, each with SHALL/MUST text and a `#### Scenario:`",
      );
    }
  }
  for (let i = 0; i < doc.lines.length; i++) {
    const line = shown(doc, i);
    if (line === undefined) continue;
    if (DELTA_HEADER.test(line)) {
      push(
        read,
        "openspec-spec-section",
        at(doc, i),
        `"${line.trim()}" is a delta header in a main spec: delta headers belong in openspec/changes/<id>/specs/${capability}/spec.md`,
        "move the delta into a change, or write the requirements as they stand under `## Requirements`",
      );
    } else if ((i < from || i >= to) && requirementName(line)) {
      push(
        read,
        "openspec-spec-section",
        at(doc, i),
        "this requirement lies outside the ## Requirements section: OpenSpec does not read it as one",
        "move it under `## Requirements`",
      );
    }
  }
  return { spec, problems: read.problems.list() };
}

function missing(read: OpenspecDoc, location: Location, message: string): void {
  push(
    read,
    "openspec-spec-section",
    location,
    message,
    "write the main spec as `## Purpose` (a paragraph), then `## Requirements` with the `### Requirement: <name>` blocks",
  );
}
