import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../src/report/markdown.js";
import { type ContractOutcome, summariseRun } from "../src/verdict.js";

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
});
