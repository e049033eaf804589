import { type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { Location, Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { LineIndex } from "../text.js";
import type { JsonPath } from "./path.js";
import {
  ChildIndex,
  entryColumn,
  entryLine,
  isCurrent,
  isObjectEntry,
  keyCount,
  keyEntries,
  keyEntryOf,
  keyText,
  type OtherKeys,
  objectEntryIndexes,
  otherKeysOf,
  ownedScan,
  repeatsAKey,
  type ScanResult,
  scanJson,
} from "./scan.js";

/**
 * Deepest nesting accepted. A v1 contract is 7 levels deep at most; the limit
 * exists because jsonc-parser, which words syntax errors, recurses, and a
 * 1 MiB file of `[` would otherwise overflow the stack instead of yielding a
 * problem.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Parsed JSON plus where every value and key sits in the file. Positions are
 * resolved on demand from the scan's tape: most documents are valid and need
 * only a few positions.
 */
export class JsonDocument {
  constructor(
    readonly path: string,
    /** Exactly what `JSON.parse` returns, so later stages see standard semantics. */
    readonly value: unknown,
    private readonly tree: TapeLocator,
    /** Entries of all arrays in the text: how much list there is to validate. */
    readonly items: number,
  ) {}

  /** Where the value at `path` starts; the nearest present ancestor when it is absent. */
  valueAt(path: JsonPath): Location {
    return this.tree.valueAt(path);
  }

  /** Where the key of the property at `path` starts (the value's position for array items). */
  keyAt(path: JsonPath): Location {
    const last = path[path.length - 1];
    if (typeof last !== "string") return this.valueAt(path);
    return this.tree.keyAt(path, last) ?? this.valueAt(path);
  }

  /**
   * The keys of the object at `path` outside `allowed`, the first `max` of
   * them in `Object.keys` order and how many in all, read from the tape;
   * undefined when the tape cannot say (no object there, or some object of
   * the text repeats a key) or need not (an object of at most `max` keys,
   * whose `Object.keys` is cheap).
   */
  otherKeys(path: JsonPath, allowed: readonly string[], max: number): OtherKeys | undefined {
    return this.tree.otherKeys(path, allowed, max);
  }
}

/**
 * Positions from the scan's tape (json-scan.ts): every entry knows its line,
 * a step over a nested value is a single jump, and a large container is
 * indexed on first lookup. The tests check its answers against
 * jsonc-parser's tree, path by path.
 */
class TapeLocator {
  constructor(
    private readonly path: string,
    private readonly text: string,
    private scan: ScanResult,
    /** No object of the text repeats a key. */
    unique: boolean,
  ) {
    this.children = new ChildIndex(text, unique);
    this.unique = unique;
  }

  private readonly unique: boolean;

  private readonly children: ChildIndex;

  private get tape(): Int32Array {
    if (!isCurrent(this.scan)) this.scan = ownedScan(this.text);
    return this.scan.tape;
  }

  /**
   * The last walk: its segments, and the entry each prefix led to. Positions
   * are asked for in document order, so most walks share all but their last
   * step with the one before.
   */
  private readonly walkedSegments: (string | number)[] = [];
  private readonly walkedEntries: number[] = [];
  private walkedLength = 0;

  /**
   * Walk the first `length` segments of `path` as far as they exist; returns
   * how many steps succeeded (`walkedEntries[k]` is the value after k+1
   * steps). Steps shared with the previous walk are not taken again.
   */
  private walk(path: JsonPath, length: number): number {
    const segments = this.walkedSegments;
    const entries = this.walkedEntries;
    let k = 0;
    while (k < length && k < this.walkedLength && path[k] === segments[k]) k++;
    let entry = k === 0 ? 0 : entries[k - 1]!;
    for (; k < length; k++) {
      entry = this.child(entry, path[k]!);
      if (entry === -1) break;
      entries[k] = entry;
      segments[k] = path[k]!;
    }
    this.walkedLength = k;
    return k;
  }

  valueAt(path: JsonPath): Location {
    const steps = this.walk(path, path.length);
    return this.at(steps === 0 ? 0 : this.walkedEntries[steps - 1]!);
  }

  keyAt(path: JsonPath, last: string): Location | undefined {
    const parent = path.length - 1;
    if (this.walk(path, parent) < parent) return undefined;
    const entry = parent === 0 ? 0 : this.walkedEntries[parent - 1]!;
    if (!isObjectEntry(this.tape, entry)) return undefined;
    const value = this.child(entry, last);
    return value === -1 ? undefined : this.at(keyEntryOf(value));
  }

  otherKeys(path: JsonPath, allowed: readonly string[], max: number): OtherKeys | undefined {
    if (!this.unique || this.walk(path, path.length) < path.length) return undefined;
    const entry = path.length === 0 ? 0 : this.walkedEntries[path.length - 1]!;
    const tape = this.tape;
    if (!isObjectEntry(tape, entry) || keyCount(tape, entry, max) <= max) return undefined;
    return otherKeysOf(this.text, tape, entry, allowed, max);
  }

  private at(entry: number): Location {
    return {
      path: this.path,
      line: entryLine(this.tape, entry),
      column: entryColumn(this.tape, entry),
    };
  }

  private child(entry: number, segment: string | number): number {
    return this.children.child(this.tape, entry, segment);
  }
}

export type JsonParseResult =
  | { document: JsonDocument; problems: Problem[] }
  | { document: undefined; problems: Problem[] };

const PARSE_OPTIONS = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
};

/**
 * Parse contract text as strict JSON, with one reader: `JSON.parse` for the
 * value and one iterative scan (json-scan.ts) for positions, depth and
 * duplicate keys. A syntax error yields one `json-syntax` problem and no
 * document (everything after it would be guesswork), worded by jsonc-parser,
 * which reads only text `JSON.parse` refused; duplicate keys yield
 * `json-duplicate-key` problems but the document is kept, with the last
 * value winning as in `JSON.parse`.
 */
export function parseJsonDocument(path: string, text: string): JsonParseResult {
  // Scan first: it stops at the 65th level, where JSON.parse would read all
  // of a 1 MiB `[[[[…` first. (On text that is not JSON the scan is garbage,
  // and thrown away when JSON.parse refuses the text.)
  const scan = scanJson(text, MAX_JSON_DEPTH);
  let value: unknown;
  try {
    value = scan && JSON.parse(text);
  } catch {
    return syntaxFailureOf(path, text);
  }
  if (scan === undefined) return syntaxFailureOf(path, text);
  // JSON.parse keeps the last of two equal keys silently: only when some
  // object lost a key that way are every object's keys compared.
  const repeats = repeatsAKey(text, scan.tape, scan.size);
  const locator = new TapeLocator(path, text, scan, !repeats);
  const document = new JsonDocument(path, value, locator, scan.items);
  const problems = repeats ? duplicateKeys(path, text, scan) : [];
  return { document, problems };
}

/** Positions in `text`, the line index built on first use. */
function locationsIn(path: string, text: string): (offset: number) => Location {
  let lines: LineIndex | undefined;
  return (offset) => {
    lines ??= new LineIndex(text);
    const { line, column } = lines.position(offset);
    return { path, line, column };
  };
}

/** Every repeated key of every object (dropped values included), at the repeat. */
export function duplicateKeys(path: string, text: string, scan: ScanResult): Problem[] {
  const current = isCurrent(scan) ? scan : ownedScan(text);
  const tape = current.tape;
  const at = (entry: number): Location => ({
    path,
    line: entryLine(tape, entry),
    column: entryColumn(tape, entry),
  });
  const problems: Problem[] = [];
  for (const container of objectEntryIndexes(tape, current.size)) {
    const seen = new Map<string, number>();
    for (const entry of keyEntries(tape, container)) {
      const key = keyText(text, tape, entry);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push(
          problem(
            "json-duplicate-key",
            at(entry),
            `duplicate key ${JSON.stringify(key)}; it is already defined on line ${at(earlier).line}`,
            { hint: "JSON keeps only the last value, silently dropping the first; remove one" },
          ),
        );
      }
      seen.set(key, entry);
    }
  }
  return problems;
}

/**
 * The problem of text that `JSON.parse` refused (or that nests too deep):
 * jsonc-parser finds and names the first error, with hints for the usual
 * hand-editing mistakes.
 */
function syntaxFailureOf(path: string, text: string): JsonParseResult {
  const at = locationsIn(path, text);
  // "value expected" at 1:1 would send the reader looking for a typo in nothing.
  if (text.trim() === "") {
    return syntaxFailure(
      at(0),
      "the file is empty",
      "a JSON contract is one object, `{ … }`: write it (docs/contracts.md has each kind's keys), or delete the file",
    );
  }
  // jsonc-parser recurses: refuse absurd nesting before it can overflow the stack.
  const tooDeep = firstTooDeepOffset(text);
  if (tooDeep !== undefined) {
    return syntaxFailure(at(tooDeep), `JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const short = withShortWhitespace(text);
  const errors: ParseError[] = [];
  const root = parseTree(short.text, errors, PARSE_OPTIONS);
  const first = [...errors].sort((a, b) => a.offset - b.offset)[0];
  if (first !== undefined || root === undefined) {
    const offset = short.original(first?.offset ?? 0);
    const code = first ? printParseErrorCode(first.error) : "ValueExpected";
    return syntaxFailure(
      at(offset),
      `invalid JSON: ${humanize(code)}`,
      syntaxHint(text, offset, code),
    );
  }
  // jsonc-parser is lenient where JSON is not (it skips non-breaking spaces and
  // other Unicode whitespace, for one): then JSON.parse's own error is the one.
  try {
    JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    return syntaxFailure(at(position ? Number(position) : 0), `invalid JSON: ${message}`);
  }
  // Unreachable: the scan declines only text too deep or not JSON.
  return syntaxFailure(at(0), "invalid JSON");
}

function syntaxFailure(at: Location, message: string, hint?: string): JsonParseResult {
  return {
    document: undefined,
    problems: [problem("json-syntax", at, message, hint ? { hint } : {})],
  };
}

/** Whitespace runs longer than this are given to jsonc-parser as one space. */
const LONG_WHITESPACE = /[ \t\n\r]{65,}/g;

/**
 * `text` with every long whitespace run as one space, and the way back to
 * offsets in `text`. jsonc-parser's scanner takes ~100 ns per whitespace
 * character (a 1 MiB run of spaces: 100 ms); to JSON a run of any length is
 * the same separator, so the first error is the same token either way.
 */
function withShortWhitespace(text: string): { text: string; original(offset: number): number } {
  /** Per shortened run: where its space is in the short text, and the length removed. */
  const starts: number[] = [];
  const removed: number[] = [];
  let total = 0;
  const short = text.replace(LONG_WHITESPACE, (run: string, at: number) => {
    starts.push(at - total);
    total += run.length - 1;
    removed.push(total);
    return " ";
  });
  return {
    text: short,
    original(offset) {
      // The last run whose space lies before `offset` (binary search).
      let lo = 0;
      let hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (starts[mid]! < offset) lo = mid + 1;
        else hi = mid;
      }
      return lo === 0 ? offset : offset + removed[lo - 1]!;
    },
  };
}

/** "CommaExpected" → "comma expected". */
function humanize(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Name the two mistakes people actually make when hand-editing JSON. */
function syntaxHint(text: string, offset: number, code: string): string | undefined {
  if (code === "InvalidCommentToken") return "JSON has no comments; remove them";
  const next = text[offset];
  if (next === "}" || next === "]") {
    const before = text.slice(0, offset).trimEnd();
    if (before.endsWith(",")) return "remove the trailing comma before the closing bracket";
  }
  return undefined;
}

/** Offset of the first bracket nested deeper than MAX_JSON_DEPTH, ignoring strings. */
function firstTooDeepOffset(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
  }
  return undefined;
}
