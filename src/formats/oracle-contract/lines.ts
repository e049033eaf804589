import type { Location } from "../../model.js";

/** A decoded contract with the lines fences hide already marked. */
export interface Doc {
  path: string;
  /** `lines[0]` is line 1. */
  lines: readonly string[];
  /** Lines inside (or delimiting) a fenced code block: invisible to the grammar. */
  hidden: readonly boolean[];
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
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])(?:[ \t]|$)/;

export function classifyBlockLine(line: string): BlockLine {
  let m = NUMBERED.exec(line);
  if (m) return { kind: "numbered", id: m[1]!, title: (m[2] ?? "").trim() };
  m = CHECKBOX.exec(line);
  if (m) {
    return { kind: "checkbox", id: m[2]!, title: (m[3] ?? "").trim(), ticked: m[1] !== " " };
  }
  m = ATTRIBUTE.exec(line);
  if (m) {
    const indent = m[1]!;
    return {
      kind: "attribute",
      name: m[3] as AttributeName,
      value: m[4]!.trim(),
      column: indent.length + m[2]!.length + 1,
      indented: indent.length > 0,
    };
  }
  m = ABANDON.exec(line);
  if (m) return { kind: "abandon", rest: m[1]! };
  // A new top-level list item or a subheading ends the criterion above it, as
  // it ends the markdown list item: attributes after it must not silently
  // attach to the previous criterion.
  if (HEADING.test(line) || LIST_ITEM.test(line)) return { kind: "break" };
  return { kind: "text" };
}

const H2 = /^##(?:[ \t]+(.*)|)$/s;

/** A visible `## ` heading and the lines it governs, up to the next one. */
export interface H2Section {
  /** Heading text without `## `, trimmed. */
  heading: string;
  /** 0-based index of the heading line. */
  index: number;
  /** 0-based index one past the section's last line. */
  end: number;
}

/** Every visible level-2 heading with its extent (fenced `##` lines do not count). */
export function h2Sections(doc: Doc): H2Section[] {
  const starts: { heading: string; index: number }[] = [];
  doc.lines.forEach((line, index) => {
    if (doc.hidden[index]) return;
    const m = H2.exec(line);
    if (m) starts.push({ heading: (m[1] ?? "").trim(), index });
  });
  return starts.map((s, k) => ({ ...s, end: starts[k + 1]?.index ?? doc.lines.length }));
}

/** Case-insensitive prefix match of a heading (`REQUEST (verbatim — IMMUTABLE)` is a REQUEST). */
export function headingIs(section: H2Section, prefix: string): boolean {
  return section.heading.toUpperCase().startsWith(prefix);
}
