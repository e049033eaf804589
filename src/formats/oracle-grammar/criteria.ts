import type { Criterion, Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import {
  type AttributeName,
  type BlockLine,
  classifyBlockLine,
  type Doc,
  type H2Section,
  headingIs,
  locate,
} from "../markdown/lines.js";
import type { ProblemSink } from "../markdown/problem-sink.js";
import { CONTRACT_DIALECT, type Dialect } from "./dialect.js";

/** An attribute line as written under its criterion (value trimmed, not unwrapped). */
export interface AttributeLine {
  value: string;
  /** 0-based line index. */
  index: number;
  column: number;
}

/** A criterion accepted by the block reader, before its oracle is built. */
export interface DraftCriterion {
  criterion: Criterion;
  /** 0-based line index of the criterion line. */
  index: number;
  attributes: Partial<Record<AttributeName, AttributeLine>>;
}

/** An `ABANDON:` line, resolved against the criteria once all are known. */
export interface AbandonLine {
  index: number;
  id: string;
  reason: string;
}

export interface CriteriaBlock {
  /** The `## ACCEPTANCE CRITERIA` headings; empty when the file has none. */
  sections: H2Section[];
  drafts: DraftCriterion[];
  abandons: AbandonLine[];
}

/**
 * Why attributes on the current line belong to no criterion: the reader's
 * state when no criterion is open.
 */
type Closed =
  | { after: "start" }
  | { after: "duplicate"; id: string; line: number }
  | { after: "abandon" | "break"; line: number };

/**
 * The words for a `Closed` state, built only for an orphan attribute: the
 * state changes on every ABANDON and list line, and a ledger holds 10^5.
 */
function whyClosed(closed: Closed): string {
  switch (closed.after) {
    case "start":
      return "before the first criterion";
    case "duplicate":
      return `after criterion ${closed.id} on line ${closed.line}, refused as a duplicate id`;
    case "abandon":
      return `after the ABANDON on line ${closed.line}`;
    case "break":
      return `after line ${closed.line}, which starts a heading or list item that is not a criterion`;
  }
}

const WHITE = /\s/;
const TRAILING_COLON = /:$/;

/**
 * Read every `## ACCEPTANCE CRITERIA` section line by line. The reader keeps
 * one open criterion; an attribute attaches to it or, when none is open, is an
 * orphan. Guessing an owner would hand one criterion another one's oracle.
 */
export function readCriteria(
  doc: Doc,
  problems: ProblemSink,
  dialect: Dialect = CONTRACT_DIALECT,
): CriteriaBlock {
  const sections = doc.sections.filter((s) => headingIs(s, "ACCEPTANCE CRITERIA"));
  const block: CriteriaBlock = { sections, drafts: [], abandons: [] };
  // A ledger's gates may stand anywhere: the whole file is one block.
  const blocks: readonly H2Section[] = dialect.wholeFile
    ? [{ heading: "", upper: "", index: -1, end: doc.lines.length }]
    : sections;
  const byId = new Map<string, DraftCriterion>();
  for (const section of blocks) {
    let open: DraftCriterion | Closed = { after: "start" };
    for (let i = section.index + 1; i < section.end; i++) {
      if (doc.hidden[i]) continue;
      // Block structure comes from the line as written; titles and reasons
      // from what the page shows (an inline comment is not part of a title).
      const line = asDialect(classifyBlockLine(doc.lines[i]!), dialect);
      const shown = doc.partlyHidden[i]
        ? asDialect(classifyBlockLine(doc.visible[i]!), dialect)
        : line;
      switch (line.kind) {
        case "numbered":
        case "checkbox": {
          const first = byId.get(line.id);
          if (first) {
            if (!problems.full("duplicate-criterion-id", locate(doc, i))) {
              problems.push(duplicateId(doc, i, line.id, first));
            }
            open = { after: "duplicate", id: line.id, line: i + 1 };
            break;
          }
          const criterion: Criterion = {
            id: line.id,
            title: shown.kind === line.kind ? shown.title : line.title,
            location: locate(doc, i),
            checks: [],
          };
          if (line.kind === "checkbox") criterion.ticked = line.ticked;
          const draft: DraftCriterion = { criterion, index: i, attributes: {} };
          byId.set(line.id, draft);
          block.drafts.push(draft);
          open = draft;
          break;
        }
        case "attribute": {
          const owner = "criterion" in open ? open : undefined;
          if (!line.indented) {
            if (!problems.full("unindented-attribute", locate(doc, i, line.column))) {
              problems.push(unindented(doc, i, line.name, line.column, owner));
            }
          } else if (!owner) {
            if (!problems.full("orphan-attribute", locate(doc, i, line.column))) {
              problems.push(orphan(doc, i, line.name, line.column, whyClosed(open as Closed)));
            }
            break;
          }
          // An unindented attribute is still counted on its criterion (the error
          // already invalidates the file) so that one misplaced line does not
          // also read as a partial oracle.
          if (owner)
            attach(doc, problems, owner, line.name, {
              value: line.value,
              index: i,
              column: line.column,
            });
          break;
        }
        case "bad-id":
          if (!problems.full("invalid-criterion-id", locate(doc, i))) {
            problems.push(badId(doc, i, line.written));
          }
          // Its attributes go with it: attaching them to the criterion above
          // (what the upstream runner does) would merge two criteria into one.
          open = {
            criterion: { id: line.written, title: "", location: locate(doc, i), checks: [] },
            index: i,
            attributes: {},
          };
          break;
        case "abandon": {
          const rest = (shown.kind === "abandon" ? shown.rest : line.rest).trim();
          const space = rest.search(WHITE);
          const written = space === -1 ? rest : rest.slice(0, space);
          const id = dialect.abandonIdColon ? written.replace(TRAILING_COLON, "") : written;
          const reason = space === -1 ? "" : rest.slice(space).trim();
          block.abandons.push({ index: i, id, reason });
          open = { after: "abandon", line: i + 1 };
          break;
        }
        case "break":
          if (dialect.wholeFile && GATE_SHAPE.test(doc.lines[i]!)) {
            // A box with no `<id>:` is a gate ABANDON cannot name and a
            // report cannot point to: refused, never silently a list item.
            if (!problems.full("invalid-criterion-id", locate(doc, i))) {
              problems.push(
                problem(
                  "invalid-criterion-id",
                  locate(doc, i),
                  "this checkbox is a gate without an id: write it `- [ ] G<n>: <outcome>`",
                  {
                    hint: "give the gate an id (letters, digits, `.`, `_`, `-`) and a colon before its title; unlazy would name it by its line number, which changes whenever a line is added above",
                  },
                ),
              );
            }
          }
          open = { after: "break", line: i + 1 };
          break;
        case "text":
          break;
      }
    }
  }
  return block;
}

/** `- [ ]`, `- [x]` at column 0 (unlazy's gate line, any bullet): a gate whatever follows. */
const GATE_SHAPE = /^[-*+][ \t]+\[[ xX]\](?:[ \t]|$)/;

/** In a ledger, a numbered line is prose that ends the gate above, as a list item does. */
function asDialect(line: BlockLine, dialect: Dialect): BlockLine {
  if (dialect.numbered || (line.kind !== "numbered" && line.kind !== "bad-id")) return line;
  return { kind: "break" };
}

function attach(
  doc: Doc,
  problems: ProblemSink,
  owner: DraftCriterion,
  name: AttributeName,
  attr: AttributeLine,
): void {
  const first = owner.attributes[name];
  if (first) {
    problems.push(
      problem(
        "duplicate-attribute",
        locate(doc, attr.index, attr.column),
        `criterion ${owner.criterion.id} has a second ${name}: (the first is on line ${first.index + 1})`,
        { hint: `keep one ${name}: line under criterion ${owner.criterion.id}` },
      ),
    );
    return;
  }
  owner.attributes[name] = attr;
}

function badId(doc: Doc, index: number, written: string): Problem {
  return problem(
    "invalid-criterion-id",
    locate(doc, index),
    `"${written}" is not a criterion id: ids are whole numbers followed by "."; this criterion and its attributes are refused`,
    {
      hint: 'number it "N." with a whole number N no other criterion uses; a runner that reads only the digits merges it into the criterion above',
    },
  );
}

function duplicateId(doc: Doc, index: number, id: string, first: DraftCriterion): Problem {
  return problem(
    "duplicate-criterion-id",
    locate(doc, index),
    `criterion id ${id} is already used on line ${first.index + 1}; this criterion and its attributes are refused`,
    { hint: `give this criterion an id no other criterion uses` },
  );
}

function unindented(
  doc: Doc,
  index: number,
  name: AttributeName,
  column: number,
  owner: DraftCriterion | undefined,
): Problem {
  const under = owner ? `under criterion ${owner.criterion.id}` : "under its criterion";
  return problem(
    "unindented-attribute",
    locate(doc, index, column),
    `${name}: starts at column ${column}; an attribute must be indented under its criterion`,
    { hint: `indent ${name}: ${under} with at least one space` },
  );
}

function orphan(
  doc: Doc,
  index: number,
  name: AttributeName,
  column: number,
  why: string,
): Problem {
  return problem(
    "orphan-attribute",
    locate(doc, index, column),
    `${name}: belongs to no criterion (${why})`,
    { hint: `move ${name}: under the criterion it checks, or start that criterion above it` },
  );
}
