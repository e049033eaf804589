/**
 * The two workflows of docs/forks.md, read as GitHub reads them: each parses
 * with @actions/workflow-parser, and has the properties the fork setup rests
 * on. Each property is checked by a function that returns its problems, and
 * each is shown to fail on the recipe as the README first printed it (the
 * positive controls), so none of these tests can pass by looking at nothing.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { data, Evaluator, Lexer, Parser } from "@actions/expressions";
import { truthy } from "@actions/expressions/result";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scratch } from "./helpers/action-harness.js";
import { workflowErrors, yamlSnippets } from "./helpers/workflow-lint.js";

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  "continue-on-error"?: boolean;
}
interface Workflow {
  name?: string;
  on: Record<string, unknown>;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}

const DOC = "docs/forks.md";
const snippets = yamlSnippets(DOC, readFileSync(DOC, "utf8"));
/** The snippet whose first line names the workflow file. */
function workflowText(file: string): string {
  const found = snippets.filter((s) => s.text.startsWith(`# .github/workflows/${file} `));
  expect(found, `${DOC}: one yaml block starting "# .github/workflows/${file}"`).toHaveLength(1);
  return found[0]!.text;
}
const STAGE1 = workflowText("contract-gate.yml");
const STAGE2 = workflowText("contract-gate-report.yml");

/** Stage 1 as the README printed it: the two steps appended without `if: always()`. */
const OLD_STAGE1 = STAGE1.split("\n")
  .filter((l) => l.trim() !== "if: always()")
  .join("\n");
/** Stage 2 as the README printed it, verbatim. */
const OLD_STAGE2 = `# .github/workflows/contract-gate-report.yml (stage 2)
on:
  workflow_run:
    workflows: [contract-gate]
    types: [completed]
permissions: { contents: read, checks: write, pull-requests: write, actions: read }
jobs:
  report:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with: { name: pr-number, run-id: "\${{ github.event.workflow_run.id }}", github-token: "\${{ github.token }}" }
      - id: pr
        run: echo "number=$(tr -dc 0-9 < pr-number.txt)" >> "$GITHUB_OUTPUT"
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          ref: refs/pull/\${{ steps.pr.outputs.number }}/head
          persist-credentials: false
          fetch-depth: 0
      - uses: contract-gate/contract-gate@v1
        with:
          pr-number: \${{ steps.pr.outputs.number }}
`;

const load = (text: string) => parse(text) as Workflow;
const onlyJob = (w: Workflow) => {
  const jobs = Object.values(w.jobs);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
};
const gateIndex = (steps: Step[]) =>
  steps.findIndex((s) => s.uses?.startsWith("contract-gate/contract-gate@"));
/** `${{ x }}` and `x` are the same condition. */
const condition = (s: string | undefined) =>
  s
    ?.trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, "$1")
    .trim();

/** Stage 1 saves the PR number as the `pr-number` artifact after the gate, even when it failed. */
function stage1Problems(text: string): string[] {
  const w = load(text);
  const problems: string[] = [];
  for (const event of ["pull_request", "pull_request_review"]) {
    if (!(event in w.on)) problems.push(`stage 1 does not run on ${event}`);
  }
  const steps = onlyJob(w).steps;
  const gate = gateIndex(steps);
  const save = steps.findIndex((s) => /> *"?\$RUNNER_TEMP\/pr-number\.txt"?/.test(s.run ?? ""));
  const upload = steps.findIndex(
    (s) => s.uses?.startsWith("actions/upload-artifact@") && s.with?.name === "pr-number",
  );
  if (gate < 0) problems.push("stage 1 has no gate step");
  if (save < 0) problems.push("stage 1 does not write pr-number.txt");
  if (upload < 0) problems.push("stage 1 does not upload the pr-number artifact");
  if (problems.length) return problems;
  for (const [what, i] of [
    ["saving", save],
    ["uploading", upload],
  ] as const) {
    if (i < gate) problems.push(`stage 1 runs the ${what} step before the gate`);
    if (condition(steps[i]!.if) !== "always()") {
      problems.push(`stage 1's ${what} step does not run if: always(), so a failed gate skips it`);
    }
  }
  if (!String(steps[upload]!.with?.path).endsWith("/pr-number.txt")) {
    problems.push("stage 1 uploads another file than pr-number.txt");
  }
  return problems;
}

/** The job's `if:` evaluated by GitHub's expression engine for a triggering run of `event`. */
function jobRuns(condition: string | undefined, event: string): boolean {
  if (condition === undefined) return true;
  const expr = new Parser(new Lexer(condition).lex().tokens, ["github"], []).parse();
  const github = new data.Dictionary({
    key: "event",
    value: new data.Dictionary({
      key: "workflow_run",
      value: new data.Dictionary({ key: "event", value: new data.StringData(event) }),
    }),
  });
  return truthy(
    new Evaluator(expr, new data.Dictionary({ key: "github", value: github })).evaluate(),
  );
}

const GATED = ["pull_request", "pull_request_review"];
const NOT_GATED = ["push", "merge_group", "workflow_dispatch", "pull_request_target", "schedule"];

/**
 * Stage 2 starts only after a PR's or a review's run, and a missing artifact
 * stops it with an `::error::` before the gate (never an empty pr-number).
 */
function stage2Problems(text: string, stage1Name = load(STAGE1).name): string[] {
  const w = load(text);
  const problems: string[] = [];
  const trigger = w.on.workflow_run as { workflows?: string[]; types?: string[] } | undefined;
  if (!trigger?.workflows?.includes(stage1Name!)) {
    problems.push(`stage 2 does not run after the workflow named ${stage1Name}`);
  }
  if (!trigger?.types?.includes("completed")) problems.push("stage 2 does not run on completed");
  const job = onlyJob(w);
  const when = condition(job.if);
  for (const event of [...GATED, ...NOT_GATED]) {
    if (jobRuns(when, event) !== GATED.includes(event)) {
      problems.push(
        `stage 2's job ${GATED.includes(event) ? "does not run" : "runs"} after a ${event} run`,
      );
    }
  }
  const steps = job.steps;
  const download = steps.findIndex((s) => s.uses?.startsWith("actions/download-artifact@"));
  const gate = gateIndex(steps);
  if (download < 0 || gate < 0) return [...problems, "stage 2 has no download or no gate step"];
  const dl = steps[download]!;
  if (dl.with?.name !== "pr-number") problems.push("stage 2 downloads another artifact");
  if (!String(dl.with?.["run-id"]).includes("github.event.workflow_run.id")) {
    problems.push("stage 2 downloads from another run than the triggering one");
  }
  const check = steps.findIndex(
    (s, i) => i > download && i < gate && /::error\b/.test(s.run ?? ""),
  );
  if (check < 0) return [...problems, "stage 2 has no ::error:: step between download and gate"];
  const c = steps[check]!;
  if (!/\bexit 1\b/.test(c.run!)) problems.push("stage 2's check does not fail the job");
  const outcome = `steps.${dl.id}.outcome`;
  if (dl.id === undefined || !Object.values(c.env ?? {}).some((v) => v.includes(outcome))) {
    problems.push("stage 2's check does not read the download step's outcome");
  }
  // Without either, a failed download skips the check and its message.
  if (dl["continue-on-error"] !== true && !/always\(\)|failure\(\)/.test(c.if ?? "")) {
    problems.push("stage 2's check is skipped when the download fails");
  }
  if (c.run!.includes("${{")) problems.push("stage 2's check interpolates expressions into bash");
  const input = String(steps[gate]!.with?.["pr-number"]);
  if (c.id === undefined || !input.includes(`steps.${c.id}.outputs.number`)) {
    problems.push("the gate's pr-number is not the checked number");
  }
  return problems;
}

/** Stage 2's check step run by bash as the runner would, with the download's outcome and file. */
function runCheck(download: "success" | "failure", content: string | undefined) {
  const steps = onlyJob(load(STAGE2)).steps;
  const step = steps.find((s) => /::error\b/.test(s.run ?? ""))!;
  const temp = scratch("cg-fork-recipe-");
  const file = join(temp, "pr-number.txt");
  if (content !== undefined) writeFileSync(file, content);
  const output = join(temp, "github_output");
  writeFileSync(output, "");
  const r = spawnSync("bash", ["-e", "-c", step.run!], {
    env: {
      PATH: process.env.PATH,
      DOWNLOAD: download,
      FILE: file,
      RUN_URL: "https://github.com/acme/widgets/actions/runs/1",
      GITHUB_OUTPUT: output,
    },
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, output: readFileSync(output, "utf8") };
}

describe("docs/forks.md: the two-stage recipe", () => {
  it("both workflows parse as GitHub parses them", async () => {
    expect(await workflowErrors("stage1.yml", STAGE1)).toEqual([]);
    expect(await workflowErrors("stage2.yml", STAGE2)).toEqual([]);
  });

  it("stage 1 saves and uploads the PR number after the gate, under if: always()", () => {
    expect(stage1Problems(STAGE1)).toEqual([]);
  });

  it("positive control: the README's old stage 1 (no if: always()) is caught", () => {
    expect(stage1Problems(OLD_STAGE1)).toEqual([
      "stage 1's saving step does not run if: always(), so a failed gate skips it",
      "stage 1's uploading step does not run if: always(), so a failed gate skips it",
    ]);
    const before = STAGE1.replace(
      /( {6}- uses: contract-gate\/contract-gate@v1\n(?: {8}.*\n)+)([\s\S]*)$/,
      "$2$1",
    );
    expect(stage1Problems(before)).toContain("stage 1 runs the saving step before the gate");
  });

  it("stage 2 runs only after a pull_request or pull_request_review run, and checks the artifact", () => {
    expect(stage2Problems(STAGE2)).toEqual([]);
  });

  it("positive control: the README's old stage 2 is caught (runs after any event, no artifact check)", () => {
    const problems = stage2Problems(OLD_STAGE2);
    for (const event of NOT_GATED)
      expect(problems).toContain(`stage 2's job runs after a ${event} run`);
    expect(problems).toContain("stage 2 has no ::error:: step between download and gate");
  });

  it("positive controls: a job if: without reviews, a download that ends the job, a stage 1 renamed", () => {
    const onlyPr = STAGE2.replace(
      / \|\| github\.event\.workflow_run\.event == 'pull_request_review'/,
      "",
    );
    expect(stage2Problems(onlyPr)).toEqual([
      "stage 2's job does not run after a pull_request_review run",
    ]);
    const strict = STAGE2.replace(/ +continue-on-error: true.*\n/, "");
    expect(stage2Problems(strict)).toEqual(["stage 2's check is skipped when the download fails"]);
    expect(stage2Problems(STAGE2, "gate")).toEqual([
      "stage 2 does not run after the workflow named gate",
    ]);
  });

  it("stage 2's check passes a plain number on, and fails with ::error:: naming the artifact otherwise", () => {
    const ok = runCheck("success", "7\n");
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.output).toBe("number=7\n");
    for (const [download, content] of [
      ["failure", undefined],
      ["success", undefined],
      ["success", ""],
      ["success", "7; rm -rf /"],
      ["success", "0"],
      ["success", "7\nnumber=8"],
    ] as const) {
      const r = runCheck(download, content);
      expect(r.code, `${download} ${content}`).toBe(1);
      expect(r.stdout).toMatch(
        /^::error title=No PR number from stage 1::The run \S+ left no usable 'pr-number' artifact/,
      );
      expect(r.stdout).toContain("if: always()");
      expect(r.output).toBe("");
    }
  });
});
