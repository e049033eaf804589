/**
 * Unit tests of the action's pieces (inputs, event, selection, checkout,
 * annotations, texts) and of runAction in-process with a fake IO and GitHub
 * API, plus the e2e harness's own parsers. The bundled action is covered end
 * to end by action-e2e.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkoutAdvice, verifyCheckout } from "../src/action/checkout.js";
import { isUntrusted, type RunnerEnv, readRunnerEnv, resolveTarget } from "../src/action/event.js";
import { INPUT_DEFAULTS, parseInputs } from "../src/action/inputs.js";
import { type ActionIO, runAction } from "../src/action/main.js";
import { runPost } from "../src/action/post.js";
import { selectChanged } from "../src/action/select.js";
import { notPullRequestRun } from "../src/action/workflow-run.js";
import { DEFAULT_CONTRACT_GLOBS } from "../src/formats/kinds/index.js";
import { openGit } from "../src/git/index.js";
import { utf8Bytes } from "../src/github/limits.js";
import {
  type Annotation,
  type ChangedFile,
  type GitHubApi,
  GitHubApiError,
} from "../src/github/types.js";
import type { TestProver } from "../src/proof/prover.js";
import type { TestProof } from "../src/proof/types.js";
import { annotationsFor } from "../src/report/annotations.js";
import { checkRunTitle, commentMarker } from "../src/report/github-text.js";
import type { ContractOutcome, CriterionOutcome, RunSummary } from "../src/verdict.js";
import { examplePayload } from "./github/payloads.js";
import {
  type Files,
  makeRepo,
  oracleContract,
  oraclePath,
  parseOutputFile,
  scratch,
  shallowClone,
  stoppedLines,
  workflowCommands,
} from "./helpers/action-harness.js";
import { BASE_FILES, SPEC_PATH } from "./helpers/proof-repo.js";
import { TEN_SECRETS } from "./helpers/secrets.js";

// ------------------------------------------------------------------ inputs

function inputs(values: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  return parseInputs((n) => values[n] ?? "", { GITHUB_WORKSPACE: "/ws", ...env });
}

describe("parseInputs", () => {
  it("fills action.yml's defaults when the runner did not", () => {
    const r = inputs({ "github-token": "t" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings).toMatchObject({
      githubToken: "t",
      scope: "changed",
      checkName: INPUT_DEFAULTS["check-name"],
      comment: "always",
      failOnBlocking: true,
      untrustedCommands: "sandbox",
      requireOracles: false,
      timeoutSeconds: 120,
      workingDirectory: "/ws",
      prNumber: undefined,
    });
    expect(r.settings.contracts).toEqual(DEFAULT_CONTRACT_GLOBS);
    expect(r.settings.maxParallel).toBeGreaterThan(0);
  });

  it("reports every bad value at once, with the allowed values", () => {
    const r = inputs({
      "github-token": " ",
      scope: "bogus",
      comment: "sometimes",
      "max-parallel": "0",
      "timeout-seconds": "1.5",
      "fail-on-blocking": "yes",
      "untrusted-commands": "maybe",
      "pr-number": "seven",
      contracts: "../outside/*.md, /abs/*.json",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      expect.stringContaining("Input 'github-token' is empty"),
      "Input 'contracts' glob '../outside/*.md' must be relative to the working directory, without '..'.",
      "Input 'contracts' glob '/abs/*.json' must be relative to the working directory, without '..'.",
      "Input 'pr-number' is 'seven'. Expected a pull request number such as 42.",
      "Input 'scope' is 'bogus'. Allowed values: changed, all.",
      "Input 'comment' is 'sometimes'. Allowed values: always, on-failure, never.",
      "Input 'fail-on-blocking' is 'yes'. Allowed values: true, false.",
      "Input 'untrusted-commands' is 'maybe'. Allowed values: sandbox, block, skip, run.",
      "Input 'max-parallel' is '0'. Expected a whole number from 1 to 256.",
      "Input 'timeout-seconds' is '1.5'. Expected a whole number from 1 to 21600.",
    ]);
  });

  it("accepts YAML booleans, '#42', comma-separated globs and a relative working directory", () => {
    const r = inputs({
      "github-token": "t",
      "fail-on-blocking": "False",
      "require-oracles": "TRUE",
      "pr-number": "#42",
      contracts: "a/*.md,\n b/**/*.json ,",
      "working-directory": "packages/app",
      "max-parallel": "3",
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings).toMatchObject({
      failOnBlocking: false,
      requireOracles: true,
      prNumber: 42,
      contracts: ["a/*.md", "b/**/*.json"],
      workingDirectory: "/ws/packages/app",
      maxParallel: 3,
    });
  });

  it("refuses a check name of 100 characters or more", () => {
    const r = inputs({ "github-token": "t", "check-name": "x".repeat(101) });
    expect(r.ok).toBe(false);
  });
});

// ------------------------------------------------------------------ event

const RUNNER: RunnerEnv = readRunnerEnv({
  GITHUB_EVENT_NAME: "pull_request",
  GITHUB_REPOSITORY: "acme/widgets",
  GITHUB_SHA: "m".repeat(40),
});

describe("resolveTarget / isUntrusted", () => {
  const head = "a".repeat(40);
  const base = "b".repeat(40);
  const payload = (fork: boolean | null) =>
    examplePayload("pull_request", "synchronize", {
      owner: "acme",
      repo: "widgets",
      number: 7,
      headSha: head,
      baseSha: base,
      fork,
    });

  it("pull_request: the head sha from the payload, never GITHUB_SHA; not privileged", () => {
    const t = resolveTarget(RUNNER, payload(false), { prNumber: undefined });
    expect(t).toMatchObject({
      kind: "pull-request",
      number: 7,
      headSha: head,
      baseSha: base,
      headRepo: "acme/widgets",
      baseRepo: "acme/widgets",
      privileged: false,
    });
    expect(isUntrusted(t)).toBe(false);
    // A fork under plain pull_request is not privileged: commands run.
    expect(isUntrusted(resolveTarget(RUNNER, payload(true), { prNumber: undefined }))).toBe(false);
  });

  it("pull_request_target: privileged; a fork or a deleted fork is untrusted, the same repo is not", () => {
    const r = { ...RUNNER, eventName: "pull_request_target" };
    expect(isUntrusted(resolveTarget(r, payload(false), { prNumber: undefined }))).toBe(false);
    expect(isUntrusted(resolveTarget(r, payload(true), { prNumber: undefined }))).toBe(true);
    const gone = resolveTarget(r, payload(null), { prNumber: undefined });
    expect(gone).toMatchObject({ headRepo: null });
    expect(isUntrusted(gone)).toBe(true);
  });

  it("workflow_dispatch: the PR from pr-number (privileged), else every contract at GITHUB_SHA", () => {
    const r = { ...RUNNER, eventName: "workflow_dispatch" };
    const p = examplePayload("workflow_dispatch", undefined, { owner: "acme", repo: "widgets" });
    expect(resolveTarget(r, p, { prNumber: 9 })).toEqual({
      kind: "pull-request",
      number: 9,
      privileged: true,
      event: "workflow_dispatch",
    });
    expect(resolveTarget(r, p, { prNumber: undefined })).toEqual({
      kind: "commit",
      sha: RUNNER.sha,
      event: "workflow_dispatch",
    });
  });

  it("workflow_run needs pr-number and the triggering run's facts", () => {
    const r = { ...RUNNER, eventName: "workflow_run" };
    const p = examplePayload("workflow_run", "completed");
    p.workflow_run.event = "pull_request";
    expect(() => resolveTarget(r, p, { prNumber: undefined })).toThrow(
      /pr-number input is empty\. Stage 2 takes it from the 'pr-number' artifact/,
    );
    expect(resolveTarget(r, p, { prNumber: 3 })).toMatchObject({
      number: 3,
      privileged: true,
      triggeringRun: {
        headSha: p.workflow_run.head_sha,
        headRepo: p.workflow_run.head_repository.full_name,
      },
    });
    // Without them nothing binds pr-number: refused.
    expect(() => resolveTarget(r, {}, { prNumber: 3 })).toThrow(/cannot bind pr-number/);
  });

  it("workflow_run: only a pull request's or a review's run is gated; others stand down, naming the event", () => {
    const run = (event: unknown) => ({ workflow_run: { event } });
    expect(notPullRequestRun(run("pull_request"))).toBeUndefined();
    expect(notPullRequestRun(run("pull_request_review"))).toBeUndefined();
    for (const event of ["push", "merge_group", "workflow_dispatch", "pull_request_target"]) {
      expect(notPullRequestRun(run(event))).toContain(
        `started by '${event}', not by a pull request`,
      );
    }
    // No event at all is not a stand-down: readTriggeringRun then refuses the payload (fail closed).
    expect(notPullRequestRun({})).toBeUndefined();
    expect(notPullRequestRun(run(7))).toBeUndefined();
    const r = { ...RUNNER, eventName: "workflow_run" };
    const p = examplePayload("workflow_run", "completed");
    delete (p.workflow_run as { event?: string }).event;
    expect(() => resolveTarget(r, p, { prNumber: 3 })).toThrow(/no usable workflow_run\.event/);
  });

  it("workflow_run: a pr-number that is not a number names the stage-1 artifact; other events keep the plain message", () => {
    const bad = inputs(
      { "github-token": "t", "pr-number": "7abc" },
      { GITHUB_EVENT_NAME: "workflow_run" },
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors).toEqual([
      expect.stringContaining(
        "On workflow_run the pr-number input is '7abc', not a pull request number such as 42. Stage 2 takes it from the 'pr-number' artifact",
      ),
    ]);
    expect(bad.errors[0]).toContain("if: always()");
    const long = inputs(
      { "github-token": "t", "pr-number": `7${"x".repeat(500)}` },
      { GITHUB_EVENT_NAME: "workflow_run" },
    );
    expect(long.ok || long.errors[0]).toContain(`'7${"x".repeat(39)}…', not a pull request number`);
    const dispatch = inputs(
      { "github-token": "t", "pr-number": "7abc" },
      { GITHUB_EVENT_NAME: "workflow_dispatch" },
    );
    expect(dispatch.ok || dispatch.errors).toEqual([
      "Input 'pr-number' is '7abc'. Expected a pull request number such as 42.",
    ]);
  });

  it("push: the pushed sha; a branch deletion (all zeros) falls back to GITHUB_SHA", () => {
    const r = { ...RUNNER, eventName: "push" };
    const p = examplePayload("push", undefined, { sha: head });
    expect(resolveTarget(r, p, { prNumber: undefined })).toMatchObject({ sha: head });
    expect(resolveTarget(r, { after: "0".repeat(40) }, { prNumber: undefined })).toMatchObject({
      sha: RUNNER.sha,
    });
  });

  it("any other event: an error naming every supported event", () => {
    const r = { ...RUNNER, eventName: "issues" };
    expect(() => resolveTarget(r, {}, { prNumber: undefined })).toThrow(
      "Supported: pull_request, pull_request_review, pull_request_target, workflow_dispatch, workflow_run, push, merge_group.",
    );
    expect(() =>
      resolveTarget(
        { ...RUNNER, eventName: "pull_request" },
        {},
        {
          prNumber: undefined,
        },
      ),
    ).toThrow(/payload has no pull_request/);
  });
});

// ------------------------------------------------------------------ select

describe("selectChanged", () => {
  const globs = [".planning/phase-*-contract.json", ".claude/tasks/contracts/**/*.md"];
  const discovered = [
    ".planning/phase-1-contract.json",
    ".planning/phase-2-contract.json",
    ".planning/phase-3-contract.json",
    ".claude/tasks/contracts/a.md",
    ".claude/tasks/contracts/b.md",
  ];
  const f = (path: string, status: ChangedFile["status"] = "modified", previousPath?: string) => ({
    path,
    status,
    ...(previousPath ? { previousPath } : {}),
  });

  it("selects a contract by itself, its plan or its evidence", () => {
    const r = selectChanged(
      discovered,
      [
        f(".planning/phase-1-plan.md"),
        f(".planning/phase-2-evidence.json", "added"),
        f(".claude/tasks/contracts/a.md"),
        f("README.md"),
      ],
      globs,
      "",
    );
    expect(r).toEqual({
      selected: [
        ".planning/phase-1-contract.json",
        ".planning/phase-2-contract.json",
        ".claude/tasks/contracts/a.md",
      ],
      removed: [],
      notFiles: [],
      // Which change put each in scope, for the surfaces.
      by: new Map([
        [".planning/phase-1-contract.json", ".planning/phase-1-plan.md"],
        [".planning/phase-2-contract.json", ".planning/phase-2-evidence.json"],
        [".claude/tasks/contracts/a.md", ".claude/tasks/contracts/a.md"],
      ]),
    });
  });

  it("lists deleted and renamed-away contracts as removed, never other files", () => {
    const r = selectChanged(
      discovered,
      [
        f(".claude/tasks/contracts/gone.md", "removed"),
        f(".claude/tasks/contracts/b.md", "renamed", ".claude/tasks/contracts/old-b.md"),
        f("docs/notes.md", "removed"),
        f(".planning/phase-9-plan.md", "removed"),
      ],
      globs,
      "",
    );
    expect(r.selected).toEqual([".claude/tasks/contracts/b.md"]);
    expect(r.removed).toEqual([
      ".claude/tasks/contracts/gone.md",
      ".claude/tasks/contracts/old-b.md",
    ]);
  });

  it("maps repository paths into the working directory, ignoring paths outside it", () => {
    const r = selectChanged(
      [".claude/tasks/contracts/a.md"],
      [
        f("packages/app/.claude/tasks/contracts/a.md"),
        f(".claude/tasks/contracts/b.md"),
        f("packages/app/.claude/tasks/contracts/c.md", "removed"),
      ],
      globs,
      "packages/app",
    );
    expect(r).toEqual({
      selected: [".claude/tasks/contracts/a.md"],
      removed: [".claude/tasks/contracts/c.md"],
      notFiles: [],
      by: new Map([[".claude/tasks/contracts/a.md", ".claude/tasks/contracts/a.md"]]),
    });
  });

  it("lists a changed contract that is not a regular file at head (a submodule) as notFiles", () => {
    const r = selectChanged(
      discovered.filter((p) => p !== ".claude/tasks/contracts/b.md"),
      [f(".claude/tasks/contracts/b.md", "changed"), f(".claude/tasks/contracts/a.md")],
      globs,
      "",
    );
    expect(r).toEqual({
      selected: [".claude/tasks/contracts/a.md"],
      removed: [],
      notFiles: [".claude/tasks/contracts/b.md"],
      by: new Map([[".claude/tasks/contracts/a.md", ".claude/tasks/contracts/a.md"]]),
    });
    // Control: still a file (discovered), it is selected and nothing is listed.
    expect(
      selectChanged(discovered, [f(".claude/tasks/contracts/b.md", "changed")], globs, "").notFiles,
    ).toEqual([]);
  });
});

// ------------------------------------------------------------------ git

describe("verifyCheckout / changedBetween", () => {
  it("accepts the head or a merge whose second parent is the head, refuses the base", async () => {
    const repo = await makeRepo({
      base: { "a.txt": "a\n", "old.txt": "same content for rename detection\n" },
      head: {
        "b.txt": "b\n",
        "a.txt": null,
        "old.txt": null,
        "new.txt": "same content for rename detection\n",
      },
      merge: true,
    });
    expect(await verifyCheckout(openGit(repo.dir), repo.head)).toEqual({
      ok: true,
      head: repo.head,
      merge: false,
    });
    await repo.checkout(repo.merge!);
    expect(await verifyCheckout(openGit(repo.dir), repo.head)).toEqual({
      ok: true,
      head: repo.merge,
      merge: true,
    });
    await repo.checkout(repo.base);
    expect(await verifyCheckout(openGit(repo.dir), repo.head)).toEqual({
      ok: false,
      head: repo.base,
    });
    expect(await verifyCheckout(openGit(scratch()), repo.head)).toEqual({
      ok: false,
      head: undefined,
    });
    // actions/checkout's default: the merge commit at depth 1 (HEAD^2 does not resolve there).
    const shallow = await shallowClone(repo, "merge");
    expect(await verifyCheckout(openGit(shallow.dir), repo.head)).toEqual({
      ok: true,
      head: repo.merge,
      merge: true,
    });
    expect(await verifyCheckout(openGit(shallow.dir), repo.base)).toEqual({
      ok: false,
      head: repo.merge,
    });

    const files = await openGit(repo.dir).changedBetween(repo.base, repo.head);
    expect(files).toEqual(
      expect.arrayContaining([
        { path: "a.txt", status: "removed" },
        { path: "b.txt", status: "added" },
        { path: "new.txt", status: "renamed", previousPath: "old.txt" },
      ]),
    );
    expect(files).toHaveLength(3);
  });

  it("the advice names the checkout step for the event", () => {
    expect(checkoutAdvice("pull_request_target", 7, "h", "b")).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression
      "ref: ${{ github.event.pull_request.head.sha }}",
    );
    expect(checkoutAdvice("workflow_dispatch", 7, "h", undefined)).toMatch(
      /refs\/pull\/\$\{\{ inputs\.pr-number \}\}\/head {3}# PR #7[\s\S]*persist-credentials: false/,
    );
  });
});

// ------------------------------------------------------------------ annotations and texts

function criterion(
  id: string,
  status: CriterionOutcome["status"],
  line: number,
  extra: Partial<CriterionOutcome> = {},
): CriterionOutcome {
  const blocking = !["met", "manual"].includes(status);
  return {
    id,
    title: `criterion ${id}`,
    location: { path: "c.md", line },
    status,
    blocking,
    reason: `${status} because`,
    checks: [],
    ...extra,
  };
}

function contract(
  verdict: ContractOutcome["verdict"],
  criteria: CriterionOutcome[],
  problems: ContractOutcome["problems"] = [],
): ContractOutcome {
  return { path: "c.md", kind: "oracle-contract", verdict, problems, criteria };
}

describe("annotationsFor", () => {
  const problem = (severity: "error" | "warning", line: number) => ({
    code: severity === "error" ? ("plan-drift" as const) : ("drift-check-disabled" as const),
    severity,
    message: "msg",
    hint: "do this",
    path: "c.md",
    line,
    column: 3,
  });

  it("one failure per blocking criterion, notices for manual, failures first, repository paths", () => {
    const a = annotationsFor(
      [
        contract("fail", [
          criterion("1", "manual", 5),
          criterion("2", "met", 9),
          criterion("3", "unmet", 12, {
            checks: [
              { type: "oracle", result: "fail", reason: "r", detail: "tail line", durationMs: 1 },
            ],
          }),
        ]),
      ],
      "packages/app",
    );
    expect(a.map((x) => [x.annotation_level, x.path, x.start_line, x.end_line])).toEqual([
      ["failure", "packages/app/c.md", 12, 12],
      ["notice", "packages/app/c.md", 5, 5],
    ]);
    expect(a[0]).toMatchObject({
      title: "unmet: 3 criterion 3",
      message: "unmet because",
      raw_details: "tail line",
    });
  });

  it("a fork's command not run (neutral contract) is a notice; an aborted contract's criteria are not annotated", () => {
    const a = annotationsFor([
      contract("neutral", [
        criterion("1", "not-run", 4, { blocking: false }),
        criterion("2", "met", 6),
      ]),
      contract("aborted", [criterion("1", "not-run", 8, { blocking: false })]),
    ]);
    expect(a.map((x) => [x.annotation_level, x.start_line])).toEqual([["notice", 4]]);
  });

  it("an invalid or drifted contract: its problems, not one annotation per not-run criterion", () => {
    for (const verdict of ["invalid", "drifted"] as const) {
      const a = annotationsFor([
        contract(
          verdict,
          [criterion("T1.1", "not-run", 20), criterion("T1.2", "not-run", 30)],
          [problem("error", 8), problem("warning", 2)],
        ),
      ]);
      expect(a.map((x) => [x.annotation_level, x.start_line, x.title])).toEqual([
        ["failure", 8, "Invalid contract: plan-drift"],
        ["warning", 2, "Contract warning: drift-check-disabled"],
      ]);
      expect(a[0]!.message).toBe("msg\nFix: do this");
    }
  });

  it("caps titles at 255 bytes (github/limits.ts) and never annotates line 0", () => {
    const [a] = annotationsFor([
      contract("fail", [criterion("1", "unmet", 0, { title: "t".repeat(400) })]),
    ]) as [Annotation];
    expect(utf8Bytes(a.title!)).toBe(255);
    expect(a.start_line).toBe(1);
  });
});

describe("checkRunTitle / commentMarker", () => {
  const summary = (conclusion: RunSummary["conclusion"], counts: Partial<RunSummary["counts"]>) =>
    ({
      conclusion,
      counts: {
        met: 0,
        unmet: 0,
        "evidence-missing": 0,
        error: 0,
        abandoned: 0,
        manual: 0,
        "not-run": 0,
        criteria: 0,
        blocking: 0,
        contracts: 1,
        ...counts,
      },
    }) as RunSummary;

  it("a neutral run with fork commands not run says how many; it never reads as green", () => {
    const neutral = summary("neutral", { criteria: 3, met: 1, "not-run": 2 });
    expect(checkRunTitle(neutral, { invalid: 0, drifted: 0, skippedCommands: 2 })).toBe(
      "1 of 3 criteria met — 2 commands from a fork not run",
    );
    expect(checkRunTitle(neutral, { invalid: 0, drifted: 0, skippedCommands: 1 })).toContain(
      "1 command from a fork not run",
    );
  });

  it("names what blocks, or that nothing does", () => {
    expect(checkRunTitle(summary("neutral", { contracts: 0 }))).toBe("No contracts in scope");
    expect(
      checkRunTitle(summary("failure", { criteria: 5, blocking: 3, unmet: 2, abandoned: 1 }), {
        invalid: 1,
        drifted: 2,
      }),
    ).toBe(
      "3 blocking of 5 criteria — 2 unmet, 1 abandoned, 1 invalid contract, 2 drifted contracts",
    );
    expect(checkRunTitle(summary("success", { criteria: 3, met: 2, manual: 1 }))).toBe(
      "2 of 3 criteria met, 1 manual — nothing blocks",
    );
  });

  it("the marker cannot close its HTML comment early", () => {
    expect(commentMarker("Contract Gate")).toBe("<!-- contract-gate:Contract Gate -->");
    for (const name of ["a --> b", "a--->b", "a---->b", "x--!>y", "gate--"]) {
      const marker = commentMarker(name);
      expect(marker.slice(4, -3)).not.toContain("--");
      expect(marker.endsWith(" -->")).toBe(true);
    }
    // Unchanged for the names earlier versions handled: existing comments are still found.
    expect(commentMarker("a--b")).toBe("<!-- contract-gate:a- -b -->");
  });
});

// ------------------------------------------------------------------ runAction in-process

interface FakeIO extends ActionIO {
  log: string[];
  failed: string[];
  warnings: string[];
  outputs: Record<string, string>;
  annotations: Array<{ message: string; file: string; line: number }>;
  summary: string;
  state: Record<string, string>;
}

function fakeIO(inputs: Record<string, string>): FakeIO {
  const io: FakeIO = {
    log: [],
    failed: [],
    warnings: [],
    outputs: {},
    annotations: [],
    summary: "",
    state: {},
    getInput: (n) => inputs[n] ?? "",
    setOutput: (n, v) => {
      io.outputs[n] = String(v);
    },
    setFailed: (m) => io.failed.push(m),
    info: (m) => io.log.push(m),
    warning: (m) => io.warnings.push(m),
    errorAt: (message, at) => io.annotations.push({ message, file: at.file, line: at.line }),
    setSecret: () => {},
    writeSummary: async (md) => {
      io.summary += md;
    },
    untrusted: (t) => io.log.push(t),
    saveState: (n, v) => {
      io.state[n] = v;
    },
  };
  return io;
}

function fakeApi(overrides: Partial<GitHubApi> = {}): GitHubApi & { calls: string[] } {
  const calls: string[] = [];
  const api: GitHubApi & { calls: string[] } = {
    calls,
    getPull: async () => {
      throw new Error("not used");
    },
    listOpenPulls: async () => [],
    listPullFiles: async () => {
      calls.push("listPullFiles");
      return [{ path: oraclePath("c"), status: "added" }];
    },
    startCheckRun: async () => {
      calls.push("startCheckRun");
      return { id: 1, htmlUrl: "https://github.com/acme/widgets/runs/1" };
    },
    findCheckRun: async () => {
      calls.push("findCheckRun");
      return undefined;
    },
    completeCheckRun: async (_id, args) => {
      calls.push(`completeCheckRun ${args.conclusion}`);
    },
    findStickyComment: async () => undefined,
    upsertStickyComment: async () => {
      calls.push("upsertStickyComment");
      return { action: "created", url: "https://c", deletedDuplicates: 0 };
    },
    listReviews: async () => {
      calls.push("listReviews");
      return [];
    },
    getPermission: async () => "none",
    ...overrides,
  };
  return api;
}

/**
 * Run the action in process on a PR that adds one contract, or (`files`)
 * changes the base into the head; then the API lists the PR's real changes.
 */
async function inProcess(
  contract: string | { base: Files; head: Files },
  api: GitHubApi,
  opts: {
    fork?: boolean;
    inputs?: Record<string, string>;
    prover?: TestProver;
    /** The job's own variables besides the runner's. */
    env?: Record<string, string>;
  } = {},
) {
  const repo = await makeRepo(
    typeof contract === "string" ? { base: {}, head: { [oraclePath("c")]: contract } } : contract,
  );
  if (typeof contract !== "string") {
    const changed: ChangedFile[] = repo.files.map((f) => ({
      path: f.filename,
      status: f.status as ChangedFile["status"],
      ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
    }));
    api.listPullFiles = async () => changed;
  }
  const temp = scratch();
  const eventPath = join(temp, "event.json");
  const payload = examplePayload("pull_request", "synchronize", {
    owner: "acme",
    repo: "widgets",
    number: 7,
    headSha: repo.head,
    baseSha: repo.base,
    fork: opts.fork ?? false,
  });
  payload.pull_request.changed_files = typeof contract === "string" ? 1 : repo.files.length;
  writeFileSync(eventPath, JSON.stringify(payload));
  // No sandbox host in-process: `off` keeps the warnings these tests count to their own.
  const io = fakeIO({ "github-token": "tok", sandbox: "off", ...opts.inputs });
  await runAction({
    io,
    env: {
      PATH: process.env.PATH,
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_WORKSPACE: repo.dir,
      RUNNER_TEMP: temp,
      ...opts.env,
    },
    github: () => api,
    ...(opts.prover && { prover: opts.prover }),
  });
  return Object.assign(io, { temp });
}

const RED = oracleContract("c", [{ title: "fails", check: "echo nope", expect: "MARKER" }]);
const GREEN = oracleContract("c", [{ title: "passes", check: "echo OK", expect: "OK" }]);

describe("runAction (in-process, fake API)", () => {
  it("a reporting failure is a warning, never a verdict change", async () => {
    const api = fakeApi({
      completeCheckRun: async () => {
        throw new GitHubApiError("PATCH failed with 500", 500, "PATCH x");
      },
      upsertStickyComment: async () => {
        throw new GitHubApiError("POST failed with 422", 422, "POST y");
      },
    });
    const red = await inProcess(RED, api);
    expect(red.outputs.conclusion).toBe("failure");
    expect(red.failed).toEqual([expect.stringContaining("1 blocking of 1 criterion")]);
    expect(red.warnings).toEqual([
      expect.stringMatching(
        /the check run \S+ could not be completed: PATCH failed with 500 — re-run this job$/,
      ),
      expect.stringContaining("could not update the PR comment: POST failed with 422"),
    ]);
    // Not a permission problem: no fallback annotations.
    expect(red.annotations).toEqual([]);

    const green = await inProcess(GREEN, fakeApi({ completeCheckRun: api.completeCheckRun }));
    expect(green.outputs.conclusion).toBe("success");
    expect(green.failed).toEqual([]);
  });

  it("a 403 on the check run: the fallback annotations, no comment attempted", async () => {
    const api = fakeApi({
      startCheckRun: async () => {
        throw new GitHubApiError("POST failed with 403", 403, "POST x");
      },
    });
    const io = await inProcess(RED, api);
    expect(api.calls).toEqual(["listPullFiles"]);
    expect(io.annotations).toEqual([
      { message: expect.stringContaining("marker absent"), file: oraclePath("c"), line: 9 },
    ]);
    // Not a fork's pull request: the error's own advice, never the fork recipe.
    expect(io.warnings).toEqual([expect.stringContaining("The verdict was not posted")]);
    expect(io.warnings[0]).not.toContain("two-stage");
    expect(io.outputs["check-run-id"]).toBe("");
    expect(io.summary).toContain("Contract Gate: failure");
  });

  it("the fallback annotates 10 when the step will not fail, 9 when its own error must fit", async () => {
    const twelve = oracleContract(
      "c",
      Array.from({ length: 12 }, (_, i) => ({ title: `t${i}`, check: "echo no", expect: "M" })),
    );
    const forbidden = () =>
      fakeApi({
        startCheckRun: async () => {
          throw new GitHubApiError("POST failed with 403", 403, "POST x");
        },
      });
    const passing = await inProcess(twelve, forbidden(), {
      inputs: { "fail-on-blocking": "false" },
    });
    expect(passing.annotations).toHaveLength(10);
    expect(passing.failed).toEqual([]);
    const failing = await inProcess(twelve, forbidden());
    expect(failing.annotations).toHaveLength(9);
    expect(failing.failed).toHaveLength(1);
    expect(failing.warnings.at(-1)).toContain("9 of 12 blocking problems are annotated");
  });

  it("a fork's 403 under pull_request gives one warning, not two", async () => {
    const api = fakeApi({
      startCheckRun: async () => {
        throw new GitHubApiError("POST failed with 403", 403, "POST x");
      },
    });
    const io = await inProcess(RED, api, { fork: true });
    expect(io.warnings).toHaveLength(1);
    expect(io.warnings[0]).toContain("read-only");
  });

  it("comment: on-failure, green, no earlier comment: looks, posts nothing", async () => {
    const api = fakeApi();
    const io = await inProcess(GREEN, api, { inputs: { comment: "on-failure" } });
    expect(api.calls).toEqual(["listPullFiles", "startCheckRun", "completeCheckRun success"]);
    expect(io.outputs["comment-url"]).toBe("");
  });

  it("sandbox: auto without a boundary warns at the top of the log, check run, comment and summary", async () => {
    const seen: Record<string, string> = {};
    const api = fakeApi({
      completeCheckRun: async (_id, args) => {
        seen.checkRun = args.output.summary;
      },
      upsertStickyComment: async (args) => {
        seen.comment = args.body;
        return { action: "created", url: "https://c", deletedDuplicates: 0 };
      },
    });
    // No sandbox host in-process: auto finds no boundary.
    const io = await inProcess(GREEN, api, { inputs: { sandbox: "auto" } });
    expect(io.warnings[0]).toContain("Commands ran UNSANDBOXED");
    for (const text of [seen.checkRun!, seen.comment!, io.summary]) {
      const top = text.split("\n").slice(0, 5).join("\n");
      expect(top).toContain("[!WARNING]");
      expect(top).toContain("UNSANDBOXED");
    }
    const off = await inProcess(GREEN, fakeApi(), { inputs: { sandbox: "off" } });
    expect(off.warnings).toEqual([]);
    expect(off.summary).not.toContain("[!WARNING]");
    expect(off.summary).toContain("Sandbox: off");
  });
});

// ------------------------------------------------------------------ harness parsers

describe("e2e harness parsers", () => {
  it("parseOutputFile reads @actions/core's heredoc format", () => {
    expect(
      parseOutputFile(
        "conclusion<<ghadelimiter_1\nsuccess\nghadelimiter_1\nmulti<<EOF\na\nb\nEOF\nplain=1\n",
      ),
    ).toEqual({ conclusion: "success", multi: "a\nb", plain: "1" });
    expect(() => parseOutputFile("x<<EOF\nnever closed\n")).toThrow(/unterminated/);
  });

  it("workflowCommands parses like the runner: leading spaces, legacy ##[, stop-commands", () => {
    const out = [
      "::warning::w",
      "   ::error file=a.md,line=3,title=t%3Ax::e%0Af",
      "text ##[set-output name=x]y",
      "::stop-commands::tok",
      "::error::hidden",
      "x ##[error]hidden",
      "::TOK::",
      "::notice::after",
      "::unknown::ignored",
      "plain text",
    ].join("\n");
    const cmds = workflowCommands(out);
    expect(cmds.map((c) => [c.command, c.data])).toEqual([
      ["warning", "w"],
      ["error", "e\nf"],
      ["set-output", "y"],
      ["notice", "after"],
    ]);
    expect(cmds[1]!.properties).toEqual({ file: "a.md", line: "3", title: "t:x" });
    expect(stoppedLines(out)).toEqual(["::error::hidden", "x ##[error]hidden"]);
  });
});

// ------------------------------------------------------------------ post step

describe("runPost", () => {
  const calls: Array<{ id: number; conclusion: string }> = [];
  const api = {
    completeCheckRun: async (id: number, args: { conclusion: string }) => {
      calls.push({ id, conclusion: args.conclusion });
    },
  } as unknown as GitHubApi;
  const postIO = (state: Record<string, string>) => ({
    getInput: () => "token",
    getState: (n: string) => state[n] ?? "",
    info: () => {},
    warning: () => {},
  });
  const env = { GITHUB_REPOSITORY: "o/r", GITHUB_API_URL: "http://127.0.0.1:9" };

  it("completes a check run the main step left in progress as cancelled, never as a pass", async () => {
    calls.length = 0;
    await runPost(postIO({ "check-run-id": "42" }), env, () => api);
    expect(calls).toEqual([{ id: 42, conclusion: "cancelled" }]);
  });

  it("leaves completed runs, and runs never started, alone", async () => {
    calls.length = 0;
    await runPost(postIO({ "check-run-id": "42", "check-run-completed": "true" }), env, () => api);
    await runPost(postIO({}), env, () => api);
    expect(calls).toEqual([]);
  });

  describe("a run whose create was in flight when the job ended (no id saved)", () => {
    const pending = JSON.stringify({
      name: "contract-gate",
      headSha: "a".repeat(40),
      externalId: "7-1-contract-gate",
    });
    const finding = (found: { id: number; completed: boolean } | undefined | Error) => {
      const asked: unknown[] = [];
      const lookup = {
        ...api,
        findCheckRun: async (args: unknown) => {
          asked.push(args);
          if (found instanceof Error) throw found;
          return found && { ...found, htmlUrl: `https://github.com/o/r/runs/${found.id}` };
        },
      } as unknown as GitHubApi;
      return { asked, lookup };
    };

    it("finds it by name, head and external id and completes it as cancelled", async () => {
      calls.length = 0;
      const { asked, lookup } = finding({ id: 77, completed: false });
      await runPost(postIO({ "check-run-pending": pending }), env, () => lookup);
      expect(asked).toEqual([JSON.parse(pending)]);
      expect(calls).toEqual([{ id: 77, conclusion: "cancelled" }]);
    });

    it("leaves it alone when it was never created, or completed after all; a failed create clears the intent", async () => {
      calls.length = 0;
      for (const found of [undefined, { id: 77, completed: true }]) {
        const { lookup } = finding(found);
        await runPost(postIO({ "check-run-pending": pending }), env, () => lookup);
      }
      const { asked, lookup } = finding({ id: 77, completed: false });
      await runPost(postIO({ "check-run-pending": "" }), env, () => lookup);
      expect(asked).toEqual([]);
      expect(calls).toEqual([]);
    });

    it("a failed lookup is one warning that says what to do", async () => {
      calls.length = 0;
      const warnings: string[] = [];
      const { lookup } = finding(new Error("GET failed with 502"));
      await runPost(
        { ...postIO({ "check-run-pending": pending }), warning: (m: string) => warnings.push(m) },
        env,
        () => lookup,
      );
      expect(calls).toEqual([]);
      expect(warnings).toEqual([
        expect.stringMatching(/being created.*GET failed with 502.*re-run this job/),
      ]);
    });
  });
});

describe("runAction: the job's variables by grant, redacted from every surface", () => {
  const value = TEN_SECRETS.DATABASE_URL!;
  const others = Object.keys(TEN_SECRETS).filter((n) => n !== "DATABASE_URL");
  const contract = oracleContract("c", [
    {
      title: "others",
      check: `for v in ${others.join(" ")}; do printenv $v && echo PWNED; done; true`,
      expect: "PWNED",
    },
    {
      title: "prints the granted value in every form",
      check: `s="$DATABASE_URL"; echo "$s"; printf '%s\\n' "$s" | fold -w 7; printf %s "$s" | base64 -w 0; echo; exit 1`,
      expect: "NEVER",
    },
    {
      title: "hint",
      check: `[ -n "$REDIS_URL" ] || { echo "REDIS_URL is not set"; exit 1; }`,
      expect: "x",
    },
  ]);

  it("hands only the granted name over; the check run, comment, summary, log, outputs and JSON report carry no value", async () => {
    const bodies: string[] = [];
    const api = fakeApi({
      completeCheckRun: async (_id, args) => {
        bodies.push(JSON.stringify(args.output));
      },
      upsertStickyComment: async (req) => {
        bodies.push(req.body);
        return { action: "created", url: "https://c", deletedDuplicates: 0 };
      },
    });
    const io = await inProcess(contract, api, {
      inputs: { "check-env": "DATABASE_URL" },
      env: { ...TEN_SECRETS, REDIS_URL: "redis://:redis-password-1@cache:6379" },
    });
    const dir = join(io.temp, "contract-gate");
    const report = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8");
    const parsed = JSON.parse(report);
    const status = Object.fromEntries(
      parsed.contracts[0].criteria.map((k: { title: string }) => [k.title, k]),
    );
    expect(status.others.status).toBe("unmet");
    expect(status["prints the granted value in every form"].status).toBe("unmet");
    expect(status.hint.reason).toContain(
      "`REDIS_URL` is not passed to checks; grant it with `check-env: REDIS_URL`",
    );
    expect(parsed.sandbox.checkEnv.granted).toEqual(["DATABASE_URL"]);
    expect(bodies.length).toBe(2);
    const surfaces = [...bodies, io.summary, io.log.join("\n"), JSON.stringify(io.outputs), report];
    // Control: the check printed it, so the report shows where it was redacted.
    expect(report).toContain("***");
    for (const text of surfaces) {
      const flat = text.replace(/[\r\n]|\\[nr]/g, "").replace(/\\(.)/g, "$1");
      for (const secret of Object.values(TEN_SECRETS)) {
        expect(flat).not.toContain(secret);
        expect(flat).not.toContain(Buffer.from(secret).toString("base64"));
      }
    }
    expect(value.length).toBeGreaterThan(8);
  });
});

describe("runAction: a PR that replaces a contract by a symlink", () => {
  // The GitHub API lists the link as a modified file: the gate must gate it (refuse it).
  const fixtures = join(import.meta.dirname, "fixtures/files/symlinks");
  const contract = ".planning/phase-1-contract.json";
  const fixture = (rel: string) => readFileSync(join(fixtures, rel), "utf8");
  const base: Files = {
    [contract]: fixture(contract),
    ".planning/phase-1-plan.md": fixture(".planning/phase-1-plan.md"),
    ".planning/phase-1-evidence.json": fixture(".planning/phase-1-evidence.json"),
    "docs/lenient-contract.json": fixture("docs/lenient-contract.json"),
    // The README lacks its usage section: the real contract blocks.
    "README.md": "# Tool\n\nNo usage yet.\n",
  };

  it("is gated and refused; the same content as a regular file would pass", async () => {
    // Positive control: the lenient content committed in place of the contract passes its
    // checks; only the in-place edit of a generated contract (integrity, needing an approval) blocks.
    const copied = await inProcess(
      { base, head: { [contract]: fixture("docs/lenient-contract.json") } },
      fakeApi(),
    );
    const report = JSON.parse(readFileSync(copied.outputs.report!, "utf8"));
    expect(report.contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["pass"]);
    expect(report.integrity.findings.length).toBeGreaterThan(0);
    expect(
      report.integrity.findings.every((f: { code: string }) => f.code === "in-place-edit"),
    ).toBe(true);

    const linked = await inProcess(
      { base, head: { [contract]: { symlink: "../docs/lenient-contract.json" } } },
      fakeApi(),
    );
    expect(linked.outputs.conclusion).toBe("failure");
    expect(linked.log).toContain("1 of 1 contracts are touched by PR #7.");
    expect(linked.log.join("\n")).toContain(
      `${contract} is a symlink to docs/lenient-contract.json`,
    );
  });
});

describe("runAction: the requirement proof's injected test prover", () => {
  it("gets the spec's mapped tests and the proof inputs; its settled criteria decide the run, its rows are on the surfaces", async () => {
    const { [SPEC_PATH]: spec, ...before } = BASE_FILES;
    const seen: { ctx?: Parameters<TestProver["prove"]>[1]; contracts?: string[] } = {};
    const proof: TestProof = {
      runs: [
        { side: "base", command: "vitest", preset: "vitest", chosenBy: "input", durationMs: 1 },
      ],
      tests: [
        {
          requirement: "FR-001",
          file: "tests/trim.test.ts",
          name: "trims surrounding spaces",
          mapLocation: { path: SPEC_PATH, line: 36, column: 1 },
          changed: true,
          base: "passed",
          head: "passed",
          verdict: "passes-at-base",
          reason: "passes on the code before this change",
        },
      ],
    };
    const prover: TestProver = {
      prove: async (inputs, ctx) => {
        seen.ctx = ctx;
        seen.contracts = inputs.map((i) => i.contract);
        return new Map([[SPEC_PATH, proof]]);
      },
      settle: (criteria) =>
        criteria.map((c) =>
          c.id === "FR-001"
            ? { ...c, settled: { status: "unmet", blocking: true, reason: "proves nothing" } }
            : c,
        ),
    };
    const io = await inProcess(
      {
        base: before,
        head: {
          [SPEC_PATH]: spec!,
          "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
        },
      },
      fakeApi(),
      {
        prover,
        inputs: {
          "test-command": "npx vitest run",
          "test-files": "tests/**",
          "test-timeout-seconds": "42",
        },
      },
    );
    expect(seen.contracts).toEqual([SPEC_PATH]);
    expect(seen.ctx?.options).toMatchObject({
      requirementProof: true,
      testCommand: "npx vitest run",
      testFiles: ["tests/**"],
      testTimeoutSeconds: 42,
    });
    expect(seen.ctx?.changed.map((f) => f.path).sort()).toEqual([SPEC_PATH, "src/trim.ts"]);
    // The settled criterion blocks; the row shows base → head → verdict.
    expect(io.outputs.conclusion).toBe("failure");
    expect(io.summary).toContain(
      "| passed | passed | ❌ proves nothing: passes on the code before this change |",
    );

    // The honest control: a prover that proves it, and nothing blocks.
    const honest = await inProcess(
      {
        base: before,
        head: {
          [SPEC_PATH]: spec!,
          "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
        },
      },
      fakeApi(),
      { prover: { ...prover, settle: (c) => [...c] } },
    );
    expect(honest.outputs.conclusion).not.toBe("failure");
  });
});
