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
import { composeStickyBody, shaMarker } from "../src/github/sticky-body.js";
import type { Annotation } from "../src/github/types.js";
import { finding, type IntegrityReport } from "../src/integrity/types.js";
import { annotationsFor } from "../src/report/annotations.js";
import {
  CHECK_RUN_BUDGET,
  COMMENT_BUDGET,
  JOB_SUMMARY_BUDGET,
} from "../src/report/github-surfaces.js";
import { integrityAnnotations } from "../src/report/integrity.js";
import { DEFAULT_MARKDOWN_BUDGET } from "../src/report/markdown.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

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

  it("the renderers' budgets sit within the limits (the comment's leaves room for its markers)", () => {
    expect(CHECK_RUN_BUDGET).toBe(GITHUB_LIMITS.checkRunOutput);
    expect(DEFAULT_MARKDOWN_BUDGET).toBe(GITHUB_LIMITS.checkRunOutput);
    expect(COMMENT_BUDGET).toBeLessThan(GITHUB_LIMITS.commentBody - 1_000);
    expect(JOB_SUMMARY_BUDGET).toBeLessThan(GITHUB_LIMITS.jobSummary);
  });

  const base: Annotation = {
    path: "a.md",
    start_line: 1,
    end_line: 1,
    annotation_level: "failure",
    message: "m",
  };

  it.each([
    { field: "title", limit: GITHUB_LIMITS.annotationTitle },
    { field: "message", limit: GITHUB_LIMITS.annotationDetail },
    { field: "raw_details", limit: GITHUB_LIMITS.annotationDetail },
  ] as const)("an annotation's $field: at the limit kept, one over cut", ({ field, limit }) => {
    const fitted = (text: string) => fitAnnotationText({ ...base, [field]: text })[field];
    expect(fitted("a".repeat(limit))).toBe("a".repeat(limit));
    expect(fitted("a".repeat(limit + 1))).toBe(
      `${"a".repeat(limit - utf8Bytes(ELLIPSIS))}${ELLIPSIS}`,
    );
    // Within the limit in characters, over it in bytes: cut (a title at 85 of 255 "€").
    const wide = fitted("€".repeat(limit));
    expect(wide).toBe(`${"€".repeat(Math.floor(limit / 3) - 1)}${ELLIPSIS}`);
  });

  it("keeps the other fields and their order, and adds no field that was absent", () => {
    const { message: _, ...where } = base;
    const a = fitAnnotationText({ ...where, title: "t", message: "m" });
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

/** A surrogate half without its partner: GitHub would show U+FFFD. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("every surface cuts by the same rule", () => {
  it("an integrity annotation's long message: within the limit, the pair kept whole (control: the old bare slice split it)", () => {
    const message = `${"a".repeat(65_534)}${PAIR}b`;
    const report: IntegrityReport = {
      applies: true,
      base: "0".repeat(40),
      findings: [
        finding({
          code: "oracle-changed",
          contract: "c.md",
          kind: "oracle-contract",
          path: "c.md",
          line: 3,
          subject: "criterion 1",
          message,
        }),
      ],
    };
    const [a] = integrityAnnotations(report);
    expect(utf8Bytes(a!.message)).toBeLessThanOrEqual(GITHUB_LIMITS.annotationDetail);
    expect(a!.message).toBe(`${"a".repeat(65_532)}${ELLIPSIS}`);
    expect(LONE.test(a!.message)).toBe(false);
    // Control: the cut integrity.ts made before, 64 KiB − 1 code units, leaves half the pair.
    expect(LONE.test(message.slice(0, 64 * 1024 - 1))).toBe(true);
  });

  it("a criterion's title in 3-byte characters: cut by bytes, as the adapter would", () => {
    const outcomes = sampleOutcomes();
    const k = outcomes[0]!.criteria.find((c) => c.blocking)!;
    k.title = "€".repeat(200); // 200 characters, 600 bytes
    const a = annotationsFor(outcomes).find((x) => x.title?.includes("€"))!;
    expect(utf8Bytes(a.title!)).toBeLessThanOrEqual(GITHUB_LIMITS.annotationTitle);
    expect(a.title!.endsWith(ELLIPSIS)).toBe(true);
    // The adapter fits with the same rule: what the renderer built passes unchanged.
    expect(fitAnnotationText(a)).toEqual(a);
  });

  it("the sticky comment's body: within the comment limit in bytes, marker and sha first, the note last", () => {
    const marker = "<!-- contract-gate:Contract Gate -->";
    const body = composeStickyBody(marker, "abc123", `${"é".repeat(40_000)}${PAIR}`);
    expect(body.startsWith(`${marker}\n${shaMarker("abc123")}\n`)).toBe(true);
    expect(utf8Bytes(body)).toBeLessThanOrEqual(GITHUB_LIMITS.commentBody);
    expect(body.endsWith(TRUNCATION_NOTE)).toBe(true);
    expect(LONE.test(body)).toBe(false);
  });
});
