import { describe, expect, it } from "vitest";
import { planHash } from "../src/formats/plan-hash.js";
import { refreshPlanHash } from "../src/load/refresh-hash.js";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);
const plan = enc("plan v2\n");

describe("refreshPlanHash", () => {
  it("replaces only the hash value, keeping CRLF, spacing, key order and a BOM", () => {
    const before =
      '\uFEFF{\r\n  "version" : 1,\r\n  "source_plan_hash":   "sha256:old",\r\n  "x": [1,2]\r\n}\r\n';
    const result = refreshPlanHash(enc(before), plan);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(dec(result.bytes)).toBe(before.replace("sha256:old", planHash(plan)));
    expect(result.oldHash).toBe("sha256:old");
  });

  it("fills an empty hash", () => {
    const result = refreshPlanHash(enc('{"source_plan_hash":""}'), plan);
    expect(result.ok && dec(result.bytes)).toBe(`{"source_plan_hash":"${planHash(plan)}"}`);
  });

  it("does not touch a nested key of the same name", () => {
    const result = refreshPlanHash(enc('{"a":{"source_plan_hash":"x"}}'), plan);
    expect(result.ok).toBe(false);
  });

  it("refuses invalid JSON, a missing key, a non-string value and duplicate keys", () => {
    for (const bad of [
      '{"source_plan_hash": "x",}',
      '{"version": 1}',
      '{"source_plan_hash": 3}',
      '{"source_plan_hash": "a", "source_plan_hash": "b"}',
      "[]",
    ]) {
      const result = refreshPlanHash(enc(bad), plan);
      expect(result.ok, bad).toBe(false);
    }
    expect(refreshPlanHash(new Uint8Array([0x7b, 0xff, 0x7d]), plan).ok).toBe(false);
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    // 5,875 bytes of `[` once threw RangeError from jsonc-parser's recursive tree.
    for (const text of [
      "[".repeat(5875),
      `{"source_plan_hash": ""${",".repeat(0)}, "a": ${"[".repeat(100)}${"]".repeat(100)}}`,
    ]) {
      const result = refreshPlanHash(enc(text), plan);
      expect(result.ok).toBe(false);
    }
    // Nesting a contract really has (7 levels) is fine.
    const ok = refreshPlanHash(enc('{"a": [[[[[{"b": 1}]]]]], "source_plan_hash": ""}'), plan);
    expect(ok.ok).toBe(true);
  });
});
