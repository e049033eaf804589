import { describe, expect, it } from "vitest";
import { utf8Bytes } from "../src/github/limits.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { type ContractOutcome, summariseRun } from "../src/verdict.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

/** 1,000 contracts × 30 met criteria: the scale a sharded merge publishes. */
function outcomes(): ContractOutcome[] {
  return Array.from({ length: 1000 }, (_, i) => {
    const path = `.planning/phase-${i + 1}-contract.json`;
    return {
      path,
      kind: "plan-contract",
      verdict: "pass",
      problems: [],
      criteria: Array.from({ length: 30 }, (_, k) => ({
        id: `T1.${k + 1}`,
        title: `check ${k + 1}`,
        group: "T1",
        location: { path, line: k + 1 },
        status: "met" as const,
        blocking: false,
        reason: "file exists",
        checks: [
          {
            type: "file-exists" as const,
            result: "pass" as const,
            reason: "file exists",
            durationMs: 1,
          },
        ],
      })),
    };
  });
}

describe("markdown at 30,000 criteria", () => {
  it("renders the full report within its budget instead of overflowing the stack", () => {
    const all = outcomes();
    const md = renderMarkdown(summariseRun(all), all, { budget: 1_000_000 });
    expect(md.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(1_000_000);
  });

  it("stops rendering a level only when it cannot fit: a report exactly at the budget is whole", () => {
    // Blank lines and trailing spaces collapse after the lines are joined, so the early stop must
    // not count them; a budget one short of the whole report shows that the budget is enforced.
    const all = [...sampleOutcomes(), ...outcomes().slice(0, 3)];
    const summary = summariseRun(all);
    const opts = { title: "Gate", footer: "footer  \n\n", verdictLine: "**1 blocking**  " };
    const whole = renderMarkdown(summary, all, { ...opts, budget: 10_000_000 });
    expect(whole).not.toContain("Report shortened");
    expect(renderMarkdown(summary, all, { ...opts, budget: utf8Bytes(whole) })).toBe(whole);
    const short = renderMarkdown(summary, all, { ...opts, budget: utf8Bytes(whole) - 1 });
    expect(short).toContain("Report shortened");
    expect(utf8Bytes(short)).toBeLessThan(utf8Bytes(whole));
  });

  it("cuts a report of 30,000 blocking rows to its budget, counting what it leaves out", () => {
    const all = outcomes().map((c) => ({
      ...c,
      verdict: "fail" as const,
      criteria: c.criteria.map((k) => ({ ...k, status: "unmet" as const, blocking: true })),
    }));
    const md = renderMarkdown(summariseRun(all), all, { budget: 20_000 });
    const kept = md.split("\n").filter((l) => l.startsWith("- ❌")).length;
    expect(kept).toBeGreaterThan(0);
    expect(md).toContain(`Report cut to fit 20,000 characters: ${30_000 - kept} blocking rows`);
    expect(utf8Bytes(md)).toBeLessThanOrEqual(20_000);
  });
});
