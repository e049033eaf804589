/**
 * A light index of where every value and key of a strict-JSON text starts,
 * built in one pass for text that `JSON.parse` has already accepted. It is
 * the fast path of `parseJsonDocument`: the same offsets jsonc-parser's tree
 * gives, without its tokens, value strings and per-node objects.
 *
 * Because the text is known to be valid JSON, the scanner only needs to tell
 * structure from strings: whitespace is space, tab, CR or LF; a string ends
 * at the first `"` preceded by an even number of backslashes; anything else
 * that is not punctuation is a number or literal running to the next
 * delimiter.
 *
 * The index is a "tape": one fixed-size entry per value and per key, in text
 * order, in a single Int32Array. An object's entries are its keys and values
 * alternating; a container's entry records where its entries end, so a
 * lookup skips a whole nested value in one step.
 */

/** Ints per entry. */
const STRIDE = 5;
/** Entry fields. */
const OFFSET = 0;
const KIND = 1;
const LINE = 2;
const LINE_START = 3;
/** Containers: the entry index just past their last entry. Keys: offset of the closing quote. */
const EXTRA = 4;

const SCALAR = 0;
const OBJECT = 1;
const ARRAY = 2;
const KEY = 3;
/** A key with a backslash escape: its raw text is not the key itself. */
const ESCAPED_KEY = 4;

export interface ScanResult {
  /**
   * The entries; entry 0 is the root value. Shared scratch space, valid
   * until the next scan (see `isCurrent`); `ownedScan` gives a lasting copy.
   */
  tape: Int32Array;
  /** Ints of `tape` in use. */
  size: number;
  /** Entries of all arrays in the text. */
  items: number;
  /** Which scan wrote `tape`; -1 for an owned copy. */
  generation: number;
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
 * Scratch space reused by every scan, so that indexing a document allocates
 * nothing: a document asks for its positions while it is being validated,
 * before the next document is scanned. One that is kept longer (a test's)
 * scans again into a copy of its own on first use after that.
 */
const INITIAL_CAPACITY = 1 << 16;
let scratch = new Int32Array(INITIAL_CAPACITY);
let generation = 0;

/** Whether a scan's tape still holds its entries. */
export function isCurrent(scan: ScanResult): boolean {
  return scan.generation === -1 || scan.generation === generation;
}

/** Scan into a tape of the document's own (for one whose scratch tape was reused). */
export function ownedScan(text: string): ScanResult {
  const scan = scanJson(text, Number.POSITIVE_INFINITY)!;
  return { ...scan, tape: scan.tape.slice(0, scan.size), generation: -1 };
}

/**
 * Index `text`, which must be valid JSON (`JSON.parse` accepted it). Returns
 * undefined when a container nests deeper than `maxDepth` (the root is depth
 * 1): such text is left to the full parser, which reports it.
 */
export function scanJson(text: string, maxDepth: number): ScanResult | undefined {
  const n = text.length;
  let tape = scratch;
  // The scratch is about to be overwritten: tapes of earlier scans are stale from here.
  generation++;
  /** Entries written so far; `size` is where the next one starts in `tape`. */
  let entries = 0;
  let size = 0;
  /** Entry indexes of the open containers, innermost last. */
  const open: number[] = [];
  /** The innermost open container's entry index, or -1. */
  let top = -1;
  let topIsObject = false;
  /** In an object: whether the next string is a key. */
  let expectKey = false;
  let items = 0;
  // Valid JSON has no raw line break inside a string: every LF is seen here.
  let line = 1;
  let lineStart = 0;
  /** The first backslash at or after the current key (found natively, kept until passed). */
  let backslash = text.indexOf("\\");
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    // Indentation and the space after a colon: the most common characters by far.
    while (c === SPACE) c = text.charCodeAt(++i);
    if (c === LF) {
      line++;
      lineStart = ++i;
      continue;
    }
    if (c === COMMA) {
      // After a comma an object expects its next key.
      expectKey = topIsObject;
      i++;
      continue;
    }
    if (c === COLON || c === TAB || c === CR) {
      i++;
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      tape[top * STRIDE + EXTRA] = entries;
      open.pop();
      top = open.length > 0 ? open[open.length - 1]! : -1;
      topIsObject = top !== -1 && tape[top * STRIDE + KIND] === OBJECT;
      expectKey = false;
      i++;
      continue;
    }
    if (i >= n) break;
    if (size + STRIDE > tape.length) {
      const grown = new Int32Array(tape.length * 2);
      grown.set(tape);
      tape = grown;
    }
    tape[size + OFFSET] = i;
    tape[size + LINE] = line;
    tape[size + LINE_START] = lineStart;
    // Every entry written inside an array is one of its elements.
    if (top !== -1 && !topIsObject) items++;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      topIsObject = c === OPEN_BRACE;
      tape[size + KIND] = topIsObject ? OBJECT : ARRAY;
      tape[size + EXTRA] = 0;
      open.push(entries);
      top = entries;
      entries++;
      size += STRIDE;
      if (open.length > maxDepth) return undefined;
      expectKey = topIsObject;
      i++;
      continue;
    }
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        if (backslash !== -1 && backslash < i) backslash = text.indexOf("\\", i);
        tape[size + KIND] = backslash !== -1 && backslash < end ? ESCAPED_KEY : KEY;
        tape[size + EXTRA] = end;
        expectKey = false;
      } else {
        tape[size + KIND] = SCALAR;
        tape[size + EXTRA] = 0;
      }
      entries++;
      size += STRIDE;
      i = end + 1;
      continue;
    }
    // A number, true, false or null: runs to the next delimiter.
    tape[size + KIND] = SCALAR;
    tape[size + EXTRA] = 0;
    entries++;
    size += STRIDE;
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
  // Keep a grown scratch for the next scan, unless a huge file grew it
  // (then the tape is this document's alone, and the scratch starts afresh).
  scratch = tape.length <= INITIAL_CAPACITY * 16 ? tape : new Int32Array(INITIAL_CAPACITY);
  return entries === 0 ? undefined : { tape, size, items, generation };
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

/** The 1-based line an entry starts on. */
export function entryLine(tape: Int32Array, entry: number): number {
  return tape[entry * STRIDE + LINE]!;
}

/** The 1-based column (in UTF-16 units, as `LineIndex` counts) an entry starts at. */
export function entryColumn(tape: Int32Array, entry: number): number {
  return tape[entry * STRIDE + OFFSET]! - tape[entry * STRIDE + LINE_START]! + 1;
}

/** The entry after `entry` and everything nested in it. */
function skip(tape: Int32Array, entry: number): number {
  const kind = tape[entry * STRIDE + KIND];
  return kind === OBJECT || kind === ARRAY ? tape[entry * STRIDE + EXTRA]! : entry + 1;
}

/**
 * A container is indexed (see `ChildIndex`) on its lookup after this many
 * walks: most containers are asked for a child or two, and a walk over a
 * few entries is as fast as an index and allocates nothing.
 */
const WALKS_BEFORE_INDEX = 8;

/**
 * Child lookups of one tape, by index or key in constant time once a
 * container has been asked often. Without it, asking for the position of
 * every element of a 10^5-element array (or every key of a 10^5-key object,
 * as problem reporting does) walked the container from its start each time:
 * quadratic in the input.
 */
export class ChildIndex {
  /** Per indexed container entry: what has been read of it so far. */
  private readonly indexes = new Map<number, ElementIndex | KeyIndex>();
  /** Walks so far per container not yet indexed. */
  private readonly walks = new Map<number, number>();

  /**
   * `unique`: no object of the text repeats a key, so the first key that
   * matches is the one `JSON.parse` keeps and a lookup may stop there.
   */
  constructor(
    private readonly text: string,
    private readonly unique: boolean,
  ) {}

  /**
   * The value entry of `container` at `segment`, as jsonc-parser's tree walk
   * finds it: an array item by index, or an object's last property of that
   * name (the one `JSON.parse` keeps); -1 when there is none.
   */
  child(tape: Int32Array, container: number, segment: string | number): number {
    const kind = tape[container * STRIDE + KIND];
    if (kind !== ARRAY && kind !== OBJECT) return -1;
    if (kind === ARRAY) {
      if (typeof segment !== "number" || !Number.isInteger(segment) || segment < 0) return -1;
    }
    let index = this.indexes.get(container);
    if (index === undefined) {
      const walks = (this.walks.get(container) ?? 0) + 1;
      this.walks.set(container, walks);
      if (walks <= WALKS_BEFORE_INDEX) {
        return childByWalk(this.text, tape, container, segment, this.unique);
      }
      const end = tape[container * STRIDE + EXTRA]!;
      index =
        kind === ARRAY
          ? { elements: [], next: container + 1, end }
          : { keys: new Map(), next: container + 1, end };
      this.indexes.set(container, index);
    }
    if ("elements" in index) return element(tape, index, segment as number);
    return this.keyed(tape, index, String(segment));
  }

  /**
   * An object's value entry for `key`. Containers are read only as far as
   * asked (here and in `element`): problems ask in document order, and a
   * 10^5-key object whose first thousand keys are reported need not have
   * the rest decoded. With repeated keys the whole object is read, so the
   * last one wins.
   */
  private keyed(tape: Int32Array, index: KeyIndex, key: string): number {
    const known = index.keys.get(key);
    if (known !== undefined && this.unique) return known;
    while (index.next < index.end) {
      const entry = index.next;
      index.next = skip(tape, entry + 1);
      const name = keyText(this.text, tape, entry);
      index.keys.set(name, entry + 1);
      if (this.unique && name === key) return entry + 1;
    }
    return index.keys.get(key) ?? -1;
  }
}

/** An array entry's element entries read so far, and where reading resumes. */
interface ElementIndex {
  elements: number[];
  /** The next element entry to read. */
  next: number;
  /** The entry just past the array. */
  end: number;
}

/** The entry of element `i`, reading the array no further than it. */
function element(tape: Int32Array, index: ElementIndex, i: number): number {
  const elements = index.elements;
  while (elements.length <= i && index.next < index.end) {
    elements.push(index.next);
    index.next = skip(tape, index.next);
  }
  return i < elements.length ? elements[i]! : -1;
}

/** The keys of an object entry read so far, each with its value entry, and where reading resumes. */
interface KeyIndex {
  keys: Map<string, number>;
  /** The next key entry to read. */
  next: number;
  /** The entry just past the object. */
  end: number;
}

/** A key entry's key, as `JSON.parse` decodes it. */
export function keyText(text: string, tape: Int32Array, entry: number): string {
  const start = tape[entry * STRIDE + OFFSET]!;
  const end = tape[entry * STRIDE + EXTRA]!;
  return tape[entry * STRIDE + KIND] === KEY
    ? text.slice(start + 1, end)
    : (JSON.parse(text.slice(start, end + 1)) as string);
}

/** `ChildIndex.child` for a small container: a walk from its start. */
function childByWalk(
  text: string,
  tape: Int32Array,
  container: number,
  segment: string | number,
  unique: boolean,
): number {
  const end = tape[container * STRIDE + EXTRA]!;
  if (tape[container * STRIDE + KIND] === ARRAY) {
    let entry = container + 1;
    for (let k = 0; k < (segment as number) && entry < end; k++) entry = skip(tape, entry);
    return entry < end ? entry : -1;
  }
  const key = String(segment);
  let found = -1;
  for (let entry = container + 1; entry < end; entry = skip(tape, entry + 1)) {
    if (!keyIs(text, tape, entry, key)) continue;
    found = entry + 1;
    if (unique) break;
  }
  return found;
}

/** The key entries of an object entry, in text order (duplicates included). */
export function keyEntries(tape: Int32Array, container: number): number[] {
  if (tape[container * STRIDE + KIND] !== OBJECT) return [];
  const end = tape[container * STRIDE + EXTRA]!;
  const out: number[] = [];
  for (let entry = container + 1; entry < end; entry = skip(tape, entry + 1)) out.push(entry);
  return out;
}

/** Every object entry among the first `size` ints of a tape, in text order. */
export function objectEntryIndexes(tape: Int32Array, size: number): number[] {
  const out: number[] = [];
  for (let entry = 0; entry * STRIDE < size; entry++) {
    if (tape[entry * STRIDE + KIND] === OBJECT) out.push(entry);
  }
  return out;
}

/** The text offset where an entry starts. */
export function entryOffset(tape: Int32Array, entry: number): number {
  return tape[entry * STRIDE + OFFSET]!;
}

/** Whether an entry is a string value (a scalar starting with a quote). */
export function isStringEntry(text: string, tape: Int32Array, entry: number): boolean {
  return (
    tape[entry * STRIDE + KIND] === SCALAR &&
    text.charCodeAt(tape[entry * STRIDE + OFFSET]!) === QUOTE
  );
}

/** The offset just past a string value entry's closing quote. */
export function stringEntryEnd(text: string, tape: Int32Array, entry: number): number {
  return stringEnd(text, tape[entry * STRIDE + OFFSET]!) + 1;
}

/** Whether key entry `entry` names `key` (compared as JSON.parse decodes it). */
function keyIs(text: string, tape: Int32Array, entry: number, key: string): boolean {
  const start = tape[entry * STRIDE + OFFSET]!;
  const end = tape[entry * STRIDE + EXTRA]!;
  if (tape[entry * STRIDE + KIND] === KEY) {
    return end - start - 1 === key.length && text.startsWith(key, start + 1);
  }
  // An escape makes the raw key longer than the key it decodes to.
  return end - start - 1 > key.length && JSON.parse(text.slice(start, end + 1)) === key;
}

/** The key entry of a value entry found by `childEntry` in an object. */
export function keyEntryOf(valueEntry: number): number {
  return valueEntry - 1;
}

/** Whether an entry is an object. */
export function isObjectEntry(tape: Int32Array, entry: number): boolean {
  return tape[entry * STRIDE + KIND] === OBJECT;
}

/**
 * Whether some object of the text repeats a key (`JSON.parse` keeps the
 * last value silently), from the tape alone: every key of an object of two
 * or more is hashed from its text into one table, and only keys of one
 * object with equal hashes are compared as strings. Linear in the text,
 * and independent of how the engine stores large objects: listing the keys
 * of a parsed 10^5-key object cost ~20 ms per MiB.
 */
export function repeatsAKey(text: string, tape: Int32Array, size: number): boolean {
  const entries = size / STRIDE;
  let keys = 0;
  for (let e = 0; e < entries; e++) if (tape[e * STRIDE + KIND]! >= KEY) keys++;
  let capacity = 16;
  while (capacity < keys * 2) capacity <<= 1;
  const mask = capacity - 1;
  /** Open addressing: per slot, a key entry (-1: free), its object and its hash. */
  const slots = new Int32Array(capacity).fill(-1);
  const owners = new Int32Array(capacity);
  const hashes = new Int32Array(capacity);
  for (let object = 0; object < entries; object++) {
    if (tape[object * STRIDE + KIND] !== OBJECT) continue;
    const end = tape[object * STRIDE + EXTRA]!;
    // One key cannot repeat: a list of 10^5 `{"id":1}` hashes nothing.
    if (object + 1 >= end || skip(tape, object + 2) >= end) continue;
    for (let e = object + 1; e < end; e = skip(tape, e + 1)) {
      const h = keyHash(text, tape, e, object);
      let slot = h & mask;
      for (let other = slots[slot]!; other !== -1; other = slots[slot]!) {
        if (owners[slot] === object && hashes[slot] === h) {
          if (keyText(text, tape, other) === keyText(text, tape, e)) return true;
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = e;
      owners[slot] = object;
      hashes[slot] = h;
    }
  }
  return false;
}

/** FNV-1a of a key as `JSON.parse` decodes it, seeded with its object's entry. */
function keyHash(text: string, tape: Int32Array, entry: number, seed: number): number {
  let source = text;
  let from = tape[entry * STRIDE + OFFSET]! + 1;
  let to = tape[entry * STRIDE + EXTRA]!;
  if (tape[entry * STRIDE + KIND] === ESCAPED_KEY) {
    source = keyText(text, tape, entry);
    from = 0;
    to = source.length;
  }
  let h = Math.imul(seed ^ 0x811c9dc5, 0x01000193);
  for (let i = from; i < to; i++) h = Math.imul(h ^ source.charCodeAt(i), 0x01000193);
  return h;
}

/** Keys of one object outside an allowed set: the first few, and how many in all. */
export interface OtherKeys {
  /** The first keys outside the set, in `Object.keys` order. */
  listed: string[];
  /** All keys outside the set. */
  count: number;
}

/** Largest array index (2^32 - 2): such keys come first in `Object.keys`, in numeric order. */
const MAX_ARRAY_INDEX = 4294967294;

/**
 * `otherKeys` from the tape, for an object entry of a text in which no
 * object repeats a key (then its keys are exactly its key entries). The same
 * answer as a walk over `Object.keys` of the parsed object, without one:
 * listing the keys of a parsed 10^5-key object cost ~15 ms per MiB. Keys are
 * compared in the text, and only listed ones are sliced out.
 */
export function otherKeysOf(
  text: string,
  tape: Int32Array,
  container: number,
  allowed: readonly string[],
  max: number,
): OtherKeys {
  const listed: string[] = [];
  /** Array-index keys, which `Object.keys` gives first: value and key. */
  let indexes: { n: number; key: string }[] | undefined;
  let count = 0;
  const end = tape[container * STRIDE + EXTRA]!;
  for (let e = container + 1; e < end; e = skip(tape, e + 1)) {
    const escaped = tape[e * STRIDE + KIND] === ESCAPED_KEY;
    const key = escaped ? keyText(text, tape, e) : undefined;
    const n = key === undefined ? rawIndex(text, tape, e) : indexValue(key, 0, key.length);
    if (n !== -1) {
      const k = key ?? keyText(text, tape, e);
      if (allowed.includes(k)) continue;
      count++;
      if (indexes === undefined) indexes = [];
      indexes.push({ n, key: k });
      continue;
    }
    if (key !== undefined ? allowed.includes(key) : isAllowed(text, tape, e, allowed)) continue;
    count++;
    if (listed.length < max) listed.push(key ?? keyText(text, tape, e));
  }
  if (indexes === undefined) return { listed, count };
  indexes.sort((a, b) => a.n - b.n);
  const first = indexes.slice(0, max).map((i) => i.key);
  return { listed: [...first, ...listed].slice(0, max), count };
}

/** How many key entries an object entry has, counted no further than `limit` + 1. */
export function keyCount(tape: Int32Array, container: number, limit: number): number {
  const end = tape[container * STRIDE + EXTRA]!;
  let n = 0;
  for (let e = container + 1; e < end && n <= limit; e = skip(tape, e + 1)) n++;
  return n;
}

/** An unescaped key entry's array index, or -1 when its key is none. */
function rawIndex(text: string, tape: Int32Array, entry: number): number {
  const start = tape[entry * STRIDE + OFFSET]! + 1;
  return indexValue(text, start, tape[entry * STRIDE + EXTRA]!);
}

/** `s[start, end)` as an array index (canonical digits, at most 2^32 - 2), or -1. */
function indexValue(s: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0 || length > 10) return -1;
  const c0 = s.charCodeAt(start);
  if (c0 === 48) return length === 1 ? 0 : -1;
  let n = 0;
  for (let p = start; p < end; p++) {
    const c = s.charCodeAt(p);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  return n <= MAX_ARRAY_INDEX ? n : -1;
}

/** Whether an unescaped key entry is one of `allowed`, compared in place. */
function isAllowed(text: string, tape: Int32Array, entry: number, allowed: readonly string[]) {
  const start = tape[entry * STRIDE + OFFSET]! + 1;
  const length = tape[entry * STRIDE + EXTRA]! - start;
  for (const k of allowed) if (k.length === length && text.startsWith(k, start)) return true;
  return false;
}
