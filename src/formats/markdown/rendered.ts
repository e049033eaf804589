import { closesFence, type OpenFence, openingFence } from "./fences.js";

/**
 * What GitHub renders, line by line: a contract is read the way a reviewer
 * reads it on the pull request, so nothing the page hides can steer the gate.
 * Fenced code is shown but is not contract grammar; HTML comments and link
 * reference definitions (`[//]: # (note)`) are not shown at all.
 *
 * Where CommonMark's exact extent of a comment depends on containers this
 * scanner does not model, it takes the larger extent: a line hidden by
 * mistake only matters when it holds structure, and structure found in a
 * hidden part is reported (`HiddenPart`), so the doubt ends as an error,
 * never as a silent difference between the page and the gate.
 *
 * One pass, each line visited a bounded number of times: linear in the input.
 */
export interface Rendered {
  /** Line i is not contract grammar: fenced code, or wholly inside a comment or definition. */
  hidden: boolean[];
  /** Line i with its hidden parts cut out (raw line when nothing on it is hidden). */
  visible: string[];
  /** Line i is shown but part of it is hidden. */
  partlyHidden: boolean[];
  /** Every hidden piece of text, to be searched for structure. */
  parts: HiddenPart[];
  /** 0-based index of the opening line of a fence never closed, if any. */
  unclosedFenceAt?: number;
}

/** A piece of text GitHub does not show. */
export interface HiddenPart {
  /** 0-based line index and 1-based column where the piece starts. */
  index: number;
  column: number;
  text: string;
  /** What hides it: one object per comment or definition, shared by its lines. */
  by: Hider;
}

/**
 * A comment or definition and the 0-based line it opens on. `raw-html` is
 * the text after a block comment's `-->`: shown, but never markdown.
 */
export interface Hider {
  kind: "comment" | "definition" | "raw-html";
  line: number;
}

type State =
  | { kind: "normal" }
  | { kind: "fence"; fence: OpenFence; openedAt: number }
  | { kind: "block-comment"; openedAt: number }
  | ({ kind: "definition"; openedAt: number } & DefinitionRest);

/** What a link reference definition still expects on the next line. */
type DefinitionRest =
  | { phase: "destination" }
  /** A title may start on the next line. */
  | { phase: "title" }
  | { phase: "in-title"; closer: string };

const OPEN = "<!--";
const CLOSE = "-->";

/** What GitHub shows of each line of a contract, and every piece it hides. */
export function renderLines(lines: readonly string[]): Rendered {
  const n = lines.length;
  const out: Rendered = {
    hidden: new Array<boolean>(n).fill(false),
    visible: [...lines],
    partlyHidden: new Array<boolean>(n).fill(false),
    parts: [],
  };
  let state: State = { kind: "normal" };
  // An inline `<!--` that reached a paragraph end before any `-->` was
  // literal text; every later opener before that line is literal too, so no
  // line is searched twice (this keeps the scan linear).
  let literalUntil = -1;
  const setLiteralUntil = (until: number) => {
    literalUntil = until;
  };
  let i = 0;
  while (i < n) {
    const line = lines[i]!;
    if (state.kind === "fence") {
      out.hidden[i] = true;
      if (closesFence(line, state.fence)) state = { kind: "normal" };
      i++;
      continue;
    }
    if (state.kind === "block-comment") {
      out.hidden[i] = true;
      const by: Hider = { kind: "comment", line: state.openedAt };
      const close = line.indexOf(CLOSE);
      out.parts.push({ index: i, column: 1, text: close === -1 ? line : line.slice(0, close), by });
      if (close !== -1) {
        afterBlockComment(out, i, line, close + CLOSE.length);
        state = { kind: "normal" };
      }
      i++;
      continue;
    }
    if (state.kind === "definition") {
      const next = continueDefinition(line, state);
      if (next === "not-part") {
        // The definition ended on the line above; read this one afresh.
        state = { kind: "normal" };
        continue;
      }
      out.hidden[i] = true;
      const by: Hider = { kind: "definition", line: state.openedAt };
      // A destination is a URL, never structure: only title text is searched.
      const text =
        state.phase === "destination"
          ? afterDestinationText(line)
          : state.phase === "title"
            ? titleText(line)
            : line;
      out.parts.push({ index: i, column: 1, text, by });
      state = next ? { kind: "definition", openedAt: state.openedAt, ...next } : { kind: "normal" };
      i++;
      continue;
    }

    // A line starting with none of the characters that can open a fence, a
    // block comment or a definition (directly or after a container marker)
    // can only hold inline comments: most prose lines stop here.
    if (!(line[0]! in BLOCK_START) && line.indexOf(OPEN) === -1) {
      i++;
      continue;
    }
    const c = line[0];
    const fence = c === " " || c === "`" || c === "~" ? openingFence(line) : undefined;
    if (fence) {
      out.hidden[i] = true;
      state = { kind: "fence", fence, openedAt: i };
      i++;
      continue;
    }
    const start = contentStart(line);
    if (line.startsWith(OPEN, start)) {
      // An HTML block: it runs to the first line holding `-->`, blank lines and all.
      hideFrom(out, i, start);
      const close = line.indexOf(CLOSE, start + 2);
      const body = start + OPEN.length;
      out.parts.push({
        index: i,
        column: body + 1,
        text: close === -1 ? line.slice(body) : line.slice(body, Math.max(close, body)),
        by: { kind: "comment", line: i },
      });
      if (close === -1) state = { kind: "block-comment", openedAt: i };
      else afterBlockComment(out, i, line, close + CLOSE.length);
      i++;
      continue;
    }
    const definition = definitionAt(line, start);
    if (definition !== undefined) {
      hideFrom(out, i, start);
      out.parts.push({
        index: i,
        column: start + 1,
        text: afterDestinationText(line.slice(definition.after)),
        by: { kind: "definition", line: i },
      });
      if (definition.rest) state = { kind: "definition", openedAt: i, ...definition.rest };
      i++;
      continue;
    }
    i = inlineComments(lines, i, 0, out, i < literalUntil, setLiteralUntil);
  }
  if (state.kind === "fence") out.unclosedFenceAt = state.openedAt;
  return out;
}

const BLOCK_START: Record<string, true> = Object.fromEntries(
  [..." \t`~<[>-*+0123456789"].map((c) => [c, true]),
);

/** Hide a line from `start` on; a line with nothing shown before `start` is hidden whole. */
function hideFrom(out: Rendered, i: number, start: number): void {
  const line = out.visible[i]!;
  if (line.slice(0, start).trim() === "") {
    out.hidden[i] = true;
  } else {
    out.visible[i] = line.slice(0, start);
    out.partlyHidden[i] = true;
  }
}

/** Text after a block comment's `-->` is raw HTML: shown as text, never markdown. */
function afterBlockComment(out: Rendered, i: number, line: string, from: number): void {
  const rest = line.slice(from);
  if (rest.trim() === "") return;
  out.parts.push({
    index: i,
    column: from + 1,
    text: rest,
    by: { kind: "raw-html", line: i },
  });
}

/**
 * Where a line's content starts after container markers (indentation, `>`,
 * list markers): an HTML comment or a definition there begins a block.
 */
function contentStart(line: string): number {
  let p = 0;
  for (;;) {
    while (line[p] === " " || line[p] === "\t") p++;
    const c = line[p];
    if (c === ">") {
      p++;
      continue;
    }
    if ((c === "-" || c === "*" || c === "+") && (line[p + 1] === " " || line[p + 1] === "\t")) {
      p += 2;
      continue;
    }
    let d = p;
    while (d - p < 10 && line[d] !== undefined && line[d]! >= "0" && line[d]! <= "9") d++;
    if (
      d > p &&
      d - p <= 9 &&
      (line[d] === "." || line[d] === ")") &&
      (line[d + 1] === " " || line[d + 1] === "\t")
    ) {
      p = d + 2;
      continue;
    }
    return p;
  }
}

const CLOSER: Record<string, string> = { '"': '"', "'": "'", "(": ")" };

/**
 * `[label]: destination "title"` starting at `start`: the offset after `]:`
 * and what the definition still expects on later lines. A first line
 * CommonMark rejects (text after the destination that is no title, or after
 * the title) is shown as text, so it is not a definition here either. Later
 * lines are taken as the definition goes on, which may hide more than
 * CommonMark would: only structure in them matters, and that is reported.
 */
function definitionAt(
  line: string,
  start: number,
): { after: number; rest?: DefinitionRest } | undefined {
  if (line[start] !== "[") return undefined;
  let p = start + 1;
  let label = false;
  while (p < line.length && line[p] !== "]") {
    const c = line[p]!;
    if (c === "[" || p - start > 1000) return undefined;
    if (c === "\\") p++;
    else if (c !== " " && c !== "\t") label = true;
    p++;
  }
  if (!label || line[p] !== "]" || line[p + 1] !== ":") return undefined;
  const after = p + 2;
  if (!wellFormed(line.slice(after))) return undefined;
  const rest = afterDestination(line.slice(after));
  return rest === undefined ? { after } : { after, rest };
}

/** Whether the text after `]:` can start a definition: destination, then a title or nothing. */
function wellFormed(text: string): boolean {
  const rest = text.replace(/^[ \t]*(?:<[^>]*>|\S+)/, "").trimStart();
  if (rest === "") return true;
  const closer = CLOSER[rest[0]!];
  if (closer === undefined) return false;
  const end = unescaped(rest, closer, 1);
  return end === -1 || rest.slice(end + 1).trim() === "";
}

/** Index of the first `c` in `text` from `from` that no backslash escapes, or -1. */
function unescaped(text: string, c: string, from: number): number {
  for (let p = from; p < text.length; p++) {
    if (text[p] === "\\") p++;
    else if (text[p] === c) return p;
  }
  return -1;
}

/** What follows on later lines, given the text where a destination is due. */
function afterDestination(text: string): DefinitionRest | undefined {
  if (text.trim() === "") return { phase: "destination" };
  const title = text.replace(/^[ \t]*\S+[ \t]*/, "");
  if (title === "") return { phase: "title" };
  return openTitle(title);
}

/** A title opened in `text` and not closed there. */
function openTitle(text: string): DefinitionRest | undefined {
  const t = text.trimStart();
  const closer = CLOSER[t[0] ?? ""];
  if (closer === undefined || t.indexOf(closer, 1) !== -1) return undefined;
  return { phase: "in-title", closer };
}

/**
 * How a definition goes on over `line`: `"not-part"` when the line is not
 * part of it, `undefined` when the definition ends on it, else what it still expects.
 */
function continueDefinition(
  line: string,
  d: DefinitionRest,
): DefinitionRest | undefined | "not-part" {
  if (line.trim() === "") return "not-part";
  switch (d.phase) {
    case "destination":
      return afterDestination(line) ?? undefined;
    case "title":
      return CLOSER[line.trimStart()[0] ?? ""] === undefined ? "not-part" : openTitle(line);
    case "in-title":
      return line.includes(d.closer) ? undefined : d;
  }
}

/** The title text after a definition's destination, or "" when there is none. */
function afterDestinationText(text: string): string {
  return titleText(text.replace(/^[ \t]*(?:<[^>]*>|\S+)/, ""));
}

/** A title without its delimiters, so `(- status: x)` reads as its content. */
function titleText(text: string): string {
  const t = text.trim();
  const closer = CLOSER[t[0] ?? ""];
  if (closer === undefined) return "";
  const body = t.slice(1);
  return body.endsWith(closer) ? body.slice(0, -1) : body;
}

/**
 * Inline comments on a shown line from offset `from`, skipping code spans. A
 * comment closed on the line hides its span; one left open hides the lines
 * after it up to the first `-->`, unless the paragraph ends first (blank
 * line, heading, fence, block comment): then `<!--` was literal text.
 * Returns the next line to scan.
 */
function inlineComments(
  lines: readonly string[],
  i: number,
  from: number,
  out: Rendered,
  literal: boolean,
  setLiteralUntil: (until: number) => void,
): number {
  for (;;) {
    const line = lines[i]!;
    // Most lines hold no comment at all: nothing to scan.
    if (line.indexOf(OPEN, from) === -1) {
      if (from > 0) shown(out, i, line.slice(from));
      return i + 1;
    }
    const spans = codeSpanEnds(line, from);
    let kept = "";
    let copied = from;
    let p = from;
    let resume: { line: number; at: number } | undefined;
    while (p < line.length) {
      const c = line[p]!;
      if (c === "\\") {
        p += 2;
        continue;
      }
      if (c === "`") {
        p = spans.get(p) ?? runEnd(line, p);
        continue;
      }
      if (c !== "<" || !line.startsWith(OPEN, p)) {
        p++;
        continue;
      }
      const body = p + OPEN.length;
      const close = line.indexOf(CLOSE, p + 2);
      if (close !== -1) {
        kept += line.slice(copied, p);
        out.parts.push({
          index: i,
          column: body + 1,
          text: line.slice(body, Math.max(close, body)),
          by: { kind: "comment", line: i },
        });
        out.partlyHidden[i] = true;
        copied = p = close + CLOSE.length;
        continue;
      }
      if (literal) break;
      const end = commentEnd(lines, i + 1);
      if (end.literal) {
        setLiteralUntil(end.line);
        break;
      }
      // The comment runs from here to the `-->` on line end.line.
      kept += line.slice(copied, p);
      copied = line.length;
      out.partlyHidden[i] = true;
      const by: Hider = { kind: "comment", line: i };
      out.parts.push({ index: i, column: body + 1, text: line.slice(body), by });
      for (let k = i + 1; k < end.line; k++) {
        out.hidden[k] = true;
        out.parts.push({ index: k, column: 1, text: lines[k]!, by });
      }
      out.parts.push({ index: end.line, column: 1, text: lines[end.line]!.slice(0, end.at), by });
      resume = { line: end.line, at: end.at + CLOSE.length };
      break;
    }
    if (out.partlyHidden[i]) shown(out, i, kept + line.slice(copied));
    if (!resume) return i + 1;
    // The rest of the closing line is ordinary inline content: scan it too.
    i = resume.line;
    from = resume.at;
    out.partlyHidden[i] = true;
  }
}

/** Record what a partly hidden line shows; a line that shows nothing is hidden, not blank. */
function shown(out: Rendered, i: number, text: string): void {
  out.visible[i] = text;
  if (text.trim() === "") out.hidden[i] = true;
}

/** Where an inline comment opened before line `k` closes, or the line where its paragraph ends. */
function commentEnd(
  lines: readonly string[],
  k: number,
): { literal: true; line: number } | { literal: false; line: number; at: number } {
  for (; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.trim() === "" || endsParagraph(line)) return { literal: true, line: k };
    const at = line.indexOf(CLOSE);
    if (at !== -1) return { literal: false, line: k, at };
  }
  return { literal: true, line: k };
}

/** A line that starts a new block, ending the paragraph above it. */
function endsParagraph(line: string): boolean {
  if (openingFence(line)) return true;
  if (line.startsWith(OPEN, contentStart(line))) return true;
  let p = 0;
  while (p < 3 && line[p] === " ") p++;
  let h = p;
  while (h - p < 7 && line[h] === "#") h++;
  const level = h - p;
  return level >= 1 && level <= 6 && (h === line.length || line[h] === " " || line[h] === "\t");
}

const NO_SPANS: ReadonlyMap<number, number> = new Map();

/** End of the backtick run starting at p. */
function runEnd(line: string, p: number): number {
  let q = p;
  while (line[q] === "`") q++;
  return q;
}

/**
 * Code spans on one line from offset `from`: start of an opening backtick
 * run → end of its closing run (the next run of the same length). Runs are
 * grouped by length and each group is walked once, so this is linear.
 */
function codeSpanEnds(line: string, from: number): ReadonlyMap<number, number> {
  if (line.indexOf("`", from) === -1) return NO_SPANS;
  const ends = new Map<number, number>();
  const runs: { at: number; len: number }[] = [];
  for (let p = line.indexOf("`", from); p !== -1; ) {
    const q = runEnd(line, p);
    runs.push({ at: p, len: q - p });
    p = line.indexOf("`", q);
  }
  if (runs.length < 2) return ends;
  const byLength = new Map<number, number[]>();
  runs.forEach((r, k) => {
    const group = byLength.get(r.len);
    if (group) group.push(k);
    else byLength.set(r.len, [k]);
  });
  const cursor = new Map<number, number>();
  let k = 0;
  while (k < runs.length) {
    const run = runs[k]!;
    const group = byLength.get(run.len)!;
    let c = cursor.get(run.len) ?? 0;
    while (c < group.length && group[c]! <= k) c++;
    cursor.set(run.len, c);
    const closer = group[c];
    if (closer === undefined) {
      k++;
      continue;
    }
    ends.set(run.at, runs[closer]!.at + run.len);
    k = closer + 1;
  }
  return ends;
}
