/**
 * What the main step leaves for the post step when creating the check run fails
 * (src/action/check-run.ts): a refusal created nothing, so no lookup is asked
 * for; after a server error the run may exist unseen, so the intent stays.
 */
import { describe, expect, it } from "vitest";
import { ApiStops } from "../src/action/api-stops.js";
import { PENDING_CHECK_RUN, startCheckRun } from "../src/action/check-run.js";
import type { ActionIO } from "../src/action/io.js";
import { type GitHubApi, GitHubApiError } from "../src/github/types.js";

async function stateAfter(error: Error): Promise<string | undefined> {
  const state = new Map<string, string>();
  const io = {
    saveState: (k: string, v: string) => state.set(k, v),
    warning: () => {},
    info: () => {},
  } as unknown as ActionIO;
  const api = {
    startCheckRun: () => Promise.reject(error),
  } as unknown as GitHubApi;
  const run = await startCheckRun({
    api,
    io,
    runner: {
      eventName: "pull_request",
      eventPath: undefined,
      repository: "o/r",
      sha: "a".repeat(40),
      runId: "7",
      runAttempt: "1",
      serverUrl: "https://github.com",
      apiUrl: "https://api.github.com",
      runnerTemp: undefined,
      workspace: undefined,
    },
    checkName: "Contract Gate",
    headSha: "a".repeat(40),
    stops: new ApiStops(),
  });
  expect(run).toBeUndefined();
  return state.get(PENDING_CHECK_RUN);
}

describe("the pending check run when its creation fails", () => {
  it("a refusal (403: a read-only token) clears it: nothing was created", async () => {
    expect(await stateAfter(new GitHubApiError("forbidden", 403, "POST /check-runs"))).toBe("");
  });

  it("a server error keeps it, so the post step looks for a run created unseen", async () => {
    const kept = await stateAfter(new GitHubApiError("bad gateway", 502, "POST /check-runs"));
    expect(JSON.parse(kept ?? "{}")).toMatchObject({
      name: "Contract Gate",
      externalId: "7-1-Contract Gate",
    });
    // No answer at all (a lost connection) is the same.
    expect(
      await stateAfter(new GitHubApiError("socket hang up", undefined, "POST /check-runs")),
    ).not.toBe("");
  });
});
