import { type At, type JsonObject, type JsonSink, keys } from "../json/sink.js";

/** `const maxItems = 64` (003): "an unbounded research artifact is a transcript with extra steps". */
export const MAX_ITEMS = 64;
/** `const maxLine = 500` (003), compared with Go's `len(s)`: bytes, not characters. */
export const MAX_LINE_BYTES = 500;

const encoder = new TextEncoder();

/**
 * The seed's `line(field, v, required)` (003): "rejects a value that is empty
 * when required, over-long, or multi-line. A phase artifact is a set of short
 * claims, not prose". The value is trimmed first, as `strings.TrimSpace` does.
 */
export function lineProblems(
  sink: JsonSink,
  value: At<string> | undefined,
  required: boolean,
): void {
  if (value === undefined) return;
  const s = value.value.trim();
  if (s === "") {
    if (required) sink.report("not-single-line", value.path, "the value is empty after trimming");
    return;
  }
  const bytes = encoder.encode(s).length;
  if (bytes > MAX_LINE_BYTES) {
    sink.report(
      "not-single-line",
      value.path,
      `${bytes} bytes after trimming exceeds the ${MAX_LINE_BYTES}-byte bound`,
      { hint: "a sealed artifact holds short claims; move the detail to the repository" },
    );
  }
  if (s.includes("\n") || s.includes("\r")) {
    sink.report("not-single-line", value.path, "the value spans more than one line", {
      hint: "one claim per entry, on one line",
    });
  }
}

/** `bound(field, n)`: at most 64 entries (003); `min` 1 for findings and changes. */
export function countProblems(
  sink: JsonSink,
  obj: JsonObject,
  key: string,
  items: readonly unknown[],
  min: 0 | 1,
): void {
  if (items.length > MAX_ITEMS) {
    sink.report(
      "item-count",
      [key],
      `${key} has ${items.length} entries; the bound is ${MAX_ITEMS}`,
    );
  } else if (items.length < min && Object.hasOwn(obj, key) && Array.isArray(obj[key])) {
    sink.report("item-count", [key], `${key} is empty; at least one entry is required`);
  }
}

/** An optional list of required single-line strings (`lists(...)` in 003). */
export function lineList(sink: JsonSink, obj: JsonObject, key: string): At<string>[] {
  const items = sink.strings(obj, key, [], false);
  countProblems(sink, obj, key, items, 0);
  for (const item of items) lineProblems(sink, item, true);
  return items;
}

/**
 * A bounded list of objects with exactly two fields, both required single
 * lines: a plan's `changes` (`target`, `intent`; at least one), research's
 * `dead_ends` (`tried`, `why_failed`).
 */
export function linePairs(
  sink: JsonSink,
  obj: JsonObject,
  key: string,
  fields: readonly [string, string],
  min: 0 | 1,
  what: string,
): void {
  const items = sink.objects(obj, key, [], min === 1);
  countProblems(sink, obj, key, items, min);
  const allowed = keys(...fields);
  for (const item of items) {
    sink.unknownKeys(item.value, allowed, item.path, "unknown-key", what);
    for (const field of fields) lineProblems(sink, sink.string(item.value, field, item.path), true);
  }
}
