import type { Marker } from "../../model/contract.js";

/**
 * The text inside one pair of backticks when they wrap the whole (trimmed)
 * value, else the value unchanged. Authors write `` CHECK: `npm test` `` so a
 * rendered contract shows code; the backticks are markdown, not shell. A value
 * with any other backtick inside is left alone: it is shell (command
 * substitution) or a longer code span, and guessing would change the command.
 */
export function unwrapBackticks(value: string): string {
  if (value.length >= 2 && value.startsWith("`") && value.endsWith("`")) {
    const inner = value.slice(1, -1);
    if (!inner.includes("`")) return inner;
  }
  return value;
}

// A closing `/` followed only by JavaScript flag letters. Greedy: the last
// `/` closes, so a regex may contain `/` itself.
const REGEX_MARKER = /^\/(.*)\/([dgimsuvy]*)$/s;

/**
 * `/re/flags` is a regex marker; anything else is a literal substring. A value
 * like `/usr/bin` (no closing slash followed only by flags) stays literal.
 */
export function parseMarker(value: string): Marker {
  const m = REGEX_MARKER.exec(value);
  if (m) return { kind: "regex", source: m[1]!, flags: m[2]! };
  return { kind: "literal", text: value };
}
