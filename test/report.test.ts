import { describe, expect, it } from "vitest";
import { utf8Bytes } from "../src/github/limits.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { codeBlock, codeSpan, escapeInline } from "../src/report/markdown-escape.js";
import { plain } from "../src/report/paint.js";
import { RunReportSchema, runReportJson, runReportJsonChunks } from "../src/report/run-json.js";
import { renderTerminal } from "../src/report/terminal.js";
import { summariseRun } from "../src/verdict.js";
import { expectGolden } from "./helpers/golden.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

describe("markdown escaping", () => {
  it("defuses mentions, HTML and markdown syntax in inline text", () => {
    const out = escapeInline("@octocat <script>x</script> [link](http://x) | a\nb");
    expect(out).not.toMatch(/@[a-z]/);
    expect(out).not.toContain("<");
    expect(out).toContain("\\|");
    expect(out).not.toContain("\n");
  });

  it("makes code spans and fences that content cannot close", () => {
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`x`")).toBe("`` `x` ``");
    const block = codeBlock("before\n```\nafter\n````");
    expect(block.startsWith("`````text\n")).toBe(true);
    expect(block.endsWith("\n`````")).toBe(true);
  });
});

describe("run reports", () => {
  const outcomes = sampleOutcomes();
  const summary = summariseRun(outcomes);

  it("renders the terminal report, blocking rows first", () => {
    expectGolden("run-terminal.txt", renderTerminal(summary, outcomes, plain));
  });

  it("renders the markdown report", () => {
    const md = renderMarkdown(summary, outcomes, { title: "Contract Gate" });
    expectGolden("run-report.md", md);
    expect(md).not.toMatch(/@(octocat|admin)/);
    expect(md).not.toContain("<b>");
  });

  it("keeps every blocking row and the counts when over budget, and says what was cut", () => {
    const big = sampleOutcomes();
    const filler = big[0]!.criteria[0]!;
    for (let i = 0; i < 2000; i++) {
      big[0]!.criteria.push({
        ...filler,
        id: `m${i}`,
        checks: [{ ...filler.checks[0]!, detail: "x".repeat(200) }],
      });
    }
    const s = summariseRun(big);
    for (const budget of [65_535, 4_000]) {
      const md = renderMarkdown(s, big, { budget });
      expect(utf8Bytes(md)).toBeLessThanOrEqual(budget);
      expect(md).toContain("**4 blocking** of 2006 criteria");
      for (const id of ["2", "3", "5", "T1.1"]) expect(md).toContain(`\`${id}\``);
      expect(md).toMatch(/Report (shortened|cut) to fit/);
    }
  });

  it("cuts even blocking rows at a tiny budget but stays within it and counts what was cut", () => {
    const md = renderMarkdown(summary, outcomes, { budget: 600 });
    expect(utf8Bytes(md)).toBeLessThanOrEqual(600);
    expect(md).toMatch(/Report cut to fit 600 characters: \d+ blocking rows?/);
  });

  it("produces JSON that matches its schema", () => {
    const json = runReportJson(summary, outcomes);
    expect(RunReportSchema.parse(json)).toEqual(json);
    expect(json.contracts[0]!.criteria[1]).toMatchObject({
      id: "2",
      status: "unmet",
      blocking: true,
    });
    expect(json.contracts[0]!.criteria[1]!.checks[0]).toMatchObject({
      exitCode: 7,
      failureReason: "verification-criteria-unmet",
    });
  });

  it("streams exactly the JSON.stringify text, a contract at a time", () => {
    const sandbox = { mode: "auto", mechanism: "none", cgroup: "none", memoryMb: 64 } as const;
    const integrity = { applies: false, reason: "push: no pull request base" } as const;
    for (const [list, extras] of [
      [outcomes, { sandbox }],
      [outcomes.slice(0, 1), {}],
      [outcomes, { sandbox, integrity }],
      [[], { sandbox }],
    ] as const) {
      const s = summariseRun(list);
      const chunks = [...runReportJsonChunks(s, list, extras)];
      expect(chunks.join("")).toBe(`${JSON.stringify(runReportJson(s, list, extras), null, 2)}\n`);
      if (list.length > 0) expect(chunks).toHaveLength(list.length + 2);
      // A shard's file: the same report on one line.
      const compact = [...runReportJsonChunks(s, list, extras, { compact: true })].join("");
      expect(compact).toBe(`${JSON.stringify(runReportJson(s, list, extras))}\n`);
    }
  });
});
