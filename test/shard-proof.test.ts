/**
 * src/shard/proof.ts, pure: the merge takes a spec's test runs from the leg
 * that ran it only when the leg proved against the merge's own base with the
 * same requirement-proof; otherwise that spec is a failing row in place of
 * its results (the leg's rows, decided against another base, are dropped).
 */
import { describe, expect, it } from "vitest";
import type { SpecProof } from "../src/proof/types.js";
import { scopeDigest } from "../src/shard/assign.js";
import { type FoundReport, mergeShardReports } from "../src/shard/merge.js";
import { withShardProofs } from "../src/shard/proof.js";
import { parseShardReport } from "../src/shard/report.js";
import { CRITERION_STATUSES } from "../src/verdict.js";

const HEAD = "a".repeat(40);
const BASE = "b".repeat(40);
const SPEC = "specs/001-x/spec.md";
const SCOPE = ["a.md", SPEC];

const test = {
  requirement: "FR-001",
  file: "tests/x.test.ts",
  name: "x",
  mapLocation: { path: SPEC, line: 30 },
  changed: true,
  base: "passed",
  head: "passed",
  verdict: "passes-at-base",
  reason: "proves nothing: passes on the code before this change",
};

function leg(proof: Record<string, unknown> | undefined): FoundReport {
  const r = {
    schemaVersion: 1,
    conclusion: "failure",
    counts: Object.fromEntries(
      [...CRITERION_STATUSES, "criteria", "blocking", "contracts"].map((k) => [k, 0]),
    ),
    contracts: SCOPE.map((path) => ({
      path,
      kind: path === SPEC ? "spec" : "oracle-contract",
      verdict: path === SPEC ? "fail" : "pass",
      problems: [],
      criteria: [],
      ...(path === SPEC && proof && { proof }),
    })),
    shard: {
      index: 1,
      total: 1,
      scopeDigest: scopeDigest(SCOPE),
      headSha: HEAD,
      runId: "5",
      runAttempt: 1,
      gateVersion: "1.0.0",
    },
  };
  const file = "contract-gate-shard-1-of-1.json";
  return { file, read: parseShardReport(file, Buffer.from(JSON.stringify(r))) };
}

const proofJson = (over: Record<string, unknown> = {}) => ({
  enabled: true,
  base: BASE,
  runs: [],
  tests: [test],
  tamper: [],
  guardrails: [],
  guardrailRules: [],
  ...over,
});

/** The merge's own proof of the spec: the diff readings, no test run. */
const own: SpecProof = {
  contract: SPEC,
  enabled: true,
  base: BASE,
  runs: [],
  tests: [],
  tamper: [],
  guardrails: [],
  guardrailRules: [],
  unproved: "no test run reported on this spec's mapped tests: they stay awaiting proof",
};

function merge(found: FoundReport) {
  const merged = mergeShardReports(
    [found],
    { scope: SCOPE, headSha: HEAD, gateVersion: "1.0.0", runId: "5" },
    "dir",
  );
  expect(merged.failures).toBe(0);
  return withShardProofs(merged, [found], [own]);
}

describe("withShardProofs", () => {
  it("takes the leg's test runs when it proved against this merge's base", () => {
    const r = merge(leg(proofJson()));
    expect(r.failures).toBe(0);
    expect(r.outcomes.map((o) => o.path)).toEqual(SCOPE);
    expect(r.proof[0]!.tests).toMatchObject([{ verdict: "passes-at-base" }]);
    expect(r.proof[0]!.unproved).toBeUndefined();
  });

  it.each([
    ["another base", proofJson({ base: "c".repeat(40) }), "proved its mapped tests against cccc"],
    ["no base", proofJson({ base: undefined }), "against no base"],
    ["the proof off", proofJson({ enabled: false }), "ran with requirement-proof off"],
    ["no proof at all", undefined, "without its requirement proof"],
  ])("a leg that proved with %s is a failing row in place of the spec", (_, proof, says) => {
    const r = merge(leg(proof));
    expect(r.failures).toBe(1);
    const row = r.outcomes[0]!;
    expect(row).toMatchObject({ path: SPEC, verdict: "invalid", criteria: [] });
    expect(row.problems[0]!.code).toBe("shard-report-mismatch");
    expect(row.problems[0]!.message).toContain(says);
    // The leg's own rows for the spec are gone; the other contract stays.
    expect(r.outcomes.filter((o) => o.path === SPEC)).toHaveLength(1);
    expect(r.outcomes.map((o) => o.path)).toEqual([SPEC, "a.md"]);
    expect(r.proof[0]!.tests).toEqual([]);
  });
});
