/**
 * Fork pull requests through the two-stage setup of docs/forks.md, end to end:
 * `dist/index.js` against the API stand-in with `workflow_run` payloads from
 * @octokit/webhooks-examples. Each attack runs beside its positive control.
 */
import { readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { commentMarker } from "../src/report/github-text.js";
import { ACTIONS_LOGIN, ACTIONS_TOKEN, type StandIn } from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  FORK,
  finish,
  makeRepo,
  oracleContract,
  oraclePath,
  PR_NUMBER,
  planContract,
  REPO,
  runAction,
  standInFor,
  workflowRunPayload,
} from "./helpers/action-harness.js";

const BASE: Files = { "README.md": "# widgets\n", "src/greet.js": "export function greet() {}\n" };
/** File checks only: what every policy runs. */
const FILES_ONLY = planContract(1, [
  {
    id: "T1",
    title: "Greeter",
    verification: [
      { type: "file-exists", path: "src/greet.js", must_contain: "export function greet" },
    ],
  },
]);

async function forkPr(head: Files = FILES_ONLY, fork = true) {
  const repo = await makeRepo({ base: BASE, head });
  const gh = await standInFor(repo, { fork });
  return { repo, gh };
}

/** Stage 2: the repository's own workflow, with a write token, gating `prNumber`. */
function stage2(
  repo: Awaited<ReturnType<typeof forkPr>>["repo"],
  gh: StandIn,
  opts: { payload?: unknown; prNumber?: number; inputs?: Record<string, string> } = {},
) {
  return runAction({
    repo,
    gh,
    event: "workflow_run",
    token: ACTIONS_TOKEN,
    payload: opts.payload ?? workflowRunPayload(repo, { fork: true }),
    inputs: { "pr-number": String(opts.prNumber ?? PR_NUMBER), ...opts.inputs },
  });
}

const writes = (gh: StandIn) => gh.requests.filter((r) => r.method !== "GET");
const messages = (r: ActionResult, command: string) =>
  r.commands.filter((c) => c.command === command).map((c) => c.data);

const ORACLE = oraclePath("feature");
/** A fork's oracle: it leaves a sentinel, and passes only when src/feature.js exists. */
const oracles = (withFeature: boolean): Files => ({
  [ORACLE]: oracleContract("feature", [
    {
      title: "feature exists",
      check: "touch RAN; test -f src/feature.js && echo OK",
      expect: "OK",
    },
  ]),
  ...(withFeature ? { "src/feature.js": "export const feature = 1;\n" } : {}),
});

interface Report {
  conclusion: string;
  sandbox: { mechanism: string };
  contracts: Array<{
    path: string;
    verdict: string;
    criteria: Array<{ id: string; status: string }>;
  }>;
}
const report = (r: ActionResult) => JSON.parse(readFileSync(r.outputs.report!, "utf8")) as Report;
const status = (r: ActionResult) => report(r).contracts[0]!.criteria[0]!.status;

describe.concurrent("fork PRs, two stages (dist/index.js)", () => {
  describe("stage 2 gates only a pull request's run, and needs its pr-number", () => {
    it("after a push's run it stands down with a notice naming the event and posts nothing; after a PR's run (control) it posts", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr();
      const push = workflowRunPayload(repo, { fork: true, event: "push" });
      // What a stage 2 without the job's `if:` passes after a push: no artifact, so no number.
      for (const prNumber of ["", String(PR_NUMBER)]) {
        const r = await stage2(repo, gh, { payload: push, inputs: { "pr-number": prNumber } });
        expect(r.code, r.stdout).toBe(0);
        expect(messages(r, "notice").join("\n")).toContain(
          "the run that triggered this workflow_run was started by 'push', not by a pull request: nothing to gate, nothing was posted",
        );
        expect(messages(r, "error")).toEqual([]);
        expect(r.outputs).toEqual({});
      }
      expect(writes(gh)).toEqual([]);
      for (const event of ["pull_request", "pull_request_review"]) {
        const ok = await stage2(repo, gh, {
          payload: workflowRunPayload(repo, { fork: true, event }),
        });
        expect(ok.code, ok.stdout).toBe(0);
        expect(messages(ok, "notice")).toEqual([]);
      }
      expect(gh.repo(REPO).checkRuns.map((c) => c.conclusion)).toEqual(["success", "success"]);
      await finish(gh, expect);
    });

    it("a missing or mangled pr-number fails naming the stage-1 artifact and the fix, without a stack trace", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr();
      for (const [prNumber, says] of [
        ["", "On workflow_run the pr-number input is empty."],
        ["7; echo", "On workflow_run the pr-number input is '7; echo', not a pull request number"],
      ] as const) {
        const r = await stage2(repo, gh, { inputs: { "pr-number": prNumber } });
        expect(r.code).toBe(1);
        const error = messages(r, "error").join("\n");
        expect(error).toContain(says);
        expect(error).toContain("Stage 2 takes it from the 'pr-number' artifact that stage 1");
        expect(error).toContain("`if: always()`");
        expect(`${r.stdout}${r.stderr}`).not.toMatch(/^\s+at /m);
      }
      expect(writes(gh)).toEqual([]);
      // Control: the artifact's number is gated and posted.
      const ok = await stage2(repo, gh);
      expect(ok.code, ok.stdout).toBe(0);
      expect(gh.repo(REPO).checkRuns).toHaveLength(1);
      await finish(gh, expect);
    });
  });

  describe("stage 2 is bound to the run that triggered it", () => {
    it("positive control: the run's head sha, head repository and an open PR: gated and posted", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr();
      const r = await stage2(repo, gh);
      expect(r.code, r.stdout).toBe(0);
      expect(gh.repo(REPO).checkRuns).toMatchObject([
        { headSha: repo.head, conclusion: "success" },
      ]);
      await finish(gh, expect);
    });

    it("an artifact naming another PR than the run's linked ones fails naming the number; nothing posted", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr(FILES_ONLY, false);
      gh.addPull(REPO, { number: 8, headSha: repo.head, baseSha: repo.base, headRef: "feature" });
      const linked = workflowRunPayload(repo, { pullNumbers: [PR_NUMBER] });
      const r = await stage2(repo, gh, { payload: linked, prNumber: 8 });
      expect(r.code).toBe(1);
      expect(messages(r, "error").join("\n")).toContain(
        "pr-number 8 is not among the pull requests of the triggering run (#7)",
      );
      expect(writes(gh)).toEqual([]);
      // Control: the linked number itself is gated.
      const ok = await stage2(repo, gh, { payload: linked });
      expect(ok.code, ok.stdout).toBe(0);
      expect(gh.repo(REPO).checkRuns).toHaveLength(1);
      await finish(gh, expect);
    });

    it("a fork's artifact naming a PR from another branch (head sha and branch differ) fails naming both", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr();
      gh.addPull(REPO, {
        number: 8,
        headSha: repo.base,
        baseSha: repo.base,
        headRef: "other",
        headRepo: FORK,
      });
      const r = await stage2(repo, gh, { prNumber: 8 });
      expect(r.code).toBe(1);
      const error = messages(r, "error").join("\n");
      expect(error).toContain(
        `The head of pull request #8 (other at ${repo.base}) is not what the triggering run built (feature at ${repo.head})`,
      );
      expect(writes(gh)).toEqual([]);
      await finish(gh, expect);
    });

    it("another head repository fails naming both; a deleted fork too", async ({ expect }) => {
      const { repo, gh } = await forkPr();
      const other = workflowRunPayload(repo, { fork: true, headRepo: "someone-else/widgets" });
      const r = await stage2(repo, gh, { payload: other });
      expect(r.code).toBe(1);
      expect(messages(r, "error").join("\n")).toContain(
        `The head repository of pull request #7 (${FORK}) is not the triggering run's (someone-else/widgets)`,
      );
      gh.repo(REPO).pulls.get(PR_NUMBER)!.head.repo = null;
      const deleted = await stage2(repo, gh);
      expect(deleted.code).toBe(1);
      expect(messages(deleted, "error").join("\n")).toContain("(deleted)");
      expect(writes(gh)).toEqual([]);
      await finish(gh, expect);
    });

    it("a closed PR is refused; reopened (control), it is gated", async ({ expect }) => {
      const { repo, gh } = await forkPr();
      const pull = gh.repo(REPO).pulls.get(PR_NUMBER)!;
      pull.state = "closed";
      const r = await stage2(repo, gh);
      expect(r.code).toBe(1);
      expect(messages(r, "error").join("\n")).toContain("pull request #7 is closed, not open");
      expect(writes(gh)).toEqual([]);
      pull.state = "open";
      const ok = await stage2(repo, gh);
      expect(ok.code, ok.stdout).toBe(0);
      expect(gh.repo(REPO).checkRuns).toHaveLength(1);
      await finish(gh, expect);
    });

    it("the author pushed again (same branch, new head): stands down with a notice, posts nothing, passes", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr();
      const older = workflowRunPayload(repo, { fork: true, headSha: repo.base });
      const r = await stage2(repo, gh, { payload: older });
      expect(r.code, r.stdout).toBe(0);
      expect(messages(r, "notice").join("\n")).toContain(
        `The head of pull request #7 moved on (${repo.head}) since the triggering run built ${repo.base}`,
      );
      expect(writes(gh)).toEqual([]);
      expect(r.outputs).toEqual({});
      await finish(gh, expect);
    });
  });

  describe("a fork's commands in stage 2: sandboxed, blocked or skipped, never falsely green", () => {
    // Whether an oracle ran is read from its status (met/unmet: ran; error/not-run: not run):
    // its files stay in the contract's private tree of the head (issue 32), never the checkout.
    it("failing oracles are red under sandbox (the default), and under block", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr(oracles(false));
      const sandboxed = await stage2(repo, gh);
      expect(report(sandboxed).sandbox.mechanism).not.toBe("none");
      expect(status(sandboxed)).toBe("unmet");
      expect(sandboxed.code).toBe(1);
      const blocked = await stage2(repo, gh, { inputs: { "untrusted-commands": "block" } });
      expect(status(blocked)).toBe("error");
      expect(blocked.code).toBe(1);
      expect(gh.repo(REPO).checkRuns.map((c) => c.conclusion)).toEqual(["failure", "failure"]);
      await finish(gh, expect);
    });

    it("skip is neutral, never success, even when the fork's oracles fail; the title says so", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr(oracles(false));
      const r = await stage2(repo, gh, { inputs: { "untrusted-commands": "skip" } });
      expect(status(r)).toBe("not-run");
      expect(report(r).contracts[0]!.verdict).toBe("neutral");
      expect(r.code, r.stdout).toBe(0);
      expect(r.outputs.conclusion).toBe("neutral");
      expect(gh.repo(REPO).checkRuns).toMatchObject([
        {
          conclusion: "neutral",
          output: { title: "0 of 1 criterion met — 1 command from a fork not run" },
        },
      ]);
      await finish(gh, expect);
    });

    it("green only when the commands really pass inside the sandbox; without a boundary, sandbox blocks", async ({
      expect,
    }) => {
      const { repo, gh } = await forkPr(oracles(true));
      const green = await stage2(repo, gh);
      expect(report(green).sandbox.mechanism).not.toBe("none");
      expect(status(green)).toBe("met");
      expect(green.code, green.stdout).toBe(0);
      expect(gh.repo(REPO).checkRuns[0]!.conclusion).toBe("success");

      // Control: the same passing oracle with the sandbox off is not run, and blocks.
      const { repo: repo2, gh: gh2 } = await forkPr(oracles(true));
      const off = await stage2(repo2, gh2, { inputs: { sandbox: "off" } });
      expect(status(off)).toBe("error");
      expect(off.code).toBe(1);
      expect(messages(off, "warning").join("\n")).toContain(
        "untrusted-commands: sandbox behaves as block",
      );
      expect(gh2.repo(REPO).checkRuns[0]!.conclusion).toBe("failure");
      await finish(gh, expect);
      await finish(gh2, expect);
    });
  });

  it("a bot comment quoting the marker mid-body is left alone; the gate's own comment starts with it and is updated in place", async ({
    expect,
  }) => {
    const { repo, gh } = await forkPr();
    const marker = commentMarker("Contract Gate");
    const quoting = gh.addComment(REPO, PR_NUMBER, {
      body: `Description of this PR:\n> ${marker}\n> ✅ all good`,
      user: ACTIONS_LOGIN,
    });
    const first = await stage2(repo, gh);
    expect(first.code, first.stdout).toBe(0);
    const after = gh.repo(REPO).comments;
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ id: quoting.id, body: quoting.body });
    expect(after[1]!.body.startsWith(`${marker}\n`)).toBe(true);
    // Control: the next run finds its own comment and edits it, still leaving the quote alone.
    const second = await stage2(repo, gh);
    expect(second.code, second.stdout).toBe(0);
    expect(gh.repo(REPO).comments.map((c) => c.id)).toEqual([quoting.id, after[1]!.id]);
    expect(gh.repo(REPO).comments[0]!.body).toBe(quoting.body);
    await finish(gh, expect);
  });

  it("a failing contract replaced by a submodule is listed and blocks as a deleted contract; a PR leaving it alone passes", async ({
    expect,
  }) => {
    const failing = {
      [ORACLE]: oracleContract("feature", [{ title: "fails", check: "echo no", expect: "yes" }]),
    };
    const base = await makeRepo({
      base: { ...BASE, ...failing },
      head: { "README.md": "# edited\n" },
    });
    // Control: the PR does not touch the contract: out of scope, nothing listed.
    const gh0 = await standInFor(base, { fork: true });
    const control = await stage2(base, gh0);
    expect(control.code, control.stdout).toBe(0);
    expect(control.summary).not.toContain("no longer regular files");
    await finish(gh0, expect);

    // The attack: the contract becomes a gitlink (a submodule) in the PR.
    await base.git("rm", "-q", ORACLE);
    await base.git("update-index", "--add", "--cacheinfo", `160000,${base.base},${ORACLE}`);
    await base.git("commit", "-q", "-m", "contract becomes a submodule");
    const head = await base.git("rev-parse", "HEAD");
    const repo = {
      ...base,
      head,
      files: [
        { filename: "README.md", status: "modified" as const },
        { filename: ORACLE, status: "changed" as const },
      ],
    };
    await repo.checkout(head);
    const gh = await standInFor(repo, { fork: true });
    const r = await stage2(repo, gh);
    expect(r.code).toBe(1);
    expect(r.summary).toContain("### Contracts that are no longer regular files");
    expect(r.summary).toContain(ORACLE);
    const findings = (
      JSON.parse(readFileSync(r.outputs.report!, "utf8")) as {
        integrity: { findings: Array<{ code: string; message: string }> };
      }
    ).integrity.findings;
    expect(findings).toMatchObject([
      {
        code: "contract-removed",
        message: expect.stringContaining("is not a regular file at head"),
      },
    ]);
    expect(gh.repo(REPO).checkRuns[0]!.conclusion).toBe("failure");
    await finish(gh, expect);
  });
});
