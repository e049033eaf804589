import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FOLDER_ITSELF, ISOLATION, TREES_UNNAMED } from "../src/run/contract-trees.js";
import { scopeDigest } from "../src/shard/assign.js";
import { type FoundReport, mergeShardReports } from "../src/shard/merge.js";
import {
  outcomesOf,
  parseShardReport,
  ShardReportSchema,
  shardOfFileName,
} from "../src/shard/report.js";
import { CRITERION_STATUSES } from "../src/verdict.js";
import type { Json } from "./helpers/shard-repo.js";

const HEAD = "a".repeat(40);
const SCOPE = ["a.md", "b.md", "c.md"];

/** A minimal valid shard report holding `paths`, each one passing contract. */
function report(index: number, total: number, paths: string[], over: Record<string, unknown> = {}) {
  return {
    schemaVersion: 1,
    conclusion: "success",
    counts: Object.fromEntries(
      [...CRITERION_STATUSES, "criteria", "blocking", "contracts"].map((k) => [k, 0]),
    ),
    contracts: paths.map((path) => ({
      path,
      kind: "oracle-contract",
      verdict: "pass",
      problems: [],
      criteria: [
        {
          id: "1",
          title: "holds",
          group: null,
          status: "met",
          blocking: false,
          reason: "exit 0",
          location: { path, line: 9 },
          checks: [],
        },
      ],
    })),
    shard: {
      index,
      total,
      scopeDigest: scopeDigest(SCOPE),
      headSha: HEAD,
      runId: "5",
      runAttempt: 1,
      gateVersion: "1.0.0",
      ...over,
    },
  };
}

const found = (r: ReturnType<typeof report>): FoundReport => {
  const file = `contract-gate-shard-${r.shard.index}-of-${r.shard.total}.json`;
  return { file, read: parseShardReport(file, Buffer.from(JSON.stringify(r))) };
};

const EXPECT = { scope: SCOPE, headSha: HEAD, gateVersion: "1.0.0", runId: "5" };

const codes = (m: ReturnType<typeof mergeShardReports>) =>
  m.outcomes.flatMap((o) => o.problems.map((p) => p.code));

describe("parseShardReport", () => {
  it("reads a valid report, and names what is wrong with a bad one (never throws)", () => {
    const good = Buffer.from(JSON.stringify(report(1, 2, ["a.md"])));
    expect(parseShardReport("contract-gate-shard-1-of-2.json", good).ok).toBe(true);
    const cases: [string, Uint8Array, string][] = [
      ["contract-gate-shard-2-of-2.json", good, "its name says shard 2 of 2"],
      ["x.json", good.subarray(0, 50), "truncated"],
      ["x.json", Buffer.from([0x7b, 0xff, 0x7d]), "not UTF-8"],
      ["x.json", Buffer.from("{}"), "not a shard report"],
      ["x.json", Buffer.from(JSON.stringify(report(0, 2, []))), "shard.index"],
    ];
    for (const [name, bytes, why] of cases) {
      const r = parseShardReport(name, bytes);
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.why).toContain(why);
    }
  });

  it("validates through zod's compiled fast path, accepting and refusing what the runtime parser does", () => {
    // z.compile falls back to the runtime parser silently; strict says the fast path is really built.
    expect(() => z.compile(ShardReportSchema, { strict: true })).not.toThrow();
    const base = () => JSON.parse(JSON.stringify(report(1, 2, ["a.md"])));
    const docs: unknown[] = [base()];
    const edits: ((d: Json) => void)[] = [
      (d) => {
        d.extra = 1;
        d.contracts[0].criteria[0].unknown = "x";
        d.sandbox = { mode: "off", mechanism: "none", cgroup: "none", memoryMb: 0, injected: 1 };
      },
      (d) => {
        d.shard.index = 257;
      },
      (d) => {
        d.shard.headSha = "A".repeat(40);
      },
      (d) => {
        d.contracts[0].criteria[0].location.line = 1.5;
      },
      (d) => {
        d.contracts[0].criteria[0].status = "passed";
      },
      (d) => {
        d.contracts[0].problems = [{ code: "no-such-code", severity: "error" }];
      },
      (d) => {
        delete d.contracts[0].criteria[0].checks;
      },
      (d) => {
        d.contracts[0].criteria[0].checks = [{ type: "oracle", result: "pass", reason: 1 }];
      },
      (d) => {
        d.contracts = {};
      },
    ];
    for (const edit of edits) {
      const d = base();
      edit(d);
      docs.push(d);
    }
    for (const d of docs) {
      const read = parseShardReport(
        "contract-gate-shard-1-of-2.json",
        Buffer.from(JSON.stringify(d)),
      );
      const runtime = ShardReportSchema.safeParse(d);
      expect(read.ok).toBe(runtime.success);
      if (read.ok && runtime.success) {
        const { contracts, ...head } = runtime.data;
        const proofs = new Map(contracts.flatMap((c) => (c.proof ? [[c.path, c.proof]] : [])));
        expect(read.report).toStrictEqual({ ...head, outcomes: outcomesOf(contracts), proofs });
      }
      if (!read.ok && !runtime.success) {
        const issue = runtime.error.issues[0]!;
        expect(read.why).toBe(
          `it is not a shard report: ${issue.path.join(".") || "the top level"}: ${issue.message}`,
        );
      }
    }
    expect(docs.filter((d) => ShardReportSchema.safeParse(d).success)).toHaveLength(2);
  });

  it("decodes a report as strict UTF-8 does: non-ASCII text and a BOM read, malformed bytes refused", () => {
    const doc = report(1, 2, ["a.md"]);
    doc.contracts[0]!.criteria[0]!.title = "héllo 😀 — ü";
    const json = Buffer.from(JSON.stringify(doc));
    const name = "contract-gate-shard-1-of-2.json";
    const read = parseShardReport(name, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]));
    expect(read.ok && read.report.outcomes[0]!.criteria[0]!.title).toBe("héllo 😀 — ü");
    const at = json.indexOf("héllo");
    // A lone surrogate, an overlong "/", a cut 4-byte sequence, a byte no UTF-8 holds.
    for (const bad of [[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf0, 0x9f, 0x98], [0xfe]]) {
      const bytes = Buffer.concat([json.subarray(0, at), Buffer.from(bad), json.subarray(at)]);
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
      const r = parseShardReport(name, bytes);
      expect(r.ok ? "read" : r.why).toBe("it is not UTF-8 text");
    }
  });

  it("knows a shard report's name", () => {
    expect(shardOfFileName("contract-gate-shard-3-of-4.json")).toEqual({ index: 3, total: 4 });
    expect(shardOfFileName("contract-gate-shard-03-of-4.json")).toBeUndefined();
    expect(shardOfFileName("report.json")).toBeUndefined();
  });
});

describe("mergeShardReports", () => {
  it("merges a complete set in scope order, with no failing row", () => {
    const m = mergeShardReports(
      [found(report(2, 2, ["b.md"])), found(report(1, 2, ["a.md", "c.md"]))],
      EXPECT,
      "dir",
    );
    expect(m.failures).toBe(0);
    expect(m.outcomes.map((o) => o.path)).toEqual(SCOPE);
    expect(m.total).toBe(2);
  });

  it("outside Actions (no run id) does not compare runs; inside it does", () => {
    const set = [found(report(1, 1, SCOPE, { runId: null }))];
    expect(mergeShardReports(set, { ...EXPECT, runId: null }, "d").failures).toBe(0);
    expect(codes(mergeShardReports(set, EXPECT, "d"))).toEqual(["shard-report-mismatch"]);
  });

  it("a shard count the others do not share is a mismatch, not a second merge", () => {
    const m = mergeShardReports(
      [
        found(report(1, 2, ["a.md"])),
        found(report(2, 2, ["b.md", "c.md"])),
        found(report(1, 3, ["a.md"])),
      ],
      EXPECT,
      "d",
    );
    expect(codes(m)).toEqual(["shard-report-mismatch"]);
    expect(m.outcomes.filter((o) => o.verdict === "pass")).toHaveLength(3);
  });

  it("a refused report's contracts are not used, and its shard is then missing", () => {
    const m = mergeShardReports(
      [
        found(report(1, 2, ["a.md"])),
        found(report(2, 2, ["b.md", "c.md"], { headSha: "b".repeat(40) })),
      ],
      EXPECT,
      "d",
    );
    expect(codes(m).sort()).toEqual(["shard-report-mismatch", "shard-report-missing"]);
    expect(m.outcomes.some((o) => o.path === "b.md")).toBe(false);
  });
});

describe("mergeShardReports: the legs' isolation (issue 32)", () => {
  const boundary = { mode: "auto", mechanism: "namespaces (root)", cgroup: "v2", memoryMb: 512 };
  const withSandbox = (index: number, paths: string[], sandbox: Record<string, unknown>) =>
    found({ ...report(index, 2, paths), sandbox } as ReturnType<typeof report>);
  const merged = (one: Record<string, unknown>, two: Record<string, unknown>) =>
    mergeShardReports(
      [withSandbox(1, ["a.md"], one), withSandbox(2, ["b.md", "c.md"], two)],
      EXPECT,
      "d",
    ).sandbox;

  it("shows the weakest trees any leg reported, not the trees of the leg with the weakest boundary", () => {
    // Leg 2 is the weaker boundary (a warning) yet kept contracts apart; leg 1's commands shared a folder.
    const m = merged(
      { ...boundary, trees: FOLDER_ITSELF },
      { ...boundary, warning: "no cgroup", trees: ISOLATION.overlay },
    );
    expect(m?.warning).toBe("no cgroup");
    expect(m?.trees).toBe(FOLDER_ITSELF);
    // Control: two legs in private trees merge as private trees; a copy is weaker than a tree.
    expect(
      merged({ ...boundary, trees: ISOLATION.overlay }, { ...boundary, trees: ISOLATION.overlay })
        ?.trees,
    ).toBe(ISOLATION.overlay);
    expect(
      merged({ ...boundary, trees: ISOLATION.copy }, { ...boundary, trees: ISOLATION.overlay })
        ?.trees,
    ).toBe(ISOLATION.copy);
  });

  it("a leg that names no trees, or words no gate wrote, merges as unnamed: never as a private tree", () => {
    expect(merged({ ...boundary, trees: ISOLATION.overlay }, boundary)?.trees).toBe(TREES_UNNAMED);
    expect(
      merged(
        { ...boundary, trees: ISOLATION.overlay },
        { ...boundary, trees: "a private tree, promise" },
      )?.trees,
    ).toBe(TREES_UNNAMED);
  });
});
