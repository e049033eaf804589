/**
 * The merge queue (`merge_group`) and globs that match nothing, end to end
 * through the bundled action (dist/index.js) against the GitHub stand-in, with
 * payloads from @octokit/webhooks-examples. Run `npm run bundle` after changing src/.
 */
import { readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { type RunnerEnv, resolveTarget } from "../src/action/event.js";
import { parseInputs } from "../src/action/inputs.js";
import { examplePayload } from "./github/payloads.js";
import type { StandIn } from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  finish,
  type GitRepo,
  makeRepo,
  NAME,
  OWNER,
  oracleContract,
  oraclePath,
  REPO,
  runAction,
  shallowClone,
  standInFor,
} from "./helpers/action-harness.js";

const GREEN_PATH = oraclePath("green");
const GREEN = oracleContract("green", [{ title: "prints OK", check: "echo OK", expect: "OK" }]);
const UNMET_PATH = oraclePath("unmet");
const UNMET = oracleContract("unmet", [{ title: "fails", check: "echo nope", expect: "MARKER" }]);
const BASE: Files = { "README.md": "# widgets\n" };

/** GitHub's merge_group example, pointed at the queue's base and head commits. */
function mergeGroupPayload(baseSha: string, headSha: string): unknown {
  const p = examplePayload("merge_group", "checks_requested", { owner: OWNER, repo: NAME });
  p.merge_group.base_sha = baseSha;
  p.merge_group.head_sha = headSha;
  return p;
}

function checkRuns(gh: StandIn) {
  return gh.repo(REPO).checkRuns;
}

function warnings(r: ActionResult): string[] {
  return r.commands.filter((c) => c.command === "warning").map((c) => c.data);
}

function errors(r: ActionResult): string[] {
  return r.commands.filter((c) => c.command === "error").map((c) => c.data);
}

interface Report {
  conclusion: string;
  contracts: Array<{ path: string }>;
  integrity?: { applies: boolean; reason?: string };
}

function report(r: ActionResult): Report {
  return JSON.parse(readFileSync(r.outputs.report!, "utf8")) as Report;
}

/** The queue's commit: main's tip with the queued PR merged (GitHub's merge commit). */
async function queued(head: Files, base: Files = {}): Promise<{ repo: GitRepo; gh: StandIn }> {
  const repo = await makeRepo({ base: { ...BASE, ...base }, head, merge: true, checkout: "merge" });
  return { repo, gh: await standInFor(repo) };
}

function runQueue(repo: GitRepo, gh: StandIn, dir?: GitRepo) {
  return runAction({
    repo: dir ?? repo,
    gh,
    event: "merge_group",
    payload: mergeGroupPayload(repo.base, repo.merge!),
    sha: repo.merge!,
  });
}

const NO_MATCH =
  "The globs `nowhere/**/*.json` match no file in the repository — check the `contracts` input.";

/** The first line a reader sees: HTML comments (the sticky marker) are invisible. */
function firstVisibleLine(markdown: string): string {
  return markdown.split("\n").find((l) => l.trim() !== "" && !l.startsWith("<!--")) ?? "";
}

describe.concurrent("merge_group and unmatched globs (dist/index.js)", () => {
  it("merge_group: only the contracts changed in the queue, check run on head_sha, no PR API, no base comparison", async ({
    expect,
  }) => {
    // The unmet contract is on main already: not changed by the queue, so not gated.
    const { repo, gh } = await queued({ [GREEN_PATH]: GREEN }, { [UNMET_PATH]: UNMET });
    // actions/checkout's default on merge_group: the queue's commit at depth 1 (git must deepen).
    const clone = await shallowClone(repo, "merge");
    const r = await runQueue(repo, gh, clone);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(errors(r)).toEqual([]);
    const runs = checkRuns(gh);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.headSha).toBe(repo.merge);
    expect(runs[0]!.conclusion).toBe("success");
    expect(r.outputs.contracts).toBe("1");
    const json = report(r);
    expect(json.contracts.map((c) => c.path)).toEqual([GREEN_PATH]);
    expect(json.integrity?.applies).toBe(false);
    expect(json.integrity?.reason).toContain("merge_group");
    expect(gh.repo(REPO).comments).toEqual([]);
    expect(
      gh.requests.filter((q) => q.path.includes("/pulls") || q.path.includes("/issues")),
    ).toEqual([]);
    await finish(gh, expect);
  });

  it("merge_group control: a queued change with an unmet contract fails on head_sha", async ({
    expect,
  }) => {
    const { repo, gh } = await queued({ [UNMET_PATH]: UNMET }, { [GREEN_PATH]: GREEN });
    const r = await runQueue(repo, gh);
    expect(r.code).toBe(1);
    const runs = checkRuns(gh);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.headSha).toBe(repo.merge);
    expect(runs[0]!.conclusion).toBe("failure");
    expect(report(r).contracts.map((c) => c.path)).toEqual([UNMET_PATH]);
    await finish(gh, expect);
  });

  it("merge_group: a checkout that is not the queue's commit is refused before any API call", async ({
    expect,
  }) => {
    const { repo, gh } = await queued({ [GREEN_PATH]: GREEN });
    await repo.checkout(repo.base);
    const r = await runQueue(repo, gh);
    expect(r.code).toBe(1);
    expect(errors(r).join("\n")).toContain(`is not the merge group's head ${repo.merge}`);
    expect(gh.requests).toEqual([]);
    await finish(gh, expect);
  });

  it("globs that match no file: said first in check run, comment and log; neutral", async ({
    expect,
  }) => {
    // No file that looks like a contract: a contract the globs miss is a misconfiguration (below).
    const { repo, gh } = await queued({ "src/a.js": "x\n" });
    await repo.checkout(repo.head);
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { contracts: "nowhere/**/*.json" },
    });
    expect(r.code, r.stdout).toBe(0);
    const [cr] = checkRuns(gh);
    expect(cr!.conclusion).toBe("neutral");
    expect(cr!.output.title).toBe(NO_MATCH);
    expect(firstVisibleLine(cr!.output.summary!)).toBe(`**${NO_MATCH}**`);
    const [comment] = gh.repo(REPO).comments;
    expect(firstVisibleLine(comment!.body)).toBe(`**${NO_MATCH}**`);
    expect(firstVisibleLine(r.summary)).toBe(`**${NO_MATCH}**`);
    expect(warnings(r)[0]).toBe(`contract-gate: ${NO_MATCH}`);
    // The log says it before anything about the contracts in scope.
    expect(r.stdout.indexOf(NO_MATCH)).toBeLessThan(r.stdout.indexOf("contracts are touched"));
    expect(r.outputs.conclusion).toBe("neutral");
    await finish(gh, expect);
  });

  it("globs that match no file while a contract exists: failure naming it, whatever if-no-contracts says", async ({
    expect,
  }) => {
    const { repo, gh } = await queued({ [GREEN_PATH]: GREEN });
    await repo.checkout(repo.head);
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { contracts: "nowhere/**/*.json" },
    });
    expect(r.code).toBe(1);
    const [cr] = checkRuns(gh);
    expect(cr!.conclusion).toBe("failure");
    expect(cr!.output.title).toContain("these files look like contracts");
    expect(cr!.output.title).toContain(GREEN_PATH);
    expect(firstVisibleLine(cr!.output.summary!)).toBe(`**${cr!.output.title}**`);
    expect(r.outputs.conclusion).toBe("failure");
    await finish(gh, expect);
  });

  it("globs that match no file with if-no-contracts: failure → failure", async ({ expect }) => {
    const { repo, gh } = await queued({ "src/a.js": "x\n" });
    await repo.checkout(repo.head);
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { contracts: "nowhere/**/*.json", "if-no-contracts": "failure" },
    });
    expect(r.code).toBe(1);
    const [cr] = checkRuns(gh);
    expect(cr!.conclusion).toBe("failure");
    expect(cr!.output.title).toBe(NO_MATCH);
    expect(r.outputs.conclusion).toBe("failure");
    await finish(gh, expect);
  });

  it("control: globs that match files, a PR touching none → the ordinary neutral, no such message", async ({
    expect,
  }) => {
    // The contract is on main; the PR changes only the README.
    const { repo, gh } = await queued({ "README.md": "# widgets!\n" }, { [GREEN_PATH]: GREEN });
    await repo.checkout(repo.head);
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { "if-no-contracts": "failure" },
    });
    expect(r.code, r.stdout).toBe(0);
    const [cr] = checkRuns(gh);
    expect(cr!.conclusion).toBe("neutral");
    expect(cr!.output.title).toBe("No contracts in scope");
    expect(JSON.stringify(gh.repo(REPO).comments)).not.toContain("match no file");
    expect(r.stdout).not.toContain("match no file");
    await finish(gh, expect);
  });
});

describe("merge_group payloads (resolveTarget), fail closed", () => {
  const runner: RunnerEnv = {
    eventName: "merge_group",
    eventPath: undefined,
    repository: REPO,
    sha: "f".repeat(40),
    runId: "1",
    runAttempt: "1",
    serverUrl: "https://github.com",
    apiUrl: "https://api.github.com",
    runnerTemp: undefined,
    workspace: undefined,
  };
  const base = "a".repeat(40);
  const head = "b".repeat(40);

  it("checks_requested → the queue's head, changed since its base", ({ expect }) => {
    expect(resolveTarget(runner, mergeGroupPayload(base, head), { prNumber: undefined })).toEqual({
      kind: "commit",
      sha: head,
      changedSince: base,
      event: "merge_group",
    });
  });

  it("a payload without both shas, or another action, is refused", ({ expect }) => {
    const noBase = mergeGroupPayload("", head);
    expect(() => resolveTarget(runner, noBase, { prNumber: undefined })).toThrow(
      "no merge_group.base_sha and head_sha",
    );
    const destroyed = mergeGroupPayload(base, head) as { action: string };
    destroyed.action = "destroyed";
    expect(() => resolveTarget(runner, destroyed, { prNumber: undefined })).toThrow(
      "not 'destroyed'",
    );
  });
});

describe("if-no-contracts input", () => {
  const get = (values: Record<string, string>) => (name: string) =>
    values[name] ?? (name === "github-token" ? "t" : "");

  it("defaults to neutral, takes failure, refuses anything else", ({ expect }) => {
    const ok = (v: Record<string, string>) => {
      const parsed = parseInputs(get(v), { GITHUB_WORKSPACE: "/tmp" });
      return parsed.ok ? parsed.settings.ifNoContracts : parsed.errors;
    };
    expect(ok({})).toBe("neutral");
    expect(ok({ "if-no-contracts": "failure" })).toBe("failure");
    expect(ok({ "if-no-contracts": "fail" })).toEqual([
      "Input 'if-no-contracts' is 'fail'. Allowed values: neutral, failure.",
    ]);
  });
});
