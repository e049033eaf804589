/**
 * The builder of what the action posts (src/report/github-surfaces.ts): the
 * check run's output, the sticky comment and the job summary, from the verdict.
 */
import { describe, expect, it } from "vitest";
import { utf8Bytes } from "../src/github/limits.js";
import { finding, type IntegrityReport } from "../src/integrity/types.js";
import {
  CHECK_RUN_BUDGET,
  COMMENT_BUDGET,
  checkRunOutput,
  commentBody,
  githubSurfaces,
  jobSummary,
  rerunHint,
  type SurfaceInput,
} from "../src/report/github-surfaces.js";
import { commentMarker } from "../src/report/github-text.js";
import { summariseRun } from "../src/verdict.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

const NO_MATCH =
  "The globs `x/*.md` match no file in the repository — check the `contracts` input.";
const SANDBOX = { line: "Commands ran in a sandbox." };

function input(over: Partial<SurfaceInput> = {}): SurfaceInput {
  const outcomes = sampleOutcomes();
  return {
    summary: summariseRun(outcomes),
    outcomes,
    integrity: undefined,
    sandbox: SANDBOX,
    checkName: "Contract Gate",
    checkRunUrl: "https://github.com/o/r/runs/9",
    rerun: rerunHint(7),
    ...over,
  };
}

/** A run whose full report is several times the check run's budget: 2,000 passing criteria with output. */
function huge(): SurfaceInput {
  const outcomes = sampleOutcomes();
  const filler = outcomes[0]!.criteria[0]!;
  for (let i = 0; i < 2000; i++) {
    outcomes[0]!.criteria.push({
      ...filler,
      id: `m${i}`,
      // Multi-byte text: the budgets count UTF-8 bytes, not only characters.
      checks: [{ ...filler.checks[0]!, detail: "é".repeat(40) }],
    });
  }
  return input({ summary: summariseRun(outcomes), outcomes });
}

/** A blocking contract change, unacknowledged. */
const blockingChange: IntegrityReport = {
  applies: true,
  base: "0123456789abcdef0123",
  findings: [
    finding({
      code: "criterion-removed",
      contract: ".claude/tasks/contracts/c.md",
      kind: "oracle-contract",
      path: ".claude/tasks/contracts/c.md",
      line: 12,
      subject: "criterion 6",
      message: "criterion 6 was removed",
    }),
  ],
};

describe("the sticky comment", () => {
  it("starts with the marker, and ends with the check run's link and the rerun hint", () => {
    const body = commentBody(input());
    expect(body.startsWith(`${commentMarker("Contract Gate")}\n## `)).toBe(true);
    expect(
      body.trimEnd().endsWith(`[Check run](https://github.com/o/r/runs/9) · ${rerunHint(7)}`),
    ).toBe(true);
  });

  it("without a check run, ends with the rerun hint alone", () => {
    const body = commentBody(input({ checkRunUrl: undefined }));
    expect(body).not.toContain("[Check run]");
    expect(body.trimEnd().endsWith(`\n${rerunHint(7)}`)).toBe(true);
  });

  it("puts the no-match sentence right under the marker", () => {
    const body = commentBody(input({ noMatch: NO_MATCH }));
    expect(body.startsWith(`${commentMarker("Contract Gate")}\n**${NO_MATCH}**\n\n## `)).toBe(true);
  });
});

describe("the check run", () => {
  it("is titled by the counts, led by the contract changes that block", () => {
    expect(checkRunOutput(input()).title).toMatch(/^4 blocking of 6 criteria — /);
    expect(checkRunOutput(input({ integrity: blockingChange })).title).toMatch(
      /^1 blocking contract change \(need approval\); 4 blocking of 6 criteria — /,
    );
  });

  it("is titled and led by the no-match sentence when the globs matched nothing", () => {
    const output = checkRunOutput(input({ noMatch: NO_MATCH }));
    expect(output.title).toBe(NO_MATCH);
    expect(output.summary.startsWith(`**${NO_MATCH}**\n\n## `)).toBe(true);
    expect(output.text.startsWith("**")).toBe(false);
  });

  it("splits the report: tables and the contract changes in the summary, details in the text", () => {
    const output = checkRunOutput(input({ integrity: blockingChange }));
    expect(output.summary).toContain("### Contract changes");
    expect(output.summary).toContain(SANDBOX.line);
    expect(output.summary).not.toContain("### Details");
    expect(output.text.startsWith("### Details\n")).toBe(true);
    expect(output.text).not.toContain("### Contract changes");
  });

  it("annotates repository paths, the contract changes first", () => {
    const { annotations } = checkRunOutput(input({ integrity: blockingChange, prefix: "sub" }));
    expect(annotations.length).toBeGreaterThan(1);
    expect(annotations[0]).toMatchObject({
      path: "sub/.claude/tasks/contracts/c.md",
      start_line: 12,
    });
    for (const a of annotations) expect(a.path.startsWith("sub/")).toBe(true);
  });
});

describe("the job summary", () => {
  it("is the whole report, with a warning under the lead when the check run was left in progress", () => {
    const stuck = "The check run https://github.com/o/r/runs/9 was left in progress.";
    const summary = jobSummary(input({ noMatch: NO_MATCH }), stuck);
    expect(summary.startsWith(`**${NO_MATCH}**\n\n> [!WARNING]\n> ${stuck}\n\n## `)).toBe(true);
    expect(summary).toContain("### Details");
    expect(jobSummary(input())).not.toContain("[!WARNING]");
  });
});

describe("budgets", () => {
  it("keeps the check run's summary and text within 65,535 and the comment within 60,000 plus its marker", () => {
    for (const noMatch of [undefined, NO_MATCH]) {
      const surfaces = githubSurfaces({ ...huge(), noMatch });
      expect(utf8Bytes(surfaces.checkRun.summary)).toBeLessThanOrEqual(CHECK_RUN_BUDGET);
      expect(utf8Bytes(surfaces.checkRun.text)).toBeLessThanOrEqual(CHECK_RUN_BUDGET);
      const marker = `${commentMarker("Contract Gate")}\n`;
      const lead = noMatch ? `**${noMatch}**\n\n` : "";
      expect(utf8Bytes(surfaces.comment)).toBeLessThanOrEqual(
        utf8Bytes(marker + lead) + COMMENT_BUDGET,
      );
      // The budgets were binding: passing criteria's details had to go, but the job
      // summary (1,000,000) keeps every one.
      const lastDetail = "#### ✅ `m1999`";
      expect(surfaces.checkRun.text).not.toContain(lastDetail);
      expect(surfaces.comment).not.toContain(lastDetail);
      expect(surfaces.jobSummary).toContain(lastDetail);
      expect(utf8Bytes(surfaces.jobSummary)).toBeGreaterThan(CHECK_RUN_BUDGET);
    }
  });
});

describe("the check run's budget with a lead in another script", () => {
  it("counts the lead in bytes: a summary that fits in characters may not in bytes", () => {
    // Globs in another script make the lead three times longer in bytes than in
    // characters. Sized so the whole report fits beside the lead counted in
    // characters but not in bytes: only a byte count keeps the summary in budget.
    const plain = utf8Bytes(checkRunOutput(input()).summary);
    const lead = (k: number) => `**${NO_MATCH.replace("x/*.md", "契".repeat(k))}**\n\n`;
    const r = utf8Bytes(lead(0));
    const k = Math.floor((CHECK_RUN_BUDGET - r - plain / 2) / 3);
    expect(lead(k).length + plain).toBeLessThan(CHECK_RUN_BUDGET);
    expect(utf8Bytes(lead(k)) + plain).toBeGreaterThan(CHECK_RUN_BUDGET);
    const output = checkRunOutput(input({ noMatch: NO_MATCH.replace("x/*.md", "契".repeat(k)) }));
    expect(output.summary.startsWith(lead(k))).toBe(true);
    expect(utf8Bytes(output.summary)).toBeLessThanOrEqual(CHECK_RUN_BUDGET);
  });
});

describe("rerunHint", () => {
  it("names the pull request's number when there is one", () => {
    expect(rerunHint(42)).toBe(
      "Re-run: Actions → this workflow → Run workflow with `pr-number` = 42.",
    );
    expect(rerunHint()).toBe("Re-run: Actions → this workflow → Run workflow with `pr-number`.");
  });
});
