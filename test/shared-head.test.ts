import { describe, expect, it } from "vitest";
import { StopRun } from "../src/action/io.js";
import {
  type GatedPull,
  sharedHeadFinding,
  sharedHeadFindings,
  siblingsWithOtherBase,
} from "../src/action/shared-head.js";
import { GitHubApiError, type OpenPull, type PullRequestInfo } from "../src/github/types.js";
import type { IntegrityReport } from "../src/integrity/types.js";
import { integrityTitle } from "../src/report/github-text.js";
import { integrityMarkdown, integrityTerminal } from "../src/report/integrity.js";
import { plain } from "../src/report/paint.js";
import { unacknowledged } from "../src/verdict.js";

const HEAD = "a".repeat(40);
const OTHER = "b".repeat(40);
const REPO = "acme/widgets";

const gated: GatedPull = { number: 7, headSha: HEAD, baseRef: "main", baseRepo: REPO };

function pull(number: number, o: Partial<OpenPull> = {}): OpenPull {
  return {
    number,
    headSha: HEAD,
    headRepo: REPO,
    headRef: "feature",
    baseRef: "main",
    baseRepo: REPO,
    htmlUrl: `https://github.com/${REPO}/pull/${number}`,
    ...o,
  };
}

describe("siblingsWithOtherBase", () => {
  it("keeps open PRs on the gated head with another base branch or repository", () => {
    const open = [
      pull(7, { baseRef: "elsewhere" }), // the gated PR itself never counts
      pull(8, { baseRef: "release" }),
      pull(9, { baseRepo: "upstream/widgets" }),
      pull(10), // a duplicate: same head, same base
      pull(11, { headSha: OTHER, baseRef: "release" }), // another commit
      pull(12, { baseRepo: "ACME/Widgets" }), // GitHub names are case-insensitive
      pull(13, { headRepo: "someone/widgets", headRef: "other", baseRef: "release" }),
    ];
    expect(siblingsWithOtherBase(gated, open).map((p) => p.number)).toEqual([8, 9, 13]);
  });

  it("finds none among duplicates and other commits", () => {
    expect(
      siblingsWithOtherBase(gated, [pull(8), pull(9, { headSha: OTHER, baseRef: "x" })]),
    ).toEqual([]);
  });
});

describe("sharedHeadFinding", () => {
  it("is blocking, names each sibling with its head and base, and says how to fix", () => {
    const f = sharedHeadFinding(
      gated,
      [pull(8, { baseRef: "release" }), pull(9, { headRepo: null, baseRef: "old" })],
      ".planning/c.json",
    );
    expect(f).toMatchObject({
      code: "shared-head-other-base",
      blocking: true,
      kind: "pull-request",
      path: ".planning/c.json",
      line: 1,
    });
    expect(f.message).toContain(`#8 (${REPO}:feature into ${REPO}:release`);
    expect(f.message).toContain("#9 (deleted fork:feature into");
    expect(f.message).toContain(`this PR's ${REPO}:main`);
    expect(f.message).toContain("Close one of them, or push a separate commit for each.");
  });
});

describe("sharedHeadFindings", () => {
  const info = (o: Partial<PullRequestInfo>): PullRequestInfo => ({
    number: 7,
    headSha: HEAD,
    headRef: "feature",
    baseSha: OTHER,
    baseRef: "main",
    headRepo: REPO,
    baseRepo: REPO,
    changedFiles: 1,
    state: "closed",
    htmlUrl: "",
    ...o,
  });

  it("reads nothing more when no other open PR has the head", async () => {
    const calls: string[] = [];
    const api = {
      listOpenPulls: async () => [pull(7), pull(8, { headSha: OTHER, baseRef: "x" })],
      getPull: async () => {
        calls.push("getPull");
        return info({});
      },
    };
    expect(await sharedHeadFindings(api, { number: 7, headSha: HEAD }, "c")).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("takes the gated PR's base from the list, or from pulls.get when it is closed", async () => {
    const open = [pull(7, { baseRef: "release" }), pull(8)];
    const listed = await sharedHeadFindings(
      { listOpenPulls: async () => open, getPull: async () => info({}) },
      { number: 7, headSha: HEAD },
      "c",
    );
    expect(listed.map((f) => f.code)).toEqual(["shared-head-other-base"]);
    // Closed (not listed), into release: a re-run would still post on the shared commit.
    const closed = await sharedHeadFindings(
      { listOpenPulls: async () => [pull(8)], getPull: async () => info({ baseRef: "release" }) },
      { number: 7, headSha: HEAD },
      "c",
    );
    expect(closed).toHaveLength(1);
    // Control: closed but into the same base as the open one.
    const same = await sharedHeadFindings(
      { listOpenPulls: async () => [pull(8)], getPull: async () => info({}) },
      { number: 7, headSha: HEAD },
      "c",
    );
    expect(same).toEqual([]);
  });

  it("fails closed when the list or the gated PR cannot be read", async () => {
    const refused = new GitHubApiError(
      "GitHub refused (403)",
      403,
      "GET /repos/acme/widgets/pulls",
    );
    const failing = sharedHeadFindings(
      {
        listOpenPulls: async () => {
          throw refused;
        },
        getPull: async () => info({}),
      },
      { number: 7, headSha: HEAD },
      "c",
    );
    await expect(failing).rejects.toBeInstanceOf(StopRun);
    await expect(failing).rejects.toThrow(
      /cannot list the open pull requests, so the gate cannot rule out .*: GitHub refused \(403\)/,
    );
    const unreadable = sharedHeadFindings(
      {
        listOpenPulls: async () => [pull(8)],
        getPull: async () => {
          throw refused;
        },
      },
      { number: 7, headSha: HEAD },
      "c",
    );
    await expect(unreadable).rejects.toThrow(/cannot read pull request #7/);
  });
});

describe("surfaces of a shared head", () => {
  const finding = sharedHeadFinding(gated, [pull(8, { baseRef: "release" })], "c.json");
  const report: IntegrityReport = {
    applies: true,
    base: OTHER,
    findings: [finding],
    approvalNote: "No approval counts while another open pull request shares the head commit.",
  };

  it("blocks, and no surface offers an approval as the fix", () => {
    expect(unacknowledged(report)).toEqual([finding]);
    expect(integrityTitle("No contracts in scope", report)).toBe(
      "Head commit shared with an open PR into another base",
    );
    const md = integrityMarkdown(report, 60_000);
    expect(md).toContain("No approval counts");
    expect(md).not.toContain("They stop blocking once");
    const term = integrityTerminal(report, plain);
    expect(term).toContain("No approval counts");
    expect(term).not.toContain("They stop blocking once");
  });

  it("control: a contract change alone still says how an approval unblocks it", () => {
    const alone: IntegrityReport = {
      ...report,
      findings: [{ ...finding, code: "in-place-edit", kind: "plan-contract" }],
      approvalNote: undefined,
    };
    expect(integrityTitle("No contracts in scope", alone)).toBe(
      "1 blocking contract change (need approval)",
    );
    expect(integrityMarkdown(alone, 60_000)).toContain("They stop blocking once");
  });
});
