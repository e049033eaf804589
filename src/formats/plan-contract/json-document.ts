import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { Location, Problem } from "../../model.js";
import { problem } from "../../problems.js";
import { LineIndex } from "../text.js";
import type { JsonPath } from "./json-path.js";
import {
  ChildIndex,
  countParsedKeys,
  entryColumn,
  entryLine,
  isCurrent,
  isObjectEntry,
  keyEntryOf,
  ownedScan,
  type ScanResult,
  scanJson,
} from "./json-scan.js";

/**
 * Deepest nesting accepted. A v1 contract is 7 levels deep at most; the limit
 * exists because jsonc-parser (and our own walks) recurse, and a 1 MiB file of
 * `[` would otherwise overflow the stack instead of yielding a problem.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Parsed JSON plus where every value and key sits in the file. Positions are
 * resolved on demand by walking a syntax tree along the path: most
 * documents are valid and need only a few positions, so no map of every
 * node is built up front.
 */
export class JsonDocument {
  constructor(
    readonly path: string,
    /** Exactly what `JSON.parse` returns, so later stages see standard semantics. */
    readonly value: unknown,
    private readonly tree: Locator,
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
}

/** Positions in the file, from whichever syntax tree the document was parsed into. */
interface Locator {
  /** Where the value at `path` starts, or its nearest present ancestor. */
  valueAt(path: JsonPath): Location;
  /** Where the key `last` of the object at `path` minus its last segment starts, if both exist. */
  keyAt(path: JsonPath, last: string): Location | undefined;
}

/** Objects with more properties than this are indexed on first lookup; smaller ones are walked. */
const WALK_LIMIT = 32;

/** Positions from jsonc-parser's tree: the full path, also for files with errors. */
class TreeLocator implements Locator {
  constructor(
    private readonly root: Node,
    private readonly at: (offset: number) => Location,
  ) {}

  /**
   * Large objects' properties by key (the last of each name), built on first
   * lookup: a walk per lookup made reporting every key of a 10^5-key object
   * quadratic.
   */
  private readonly byKey = new Map<Node, Map<string, Node>>();

  valueAt(path: JsonPath): Location {
    let node = this.root;
    for (const segment of path) {
      const next = this.childValue(node, segment);
      if (next === undefined) break;
      node = next;
    }
    return this.at(node.offset);
  }

  keyAt(path: JsonPath, last: string): Location | undefined {
    let node: Node | undefined = this.root;
    for (let i = 0; i < path.length - 1; i++) {
      node = node && this.childValue(node, path[i]!);
    }
    const key = node && this.lastProperty(node, last)?.children?.[0];
    return key && this.at(key.offset);
  }

  /** The property node for `key`; the last one wins, as in `JSON.parse`. */
  private lastProperty(node: Node, key: string): Node | undefined {
    if (node.type !== "object") return undefined;
    const props = node.children ?? [];
    if (props.length > WALK_LIMIT) {
      let index = this.byKey.get(node);
      if (index === undefined) {
        index = new Map();
        for (const prop of props) index.set(String(prop.children?.[0]?.value), prop);
        this.byKey.set(node, index);
      }
      return index.get(key);
    }
    for (let i = props.length - 1; i >= 0; i--) {
      if (props[i]?.children?.[0]?.value === key) return props[i];
    }
    return undefined;
  }

  private childValue(node: Node, segment: string | number): Node | undefined {
    if (node.type === "array")
      return typeof segment === "number" ? node.children?.[segment] : undefined;
    return this.lastProperty(node, String(segment))?.children?.[1];
  }
}

/**
 * Positions from the fast path's tape (json-scan.ts). Same walk, same
 * answers as `TreeLocator` (the tests compare them path by path); every
 * entry knows its line, and a step over a nested value is a single jump.
 */
class TapeLocator implements Locator {
  constructor(
    private readonly path: string,
    private readonly text: string,
    private scan: ScanResult,
  ) {
    this.children = new ChildIndex(text);
  }

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
 * Parse contract text as strict JSON. A syntax error yields one `json-syntax`
 * problem and no document (everything after it would be guesswork); duplicate
 * keys yield `json-duplicate-key` problems but the document is kept, with the
 * last value winning as in `JSON.parse`. Text without either takes
 * `parseJsonFast`; `{ fast: false }` forces the full parser (tests compare them).
 */
export function parseJsonDocument(
  path: string,
  text: string,
  options: { fast?: boolean } = {},
): JsonParseResult {
  return (options.fast !== false && parseJsonFast(path, text)) || parseJsonFull(path, text);
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

/**
 * The common case, valid JSON without duplicate keys, at a fraction of the
 * full parse's cost: `JSON.parse` for the value, a light scan for positions
 * and depth, and a count of keys for duplicates. Anything else (a syntax
 * error, a duplicate key, too deep nesting) returns undefined and is left to
 * `parseJsonFull`, so every problem is still found, worded and placed by it.
 */
export function parseJsonFast(path: string, text: string): JsonParseResult | undefined {
  const parsed = parseJsonUnchecked(path, text);
  if (parsed === undefined || parsed.keyCount !== countParsedKeys(parsed.document.value)) {
    return undefined;
  }
  return { document: parsed.document, problems: [] };
}

/**
 * `parseJsonFast` before its duplicate-key test, for a caller that counts
 * the value's keys on a walk it makes anyway: the text has no duplicate key
 * exactly when `keyCount` equals `countParsedKeys(document.value)`.
 */
export function parseJsonUnchecked(
  path: string,
  text: string,
): { document: JsonDocument; keyCount: number } | undefined {
  // Scan first: it stops at the 65th level, where JSON.parse would read all
  // of a 1 MiB `[[[[…` first. (On text that is not JSON the scan is garbage,
  // and thrown away when JSON.parse refuses the text.)
  const scan = scanJson(text, MAX_JSON_DEPTH);
  if (scan === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const tree = new TapeLocator(path, text, scan);
  return { document: new JsonDocument(path, value, tree), keyCount: scan.keyCount };
}

/** jsonc-parser's full syntax tree: exact errors and every duplicate key, with positions. */
export function parseJsonFull(path: string, text: string): JsonParseResult {
  const at = locationsIn(path, text);

  // jsonc-parser recurses: refuse absurd nesting before it can overflow the stack.
  const tooDeep = firstTooDeepOffset(text);
  if (tooDeep !== undefined) {
    return syntaxFailure(at(tooDeep), `JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, PARSE_OPTIONS);
  } catch (e) {
    // Kept as a second guard: a stack overflow is bad input, not a crash.
    if (!(e instanceof RangeError)) throw e;
    return syntaxFailure(
      at(firstTooDeepOffset(text) ?? 0),
      `JSON nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  const first = [...errors].sort((a, b) => a.offset - b.offset)[0];
  if (first !== undefined || root === undefined) {
    const offset = first?.offset ?? 0;
    const code = first ? printParseErrorCode(first.error) : "ValueExpected";
    return syntaxFailure(
      at(offset),
      `invalid JSON: ${humanize(code)}`,
      syntaxHint(text, offset, code),
    );
  }

  // jsonc-parser is lenient in places JSON is not (it skips non-breaking spaces
  // and other Unicode whitespace, for one). Fail closed if the two disagree.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    return syntaxFailure(at(position ? Number(position) : 0), `invalid JSON: ${message}`);
  }

  // Duplicate keys: JSON.parse keeps the last silently, so look at every object once.
  const problems: Problem[] = [];
  const stack: { node: Node; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > MAX_JSON_DEPTH) {
      return syntaxFailure(at(node.offset), `JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
    }
    if (node.type === "array") {
      for (const child of node.children ?? []) {
        if (child.children) stack.push({ node: child, depth: depth + 1 });
      }
      continue;
    }
    if (node.type !== "object") continue;
    const seen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      const key = String(keyNode.value);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push(
          problem(
            "json-duplicate-key",
            at(keyNode.offset),
            `duplicate key ${JSON.stringify(key)}; it is already defined on line ${at(earlier).line}`,
            { hint: "JSON keeps only the last value, silently dropping the first; remove one" },
          ),
        );
      }
      seen.set(key, keyNode.offset);
      if (valueNode.children) stack.push({ node: valueNode, depth: depth + 1 });
    }
  }

  return { document: new JsonDocument(path, value, new TreeLocator(root, at)), problems };
}

function syntaxFailure(at: Location, message: string, hint?: string): JsonParseResult {
  return {
    document: undefined,
    problems: [problem("json-syntax", at, message, hint ? { hint } : {})],
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
