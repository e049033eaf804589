/**
 * GitHub's size rules (src/github/limits.ts): one unit, UTF-8 bytes, and one
 * cut that never splits a character. Table-driven at the boundary, one over,
 * a surrogate pair across the cut, and multi-byte text.
 */
import { describe, expect, it } from "vitest";
import {
  ELLIPSIS,
  fitAnnotationText,
  fitBytes,
  GITHUB_LIMITS,
  TRUNCATION_NOTE,
  utf8Bytes,
} from "../src/github/limits.js";

const NOTE_BYTES = utf8Bytes(TRUNCATION_NOTE);
const PAIR = "😀"; // U+1F600: two UTF-16 code units, four UTF-8 bytes

describe("utf8Bytes", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["ééé", 6], // 2 bytes each: more bytes than characters
    ["€", 3],
    [PAIR, 4], // 2 code units, 1 code point, 4 bytes
    ["\ud83d", 3], // a lone surrogate is sent as U+FFFD
  ])("%j is %i bytes, never fewer than its UTF-16 length", (s, bytes) => {
    expect(utf8Bytes(s)).toBe(bytes);
    expect(utf8Bytes(s)).toBeGreaterThanOrEqual(s.length);
  });
});

describe("fitBytes", () => {
  const max = 10;
  it.each([
    { name: "under the limit", s: "a".repeat(9), out: "a".repeat(9) },
    { name: "at the limit", s: "a".repeat(10), out: "a".repeat(10) },
    { name: "one over", s: "a".repeat(11), out: `${"a".repeat(7)}${ELLIPSIS}` },
    // 3 + 4 = 7 bytes fit the 7-byte budget left beside the ellipsis.
    { name: "a pair that fits whole", s: `abc${PAIR}defg`, out: `abc${PAIR}${ELLIPSIS}` },
    // 5 bytes, then the pair would end at byte 9 > 7: it goes whole, never half.
    { name: "a pair across the cut", s: `abcde${PAIR}fg`, out: `abcde${ELLIPSIS}` },
    // é is 2 bytes: 3 of them fill 6 of the 7, the 4th would end at 8.
    { name: "multi-byte text", s: "éééééé", out: `ééé${ELLIPSIS}` },
    { name: "multi-byte text at the limit", s: "ééééé", out: "ééééé" },
    { name: "few characters, too many bytes", s: "€€€€", out: `€€${ELLIPSIS}` },
  ])("$name", ({ s, out }) => {
    const fitted = fitBytes(s, max, ELLIPSIS);
    expect(fitted).toBe(out);
    expect(utf8Bytes(fitted)).toBeLessThanOrEqual(max);
    expect(fitBytes(fitted, max, ELLIPSIS)).toBe(fitted); // fitting twice changes nothing
  });

  it("never leaves half a surrogate pair, wherever the cut falls", () => {
    const s = PAIR.repeat(40);
    for (let max = 0; max <= utf8Bytes(s); max++) {
      const fitted = fitBytes(s, max, ELLIPSIS);
      expect(utf8Bytes(fitted)).toBeLessThanOrEqual(max);
      // Every code unit still in a pair: no lone surrogate left for GitHub to turn into U+FFFD.
      expect(fitted.replaceAll(PAIR, "")).toMatch(/^(…)?$/);
    }
  });

  it("control: a bare slice, as the integrity annotations cut before, splits the pair", () => {
    const cut = `abcde${PAIR}`.slice(0, 6);
    expect(cut.endsWith("\ud83d")).toBe(true);
    expect(Buffer.from(cut, "utf8").toString("utf8")).toBe("abcde\ufffd");
  });

  it("appends the default note, counted in the limit", () => {
    const s = "x".repeat(200);
    const fitted = fitBytes(s, 100);
    expect(fitted).toBe("x".repeat(100 - NOTE_BYTES) + TRUNCATION_NOTE);
    expect(utf8Bytes(fitted)).toBe(100);
  });

  it("drops the marker when even the marker does not fit, and still fits", () => {
    expect(fitBytes("abcdef", 4)).toBe("abcd");
    expect(fitBytes(`a${PAIR}`, 4, ELLIPSIS)).toBe(`a${ELLIPSIS}`); // 1 + 3 bytes: the pair does not fit beside the ellipsis
    expect(fitBytes(`${PAIR}${PAIR}`, 2, ELLIPSIS)).toBe("");
  });
});

describe("GitHub's limits, one rule for every field", () => {
  it.each([
    ["check run summary/text", GITHUB_LIMITS.checkRunOutput, 65_535],
    ["comment body", GITHUB_LIMITS.commentBody, 65_536],
    ["annotation title", GITHUB_LIMITS.annotationTitle, 255],
    ["annotation message/raw_details", GITHUB_LIMITS.annotationDetail, 65_535],
    ["job summary", GITHUB_LIMITS.jobSummary, 1_048_576],
  ])("%s: %i bytes", (_, limit, bytes) => {
    expect(limit).toBe(bytes);
  });

  const base = { path: "a.md", start_line: 1, end_line: 1, annotation_level: "failure" } as const;

  it.each([
    { field: "title", limit: GITHUB_LIMITS.annotationTitle },
    { field: "message", limit: GITHUB_LIMITS.annotationDetail },
    { field: "raw_details", limit: GITHUB_LIMITS.annotationDetail },
  ] as const)("an annotation's $field: at the limit kept, one over cut", ({ field, limit }) => {
    const at = fitAnnotationText({ ...base, message: "m", [field]: "a".repeat(limit) });
    expect(at[field]).toBe("a".repeat(limit));
    const over = fitAnnotationText({ ...base, message: "m", [field]: "a".repeat(limit + 1) });
    expect(over[field]).toBe(`${"a".repeat(limit - utf8Bytes(ELLIPSIS))}${ELLIPSIS}`);
    // A title in 3-byte characters is cut by bytes, at a third of its character count.
    const wide = fitAnnotationText({ ...base, message: "m", [field]: "€".repeat(limit) });
    expect(utf8Bytes(wide[field]!)).toBeLessThanOrEqual(limit);
  });

  it("keeps the other fields and their order, and adds no field that was absent", () => {
    const a = fitAnnotationText({ ...base, title: "t", message: "m" });
    expect(Object.keys(a)).toEqual([
      "path",
      "start_line",
      "end_line",
      "annotation_level",
      "title",
      "message",
    ]);
  });
});
