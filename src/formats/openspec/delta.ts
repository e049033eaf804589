import type {
  Location,
  OpenspecDelta,
  OpenspecRemoved,
  OpenspecRenamed,
  OpenspecRequirement,
  Problem,
} from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { atxText } from "../markdown/lines.js";
import { type Blocks, readBlocks, requirementName } from "./blocks.js";
import { at, type OpenspecDoc, readOpenspecDoc, shown } from "./read.js";
import { requirementRules } from "./requirement-rules.js";

/**
 * A delta spec, `openspec/changes/<id>/specs/<capability>/spec.md`, read as
 * OpenSpec's validator reads it (`Validator.validateChangeDeltaSpecs`): the
 * four delta sections by their exact titles (any case), ADDED and MODIFIED
 * as requirement blocks, REMOVED as names, RENAMED as FROM/TO pairs, and the
 * conflicts OpenSpec refuses. Rules that need the main spec are the link's.
 * Pure.
 */
const OPS = ["ADDED", "MODIFIED", "REMOVED", "RENAMED"] as const;
type Op = (typeof OPS)[number];

const H2 = /^##[ \t]+(.+)$/;
const REMOVED_BULLET = /^[ \t]*-[ \t]*`?###[ \t]*Requirement:[ \t]*(.+?)`?[ \t]*$/;
const FROM = /^[ \t]*-?[ \t]*FROM:[ \t]*`?###[ \t]*Requirement:[ \t]*(.+?)`?[ \t]*$/;
const TO = /^[ \t]*-?[ \t]*TO:[ \t]*`?###[ \t]*Requirement:[ \t]*(.+?)`?[ \t]*$/;
/** FROM:/TO: lines in any other form (lower case, no header): said, never dropped. */
const RENAME_LIKE = /^[ \t]*-?[ \t]*(?:from|to)[ \t]*:/i;

export interface ParsedDelta {
  delta: OpenspecDelta;
  problems: Problem[];
  /** Whether the file has at least one delta section. */
  sections: number;
}

export function parseDelta(path: string, capability: string, bytes: Uint8Array): ParsedDelta {
  const delta: OpenspecDelta = {
    path,
    capability,
    added: [],
    modified: [],
    removed: [],
    renamed: [],
  };
  const read = readOpenspecDoc(path, bytes);
  if (!("doc" in read)) return { delta, problems: [read], sections: 0 };
  const { doc } = read;
  const seen = new Map<Op, number>();
  let sections = 0;
  // Each `##` line, as OpenSpec splits sections (`# ` lines never split).
  const heads: number[] = [];
  for (let i = 0; i < doc.lines.length; i++) {
    const line = shown(doc, i);
    if (line !== undefined && H2.test(line)) heads.push(i);
  }
  for (let k = 0; k < heads.length; k++) {
    const i = heads[k]!;
    const end = heads[k + 1] ?? doc.lines.length;
    const title = atxText(doc.visible[i]!);
    const op = opOf(title);
    if (op === undefined) {
      const near = nearOp(title);
      if (near !== undefined) {
        push(
          read,
          "openspec-delta-section",
          at(doc, i),
          `"## ${title}" reads as "## ${near} Requirements" but is not written so: OpenSpec does not read it as a delta section, so the requirements under it are ignored`,
          `write the heading exactly \`## ${near} Requirements\` (one space, the word "Requirements")`,
        );
      } else {
        // A requirement under a heading that is no delta section: OpenSpec ignores it.
        for (let j = i + 1; j < end; j++) {
          const line = shown(doc, j);
          if (line === undefined || requirementName(line) === undefined) continue;
          push(
            read,
            "openspec-delta-section",
            at(doc, j),
            `this requirement is under "## ${title}", which is no delta section: OpenSpec ignores it`,
            "move it under `## ADDED Requirements` or `## MODIFIED Requirements`",
          );
          break;
        }
      }
      continue;
    }
    sections++;
    const first = seen.get(op);
    if (first !== undefined) {
      push(
        read,
        "openspec-delta-section",
        at(doc, i),
        `a second "## ${op} Requirements" section (the first is on line ${first + 1}): OpenSpec keeps only one of them and drops the other's requirements`,
        `merge both into one \`## ${op} Requirements\` section`,
      );
    } else seen.set(op, i);
    if (op === "ADDED" || op === "MODIFIED") {
      const blocks = readBlocks(doc, i + 1, end);
      const list = op === "ADDED" ? delta.added : delta.modified;
      list.push(...blocks.requirements);
      blockProblems(read, op, blocks);
    } else if (op === "REMOVED") {
      delta.removed.push(...removedNames(read, i + 1, end));
    } else {
      delta.renamed.push(...renamedPairs(read, i + 1, end));
    }
  }
  const entries =
    delta.added.length + delta.modified.length + delta.removed.length + delta.renamed.length;
  if (sections === 0) {
    push(
      read,
      "openspec-delta-section",
      at(doc, 0),
      `${path} is a delta spec (it lies under the change's specs/), but it has no delta section: OpenSpec refuses it`,
      "head its requirements with `## ADDED Requirements` (new), `## MODIFIED Requirements` (changed), `## REMOVED Requirements` or `## RENAMED Requirements`; notes that are not deltas belong outside specs/",
    );
  } else if (entries === 0) {
    push(
      read,
      "openspec-no-delta",
      at(doc, heads.find((h) => opOf(atxText(doc.visible[h]!)) !== undefined) ?? 0),
      "this delta spec has delta sections but no entry in any of them: OpenSpec refuses it",
      "put at least one `### Requirement: <name>` block under `## ADDED Requirements` or `## MODIFIED Requirements` (REMOVED may list `- `### Requirement: <name>`` bullets)",
    );
  }
  conflicts(read, delta);
  return { delta, problems: read.problems.list(), sections };
}

/** The delta operation a `##` title names: exact words, any case (OpenSpec's comparison). */
function opOf(title: string): Op | undefined {
  const upper = title.trim().toUpperCase();
  return OPS.find((op) => upper === `${op} REQUIREMENTS`);
}

/** A title that folds to a delta title (extra spaces, singular, bold) without being one. */
function nearOp(title: string): Op | undefined {
  const folded = title
    .replace(/[*_`]/g, "")
    .replace(/[ \t]+/g, " ")
    .trim()
    .toUpperCase();
  return OPS.find((op) => folded === `${op} REQUIREMENTS` || folded === `${op} REQUIREMENT`);
}

function blockProblems(read: OpenspecDoc, op: "ADDED" | "MODIFIED", blocks: Blocks): void {
  const { doc } = read;
  for (const s of blocks.stray) {
    const scenario = /^###[ \t]*Scenario\b/i.test(s.text);
    const named = requirementName(s.text) !== undefined;
    push(
      read,
      "openspec-requirement-header",
      at(doc, s.index),
      scenario
        ? `"${s.text.slice(0, 80)}" is a level-3 heading: OpenSpec reads scenarios only as \`####\` headings`
        : named
          ? "this requirement header has no name: OpenSpec cannot match it"
          : `"${s.text.slice(0, 80)}" in the ${op} section is not a \`### Requirement: <name>\` header: OpenSpec ignores it and everything under it`,
      scenario
        ? "write the scenario as `#### Scenario: <name>`"
        : named
          ? "write the requirement's name after `### Requirement:`"
          : `write it as \`### Requirement: ${atxText(s.text).slice(0, 60)}\``,
    );
  }
  for (const r of blocks.requirements) {
    requirementRules(read, op, r, blocks.lookalike.get(r));
  }
}

/** `### Requirement: <name>` headers and `- `### Requirement: <name>`` bullets; anything else is prose. */
function removedNames(read: OpenspecDoc, from: number, to: number): OpenspecRemoved[] {
  const out: OpenspecRemoved[] = [];
  for (let i = from; i < to; i++) {
    const line = shown(read.doc, i);
    if (line === undefined) continue;
    const name = requirementName(line) ?? REMOVED_BULLET.exec(line)?.[1];
    if (name !== undefined && name !== "") out.push({ name, location: at(read.doc, i) });
  }
  return out;
}

/** FROM/TO line pairs; an unpaired line is an error (OpenSpec drops it silently). */
function renamedPairs(read: OpenspecDoc, from: number, to: number): OpenspecRenamed[] {
  const out: OpenspecRenamed[] = [];
  let open: { name: string; index: number } | undefined;
  const unpaired = (index: number, what: string) =>
    push(
      read,
      "openspec-renamed",
      at(read.doc, index),
      what,
      "write each rename as `- FROM: `### Requirement: <old>`` followed by `- TO: `### Requirement: <new>``",
    );
  for (let i = from; i < to; i++) {
    const line = shown(read.doc, i);
    if (line === undefined) continue;
    const f = FROM.exec(line);
    if (f) {
      if (open) unpaired(open.index, `FROM "${open.name}" has no TO line after it`);
      open = { name: f[1]!, index: i };
      continue;
    }
    const t = TO.exec(line);
    if (t) {
      if (!open) unpaired(i, `TO "${t[1]}" has no FROM line before it: OpenSpec drops it`);
      else out.push({ from: open.name, to: t[1]!, location: at(read.doc, open.index) });
      open = undefined;
      continue;
    }
    if (RENAME_LIKE.test(line)) {
      unpaired(
        i,
        "this line reads as a rename but is not `- FROM: `### Requirement: <name>`` or `- TO: …`: OpenSpec ignores it",
      );
    }
  }
  if (open) unpaired(open.index, `FROM "${open.name}" has no TO line after it`);
  return out;
}

/** Duplicates within a section and names in two sections, per file (as OpenSpec checks them). */
function conflicts(read: OpenspecDoc, d: OpenspecDelta): void {
  const names = (list: readonly { name: string; location: Location }[], op: string) => {
    const seen = new Map<string, Location>();
    for (const e of list) {
      const first = seen.get(e.name);
      if (first === undefined) seen.set(e.name, e.location);
      else
        conflict(
          read,
          e.location,
          `"${e.name}" is listed twice in ${op} (first on line ${first.line})`,
          "keep one entry for the requirement",
        );
    }
    return seen;
  };
  const added = names(d.added, "ADDED");
  const modified = names(d.modified, "MODIFIED");
  const removed = names(d.removed, "REMOVED");
  const froms = names(
    d.renamed.map((r) => ({ name: r.from, location: r.location })),
    "RENAMED (as FROM)",
  );
  names(
    d.renamed.map((r) => ({ name: r.to, location: r.location })),
    "RENAMED (as TO)",
  );
  const both = (a: Map<string, Location>, b: Map<string, Location>, what: string) => {
    for (const [name, location] of b) {
      if (a.has(name))
        conflict(
          read,
          location,
          `"${name}" is in both ${what}`,
          "a requirement is added, modified or removed, one of the three",
        );
    }
  };
  both(modified, removed, "MODIFIED and REMOVED");
  both(added, modified, "ADDED and MODIFIED");
  both(added, removed, "ADDED and REMOVED");
  const fold = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const removedFolded = new Set([...removed.keys()].map(fold));
  for (const r of d.renamed) {
    const m = modified.get(r.from);
    if (m !== undefined)
      conflict(
        read,
        m,
        `MODIFIED names "${r.from}", the old name of a RENAMED requirement: OpenSpec renames first`,
        `write the MODIFIED header with the new name: \`### Requirement: ${r.to}\``,
      );
    const a = added.get(r.to);
    if (a !== undefined)
      conflict(
        read,
        a,
        `RENAMED to "${r.to}" collides with ADDED "${r.to}"`,
        "rename to another name, or drop the ADDED block",
      );
    if (removedFolded.has(fold(r.from)) && froms.has(r.from))
      conflict(
        read,
        r.location,
        `"${r.from}" is both RENAMED and REMOVED`,
        "rename it or remove it, not both",
      );
  }
}

function conflict(read: OpenspecDoc, location: Location, message: string, hint: string): void {
  push(read, "openspec-conflict", location, message, hint);
}

export function push(
  read: OpenspecDoc,
  code: Parameters<typeof problem>[0],
  location: Location,
  message: string,
  hint: string,
): void {
  if (read.problems.full(code, location)) return;
  read.problems.push(problem(code, location, message, { hint }));
}

export type { OpenspecRequirement };
