/**
 * End-to-end tests of the bundled action (dist/index.js, run as the runner
 * runs it) against a real git repository and the local GitHub stand-in, which
 * validates every request against GitHub's OpenAPI description. Every test
 * ends with no stand-in violations. Run `npm run bundle` after changing src/.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, it } from "vitest";
import type { Annotation } from "../src/github/types.js";
import {
  ACTIONS_LOGIN,
  ACTIONS_TOKEN,
  type StandIn,
  type TokenIdentity,
} from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  finish,
  lineOf,
  makeRepo,
  oracleContract,
  oraclePath,
  PR_NUMBER,
  planContract,
  READ_ONLY_TOKEN,
  REPO,
  ROOT,
  type RunOptions,
  runAction,
  sha256,
  shallowClone,
  standInFor,
  stoppedLines,
} from "./helpers/action-harness.js";

// ------------------------------------------------------------------ fixtures

const GREEN_PATH = oraclePath("green");
const GREEN = oracleContract("green", [{ title: "prints OK", check: "echo OK", expect: "OK" }]);

/** A plan contract whose checks pass: a file check, a grep and a command. */
const GREEN_PLAN = planContract(1, [
  {
    id: "T1",
    title: "Greeter",
    verification: [
      { type: "file-exists", path: "src/greet.js", must_contain: "export function greet" },
      { type: "grep-match", path: "src/**/*.js", pattern: "console\\.error", expect: "absent" },
      { type: "command-exit", command: "true", args: [], expected_exit: 0 },
    ],
  },
]);
// biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text, not a template
const GREET_JS = "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n";

const BASE: Files = { "README.md": "# widgets\n", "src/greet.js": GREET_JS };

// ------------------------------------------------------------------ helpers

/** A PR adding `head` on top of BASE, with the stand-in set up for it. */
async function pr(
  head: Files,
  opts: {
    base?: Files;
    merge?: boolean;
    checkout?: "base" | "head" | "merge";
    fork?: boolean;
    token?: TokenIdentity;
  } = {},
) {
  const repo = await makeRepo({
    base: { ...BASE, ...opts.base },
    head,
    ...(opts.merge !== undefined ? { merge: opts.merge } : {}),
    ...(opts.checkout ? { checkout: opts.checkout } : {}),
  });
  const gh = await standInFor(repo, {
    ...(opts.fork ? { fork: true } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  const run = (o: Partial<RunOptions> = {}) =>
    runAction({ repo, gh, event: "pull_request", ...(opts.fork ? { fork: true } : {}), ...o });
  return { repo, gh, run };
}

function checkRuns(gh: StandIn) {
  return gh.repo(REPO).checkRuns;
}

function comments(gh: StandIn) {
  return gh.repo(REPO).comments;
}

function writes(gh: StandIn) {
  return gh.requests.filter((r) => r.method !== "GET");
}

function failures(gh: StandIn): Annotation[] {
  const [run] = checkRuns(gh);
  return ((run?.output.annotations ?? []) as unknown as Annotation[]).filter(
    (a) => a.annotation_level === "failure",
  );
}

/** The `::error::` messages of the step (setFailed and friends). */
function errors(r: ActionResult): string[] {
  return r.commands.filter((c) => c.command === "error").map((c) => c.data);
}

function warnings(r: ActionResult): string[] {
  return r.commands.filter((c) => c.command === "warning").map((c) => c.data);
}

const validReport = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv.compile(
    JSON.parse(readFileSync(join(ROOT, "schema", "run-report.schema.json"), "utf8")),
  );
})();

interface Report {
  schemaVersion: number;
  conclusion: string;
  contracts: Array<{
    path: string;
    verdict: string;
    criteria: Array<{ id: string; status: string }>;
  }>;
}

/** The `report` output's file, checked against schema/run-report.schema.json. */
function report(r: ActionResult): Report {
  const json: unknown = JSON.parse(readFileSync(r.outputs.report!, "utf8"));
  if (!validReport(json)) {
    throw new Error(`report does not match its schema: ${JSON.stringify(validReport.errors)}`);
  }
  return json as Report;
}

function statuses(r: ActionResult): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of report(r).contracts)
    for (const k of c.criteria) out[`${c.path}#${k.id}`] = k.status;
  return out;
}

// ------------------------------------------------------------------ tests

// Each case spawns the bundled action (and git); generous per-test time on a loaded 2-core machine.
describe.concurrent("contract-gate action (dist/index.js) end to end", () => {
  it("1. green PR on the merge checkout: success on the PR head, outputs, summary, comment", async ({
    expect,
  }) => {
    const { repo, gh, run } = await pr(
      { [GREEN_PATH]: GREEN, ...GREEN_PLAN },
      { merge: true, checkout: "merge" },
    );
    const r = await run();
    expect(r.code, r.stdout).toBe(0);
    expect(errors(r)).toEqual([]);
    expect(r.stderr).toBe("");

    const runs = checkRuns(gh);
    expect(runs).toHaveLength(1);
    const [cr] = runs;
    expect(cr!.headSha).toBe(repo.head);
    expect(cr!.headSha).not.toBe(repo.merge);
    expect(cr!.status).toBe("completed");
    expect(cr!.conclusion).toBe("success");
    expect(cr!.name).toBe("Contract Gate");
    expect(cr!.output.title).toBe("4 of 4 criteria met — nothing blocks");
    expect(cr!.output.annotations).toEqual([]);
    expect(cr!.detailsUrl).toBe("https://github.com/acme/widgets/actions/runs/4242");

    expect(r.outputs).toMatchObject({
      conclusion: "success",
      blocking: "0",
      met: "4",
      unmet: "0",
      errors: "0",
      contracts: "2",
      "check-run-id": String(cr!.id),
      "check-run-url": `https://github.com/${REPO}/runs/${cr!.id}`,
    });
    expect(r.outputs.report!.startsWith(r.runnerTemp)).toBe(true);
    const json = report(r);
    expect(json.schemaVersion).toBe(1);
    expect(json.conclusion).toBe("success");
    expect(json.contracts.map((c) => c.path).sort()).toEqual(
      [".planning/phase-1-contract.json", GREEN_PATH].sort(),
    );

    expect(r.summary).toContain("Contract Gate: success");
    expect(r.summary).toContain(GREEN_PATH);
    const [comment] = comments(gh);
    expect(comments(gh)).toHaveLength(1);
    expect(comment!.user).toBe(ACTIONS_LOGIN);
    expect(comment!.body).toContain("<!-- contract-gate:Contract Gate -->");
    expect(comment!.body).toContain(`<!-- contract-gate:sha:${repo.head} -->`);
    expect(r.outputs["comment-url"]).toBe(
      `https://github.com/${REPO}/pull/${PR_NUMBER}#issuecomment-${comment!.id}`,
    );
    await finish(gh, expect);
  });

  it("1b. actions/checkout's default (the merge commit at depth 1) is accepted", async ({
    expect,
  }) => {
    const { repo, gh } = await pr({ [GREEN_PATH]: GREEN }, { merge: true });
    const clone = await shallowClone(repo, "merge");
    expect(await clone.git("rev-parse", "--is-shallow-repository")).toBe("true");
    const r = await runAction({ repo: clone, gh, event: "pull_request" });
    expect(r.code, r.stdout).toBe(0);
    expect(checkRuns(gh)[0]!.headSha).toBe(repo.head);
    expect(checkRuns(gh)[0]!.conclusion).toBe("success");
    await finish(gh, expect);
  });

  describe("2. every blocking kind fails the check run with one annotation per blocker", () => {
    const unmet = oracleContract("unmet", [
      { title: "prints the marker", check: "echo nope", expect: "MARKER-OK" },
      { title: "prints OK", check: "echo OK", expect: "OK" },
    ]);
    const notFound = planContract(5, [
      {
        id: "T1",
        title: "Lints",
        verification: [
          {
            type: "command-exit",
            command: "cg-no-such-command",
            args: ["--check"],
            expected_exit: 0,
          },
        ],
      },
    ]);
    const timeout = oracleContract("timeout", [
      { title: "finishes in time", check: "sleep 20; echo OK", expect: "OK" },
    ]);
    const abandoned = oracleContract(
      "abandoned",
      [{ title: "works offline", check: "echo OK", expect: "OK" }],
      { abandon: [[1, "needs a network the CI lacks"]] },
    );
    const invalid = oracleContract("invalid", [
      { title: "half an oracle", check: "touch INVALID-CONTRACT-RAN" },
      { title: "prints OK", check: "echo OK", expect: "OK" },
    ]);
    const evidence = planContract(3, [
      {
        id: "T1",
        title: "Greets by name",
        verification: [
          { type: "file-exists", path: "src/greet.js" },
          {
            type: "behavioral",
            description: "The greeting includes the name",
            evidence_required: [{ path: "src/greet.js", description: "interpolates name" }],
          },
        ],
      },
    ]);
    const drifted = planContract(
      4,
      [
        {
          id: "T1",
          title: "Drifted",
          verification: [
            { type: "command-exit", command: "touch", args: ["DRIFTED-RAN"], expected_exit: 0 },
          ],
        },
      ],
      { hash: sha256("the plan this contract was compiled from\n") },
    );
    const evidenceJson = evidence[".planning/phase-3-contract.json"]!;
    const driftedJson = drifted[".planning/phase-4-contract.json"]!;

    const kinds: Array<{
      kind: string;
      files: Files;
      inputs?: Record<string, string>;
      output: string;
      blockers: Array<{ path: string; line: number; title: RegExp }>;
    }> = [
      {
        kind: "unmet",
        files: { [oraclePath("unmet")]: unmet },
        output: "unmet",
        blockers: [
          {
            path: oraclePath("unmet"),
            line: lineOf(unmet, "1. prints the marker"),
            title: /^unmet: 1 prints the marker/,
          },
        ],
      },
      {
        kind: "error (command not found)",
        files: notFound,
        output: "errors",
        blockers: [
          {
            path: ".planning/phase-5-contract.json",
            line:
              lineOf(notFound[".planning/phase-5-contract.json"]!, '"type": "command-exit"') - 1,
            title: /^error: T1\.1 /,
          },
        ],
      },
      {
        kind: "error (timeout)",
        files: { [oraclePath("timeout")]: timeout },
        inputs: { "timeout-seconds": "1" },
        output: "errors",
        blockers: [
          {
            path: oraclePath("timeout"),
            line: lineOf(timeout, "1. finishes in time"),
            title: /^error: 1 finishes in time/,
          },
        ],
      },
      {
        kind: "evidence-missing",
        files: evidence,
        output: "evidence-missing",
        blockers: [
          {
            path: ".planning/phase-3-contract.json",
            line: lineOf(evidenceJson, '"type": "behavioral"') - 1,
            title: /^evidence-missing: T1\.2 /,
          },
        ],
      },
      {
        kind: "abandoned",
        files: { [oraclePath("abandoned")]: abandoned },
        output: "abandoned",
        blockers: [
          {
            path: oraclePath("abandoned"),
            line: lineOf(abandoned, "1. works offline"),
            title: /^abandoned: 1 works offline/,
          },
        ],
      },
      {
        kind: "invalid",
        files: { [oraclePath("invalid")]: invalid },
        output: "blocking",
        blockers: [
          {
            path: oraclePath("invalid"),
            line: lineOf(invalid, "CHECK: touch INVALID-CONTRACT-RAN"),
            title: /^Invalid contract: partial-oracle/,
          },
        ],
      },
      {
        kind: "drifted",
        files: drifted,
        output: "blocking",
        blockers: [
          {
            path: ".planning/phase-4-contract.json",
            line: lineOf(driftedJson, '"source_plan_hash"'),
            title: /^Invalid contract: plan-drift/,
          },
        ],
      },
    ];

    for (const k of kinds) {
      it(`${k.kind}: failure, annotations at the contract line, step fails`, async ({ expect }) => {
        const { repo, gh, run } = await pr(k.files);
        const r = await run({ inputs: k.inputs ?? {} });
        expect(r.code, r.stdout).toBe(1);
        expect(r.outputs.conclusion).toBe("failure");
        expect(Number(r.outputs[k.output]), JSON.stringify(r.outputs) + r.stdout).toBeGreaterThan(
          0,
        );
        const [cr] = checkRuns(gh);
        expect(cr!.conclusion).toBe("failure");
        expect(cr!.headSha).toBe(repo.head);
        const got = failures(gh).map((a) => ({ path: a.path, line: a.start_line, title: a.title }));
        expect(got).toHaveLength(k.blockers.length);
        for (const b of k.blockers) {
          expect(got).toContainEqual({
            path: b.path,
            line: b.line,
            title: expect.stringMatching(b.title),
          });
        }
        expect(errors(r).join("\n")).toContain(`contract-gate: ${cr!.output.title}`);
        // Nothing of an invalid or drifted contract ran.
        expect(existsSync(join(repo.dir, "INVALID-CONTRACT-RAN"))).toBe(false);
        expect(existsSync(join(repo.dir, "DRIFTED-RAN"))).toBe(false);
        await finish(gh, expect);
      });
    }

    it("all kinds at once with fail-on-blocking: false: conclusion failure, step passes", async ({
      expect,
    }) => {
      const files: Files = {};
      for (const k of kinds) Object.assign(files, k.files);
      const { gh, run } = await pr(files);
      const r = await run({ inputs: { "fail-on-blocking": "false", "timeout-seconds": "3" } });
      expect(r.code, r.stdout).toBe(0);
      expect(errors(r)).toEqual([]);
      expect(r.outputs.conclusion).toBe("failure");
      expect(checkRuns(gh)[0]!.conclusion).toBe("failure");
      const got = failures(gh).map((a) => `${a.path}:${a.start_line}`);
      const want = kinds.flatMap((k) => k.blockers.map((b) => `${b.path}:${b.line}`));
      expect(got.sort()).toEqual(want.sort());
      await finish(gh, expect);
    });
  });

  it("3. no contracts in scope (README only): neutral, step passes", async ({ expect }) => {
    const { gh, run } = await pr(
      { "README.md": "# widgets\n\nMore words.\n" },
      { base: { [GREEN_PATH]: GREEN } },
    );
    const r = await run();
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.conclusion).toBe("neutral");
    expect(r.outputs.contracts).toBe("0");
    const [cr] = checkRuns(gh);
    expect(cr!.conclusion).toBe("neutral");
    expect(cr!.output.title).toBe("No contracts in scope");
    // Nothing runs, so no sandbox starts: no sandbox line or warning on any surface.
    expect(r.stdout).not.toMatch(/Sandbox:|UNSANDBOXED/);
    expect(cr!.output.summary).not.toMatch(/Sandbox:|UNSANDBOXED/);
    expect(r.summary).not.toMatch(/Sandbox:|UNSANDBOXED/);
    expect(JSON.parse(readFileSync(r.outputs.report!, "utf8")).sandbox).toBeUndefined();
    // Control: with a contract in scope the same run names its sandbox everywhere.
    const withContract = await pr({ [GREEN_PATH]: GREEN });
    const g = await withContract.run();
    expect(g.stdout).toMatch(/Sandbox: /);
    expect(checkRuns(withContract.gh)[0]!.output.summary).toMatch(/Sandbox: /);
    expect(JSON.parse(readFileSync(g.outputs.report!, "utf8")).sandbox).toBeDefined();
    await finish(withContract.gh, expect);
    await finish(gh, expect);
  });

  it("4. scope changed: plan/evidence changes select their contract, deletions are listed as removed; scope all gates everything", async ({
    expect,
  }) => {
    const phase2 = planContract(2, [
      {
        id: "T1",
        title: "Greets by name",
        verification: [
          {
            type: "behavioral",
            description: "The greeting includes the name",
            evidence_required: [
              { path: "src/greet.js", matcher: "\\$\\{name\\}", description: "interpolates name" },
            ],
          },
        ],
      },
    ]);
    const citation = (line: number) =>
      `${JSON.stringify({
        version: 1,
        phase: 2,
        citations: [
          {
            task: "T1",
            check: 0,
            evidence: 0,
            path: "src/greet.js",
            line,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text, not a template
            snippet: "return `Hello, ${name}!`;",
          },
        ],
      })}\n`;
    const untouched = oracleContract("untouched", [
      { title: "never selected", check: "echo nope", expect: "MARKER" },
    ]);
    const repo = await makeRepo({
      base: {
        ...BASE,
        ...GREEN_PLAN,
        ...phase2,
        ".planning/phase-2-evidence.json": citation(1),
        [oraclePath("untouched")]: untouched,
        [oraclePath("deleted")]: GREEN,
      },
      head: {
        // The plan changed under its contract: selected, and drifted.
        ".planning/phase-1-plan.md": "---\nphase: 1\n---\n\n# Phase 1, revised\n",
        // Only the evidence changed: selected, and now met.
        ".planning/phase-2-evidence.json": citation(2),
        [oraclePath("deleted")]: null,
      },
    });
    const changedGh = await standInFor(repo);
    const allGh = await standInFor(repo);
    const [changed, all] = await Promise.all([
      runAction({ repo, gh: changedGh, event: "pull_request" }),
      runAction({ repo, gh: allGh, event: "pull_request", inputs: { scope: "all" } }),
    ]);

    expect(changed.outputs.contracts).toBe("2");
    expect(statuses(changed)).toEqual({
      ".planning/phase-1-contract.json#T1.1": "not-run",
      ".planning/phase-1-contract.json#T1.2": "not-run",
      ".planning/phase-1-contract.json#T1.3": "not-run",
      ".planning/phase-2-contract.json#T1.1": "met",
    });
    expect(report(changed).contracts.map((c) => c.path)).not.toContain(oraclePath("deleted"));
    expect(changed.summary).toContain(oraclePath("deleted"));
    const [cr] = checkRuns(changedGh);
    expect(cr!.output.summary).toContain(oraclePath("deleted"));
    // The removed contract's criteria are not run; its deletion is a blocking contract change.
    expect(failures(changedGh).map((a) => a.title)).toEqual([
      "Contract change: contract-removed",
      expect.stringMatching(/^Invalid contract: plan-drift/),
    ]);
    expect(changed.code).toBe(1);

    expect(all.outputs.contracts).toBe("3");
    expect(statuses(all)).toMatchObject({
      [`${oraclePath("untouched")}#1`]: "unmet",
      ".planning/phase-2-contract.json#T1.1": "met",
    });
    expect(all.outputs.unmet).toBe("1");
    expect(all.code).toBe(1);
    await finish(changedGh, expect);
    await finish(allGh, expect);
  });

  it("5a. workflow_dispatch with pr-number: pulls.get, check run on the PR's current head", async ({
    expect,
  }) => {
    const { repo, gh } = await pr({ [GREEN_PATH]: GREEN });
    const r = await runAction({
      repo,
      gh,
      event: "workflow_dispatch",
      inputs: { "pr-number": "7" },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(gh.requests.some((q) => q.operationId === "pulls/get")).toBe(true);
    const [cr] = checkRuns(gh);
    expect(cr!.headSha).toBe(repo.head);
    expect(cr!.conclusion).toBe("success");
    expect(r.outputs.contracts).toBe("1");
    expect(comments(gh)).toHaveLength(1);
    await finish(gh, expect);
  });

  it("5b. workflow_dispatch with the wrong commit checked out: fails with the checkout advice, posts nothing", async ({
    expect,
  }) => {
    const { repo, gh } = await pr({ [GREEN_PATH]: GREEN }, { checkout: "base" });
    const r = await runAction({
      repo,
      gh,
      event: "workflow_dispatch",
      inputs: { "pr-number": "7" },
    });
    expect(r.code).toBe(1);
    const message = errors(r).join("\n");
    expect(message).toContain(`PR #7's head ${repo.head}`);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression
    expect(message).toContain("refs/pull/${{ inputs.pr-number }}/head");
    expect(message).toContain("persist-credentials: false");
    expect(writes(gh)).toEqual([]);
    expect(r.outputs).toEqual({});
    await finish(gh, expect);
  });

  describe("6. pull_request_target", () => {
    /** An oracle and a command-exit that leave sentinels, and a file check. */
    const SENTINELS: Files = {
      [oraclePath("sentinel")]: oracleContract("sentinel", [
        { title: "oracle runs", check: "touch ORACLE-RAN && echo OK", expect: "OK" },
      ]),
      ...planContract(1, [
        {
          id: "T1",
          title: "Commands and files",
          verification: [
            { type: "file-exists", path: "src/greet.js", must_contain: "export function greet" },
            { type: "command-exit", command: "touch", args: ["COMMAND-RAN"], expected_exit: 0 },
          ],
        },
      ]),
    };
    // Whether the commands ran is read from their statuses: met (ran), error or not-run (not
    // run). A sentinel file in the checkout cannot say it: each contract's commands write to a
    // private tree of the head (issue 32), so the checkout never holds one either way.

    it("base checked out instead of the head: refused with advice, nothing posted", async ({
      expect,
    }) => {
      const { repo, gh } = await pr(SENTINELS, { checkout: "base", fork: true });
      const r = await runAction({ repo, gh, event: "pull_request_target", fork: true });
      expect(r.code).toBe(1);
      const message = errors(r).join("\n");
      expect(message).toContain(`neither PR #7's head ${repo.head}`);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression
      expect(message).toContain("ref: ${{ github.event.pull_request.head.sha }}");
      expect(writes(gh)).toEqual([]);
      await finish(gh, expect);
    });

    it("fork, untrusted-commands: block: commands not run, error and blocking; file checks run", async ({
      expect,
    }) => {
      const { repo, gh } = await pr(SENTINELS, { fork: true });
      const r = await runAction({
        repo,
        gh,
        event: "pull_request_target",
        fork: true,
        inputs: { "untrusted-commands": "block" },
      });
      expect(statuses(r)).toEqual({
        [`${oraclePath("sentinel")}#1`]: "error",
        ".planning/phase-1-contract.json#T1.1": "met",
        ".planning/phase-1-contract.json#T1.2": "error",
      });
      expect(r.code).toBe(1);
      expect(r.outputs.conclusion).toBe("failure");
      expect(warnings(r).join("\n")).toContain("untrusted-commands: block");
      expect(checkRuns(gh)[0]!.conclusion).toBe("failure");
      expect(checkRuns(gh)[0]!.headSha).toBe(repo.head);
      expect(failures(gh)).toHaveLength(2);
      await finish(gh, expect);
    });

    it("fork, untrusted-commands: skip: commands reported not-run, not run; neutral, never success", async ({
      expect,
    }) => {
      const { repo, gh } = await pr(SENTINELS, { fork: true });
      const r = await runAction({
        repo,
        gh,
        event: "pull_request_target",
        fork: true,
        inputs: { "untrusted-commands": "skip" },
      });
      expect(statuses(r)).toEqual({
        [`${oraclePath("sentinel")}#1`]: "not-run",
        ".planning/phase-1-contract.json#T1.1": "met",
        ".planning/phase-1-contract.json#T1.2": "not-run",
      });
      expect(r.code, r.stdout).toBe(0);
      expect(r.outputs.conclusion).toBe("neutral");
      expect(checkRuns(gh)[0]!.conclusion).toBe("neutral");
      expect(checkRuns(gh)[0]!.output.title).toBe(
        "1 of 3 criteria met — 2 commands from a fork not run",
      );
      await finish(gh, expect);
    });

    it("fork, untrusted-commands: run (positive control): the commands run", async ({ expect }) => {
      const { repo, gh } = await pr(SENTINELS, { fork: true });
      const r = await runAction({
        repo,
        gh,
        event: "pull_request_target",
        fork: true,
        inputs: { "untrusted-commands": "run" },
      });
      expect(statuses(r)).toEqual({
        [`${oraclePath("sentinel")}#1`]: "met",
        ".planning/phase-1-contract.json#T1.1": "met",
        ".planning/phase-1-contract.json#T1.2": "met",
      });
      expect(r.code, r.stdout).toBe(0);
      expect(r.outputs.met).toBe("3");
      expect(warnings(r).join("\n")).toContain("WILL run");
      await finish(gh, expect);
    });
  });

  it("6. workflow_dispatch for a fork's PR is privileged too: without a sandbox the default blocks commands", async ({
    expect,
  }) => {
    const { repo, gh } = await pr(
      {
        [oraclePath("sentinel")]: oracleContract("sentinel", [
          { title: "oracle runs", check: "touch ORACLE-RAN && echo OK", expect: "OK" },
        ]),
      },
      { fork: true },
    );
    const r = await runAction({
      repo,
      gh,
      event: "workflow_dispatch",
      inputs: { "pr-number": "7", sandbox: "off" },
    });
    expect(existsSync(join(repo.dir, "ORACLE-RAN"))).toBe(false);
    expect(statuses(r)).toEqual({ [`${oraclePath("sentinel")}#1`]: "error" });
    expect(r.code).toBe(1);
    expect(checkRuns(gh)[0]!.headSha).toBe(repo.head);
    await finish(gh, expect);
  });

  it("7. more than 50 annotations: sent in batches of at most 50, all present", async ({
    expect,
  }) => {
    const criteria = [
      { title: "fails one", check: "echo nope", expect: "MARKER" },
      { title: "fails two", check: "echo nope", expect: "MARKER" },
      ...Array.from({ length: 110 }, (_, i) => ({ title: `reviewer decides ${i + 3}` })),
    ];
    const { gh, run } = await pr({ [oraclePath("many")]: oracleContract("many", criteria) });
    const r = await run();
    expect(r.code).toBe(1);
    const patches = gh.requests.filter((q) => q.operationId === "checks/update");
    expect(patches).toHaveLength(3);
    const sizes = patches.map(
      (q) =>
        ((q.body as { output?: { annotations?: unknown[] } }).output?.annotations ?? []).length,
    );
    expect(sizes).toEqual([50, 50, 12]);
    const [cr] = checkRuns(gh);
    expect(cr!.output.annotations).toHaveLength(112);
    expect(cr!.conclusion).toBe("failure");
    // Failures first, so a cut list would keep what blocks.
    expect(cr!.output.annotations.slice(0, 2).map((a) => a.annotation_level)).toEqual([
      "failure",
      "failure",
    ]);
    expect(new Set(cr!.output.annotations.map((a) => a.start_line)).size).toBe(112);
    await finish(gh, expect);
  });

  it("8. a report over 65,535 characters: check run output within limits, conclusion right", async ({
    expect,
  }) => {
    const N = 64;
    const criteria = Array.from({ length: N }, (_, i) => ({
      title: `long output ${i + 1}`,
      check: `for i in $(seq 1 120); do echo "criterion ${i + 1} line $i: the quick brown fox jumps over the lazy dog"; done`,
      expect: "NEVER-PRINTED",
    }));
    const { gh, run } = await pr({ [oraclePath("long")]: oracleContract("long", criteria) });
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.summary.length).toBeGreaterThan(65_535);
    const [cr] = checkRuns(gh);
    expect(cr!.conclusion).toBe("failure");
    expect(cr!.output.title).toBe(`${N} blocking of ${N} criteria — ${N} unmet`);
    expect(Buffer.byteLength(cr!.output.summary ?? "", "utf8")).toBeLessThanOrEqual(65_535);
    expect(Buffer.byteLength(cr!.output.text ?? "", "utf8")).toBeLessThanOrEqual(65_535);
    // Every blocking row stays in the summary.
    for (let i = 1; i <= N; i++) expect(cr!.output.summary).toContain(`long output ${i}`);
    expect(cr!.output.annotations).toHaveLength(N);
    const [comment] = comments(gh);
    expect([...comment!.body].length).toBeLessThanOrEqual(65_536);
    await finish(gh, expect);
  });

  describe("9. sticky comment", () => {
    it("created on the first run, updated (not duplicated) on the second", async ({ expect }) => {
      const { gh, run } = await pr({ [GREEN_PATH]: GREEN });
      const first = await run();
      expect(comments(gh)).toHaveLength(1);
      const id = comments(gh)[0]!.id;
      const second = await run({ env: { GITHUB_RUN_ATTEMPT: "2" } });
      expect(first.code).toBe(0);
      expect(second.code).toBe(0);
      expect(comments(gh)).toHaveLength(1);
      expect(comments(gh)[0]!.id).toBe(id);
      expect(comments(gh)[0]!.body).toContain(second.outputs["check-run-url"]);
      expect(second.outputs["comment-url"]).toBe(first.outputs["comment-url"]);
      const created = gh.requests.filter((q) => q.operationId === "issues/create-comment");
      const updated = gh.requests.filter((q) => q.operationId === "issues/update-comment");
      expect(created).toHaveLength(1);
      expect(updated).toHaveLength(1);
      await finish(gh, expect);
    });

    it("comment: on-failure with a green PR creates none", async ({ expect }) => {
      const { gh, run } = await pr({ [GREEN_PATH]: GREEN });
      const r = await run({ inputs: { comment: "on-failure" } });
      expect(r.code).toBe(0);
      expect(comments(gh)).toEqual([]);
      expect(r.outputs["comment-url"]).toBe("");
      expect(writes(gh).filter((q) => q.path.includes("/issues/"))).toEqual([]);
      await finish(gh, expect);
    });

    it("comment: on-failure turns an existing red comment green", async ({ expect }) => {
      const { repo, gh, run } = await pr({ [GREEN_PATH]: GREEN });
      const red = gh.addComment(REPO, PR_NUMBER, {
        body: `<!-- contract-gate:Contract Gate -->\n<!-- contract-gate:sha:${repo.base} -->\n## ❌ Contract Gate: failure\n`,
        user: ACTIONS_LOGIN,
      });
      // Someone else's comment quoting the marker is left alone.
      gh.addComment(REPO, PR_NUMBER, {
        body: "> <!-- contract-gate:Contract Gate -->\n> ## ❌ Contract Gate: failure",
        user: "octocat",
      });
      const r = await run({ inputs: { comment: "on-failure" } });
      expect(r.code).toBe(0);
      expect(comments(gh)).toHaveLength(2);
      const mine = comments(gh).find((c) => c.id === red.id)!;
      expect(mine.body).toContain("Contract Gate: success");
      expect(mine.body).not.toContain("failure");
      expect(mine.body).toContain(`<!-- contract-gate:sha:${repo.head} -->`);
      expect(r.outputs["comment-url"]).toContain(`#issuecomment-${red.id}`);
      await finish(gh, expect);
    });

    it("comment: never posts none", async ({ expect }) => {
      const { gh, run } = await pr({
        [oraclePath("unmet")]: oracleContract("unmet", [
          { title: "fails", check: "echo nope", expect: "MARKER" },
        ]),
      });
      const r = await run({ inputs: { comment: "never" } });
      expect(r.code).toBe(1);
      expect(comments(gh)).toEqual([]);
      expect(gh.requests.filter((q) => q.path.includes("/issues/"))).toEqual([]);
      expect(checkRuns(gh)[0]!.conclusion).toBe("failure");
      await finish(gh, expect);
    });
  });

  describe("10. no write access", () => {
    const twelve = oracleContract(
      "twelve",
      Array.from({ length: 12 }, (_, i) => ({
        title: `criterion ${i + 1}`,
        check: i === 0 ? "touch FORK-COMMAND-RAN; echo nope" : "echo nope",
        expect: "MARKER",
      })),
    );

    it("fork PR under pull_request (read-only token): warning, ≤ 10 error annotations, summary, step fails, commands run", async ({
      expect,
    }) => {
      const { gh, run } = await pr(
        { [oraclePath("twelve")]: twelve },
        { fork: true, token: READ_ONLY_TOKEN },
      );
      const r = await run();
      expect(r.code).toBe(1);
      // The commands ran: each criterion is unmet (its output read), none an error (never run).
      // A sentinel file cannot show it: each contract's commands write to a private tree (issue 32).
      expect([r.outputs.unmet, r.outputs.errors]).toEqual(["12", "0"]);
      const [warning, ...more] = warnings(r);
      expect(more).toEqual([]);
      expect(warning).toMatch(
        /read-only.*9 of 12 blocking problems are annotated.*two-stage setup in the README/s,
      );
      // GitHub shows 10 error annotations per step: 9 at the contract, and the step's own error.
      const errorCommands = r.commands.filter((c) => c.command === "error");
      expect(errorCommands).toHaveLength(10);
      const annotations = errorCommands.filter((c) => c.properties.file);
      expect(annotations).toHaveLength(9);
      expect(errorCommands.at(-1)!.data).toBe(
        "contract-gate: 12 blocking of 12 criteria — 12 unmet",
      );
      for (const [i, a] of annotations.entries()) {
        expect(a.properties).toMatchObject({
          file: oraclePath("twelve"),
          line: String(lineOf(twelve, `${i + 1}. criterion ${i + 1}`)),
        });
      }
      expect(r.summary).toContain("Contract Gate: failure");
      expect(r.outputs.conclusion).toBe("failure");
      expect(r.outputs["check-run-id"]).toBe("");
      expect(checkRuns(gh)).toEqual([]);
      expect(comments(gh)).toEqual([]);
      // One write was tried and refused; nothing else was attempted.
      expect(writes(gh).map((q) => `${q.operationId} ${q.status}`)).toEqual(["checks/create 403"]);
      await finish(gh, expect);
    });

    it("fork PR under pull_request with a write token (private repository setting): check run and comment posted", async ({
      expect,
    }) => {
      const { gh, run } = await pr({ [oraclePath("twelve")]: twelve }, { fork: true });
      const r = await run();
      expect(r.code).toBe(1);
      expect([r.outputs.unmet, r.outputs.errors]).toEqual(["12", "0"]); // the commands ran
      expect(warnings(r)).toEqual([]);
      expect(checkRuns(gh)[0]!.conclusion).toBe("failure");
      expect(failures(gh)).toHaveLength(12);
      expect(comments(gh)).toHaveLength(1);
      expect(r.commands.filter((c) => c.command === "error" && c.properties.file)).toEqual([]);
      await finish(gh, expect);
    });

    it("a token without checks: write (403 on create): the fallback annotations, the permission named", async ({
      expect,
    }) => {
      const { gh, run } = await pr(
        { [oraclePath("twelve")]: twelve },
        {
          token: {
            kind: "installation",
            login: ACTIONS_LOGIN,
            permissions: { checks: "read", pull_requests: "read", issues: "read" },
          },
        },
      );
      const r = await run();
      expect(r.code).toBe(1);
      const w = warnings(r).join("\n");
      expect(w).toContain("checks: write");
      // Not a fork's pull request: the permission's fix, not the fork recipe.
      expect(w).not.toMatch(/two-stage setup/);
      expect(w).toContain("The verdict was not posted");
      expect(r.commands.filter((c) => c.command === "error" && c.properties.file)).toHaveLength(9);
      expect(r.commands.filter((c) => c.command === "error")).toHaveLength(10);
      expect(writes(gh).map((q) => `${q.operationId} ${q.status}`)).toEqual(["checks/create 403"]);
      expect(r.summary).toContain("Contract Gate: failure");
      await finish(gh, expect);
    });
  });

  describe("11. server errors on the check run are retried", () => {
    const unmet = oracleContract("unmet", [
      { title: "fails one", check: "echo nope", expect: "MARKER" },
      { title: "fails two", check: "echo nope", expect: "MARKER" },
    ]);

    it("500 on the completing update: retried, annotations sent once", async ({ expect }) => {
      const { gh, run } = await pr({ [oraclePath("unmet")]: unmet });
      gh.failNext({ method: "PATCH", path: "/repos/{owner}/{repo}/check-runs/{check_run_id}" });
      const r = await run();
      expect(r.code).toBe(1);
      const [cr] = checkRuns(gh);
      expect(checkRuns(gh)).toHaveLength(1);
      expect(cr!.status).toBe("completed");
      expect(cr!.conclusion).toBe("failure");
      expect(cr!.output.annotations).toHaveLength(2);
      expect(
        gh.requests.filter((q) => q.operationId === "checks/update").map((q) => q.status),
      ).toEqual([500, 200]);
      expect(warnings(r)).toEqual([]);
      await finish(gh, expect);
    });

    it("500 after the update took effect: not re-sent, no duplicate annotations", async ({
      expect,
    }) => {
      const { gh, run } = await pr({ [oraclePath("unmet")]: unmet });
      gh.failNext({
        method: "PATCH",
        path: "/repos/{owner}/{repo}/check-runs/{check_run_id}",
        afterEffect: true,
      });
      const r = await run();
      expect(r.code).toBe(1);
      const [cr] = checkRuns(gh);
      expect(cr!.conclusion).toBe("failure");
      expect(cr!.output.annotations).toHaveLength(2);
      await finish(gh, expect);
    });

    it("500 on the completing update of a green run: retried, completed success", async ({
      expect,
    }) => {
      const { gh, run } = await pr({ [GREEN_PATH]: GREEN });
      gh.failNext({ method: "PATCH", path: "/repos/{owner}/{repo}/check-runs/{check_run_id}" });
      const r = await run();
      expect(r.code).toBe(0);
      const [cr] = checkRuns(gh);
      expect(cr!.status).toBe("completed");
      expect(cr!.conclusion).toBe("success");
      await finish(gh, expect);
    });

    it("502 on create after the run was created: the run is reused, not duplicated", async ({
      expect,
    }) => {
      const { gh, run } = await pr({ [oraclePath("unmet")]: unmet });
      gh.failNext({
        method: "POST",
        path: "/repos/{owner}/{repo}/check-runs",
        status: 502,
        afterEffect: true,
      });
      const r = await run();
      expect(r.code).toBe(1);
      expect(checkRuns(gh)).toHaveLength(1);
      expect(checkRuns(gh)[0]!.conclusion).toBe("failure");
      expect(r.outputs["check-run-id"]).toBe(String(checkRuns(gh)[0]!.id));
      await finish(gh, expect);
    });
  });

  it("working-directory in a monorepo: contracts selected by repository paths, annotated with them", async ({
    expect,
  }) => {
    const unmet = oracleContract("unmet", [
      { title: "fails", check: "echo nope", expect: "MARKER" },
    ]);
    const { gh, run } = await pr(
      {
        [`packages/app/${oraclePath("unmet")}`]: unmet,
        // The same path outside the working directory is not the app's contract.
        [oraclePath("outside")]: GREEN,
      },
      { base: { "packages/app/src/greet.js": GREET_JS } },
    );
    const r = await run({ inputs: { "working-directory": "packages/app" } });
    expect(r.code).toBe(1);
    expect(r.outputs.contracts).toBe("1");
    expect(report(r).contracts.map((c) => c.path)).toEqual([oraclePath("unmet")]);
    expect(failures(gh).map((a) => `${a.path}:${a.start_line}`)).toEqual([
      `packages/app/${oraclePath("unmet")}:${lineOf(unmet, "1. fails")}`,
    ]);
    await finish(gh, expect);
  });

  it("over the API's 3,000-file cap: the changed contracts come from git diff", async ({
    expect,
  }) => {
    const bulk: Files = {};
    for (let i = 0; i < 3001; i++) bulk[`.a-bulk/f${String(i).padStart(4, "0")}.txt`] = `${i}\n`;
    // Sorted after the bulk files: beyond the listing's cap.
    const { repo, gh } = await pr({ ...bulk, [GREEN_PATH]: GREEN }, { merge: true });
    expect(repo.files).toHaveLength(3002);
    // actions/checkout's default: the merge commit at depth 1, so git must fetch base and head.
    const clone = await shallowClone(repo, "merge");
    const r = await runAction({ repo: clone, gh, event: "pull_request" });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain("Using git diff");
    expect(r.outputs.contracts).toBe("1");
    expect(report(r).contracts.map((c) => c.path)).toEqual([GREEN_PATH]);
    await finish(gh, expect);
  });

  it("push: every contract at the pushed commit, check run on it, no comment", async ({
    expect,
  }) => {
    const unmet = oracleContract("unmet", [
      { title: "fails", check: "echo nope", expect: "MARKER" },
    ]);
    const { repo, gh } = await pr(
      { [GREEN_PATH]: GREEN },
      { base: { [oraclePath("unmet")]: unmet } },
    );
    const r = await runAction({ repo, gh, event: "push" });
    expect(r.code).toBe(1);
    expect(r.outputs.contracts).toBe("2");
    const [cr] = checkRuns(gh);
    expect(cr!.headSha).toBe(repo.head);
    expect(cr!.conclusion).toBe("failure");
    expect(comments(gh)).toEqual([]);
    expect(
      gh.requests.filter((q) => q.path.includes("/pulls") || q.path.includes("/issues")),
    ).toEqual([]);
    await finish(gh, expect);
  });

  it("12. invalid inputs: one message listing every bad value, step fails, no API call", async ({
    expect,
  }) => {
    const { repo, gh } = await pr({ [GREEN_PATH]: GREEN });
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { scope: "bogus", "max-parallel": "0", comment: "sometimes" },
    });
    expect(r.code).toBe(1);
    const errs = errors(r);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toContain("Input 'scope' is 'bogus'. Allowed values: changed, all.");
    expect(errs[0]).toContain("Input 'max-parallel' is '0'. Expected a whole number from 1 to");
    expect(errs[0]).toContain(
      "Input 'comment' is 'sometimes'. Allowed values: always, on-failure, never.",
    );
    expect(gh.requests).toEqual([]);
    expect(r.outputs).toEqual({});
    await finish(gh, expect);
  });

  it("13. unsupported event (issues): an error naming the supported events", async ({ expect }) => {
    const { repo, gh } = await pr({ [GREEN_PATH]: GREEN });
    const r = await runAction({ repo, gh, event: "issues" });
    expect(r.code).toBe(1);
    const [err] = errors(r);
    expect(err).toContain("does not support the 'issues' event");
    expect(err).toContain(
      "Supported: pull_request, pull_request_review, pull_request_target, workflow_dispatch, workflow_run, push, merge_group.",
    );
    expect(gh.requests).toEqual([]);
    await finish(gh, expect);
  });

  it("the token never reaches executed commands", async ({ expect }) => {
    const { gh, run } = await pr({
      [oraclePath("env")]: oracleContract("env", [
        {
          title: "dumps env",
          // The check judges its own environment (its files stay in its private tree): it
          // prints ENV-CLEAN only if it sees the workflow context (the dump works) and none of
          // the token's, the inputs' or the runner's command-file names.
          check: `env; env > /tmp/d; grep -qx 'GITHUB_REPOSITORY=${REPO}' /tmp/d && ! grep -qE '^(GITHUB_TOKEN|ACTIONS_RUNTIME_TOKEN|INPUT_[^=]*|GITHUB_OUTPUT)=' /tmp/d && echo ENV-CLEAN`,
          expect: "ENV-CLEAN",
        },
      ]),
    });
    const r = await run({
      env: { GITHUB_TOKEN: ACTIONS_TOKEN, ACTIONS_RUNTIME_TOKEN: "runtime-secret-value" },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(statuses(r)).toEqual({ [`${oraclePath("env")}#1`]: "met" });
    for (const text of [checkRuns(gh)[0]!.output.text ?? "", comments(gh)[0]!.body, r.summary]) {
      expect(text).not.toContain(ACTIONS_TOKEN);
      expect(text).not.toContain("INPUT_GITHUB-TOKEN");
      expect(text).not.toMatch(/^INPUT_/m);
      expect(text).not.toContain("runtime-secret-value");
      expect(text).not.toContain("GITHUB_OUTPUT=");
    }
    await finish(gh, expect);
  });

  it("a fork's symlink to the runner's environment is refused by every file reader", async ({
    expect,
  }) => {
    const files = planContract(1, [
      {
        id: "T1",
        title: "Reads through a symlink",
        verification: [
          { type: "file-exists", path: "leak", must_contain: "INPUT_GITHUB-TOKEN=ghs_" },
          { type: "grep-match", path: "leak", pattern: "GITHUB-TOKEN", expect: "present" },
          {
            type: "behavioral",
            description: "cites the environment",
            evidence_required: [{ path: "leak", description: "the token line" }],
          },
        ],
      },
    ]);
    const evidence = {
      version: 1,
      phase: 1,
      citations: [{ task: "T1", check: 2, evidence: 0, path: "leak", line: 1, snippet: "INPUT_" }],
    };
    const { repo, gh } = await pr(
      {
        ...files,
        ".planning/phase-1-evidence.json": JSON.stringify(evidence),
        leak: { symlink: "/proc/self/environ" },
      },
      { fork: true },
    );
    const r = await runAction({ repo, gh, event: "pull_request_target", fork: true });
    expect(r.code).toBe(1);
    expect(statuses(r)).toEqual({
      ".planning/phase-1-contract.json#T1.1": "error",
      ".planning/phase-1-contract.json#T1.2": "error",
      ".planning/phase-1-contract.json#T1.3": "evidence-missing",
    });
    const [cr] = checkRuns(gh);
    expect(cr!.output.text).toContain("symlinks out of the repository are not followed");
    for (const text of [JSON.stringify(cr), JSON.stringify(comments(gh)), r.summary]) {
      expect(text).not.toContain(ACTIONS_TOKEN);
      expect(text).not.toContain("INPUT_GITHUB-TOKEN=");
    }
    await finish(gh, expect);
  });

  it("workflow commands printed by a command or written in a contract are never interpreted", async ({
    expect,
  }) => {
    const text = oracleContract("inject", [
      {
        title: "title ##[error]title-injected ::set-output name=x::y ::warning::title-injected",
        check:
          "echo '::set-output name=x::y'; echo '  ::error::output-injected'; echo 'x ##[add-mask]output-injected'; echo nope",
        expect: "MARKER",
      },
    ]);
    const { gh, run } = await pr({ [oraclePath("inject")]: text });
    // The same contract in a fork PR whose token is read-only: the fallback annotations.
    const fork = await pr({ [oraclePath("inject")]: text }, { fork: true, token: READ_ONLY_TOKEN });
    const [r, f] = await Promise.all([run(), fork.run()]);
    expect(r.code).toBe(1);
    expect(r.commands.filter((c) => /injected|set-output/.test(c.line))).toEqual([]);
    // The probes did reach the log, inside the stop-commands block.
    const stopped = stoppedLines(r.stdout).join("\n");
    expect(stopped).toContain("##[error]title-injected ::set-output name=x::y");
    expect(r.outputs.x).toBeUndefined();
    expect(Object.keys(r.outputs)).not.toContain("x");
    // The check run carries the command output, as text.
    expect(checkRuns(gh)[0]!.output.text).toContain("output-injected");

    // Fallback: the title travels escaped inside one error annotation, and starts nothing else.
    expect(f.code).toBe(1);
    const injected = f.commands.filter((c) => /injected|set-output/.test(c.line));
    expect(injected.map((c) => [c.command, c.properties.file, c.properties.title])).toEqual([
      [
        "error",
        oraclePath("inject"),
        "unmet: 1 title ##[error]title-injected ::set-output name=x::y ::warning::title-injected",
      ],
    ]);
    expect(f.commands.filter((c) => c.command === "set-output" || c.command === "warning")).toEqual(
      [expect.objectContaining({ command: "warning", data: expect.stringContaining("read-only") })],
    );
    expect(f.outputs.x).toBeUndefined();
    await finish(gh, expect);
    await finish(fork.gh, expect);
  });
});
