import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { Location, Problem } from "../../model.js";
import { problem } from "../../problems.js";
import { LineIndex } from "../text.js";
import { type JsonPath, toPointer } from "./json-path.js";

/**
 * Deepest nesting accepted. A v1 contract is 7 levels deep at most; the limit
 * exists because jsonc-parser (and our own walks) recurse, and a 1 MiB file of
 * `[` would otherwise overflow the stack instead of yielding a problem.
 */
export const MAX_JSON_DEPTH = 64;

/** Parsed JSON plus where every value and key sits in the file. */
export class JsonDocument {
  constructor(
    readonly path: string,
    /** Exactly what `JSON.parse` returns, so later stages see standard semantics. */
    readonly value: unknown,
    private readonly values: ReadonlyMap<string, Location>,
    private readonly keys: ReadonlyMap<string, Location>,
  ) {}

  /** Where the value at `path` starts; the nearest present ancestor when it is absent. */
  valueAt(path: JsonPath): Location {
    for (let n = path.length; n >= 0; n--) {
      const found = this.values.get(toPointer(path.slice(0, n)));
      if (found) return found;
    }
    return { path: this.path, line: 1, column: 1 };
  }

  /** Where the key of the property at `path` starts (the value's position for array items). */
  keyAt(path: JsonPath): Location {
    return this.keys.get(toPointer(path)) ?? this.valueAt(path);
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
 * last value winning as in `JSON.parse`.
 */
export function parseJsonDocument(path: string, text: string): JsonParseResult {
  const lines = new LineIndex(text);
  const at = (offset: number): Location => ({ path, ...lines.position(offset) });

  const tooDeep = firstTooDeepOffset(text);
  if (tooDeep !== undefined) {
    return syntaxFailure(at(tooDeep), `JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  }

  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
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

  const values = new Map<string, Location>();
  const keys = new Map<string, Location>();
  const problems: Problem[] = [];
  // Pointers are built incrementally: a 1 MiB file can hold ~10^5 values.
  const walk = (node: Node, pointer: string): void => {
    values.set(pointer, at(node.offset));
    if (node.type === "array") {
      node.children?.forEach((child, i) => {
        walk(child, `${pointer}/${i}`);
      });
      return;
    }
    if (node.type !== "object") return;
    const seen = new Map<string, Location>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      const key = String(keyNode.value);
      const keyLocation = at(keyNode.offset);
      const earlier = seen.get(key);
      if (earlier) {
        problems.push(
          problem(
            "json-duplicate-key",
            keyLocation,
            `duplicate key ${JSON.stringify(key)}; it is already defined on line ${earlier.line}`,
            { hint: "JSON keeps only the last value, silently dropping the first; remove one" },
          ),
        );
      }
      seen.set(key, keyLocation);
      const child = pointer + toPointer([key]);
      keys.set(child, keyLocation);
      walk(valueNode, child);
    }
  };
  walk(root, toPointer([]));

  return { document: new JsonDocument(path, value, values, keys), problems };
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
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
  }
  return undefined;
}
