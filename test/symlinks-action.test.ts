import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ActionIO, runAction } from "../src/action/main.js";
import type { ChangedFile, GitHubApi } from "../src/github/types.js";
import { examplePayload } from "./github/payloads.js";
import { type Files, makeRepo, scratch } from "./helpers/action-harness.js";

/**
 * The action's PR selection meets a contract the PR replaced by a symlink:
 * GitHub lists it as modified, and the gate must gate it (refuse it), not
 * drop it as if it were gone. In process, over a real repository.
 */
const FIXTURE = join(import.meta.dirname, "fixtures/files/symlinks");
const CONTRACT = ".planning/phase-1-contract.json";
const fixture = (rel: string) => readFileSync(join(FIXTURE, rel), "utf8");

const BASE: Files = {
  [CONTRACT]: fixture(CONTRACT),
  ".planning/phase-1-plan.md": fixture(".planning/phase-1-plan.md"),
  ".planning/phase-1-evidence.json": fixture(".planning/phase-1-evidence.json"),
  "docs/lenient-contract.json": fixture("docs/lenient-contract.json"),
  // The README lacks its usage section: the real contract blocks.
  "README.md": "# Tool\n\nNo usage yet.\n",
};

async function gate(head: Files) {
  const repo = await makeRepo({ base: BASE, head });
  const changed: ChangedFile[] = repo.files.map((f) => ({
    path: f.filename,
    status: f.status as ChangedFile["status"],
    ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
  }));
  const temp = scratch();
  const eventPath = join(temp, "event.json");
  const payload = examplePayload("pull_request", "synchronize", {
    owner: "acme",
    repo: "widgets",
    number: 7,
    headSha: repo.head,
    baseSha: repo.base,
    fork: false,
  });
  payload.pull_request.changed_files = changed.length;
  writeFileSync(eventPath, JSON.stringify(payload));
  const outputs: Record<string, string> = {};
  const log: string[] = [];
  const io: ActionIO = {
    getInput: (n) => (n === "github-token" ? "tok" : ""),
    setOutput: (n, v) => {
      outputs[n] = String(v);
    },
    setFailed: (m) => log.push(`failed: ${m}`),
    info: (m) => log.push(m),
    warning: (m) => log.push(`warning: ${m}`),
    errorAt: () => {},
    setSecret: () => {},
    writeSummary: async () => {},
    untrusted: (t) => log.push(t),
    saveState: () => {},
  };
  const unused = async () => {
    throw new Error("not used");
  };
  const api: GitHubApi = {
    getPull: unused,
    listPullFiles: async () => changed,
    startCheckRun: async () => ({ id: 1, htmlUrl: "https://github.com/acme/widgets/runs/1" }),
    completeCheckRun: async () => {},
    findStickyComment: async () => undefined,
    upsertStickyComment: async () => ({
      action: "created",
      url: "https://c",
      deletedDuplicates: 0,
    }),
  };
  await runAction({
    io,
    env: {
      PATH: process.env.PATH,
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_WORKSPACE: repo.dir,
      RUNNER_TEMP: temp,
    },
    github: () => api,
  });
  return { outputs, log: log.join("\n"), changed };
}

describe("action: a PR that replaces a contract by a symlink", () => {
  it("is gated and refused; the same content as a regular file would pass", async () => {
    // Positive control: the lenient content committed in place of the contract turns the gate green.
    const copied = await gate({ [CONTRACT]: fixture("docs/lenient-contract.json") });
    expect(copied.outputs.conclusion).toBe("success");

    const linked = await gate({ [CONTRACT]: { symlink: "../docs/lenient-contract.json" } });
    expect(linked.changed).toEqual([{ path: CONTRACT, status: "modified" }]);
    expect(linked.outputs.conclusion).toBe("failure");
    expect(linked.log).toContain("1 of 1 contracts are touched");
    expect(linked.log).toContain(`${CONTRACT} is a symlink to docs/lenient-contract.json`);
  });
});
