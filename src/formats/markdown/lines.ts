import type { Location } from "../../model/contract.js";

/** A decoded contract with what GitHub renders already worked out (see rendered.ts). */
export interface Doc {
  path: string;
  /** `lines[0]` is line 1. */
  lines: readonly string[];
  /** Fenced code, or wholly inside an HTML comment or link reference definition: not grammar. */
  hidden: readonly boolean[];
  /** Each line without its hidden parts: titles, headings and header facts are read from it. */
  visible: readonly string[];
  /** The line is shown but part of it is hidden. */
  partlyHidden: readonly boolean[];
  /** Every shown `##` heading with its extent (see `h2Sections`). */
  sections: readonly H2Section[];
}

/** Location of a 0-based line index (and 1-based column). */
export function locate(doc: Doc, index: number, column = 1): Location {
  return { path: doc.path, line: index + 1, column };
}

export const ATTRIBUTE_NAMES = ["CHECK", "EXPECT", "EVIDENCE", "CWD"] as const;
export type AttributeName = (typeof ATTRIBUTE_NAMES)[number];

/** One line of a criteria block, as the grammar sees it. */
export type BlockLine =
  | { kind: "numbered"; id: string; title: string }
  | { kind: "checkbox"; id: string; title: string; ticked: boolean }
  | {
      kind: "attribute";
      name: AttributeName;
      value: string;
      /** 1-based column of the attribute keyword. */
      column: number;
      indented: boolean;
    }
  | { kind: "abandon"; rest: string }
  /** `4b.`, `2)`: numbered like a criterion, but ids are whole numbers followed by `.`. */
  | { kind: "bad-id"; written: string }
  /** A heading or list item that is not a criterion: it ends the current criterion. */
  | { kind: "break" }
  | { kind: "text" };

// Every pattern with `.` carries the `s` flag: lines are already split on LF,
// and without it `.` stops at U+2028/U+2029, so a title or command holding one
// would silently stop being a criterion or an attribute.
const NUMBERED = /^(\d+)\.(?:[ \t]+(.*))?$/s;
const CHECKBOX = /^[-*+][ \t]+\[([ xX])\][ \t]+([A-Za-z0-9][A-Za-z0-9._-]*):(?:[ \t]+(.*))?$/s;
// Optional indentation, optional list bullet, then an UPPERCASE keyword.
const ATTRIBUTE = /^([ \t]*)((?:[-*+][ \t]+)?)(CHECK|EXPECT|EVIDENCE|CWD):(.*)$/s;
const ABANDON = /^ABANDON:(.*)$/s;
const BAD_ID = /^(\d+[A-Za-z][A-Za-z0-9]*[.)]|\d+\))(?:[ \t]|$)/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])(?:[ \t]|$)/;

const TEXT: BlockLine = { kind: "text" };
const BREAK: BlockLine = { kind: "break" };

/** Only spaces and tabs (or nothing). */
export function isBlank(line: string): boolean {
  for (let p = 0; p < line.length; p++) {
    const c = line.charCodeAt(p);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

export function classifyBlockLine(line: string): BlockLine {
  // Dispatch on the first character: every kind but text starts with a
  // digit, a bullet, blank space, `#`, or a keyword's first letter, so most
  // lines are decided by one regex or none.
  const c = line[0];
  if (c === undefined || isBlank(line)) return TEXT;
  if (c >= "0" && c <= "9") {
    const m = NUMBERED.exec(line);
    if (m) return { kind: "numbered", id: m[1]!, title: (m[2] ?? "").trim() };
    const bad = BAD_ID.exec(line);
    if (bad) return { kind: "bad-id", written: bad[1]! };
    return LIST_ITEM.test(line) ? BREAK : TEXT;
  }
  if (c === "-" || c === "*" || c === "+") {
    const m = CHECKBOX.exec(line);
    if (m) {
      return { kind: "checkbox", id: m[2]!, title: (m[3] ?? "").trim(), ticked: m[1] !== " " };
    }
    // A new top-level list item ends the criterion above it, as it ends the
    // markdown list item: attributes after it must not silently attach to
    // the previous criterion.
    return attribute(line) ?? (LIST_ITEM.test(line) ? BREAK : TEXT);
  }
  if (c === " " || c === "\t" || c === "C" || c === "E") return attribute(line) ?? TEXT;
  if (c === "A") {
    const m = ABANDON.exec(line);
    return m ? { kind: "abandon", rest: m[1]! } : TEXT;
  }
  // A subheading ends the criterion above it, like a list item.
  return c === "#" && HEADING.test(line) ? BREAK : TEXT;
}

function attribute(line: string): BlockLine | undefined {
  const m = ATTRIBUTE.exec(line);
  if (!m) return undefined;
  const indent = m[1]!;
  return {
    kind: "attribute",
    name: m[3] as AttributeName,
    value: m[4]!.trim(),
    column: indent.length + m[2]!.length + 1,
    indented: indent.length > 0,
  };
}

const H2 = /^##(?:[ \t]|$)/;

/**
 * An ATX heading's text: the opening `#`s, the optional closing run of `#`s
 * and the spaces around them removed. A scan from the end, not a regex: a
 * backtracking `[ \t]+#+[ \t]*$` takes quadratic time on a long run of spaces.
 */
export function atxText(line: string): string {
  let start = 0;
  while (start < line.length && line[start] === "#") start++;
  let end = line.length;
  while (end > start && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
  let run = end;
  while (run > start && line[run - 1] === "#") run--;
  if (run < end && (run === start || line[run - 1] === " " || line[run - 1] === "\t")) end = run;
  return line.slice(start, end).trim();
}

/** A visible `## ` heading and the lines it governs, up to the next one. */
export interface H2Section {
  /** Heading text without `## `, trimmed. */
  heading: string;
  /** The heading in upper case, computed once: sections are matched by name often. */
  upper: string;
  /** 0-based index of the heading line. */
  index: number;
  /** 0-based index one past the section's last line. */
  end: number;
}

/** Every visible level-2 heading with its extent (fenced `##` lines do not count). */
export function h2Sections(doc: Omit<Doc, "sections">): H2Section[] {
  const sections: H2Section[] = [];
  for (let index = 0; index < doc.lines.length; index++) {
    if (doc.hidden[index] || !H2.test(doc.lines[index]!)) continue;
    const last = sections[sections.length - 1];
    if (last) last.end = index;
    const heading = atxText(doc.visible[index]!);
    sections.push({ heading, upper: heading.toUpperCase(), index, end: doc.lines.length });
  }
  return sections;
}

/** Case-insensitive prefix match of a heading (`REQUEST (verbatim — IMMUTABLE)` is a REQUEST). */
export function headingIs(section: H2Section, prefix: string): boolean {
  return section.upper.startsWith(prefix);
}
