/**
 * Small helpers that keep problem messages uniform: values are shown as JSON
 * (so control characters and quotes are visible) and cut short, because a
 * message is one line in a terminal or a PR annotation.
 */

const PREVIEW_LIMIT = 60;

/** A value as JSON, shortened to a readable length. */
export function preview(value: unknown): string {
  // JSON.stringify writes 1e400 (read as Infinity) as null, which hides what was written.
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = String(value);
  }
  // Code points never outnumber UTF-16 units: a short string is short enough.
  if (json.length <= PREVIEW_LIMIT) return json;
  const chars = [...json];
  return chars.length <= PREVIEW_LIMIT ? json : `${chars.slice(0, PREVIEW_LIMIT - 1).join("")}…`;
}

/** The JSON type name of a value, as users know it ("array", "null", not "object"). */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** "a string", "an array": the expected-type phrase of a wrong-type message. */
export function withArticle(typeName: string): string {
  return /^[aeiou]/.test(typeName) ? `an ${typeName}` : `a ${typeName}`;
}

/** "got string \"1\"", "got array": what a wrong-type message says was found. */
export function describeFound(value: unknown): string {
  const type = jsonType(value);
  return type === "array" || type === "object" || type === "null"
    ? `got ${type}`
    : `got ${type} ${preview(value)}`;
}

/** `"a", "b" or "c"` for enum listings. */
export function listValues(values: readonly unknown[]): string {
  const shown = values.map((v) => preview(v));
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}`;
}

/** Shorten prose (criterion titles) to `limit` code points. */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join("")}…`;
}
