/**
 * Every surface says why each contract is in scope: changed by the PR (itself
 * or a file it reads), bound to the PR's head branch, every contract gated,
 * `--changed-since`. Golden files show what a reviewer reads.
 */
import { describe, expect, it } from "vitest";
import { checkRunOutput, commentBody, rerunHint } from "../src/report/github-surfaces.js";
import { plain } from "../src/report/paint.js";
import { RunReportSchema, runReportJson } from "../src/report/run-json.js";
import { renderTerminal } from "../src/report/terminal.js";
import { type ScopeReason, scopeText, withScope } from "../src/scope/scope-reason.js";
import { summariseRun } from "../src/verdict.js";
import { expectGolden } from "./helpers/golden.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

const ORACLE = ".claude/tasks/contracts/c.md";
const PLAN = ".planning/phase-2-contract.json";

function surfaces(reasons: Map<string, ScopeReason>) {
  const outcomes = withScope(sampleOutcomes(), reasons);
  const input = {
    summary: summariseRun(outcomes),
    outcomes,
    integrity: undefined,
    sandbox: { line: "Commands ran in a sandbox." },
    checkName: "Contract Gate",
    checkRunUrl: "https://github.com/o/r/runs/9",
    rerun: rerunHint(7),
  };
  return { input, outcomes };
}

describe("why each contract is in scope", () => {
  it("the check run, the comment, the log and the JSON report say it per contract", () => {
    const { input, outcomes } = surfaces(
      new Map<string, ScopeReason>([
        [ORACLE, { reason: "branch", branch: "feat/login" }],
        [PLAN, { reason: "changed", file: ".planning/phase-2-plan.md" }],
      ]),
    );
    const run = checkRunOutput(input);
    expectGolden("scope/check-run-summary.md", run.summary);
    expectGolden("scope/comment.md", commentBody(input));
    expectGolden("scope/terminal.txt", renderTerminal(input.summary, outcomes, plain));
    const json = RunReportSchema.parse(runReportJson(input.summary, outcomes));
    expect(json.contracts.map((c) => [c.path, c.inScope])).toEqual([
      [
        ORACLE,
        { reason: "branch", text: "its header binds it to the PR's head branch feat/login" },
      ],
      [
        PLAN,
        { reason: "changed", text: "the PR changed .planning/phase-2-plan.md, which it reads" },
      ],
    ]);
  });

  it("control: without reasons no surface claims one", () => {
    const { input, outcomes } = surfaces(new Map());
    expect(checkRunOutput(input).summary).not.toContain("In scope:");
    expect(renderTerminal(input.summary, outcomes, plain)).not.toContain("in scope:");
    expect(runReportJson(input.summary, outcomes).contracts.some((c) => "inScope" in c)).toBe(
      false,
    );
  });

  it("each reason reads as one clause; untrusted names stay inside code spans", () => {
    const code = (s: string) => `<${s}>`;
    expect(scopeText("a.md", { reason: "changed", file: "a.md" }, code)).toBe("changed by the PR");
    expect(scopeText("s/spec.md", { reason: "changed", file: "s/tasks.md" }, code)).toBe(
      "the PR changed <s/tasks.md>, which it reads",
    );
    expect(scopeText("a.md", { reason: "all", by: "scope: all" }, code)).toBe(
      "every contract is gated (<scope: all>)",
    );
    expect(scopeText("a.md", { reason: "changed-since", ref: "main", file: "a.md" }, code)).toBe(
      "changed since <main>",
    );
    expect(scopeText("a.md", { reason: "changed-since", ref: "main", file: "plan.md" }, code)).toBe(
      "<plan.md>, which it reads, changed since <main>",
    );
    expect(scopeText("a.md", { reason: "argument" }, code)).toBe("named on the command line");
    const { input } = surfaces(
      new Map<string, ScopeReason>([[ORACLE, { reason: "branch", branch: "x`**@team**`" }]]),
    );
    // The backtick run is fenced by a longer one and the mention defused: no bold, no ping.
    expect(checkRunOutput(input).summary).toContain("head branch `` x`**@\u2060team**` ``.");
  });
});
