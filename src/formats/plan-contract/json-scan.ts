/**
 * A light index of where every value and key of a strict-JSON text starts,
 * built in one pass for text that `JSON.parse` has already accepted. It is
 * the fast path of `parseJsonDocument`: the same offsets jsonc-parser's tree
 * gives, without its tokens, value strings and per-property nodes.
 *
 * Because the text is known to be valid JSON, the scanner only needs to tell
 * structure from strings: whitespace is space, tab, CR or LF; a string ends
 * at the first `"` preceded by an even number of backslashes; anything else
 * that is not punctuation is a number or literal running to the next
 * delimiter.
 */

/** An object or array; scalars are represented by their start offset alone. */
export interface ScanContainer {
  /** Offset of the `{` or `[`. */
  readonly offset: number;
  /** Its 1-based line, and the offset where that line starts: positions need no search. */
  readonly line: number;
  readonly lineStart: number;
  /** Objects only: offset of each key's opening quote, in text order. */
  readonly keyStarts: number[] | undefined;
  /**
   * Objects only: offset of each key's closing quote, negated when the key
   * has an escape (so a lookup knows when the raw text is the key itself).
   */
  readonly keyEnds: number[] | undefined;
  /** Each value (array item, or property value in key order): a container or a scalar's offset. */
  readonly values: ScanValue[];
}

export type ScanValue = ScanContainer | number;

export interface ScanResult {
  root: ScanValue;
  /** Key tokens in the whole text, duplicates included. */
  keyCount: number;
  /** Offset where each line starts (`lineStarts[0]` is line 1), as `LineIndex` finds them. */
  lineStarts: number[];
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Index `text`, which must be valid JSON (`JSON.parse` accepted it). Returns
 * undefined when a container nests deeper than `maxDepth` (the root is depth
 * 1): such text is left to the full parser, which reports it.
 */
export function scanJson(text: string, maxDepth: number): ScanResult | undefined {
  const n = text.length;
  const stack: ScanContainer[] = [];
  let top: ScanContainer | undefined;
  let root: ScanValue | undefined;
  let keyCount = 0;
  // Valid JSON has no raw line break inside a string: every LF is seen here.
  const lineStarts = [0];
  let lineStart = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === COMMA || c === COLON || c === TAB || c === CR) {
      i++;
      continue;
    }
    if (c === LF) {
      lineStart = ++i;
      lineStarts.push(lineStart);
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
      top = stack[stack.length - 1];
      i++;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const isObject = c === OPEN_BRACE;
      const node: ScanContainer = {
        offset: i,
        line: lineStarts.length,
        lineStart,
        keyStarts: isObject ? [] : undefined,
        keyEnds: isObject ? [] : undefined,
        values: [],
      };
      if (top === undefined) root = node;
      else top.values.push(node);
      stack.push(node);
      if (stack.length > maxDepth) return undefined;
      top = node;
      i++;
      continue;
    }
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (top?.keyStarts !== undefined && top.keyStarts.length === top.values.length) {
        top.keyStarts.push(i);
        top.keyEnds!.push(hasBackslash(text, i + 1, end) ? -end : end);
        keyCount++;
      } else if (top === undefined) root = i;
      else top.values.push(i);
      i = end + 1;
      continue;
    }
    // A number, true, false or null: runs to the next delimiter.
    if (top === undefined) root = i;
    else top.values.push(i);
    i++;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (
        d === COMMA ||
        d === CLOSE_BRACE ||
        d === CLOSE_BRACKET ||
        d === SPACE ||
        d === LF ||
        d === CR ||
        d === TAB
      )
        break;
      i++;
    }
  }
  return root === undefined ? undefined : { root, keyCount, lineStarts };
}

/** Offset of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1) {
    let backslashes = 0;
    for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  // Unreachable for valid JSON; end the scan rather than loop.
  return text.length;
}

function hasBackslash(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === BACKSLASH) return true;
  return false;
}

/** Whether property `index` of an object is named `key` (compared as JSON.parse decodes it). */
export function keyIs(text: string, node: ScanContainer, index: number, key: string): boolean {
  const start = node.keyStarts![index]!;
  const end = node.keyEnds![index]!;
  if (end > 0) {
    return end - start - 1 === key.length && text.startsWith(key, start + 1);
  }
  // An escape makes the raw key longer than the key it decodes to.
  return -end - start - 1 > key.length && JSON.parse(text.slice(start, -end + 1)) === key;
}

/**
 * Own keys of every object in a parsed value. Equal to `keyCount` exactly
 * when no object of the text repeats a key: a duplicate either leaves its
 * object with fewer keys than tokens, or drops a value (and every key in it).
 */
export function countParsedKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    const keys = Object.keys(v);
    count += keys.length;
    for (const key of keys) {
      const item = (v as Record<string, unknown>)[key];
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return count;
}
