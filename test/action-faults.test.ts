/**
 * Issue 11: the bundled action (dist/index.js) under faults — the runner's
 * cancellation, rate limits, hung requests, refused tokens, a GitHub outage —
 * against the stand-in. Each case asserts the final check-run state, how many
 * check runs and comments exist, the exit code and the message; none asserts
 * a duration (timeouts and waits are configured small through the environment).
 * Run `npm run bundle` after changing src/.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, type ExpectStatic, it } from "vitest";
import type { Fault, StandIn } from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  makeRepo,
  oracleContract,
  oraclePath,
  REPO,
  type RunOptions,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { processesWith } from "./helpers/sandbox.js";

const BASE: Files = { "README.md": "# widgets\n" };

async function pr(head: Files) {
  const repo = await makeRepo({ base: BASE, head });
  const gh = await standInFor(repo);
  const run = (o: Partial<RunOptions> = {}) => runAction({ repo, gh, event: "pull_request", ...o });
  return { repo, gh, run };
}

async function finish(gh: StandIn, expect: ExpectStatic): Promise<void> {
  try {
    expect(gh.violations).toEqual([]);
  } finally {
    await gh.close();
  }
}

const checkRuns = (gh: StandIn) => gh.repo(REPO).checkRuns;
const comments = (gh: StandIn) => gh.repo(REPO).comments;
const messages = (r: ActionResult, kind: "error" | "warning") =>
  r.commands.filter((c) => c.command === kind).map((c) => c.data);

async function until(what: () => boolean, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!what()) {
    if (Date.now() > end) throw new Error("condition never held");
    await sleep(20);
  }
}

describe("the runner cancels the job", () => {
  for (const [signal, sandbox, code] of [
    ["SIGINT", "required", 130],
    ["SIGTERM", "off", 143],
  ] as const) {
    it(`${signal} (sandbox ${sandbox}): every check killed, exit ${code}, the post step completes the run as cancelled`, async ({
      expect,
    }) => {
      const tag = `cg-cancel-${randomBytes(6).toString("hex")}`;
      const { gh, run } = await pr({
        [oraclePath("slow")]: oracleContract("slow", [
          {
            title: "slow",
            check: `(sleep 60; echo ${tag}) & sleep 61; echo ${tag} OK`,
            expect: "OK",
          },
        ]),
      });
      const main = await run({
        inputs: { sandbox },
        onSpawn: (child) => {
          // The check's own processes say it started: a file it writes stays in the
          // contract's private tree of the head (issue 32), never in the checkout.
          void until(() => processesWith(tag).length >= 2).then(() => child.kill(signal));
        },
      });
      expect(main.code).toBe(code);
      expect(messages(main, "warning").join("\n")).toContain(`${signal}: the job was cancelled`);
      // Sandboxed checks die with the host, which ends when the step's pipe closes: allow it a moment
      // (the check sleeps 60 s, so a leftover would still be seen).
      await until(() => processesWith(tag).length === 0, 5000).catch(() => {});
      expect(processesWith(tag)).toEqual([]);
      expect(checkRuns(gh).map((c) => c.status)).toEqual(["in_progress"]);
      const post = await run({ postState: main.state });
      expect(post.code).toBe(0);
      expect(checkRuns(gh).map((c) => [c.status, c.conclusion])).toEqual([
        ["completed", "cancelled"],
      ]);
      expect(comments(gh)).toHaveLength(0);
      await finish(gh, expect);
    });
  }
});

describe("the runner cancels the job while the check run is being created", () => {
  const creates = (gh: StandIn) =>
    gh.requests.filter((r) => r.method === "POST" && r.path.endsWith("/check-runs")).length;

  it("the create took effect but never answered: the post step finds the run and completes it as cancelled", async ({
    expect,
  }) => {
    const { gh, run } = await pr(RED);
    gh.failNext({ method: "POST", path: CREATE_RUN, hang: true, afterEffect: true });
    const main = await run({
      onSpawn: (child) => {
        void until(() => checkRuns(gh).length === 1).then(() => child.kill("SIGTERM"));
      },
    });
    expect(main.code).toBe(143);
    expect(main.state["check-run-id"]).toBeUndefined();
    expect(checkRuns(gh).map((c) => c.status)).toEqual(["in_progress"]);
    // Control: with only what was saved before this fix (no pending run), the post step cannot find it.
    const { "check-run-pending": pending, ...before } = main.state;
    expect(pending).toBeDefined();
    const blind = await run({ postState: before });
    expect(blind.code).toBe(0);
    expect(checkRuns(gh).map((c) => c.status)).toEqual(["in_progress"]);

    const post = await run({ postState: main.state });
    expect(post.code).toBe(0);
    expect(messages(post, "warning")).toEqual([]);
    expect(checkRuns(gh).map((c) => [c.status, c.conclusion])).toEqual([
      ["completed", "cancelled"],
    ]);
    expect(post.stdout).toContain(`check run ${checkRuns(gh)[0]!.id} was left in progress`);
    expect(comments(gh)).toHaveLength(0);
    await finish(gh, expect);
  });

  it("the create never took effect: the post step looks, finds nothing and creates nothing", async ({
    expect,
  }) => {
    const { gh, run } = await pr(RED);
    gh.failNext({ method: "POST", path: CREATE_RUN, hang: true });
    const main = await run({
      onSpawn: (child) => {
        void until(() => creates(gh) === 1).then(() => child.kill("SIGINT"));
      },
    });
    expect(main.code).toBe(130);
    expect(checkRuns(gh)).toEqual([]);
    const post = await run({ postState: main.state });
    expect(post.code).toBe(0);
    expect(messages(post, "warning")).toEqual([]);
    expect(checkRuns(gh)).toEqual([]);
    expect(
      gh.requests.some(
        (r) => r.method === "GET" && /\/commits\/[0-9a-f]{40}\/check-runs$/.test(r.path),
      ),
    ).toBe(true);
    await finish(gh, expect);
  });
});

// ------------------------------------------------------------------ API faults

/** Fast retries and short deadlines, so a fault case takes seconds (see src/github/tuning.ts). */
const TUNING = JSON.stringify({
  retryDelayMs: 1,
  rateLimitTimeUnitMs: 1,
  writeSpacingMs: 0,
  requestTimeoutMs: 1000,
  slowRequestNoticeMs: 100,
});
const RED = {
  [oraclePath("red")]: oracleContract("red", [
    { title: "prints the marker", check: "echo nope", expect: "MARKER-OK" },
  ]),
};
const CREATE_RUN = "/repos/{owner}/{repo}/check-runs";
const UPDATE_RUN = "/repos/{owner}/{repo}/check-runs/{check_run_id}";
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

/** Observed final state per fault class: printed after the file, for the issue's table. */
const table: string[] = [];
afterAll(() => {
  if (table.length > 0)
    console.log(`fault | final check run | runs | comments | exit | time\n${table.join("\n")}`);
});

async function faulted(name: string, faults: Fault[], opts: { post?: Fault[] } = {}) {
  const { gh, run } = await pr(RED);
  for (const f of faults) gh.failNext(f);
  const started = Date.now();
  const main = await run({ env: { CONTRACT_GATE_API_TUNING: TUNING } });
  let post: ActionResult | undefined;
  if (opts.post) {
    for (const f of opts.post) gh.failNext(f);
    post = await run({ env: { CONTRACT_GATE_API_TUNING: TUNING }, postState: main.state });
  }
  const runs = checkRuns(gh).map((c) => `${c.status}${c.conclusion ? `/${c.conclusion}` : ""}`);
  table.push(
    `${name} | ${runs.join(", ") || "none"} | ${runs.length} | ${comments(gh).length} | ${main.code} | ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { gh, main, post, runs, run };
}

const FORK_ADVICE = /two-stage|read-only/;

describe("GitHub faults through the bundled action", () => {
  it("a bare 429 on creating and on completing the check run: retried, one run, one comment", async ({
    expect,
  }) => {
    const { gh, main, runs } = await faulted("429 on create + final update", [
      { method: "POST", path: CREATE_RUN, status: 429 },
      { method: "PATCH", path: UPDATE_RUN, status: 429, headers: { "retry-after": "1" } },
    ]);
    expect(main.code).toBe(1);
    expect(runs).toEqual(["completed/failure"]);
    expect(comments(gh)).toHaveLength(1);
    expect(messages(main, "warning")).toEqual([]);
    expect(main.stdout).toMatch(/429 Too Many Requests on POST/);
    await finish(gh, expect);
  });

  it("a secondary limit outlasting the retries: one message naming it and its reset, verdict not posted, no fork advice", async ({
    expect,
  }) => {
    const { gh, main, runs } = await faulted("secondary limit, persistent", [
      {
        method: "POST",
        path: CREATE_RUN,
        rateLimit: "secondary",
        retryAfterSeconds: 60,
        times: 50,
      },
    ]);
    expect(main.code).toBe(1);
    expect(runs).toEqual([]);
    expect(comments(gh)).toHaveLength(0);
    const w = messages(main, "warning");
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /secondary rate limit outlasted the retries; it resets at \d\d:\d\d:\d\d UTC.*The verdict was not posted/s,
    );
    expect(w[0]).not.toMatch(FORK_ADVICE);
    expect(main.summary).toContain("Contract Gate: failure");
    await finish(gh, expect);
  });

  it("a secondary limit on the comment only: said once, the check run still carries the verdict", async ({
    expect,
  }) => {
    const { gh, main, runs } = await faulted("secondary limit on comment", [
      { method: "POST", path: COMMENTS, rateLimit: "secondary", retryAfterSeconds: 60, times: 50 },
    ]);
    expect(main.code).toBe(1);
    expect(runs).toEqual(["completed/failure"]);
    expect(comments(gh)).toHaveLength(0);
    const w = messages(main, "warning");
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /could not update the PR comment: .*secondary rate limit outlasted the retries; it resets at .*The comment was not posted; the verdict is in the check run https:/s,
    );
    expect(w[0]).not.toMatch(FORK_ADVICE);
    // The check run has the annotations: none repeated as step errors besides the step's own failure.
    expect(messages(main, "error")).toHaveLength(1);
    await finish(gh, expect);
  });

  it("401 (token rejected): its own advice, no fork advice, nothing posted", async ({ expect }) => {
    const { gh, main, runs } = await faulted("401 on create", [
      { method: "POST", path: CREATE_RUN, status: 401 },
    ]);
    expect(main.code).toBe(1);
    expect(runs).toEqual([]);
    expect(comments(gh)).toHaveLength(0);
    const w = messages(main, "warning");
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/token was rejected.*The verdict was not posted/s);
    expect(w[0]).not.toMatch(FORK_ADVICE);
    await finish(gh, expect);
  });

  it("a create that took effect and never answered: found after the timeout, one run, one comment", async ({
    expect,
  }) => {
    const { gh, main, runs } = await faulted("create hangs after effect", [
      { method: "POST", path: CREATE_RUN, hang: true, afterEffect: true },
    ]);
    expect(main.code).toBe(1);
    expect(runs).toEqual(["completed/failure"]);
    expect(comments(gh)).toHaveLength(1);
    expect(main.stdout).toMatch(/Waiting for GitHub to answer POST .*check-runs/);
    await finish(gh, expect);
  });

  it("connection resets around the comment: one comment", async ({ expect }) => {
    const { gh, main, runs } = await faulted("reset before + after comment", [
      { method: "POST", path: COMMENTS, network: true },
      { method: "POST", path: COMMENTS, network: true, afterEffect: true, skip: 1 },
    ]);
    expect(main.code).toBe(1);
    expect(runs).toEqual(["completed/failure"]);
    expect(comments(gh)).toHaveLength(1);
    await finish(gh, expect);
  });

  for (const [name, fault, reason] of [
    ["persistent 503 on the final update", { status: 503 }, /failed with 503/],
    ["final update never answers", { hang: true }, /no answer within 1 s/],
  ] as const) {
    it(`${name}: the run is stuck, the log, summary and post step say so once`, async ({
      expect,
    }) => {
      const { gh, main, post, runs, run } = await faulted(
        name,
        [{ method: "PATCH", path: UPDATE_RUN, times: 50, ...fault }],
        { post: [{ method: "PATCH", path: UPDATE_RUN, times: 50, ...fault }] },
      );
      expect(main.code).toBe(1);
      expect(runs).toEqual(["in_progress"]);
      const sentence = new RegExp(
        `the check run https://\\S+ could not be completed: .*${reason.source}.* — re-run this job`,
      );
      const w = messages(main, "warning");
      expect(w).toHaveLength(1);
      expect(w[0], w[0]).toMatch(sentence);
      expect(main.summary).toMatch(sentence);
      expect(messages(post!, "warning")).toEqual([expect.stringMatching(sentence)]);
      expect(post!.stdout + post!.stderr).not.toMatch(/at .*\.js:\d+/); // no stack
      // Positive control: once GitHub answers again, the post step completes it as cancelled.
      gh.clearFaults();
      const healed = await run({ postState: main.state });
      expect(healed.code).toBe(0);
      expect(checkRuns(gh).map((c) => c.conclusion)).toEqual(["cancelled"]);
      await finish(gh, expect);
    });
  }
});
