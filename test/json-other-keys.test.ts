import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonDocument } from "../src/formats/json/document.js";

// The keys of a large object outside an allowed set, read from the scan's
// tape (JsonDocument.otherKeys), against `Object.keys` of the parsed object:
// the same keys in the same order (array indexes first, in numeric order),
// and the same count, for keys written with escapes, index look-alikes and
// `__proto__`.

/** Raw JSON keys: plain, index and near-index, escaped, empty. */
const RAW_KEY = fc.oneof(
  fc.integer({ min: 0, max: 99_999 }).map((n) => `"k${n}"`),
  fc.integer({ min: 0, max: 99_999 }).map((n) => `"${n}"`),
  fc.constantFrom(
    '"0"',
    '"00"',
    '"01"',
    '"-1"',
    '"1e3"',
    '"4294967294"',
    '"4294967295"',
    '"12345678901"',
    '"__proto__"',
    '"id"',
    '"\\u0069d"',
    '"\\u0031\\u0032"',
    '"a\\"b"',
    '"\\u00e9"',
    '""',
  ),
);

/** An object text of distinct keys (a repeated key leaves the tape out) and its key count. */
function objectText(raw: readonly string[]): { text: string; size: number } {
  const byKey = new Map<string, string>();
  for (const k of raw) byKey.set(JSON.parse(k) as string, k);
  const members = [...byKey.values()].map((k, i) => `${k}:${i % 3 === 0 ? '{"x":[1]}' : i}`);
  return { text: `{${members.join(",")}}`, size: byKey.size };
}

describe("JsonDocument.otherKeys", () => {
  it("lists the keys Object.keys lists, in its order, and counts them all", () => {
    fc.assert(
      fc.property(
        fc.array(RAW_KEY, { minLength: 20, maxLength: 400 }),
        fc.integer({ min: 1, max: 15 }),
        (raw, max) => {
          const { text, size } = objectText(raw);
          fc.pre(size > max);
          const doc = parseJsonDocument("x.json", `{"a":[0,${text}]}`).document!;
          const obj = ((doc.value as { a: unknown[] }).a[1] ?? {}) as object;
          const allowed = ["id", "12", "k7", "__proto__"];
          const other = Object.keys(obj).filter((k) => !allowed.includes(k));
          const got = doc.otherKeys(["a", 1], allowed, max);
          expect(got).toEqual({ listed: other.slice(0, max), count: other.length });
        },
      ),
    );
  });

  it("leaves small objects, other values and texts that repeat a key to Object.keys", () => {
    const doc = (text: string) => parseJsonDocument("x.json", text).document!;
    expect(doc('{"a":{"b":1,"c":2}}').otherKeys(["a"], [], 2)).toBeUndefined();
    expect(doc('{"a":[1,2,3]}').otherKeys(["a"], [], 1)).toBeUndefined();
    expect(doc('{"a":{"b":1,"c":2,"d":3}}').otherKeys(["z"], [], 1)).toBeUndefined();
    expect(doc('{"a":{"b":1,"c":2,"b":3}}').otherKeys(["a"], [], 1)).toBeUndefined();
    expect(doc('{"a":{"b":1,"c":2,"d":3}}').otherKeys(["a"], ["c"], 1)).toEqual({
      listed: ["b"],
      count: 2,
    });
  });
});
