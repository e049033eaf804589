import type { JsonPath } from "../json/path.js";
import type { At } from "../json/sink.js";

const PREFIX = "research:";

/** `[a-z0-9_-]`, the characters of a finding id after its first (003's `findingID`). */
function idChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/**
 * Every `research:<id>` in a string. A plan phase "references
 * "research:r12", and the seal resolves that against the accepted research"
 * (003). An id is read as the seed's pattern allows (lowercase letter or
 * digit, then up to 63 of `[a-z0-9_-]`); `research:` followed by anything
 * else is prose, not a citation. One pass with `indexOf`: linear.
 */
export function citationsIn(text: string): string[] {
  const out: string[] = [];
  let at = text.indexOf(PREFIX);
  while (at >= 0) {
    let end = at + PREFIX.length;
    const first = text.charCodeAt(end);
    if (idChar(first) && first !== 0x5f && first !== 0x2d) {
      while (end < text.length && idChar(text.charCodeAt(end))) end++;
      // A trailing `-` or `_` is punctuation in prose ("research:r1-"), not part of the id.
      let id = text.slice(at + PREFIX.length, end);
      while (id.endsWith("-") || id.endsWith("_")) id = id.slice(0, -1);
      out.push(id);
    }
    // From just past this prefix: in "research:research:r2" both are read.
    at = text.indexOf(PREFIX, at + PREFIX.length);
  }
  return out;
}

/** Every string in a parsed JSON value, with its path, in document order (iterative walk). */
export function stringsIn(value: unknown): At<string>[] {
  const out: At<string>[] = [];
  const stack: { value: unknown; path: JsonPath }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") out.push({ value: v, path });
    else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push({ value: (v as Record<string, unknown>)[k], path: [...path, k] });
      }
    }
  }
  return out;
}
