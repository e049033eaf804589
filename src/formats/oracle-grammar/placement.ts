import { problem } from "../../model/problems.js";
import { reportHiddenGrammar } from "../markdown/hidden.js";
import {
  atxText,
  classifyBlockLine,
  type Doc,
  type H2Section,
  headingIs,
  isBlank,
  locate,
} from "../markdown/lines.js";
import { asRead, difference } from "../markdown/normalize.js";
import type { ProblemSink } from "../markdown/problem-sink.js";
import type { HiddenPart } from "../markdown/rendered.js";
import { CONTRACT_DIALECT, type Dialect } from "./dialect.js";

const KEYWORDS = "CHECK|EXPECT|EVIDENCE|CWD|ABANDON";
/** A keyword line as the grammar writes it, at any indentation, bullet optional. */
const EXACT_KEYWORD = new RegExp(`^[ \\t]*(?:[-*+][ \\t]+)?(${KEYWORDS}):`);
/** A line that reads as a keyword line once spelling, case and spacing are forgiven. */
const READS_AS_KEYWORD = new RegExp(`^[ \\t]*(?:[-*+][ \\t]+)?(${KEYWORDS})[ \\t]*:`, "i");
const READS_AS_NUMBERED = /^(\d+)\.(?:[ \t]|$)/;
const READS_AS_CHECKBOX = /^[-*+][ \t]+\[[ xX]\][ \t]+[A-Za-z0-9][A-Za-z0-9._-]*:/;
const READS_AS_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const H2 = /^##(?:[ \t]|$)/;
export const SECTION_NAMES = ["ACCEPTANCE CRITERIA", "FILE SCOPE", "REQUEST", "CLARIFICATIONS"];

/**
 * The rules about where grammar may appear, checked over the whole file:
 * nothing structural hidden from the rendered page, no empty headings, no
 * oracle keyword outside `## ACCEPTANCE CRITERIA`, no keyword or heading that
 * only looks right, ABANDON only at column 0. Each is an error naming the
 * line, because each would otherwise make the gate read a different contract
 * from the one reviewers read.
 */
export function checkPlacement(
  doc: Doc,
  parts: readonly HiddenPart[],
  problems: ProblemSink,
  dialect: Dialect = CONTRACT_DIALECT,
): void {
  const sections = doc.sections;
  const sectionOf = sectionIndex(doc, sections);
  const criteria = sections.map((s) => headingIs(s, "ACCEPTANCE CRITERIA"));
  const inCriteria = (i: number) => {
    if (dialect.wholeFile) return true;
    const s = sectionOf[i]!;
    return s >= 0 && criteria[s]!;
  };
  const hiddenWhat = dialect.wholeFile ? hiddenLedgerStructure : hiddenStructure;
  const where = (i: number) => {
    const s = sectionOf[i]!;
    if (s < 0) return "above the first ## heading";
    const heading = sections[s]!.heading;
    return heading === "" ? "under an empty ## heading" : `under "## ${heading}"`;
  };

  reportHiddenGrammar(
    doc,
    parts,
    problems,
    (part) => hiddenWhat(part.text, inCriteria(part.index)),
    {
      structure: "contract",
      ...(dialect.wholeFile && {
        rawReader: ", but unlazy's own reader, which reads the raw file, would",
      }),
    },
  );

  for (let i = 0; i < doc.lines.length; i++) {
    if (doc.hidden[i]) continue;
    const raw = doc.lines[i]!;
    if (doc.partlyHidden[i]) partlyHidden(doc, i, problems);
    if (dialect.wholeFile) misplacedGate(doc, i, problems);
    // A line starting with any other ASCII character reads as itself and
    // can be none of the things checked below: skip it (most prose).
    if (!mayMatter(raw)) continue;
    if (
      H2.test(raw) &&
      atxText(doc.visible[i]!) === "" &&
      !problems.full("empty-heading", locate(doc, i))
    ) {
      problems.push(
        problem("empty-heading", locate(doc, i), "an empty ## heading", {
          hint: "give the heading its text, or remove the line; an empty heading ends the section above it",
        }),
      );
    }
    const read = asRead(raw);
    headingNearMiss(doc, i, read, problems);
    const keyword = EXACT_KEYWORD.exec(raw);
    if (!inCriteria(i)) {
      const at = keyword && locate(doc, i, raw.indexOf(keyword[1]!) + 1);
      if (keyword && at && !problems.full("oracle-outside-criteria", at)) {
        problems.push(
          problem(
            "oracle-outside-criteria",
            at,
            `${keyword[1]}: ${where(i)} is outside ## ACCEPTANCE CRITERIA, so the gate would never act on it`,
            {
              hint: "move it under its criterion in ## ACCEPTANCE CRITERIA, or quote it in a code fence if it is an example",
            },
          ),
        );
      }
      continue;
    }
    if (keyword?.[1] === "ABANDON" && !raw.startsWith("ABANDON:")) {
      const at = locate(doc, i, raw.indexOf("ABANDON") + 1);
      if (problems.full("misplaced-abandon", at)) continue;
      problems.push(
        problem(
          "misplaced-abandon",
          at,
          "ABANDON: is indented or written as a list item, so it abandons nothing",
          { hint: "write ABANDON: <id> <reason> at column 0, on a line of its own" },
        ),
      );
      continue;
    }
    if (!keyword) criteriaNearMiss(doc, i, read, problems);
  }
}

/** A gate's shape at a position: a bullet or (captured) number, a box, `<id>:`. */
const GATE_AT = /(?:[-*+]|(\d{1,9}[.)]))[ \t]+\[[ xX]\][ \t]+[A-Za-z0-9][A-Za-z0-9._-]*:/y;
const LIST_MARK = /(?:[-*+]|\d{1,9}[.)])[ \t]/y;

/**
 * A ledger's gates are `- [ ] <id>:` lines at column 0. GitHub shows a gate
 * line that is indented, quoted, inside another list item (`- - [ ] G2:`) or
 * numbered (`1. [ ] G2:`) as a task like any other, but the ledger reader
 * does not read it: the reviewer would see a gate that never runs (a manual
 * one that would block under --require-oracles, or one whose quoted CHECK:
 * is not read). Refused, as hidden structure is. One scan over the line's
 * prefix, each step advancing, so a long line stays linear.
 */
function misplacedGate(doc: Doc, i: number, problems: ProblemSink): void {
  const raw = doc.lines[i]!;
  if (!raw.includes("[")) return;
  const line = asRead(raw);
  let how: string | undefined;
  let p = 0;
  for (;;) {
    let q = p;
    while (line[q] === " " || line[q] === "\t") q++;
    if (q > p) how ??= "indented";
    p = q;
    if (line[p] === ">") {
      how ??= "inside a blockquote";
      p++;
      continue;
    }
    GATE_AT.lastIndex = p;
    const gate = GATE_AT.exec(line);
    if (gate) {
      if (p === 0 && gate[1] === undefined) return; // a gate, where a gate belongs
      how ??= "a numbered list item";
      break;
    }
    LIST_MARK.lastIndex = p;
    const mark = LIST_MARK.exec(line);
    if (!mark) return;
    how ??= "inside another list item";
    p += mark[0].length;
  }
  const at = locate(doc, i, p + 1);
  if (problems.full("misplaced-gate", at)) return;
  problems.push(
    problem(
      "misplaced-gate",
      at,
      `this gate is ${how}: GitHub shows it as a gate, but only a \`- [ ] <id>:\` line at column 0 is read, so it would never run`,
      {
        hint: "start the gate line at column 0 with a `-` bullet and its attributes indented under it, or drop the `[ ]` box if it is prose",
      },
    ),
  );
}

const MATTERS: Record<string, true> = Object.fromEntries(
  [..."0123456789# \t-*+cCeEaA"].map((c) => [c, true]),
);

/** Whether a line may be (or read as) a heading, criterion or keyword line; a control character may hide one. */
function mayMatter(line: string): boolean {
  const c = line[0];
  return c !== undefined && (c in MATTERS || c > "\x7f" || c < " ") && !isBlank(line);
}

/** For each line, the index of the `##` section holding it (-1 above the first heading). */
function sectionIndex(doc: Doc, sections: readonly H2Section[]): Int32Array {
  const out = new Int32Array(doc.lines.length).fill(-1);
  sections.forEach((s, k) => {
    out.fill(k, s.index, s.end);
  });
  return out;
}

/** Characters a structural line can start with; anything else with no `:` is prose. */
const STRUCTURE_START = /^[ \t]*[#`~0-9]/;
const ASCII_TEXT = /^[\x20-\x7e\t]*$/;

/**
 * The structure a hidden piece of text holds, described for a message, or
 * undefined. Numbered lines count only inside the criteria section:
 * elsewhere a commented-out numbered list is a note.
 */
function hiddenStructure(text: string, inCriteria: boolean): string | undefined {
  // Most hidden text is prose: skip it without normalising.
  if (ASCII_TEXT.test(text) && !text.includes(":") && !STRUCTURE_START.test(text)) {
    return undefined;
  }
  const t = asRead(text).trimStart();
  if (t === "") return undefined;
  if (/^#{1,6}(?:[ \t]|$)/.test(t)) return "a heading";
  if (/^(?:`{3,}|~{3,})/.test(t)) return "a code fence";
  const keyword = READS_AS_KEYWORD.exec(t);
  if (keyword) return `${keyword[1]!.toUpperCase()}:`;
  if (t.split("|").some((part) => /^(?:[-*+][ \t]+)?status[ \t]*:/i.test(part.trim()))) {
    return "a status: line";
  }
  if (inCriteria && (READS_AS_NUMBERED.test(t) || READS_AS_CHECKBOX.test(t))) return "a criterion";
  return undefined;
}

const LEDGER_GATE = /^[-*+][ \t]+\[[ xX]\]/;
const LEDGER_ATTRIBUTE = /^[ \t]+(?:[-*+][ \t]+)?(CHECK|EXPECT|EVIDENCE|CWD)[ \t]*:/i;
const LEDGER_ABANDON = /^ABANDON[ \t]*:/i;

/**
 * What unlazy's own reader would take from a hidden piece of a ledger (it
 * reads the raw file, comments included): a gate line, an indented
 * attribute, an ABANDON at column 0, spellings forgiven. Those make its
 * verdict differ from the rendered page's and this gate's, so they are
 * `hidden-structure`. Anything else it ignores, and so does this: the
 * template's closing comment quotes `ABANDON: G<n> <reason>` indented and
 * `- CWD: <dir>` as a bullet, which unlazy reads as prose.
 */
function hiddenLedgerStructure(text: string): string | undefined {
  if (ASCII_TEXT.test(text) && !text.includes(":") && !text.includes("[")) return undefined;
  const t = asRead(text);
  if (LEDGER_GATE.test(t)) return "a gate";
  const attribute = LEDGER_ATTRIBUTE.exec(t);
  if (attribute) return `${attribute[1]!.toUpperCase()}:`;
  if (LEDGER_ABANDON.test(t)) return "ABANDON:";
  return undefined;
}

/**
 * A shown line with a hidden part: an oracle value that GitHub shows
 * differently from what runs, or a line whose kind the comment changes.
 */
function partlyHidden(doc: Doc, i: number, problems: ProblemSink): void {
  const raw = classifyBlockLine(doc.lines[i]!);
  const shown = classifyBlockLine(doc.visible[i]!);
  if (raw.kind === "attribute" && raw.name !== "EVIDENCE") {
    problems.push(
      problem(
        "hidden-structure",
        locate(doc, i, raw.column),
        `part of this ${raw.name}: is inside an HTML comment: GitHub shows a different value from the one the gate would use`,
        { hint: `remove the comment, or write the value as a code span: ${raw.name}: \`…\`` },
      ),
    );
  } else if (raw.kind !== shown.kind) {
    problems.push(
      problem(
        "hidden-structure",
        locate(doc, i),
        `an HTML comment changes what this line is: it reads as ${describe(shown.kind)} on the page, but is ${describe(raw.kind)} in markdown`,
        { hint: "remove the comment from the line" },
      ),
    );
  }
}

function describe(kind: string): string {
  switch (kind) {
    case "numbered":
    case "checkbox":
      return "a criterion";
    case "attribute":
      return "an oracle attribute";
    case "abandon":
      return "an ABANDON line";
    case "break":
      return "a heading or list item";
    default:
      return "plain text";
  }
}

/** A heading that only looks like one, or a section name spelled with look-alikes. */
function headingNearMiss(doc: Doc, i: number, read: string, problems: ProblemSink): void {
  const raw = doc.lines[i]!;
  if (!HEADING.test(raw)) {
    if (READS_AS_HEADING.test(read) && read !== raw) {
      nearMiss(
        problems,
        doc,
        i,
        raw,
        "a heading",
        "start the line with ASCII `#`s and a plain space",
      );
    }
    return;
  }
  if (read === raw) return;
  const text = atxText(asRead(doc.visible[i]!)).toUpperCase();
  const name = SECTION_NAMES.find((n) => text.startsWith(n));
  if (name && !atxText(doc.visible[i]!).toUpperCase().startsWith(name)) {
    nearMiss(problems, doc, i, raw, `the ${name} heading`, `write ${name} in plain ASCII letters`);
  }
}

/** Inside the criteria section: a keyword, criterion or ABANDON line not written exactly. */
function criteriaNearMiss(doc: Doc, i: number, read: string, problems: ProblemSink): void {
  const raw = doc.lines[i]!;
  // An ASCII line reads as itself: only a keyword's case or spacing can be off.
  if (read === raw && !READS_AS_KEYWORD.test(raw)) return;
  const kind = classifyBlockLine(raw).kind;
  if (kind === "numbered" || kind === "checkbox") return;
  const keyword = READS_AS_KEYWORD.exec(read);
  if (keyword) {
    const name = keyword[1]!.toUpperCase();
    nearMiss(
      problems,
      doc,
      i,
      raw,
      `the keyword ${name}:`,
      `${name}: must be written in ASCII capitals with the colon right after it`,
      // Only the keyword's own characters are its cause: an é in the command after it is not.
      (prefix) => READS_AS_KEYWORD.test(asRead(prefix)),
    );
    return;
  }
  if (read !== raw && (READS_AS_NUMBERED.test(read) || READS_AS_CHECKBOX.test(read))) {
    nearMiss(
      problems,
      doc,
      i,
      raw,
      "a criterion",
      "write the criterion's number, `.` and space in plain ASCII",
    );
  }
}

function nearMiss(
  problems: ProblemSink,
  doc: Doc,
  i: number,
  raw: string,
  what: string,
  hint: string,
  /** Whether a prefix of the line (from its start) already reads as the construct: the cause is found in the shortest. */
  readsAs?: (prefix: string) => boolean,
): void {
  const indent = raw.length - raw.replace(/^[ \t]+/, "").length;
  const at = locate(doc, i, indent + 1);
  if (problems.full("keyword-near-miss", at)) return;
  const chars = Array.from(raw.slice(indent, indent + 48)).slice(0, 24);
  let end = chars.length;
  if (readsAs) {
    const lead = raw.slice(0, indent);
    for (let n = 1; n <= chars.length; n++) {
      if (readsAs(lead + chars.slice(0, n).join(""))) {
        end = n;
        break;
      }
    }
  }
  const written = chars.slice(0, end).join("");
  problems.push(
    problem(
      "keyword-near-miss",
      at,
      `this line reads as ${what} but ${difference(written)}, so the gate does not read it as one`,
      { hint },
    ),
  );
}
