import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import {
  editJson,
  type Json,
  reportIn,
  SHARD_REPO_CONTRACTS,
  shardRepo,
  withoutTimings,
} from "./helpers/shard-repo.js";
import { tempDir } from "./helpers/tmp.js";

const RUN = ["--sandbox", "off", "--no-write"];
const ENV = { GITHUB_RUN_ID: "77", GITHUB_RUN_ATTEMPT: "1" };

/** Run the N shards of `root` into a fresh directory; returns it. */
async function shards(root: string, n: number, env: NodeJS.ProcessEnv = ENV): Promise<string> {
  const out = tempDir("cg-shards-");
  for (let i = 1; i <= n; i++) {
    const r = await runCli(
      ["run", ...RUN, "--shard", `${i}/${n}`, "--report-file", out],
      root,
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`shard ${i} of ${n}:`);
  }
  return out;
}

describe("run --shard", () => {
  it("refuses a malformed shard with the allowed form (exit 2)", async () => {
    const root = shardRepo();
    for (const bad of ["0/4", "5/4", "a/b", "1/300"]) {
      const r = await runCli(["run", ...RUN, "--shard", bad], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--shard '${bad}'`);
      expect(r.stderr).toContain("1 ≤ i ≤ n ≤ 256");
    }
    // A shard's --base is its requirement proof's: one that cannot be read is a usage error.
    const base = await runCli(["run", ...RUN, "--shard", "1/2", "--base", "no-such-rev"], root);
    expect(base.code).toBe(2);
    expect(base.stderr).toContain("--base no-such-rev");
  });

  it("runs only its share, prints the report with its shard block, and exits 0 on blocking results", async () => {
    const root = shardRepo();
    const seen: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = await runCli(["run", ...RUN, "--shard", `${i}/3`, "--json"], root, ENV);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.shard).toMatchObject({
        index: i,
        total: 3,
        headSha: git(root, "rev-parse", "HEAD").trim(),
        runId: "77",
        runAttempt: 1,
      });
      seen.push(...report.contracts.map((c: { path: string }) => c.path));
    }
    // Together the shards ran every contract once; the unsharded run fails, so some shard blocked.
    expect(seen).toHaveLength(SHARD_REPO_CONTRACTS);
    expect(new Set(seen).size).toBe(SHARD_REPO_CONTRACTS);
    const whole = await runCli(["run", ...RUN], root);
    expect(whole.code).toBe(1);
  });
});

describe("merge", () => {
  it("merges n shards into the report an unsharded run prints, byte for byte but for timings", async () => {
    const root = shardRepo();
    const dir = await shards(root, 3);
    for (const form of [["--json"], ["--markdown"], []]) {
      const whole = await runCli(["run", ...RUN, ...form], root);
      const merged = await runCli(["merge", dir, ...form], root, ENV);
      expect(merged.code, merged.stderr).toBe(1);
      expect(merged.code).toBe(whole.code);
      if (form[0] === "--json") {
        expect(withoutTimings(merged.stdout)).toEqual(withoutTimings(whole.stdout));
      } else {
        const untimed = (s: string) => s.replace(/\d+(\.\d+)?\s?m?s\b/g, "T");
        expect(untimed(merged.stdout)).toBe(untimed(whole.stdout));
      }
    }
  });

  it("passes when every shard passes (a merge can be green)", async () => {
    const root = shardRepo();
    // Only the passing contracts: the ones with no failing criterion and a valid file.
    for (const f of ["c3", "c6", "broken"]) {
      rmSync(join(root, `.claude/tasks/contracts/2026-11-30-${f}-1200.md`));
    }
    git(root, "add", "-A");
    git(root, "commit", "-qm", "passing only");
    const dir = await shards(root, 2);
    const merged = await runCli(["merge", dir], root, ENV);
    expect(merged.code, merged.stdout).toBe(0);
  });

  it("fails closed on a missing shard, and passes with it back", async () => {
    const root = shardRepo();
    const dir = await shards(root, 3);
    const held = join(tempDir(), "held.json");
    copyFileSync(reportIn(dir, 2, 3), held);
    rmSync(reportIn(dir, 2, 3));
    const missing = await runCli(["merge", dir, "--json"], root, ENV);
    expect(missing.code).toBe(1);
    const report = JSON.parse(missing.stdout);
    const row = report.contracts.find(
      (c: { path: string }) => c.path === "contract-gate-shard-2-of-3.json",
    );
    expect(row.problems[0].code).toBe("shard-report-missing");
    expect(row.problems[0].message).toContain("shard 2 of 3 missing");
    expect(row.problems[0].message).toContain("re-run it");
    copyFileSync(held, reportIn(dir, 2, 3));
    const back = await runCli(["merge", dir, "--json"], root, ENV);
    expect(
      JSON.parse(back.stdout).contracts.flatMap((c: { problems: { code: string }[] }) =>
        c.problems.map((p) => p.code),
      ),
    ).not.toContain("shard-report-missing");
  });

  it("fails closed on an empty or absent directory", async () => {
    const root = shardRepo();
    const r = await runCli(["merge", join(tempDir(), "nothing-here")], root, ENV);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("no shard report in");
  });

  it.each([
    [
      "a report from another commit",
      (d: Json) => {
        d.shard.headSha = "0".repeat(40);
      },
      "a report from another commit",
    ],
    [
      "another gate version",
      (d: Json) => {
        d.shard.gateVersion = "0.0.0-other";
      },
      "same gate version",
    ],
    [
      "another scope",
      (d: Json) => {
        d.shard.scopeDigest = `sha256:${"1".repeat(64)}`;
      },
      "scope digest differs",
    ],
    [
      "another workflow run",
      (d: Json) => {
        d.shard.runId = "78";
      },
      "not this run 77",
    ],
    [
      "a contract outside the scope",
      (d: Json) => {
        d.contracts.push({ ...d.contracts[0], path: "elsewhere/fake.md" });
      },
      "not in this merge's scope",
    ],
    [
      "a forged all-green report (schema)",
      (d: Json) => {
        d.contracts[0].verdict = "green";
      },
      "not a shard report",
    ],
  ])("fails closed on %s, naming the file", async (_what, edit, says) => {
    const root = shardRepo();
    const dir = await shards(root, 3);
    // The passing twin: the same directory merges without this complaint.
    const before = await runCli(["merge", dir], root, ENV);
    expect(before.stdout).not.toContain(says);
    editJson(reportIn(dir, 1, 3), edit);
    const r = await runCli(["merge", dir], root, ENV);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(says);
    expect(r.stdout).toContain("contract-gate-shard-1-of-3.json");
  });

  it("fails closed on a truncated or oversized file, never with an exception", async () => {
    const root = shardRepo();
    const dir = await shards(root, 2);
    const size = readFileSync(reportIn(dir, 1, 2)).length;
    truncateSync(reportIn(dir, 1, 2), Math.floor(size / 2));
    const r = await runCli(["merge", dir], root, ENV);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("truncated");
    // Over the cap: refused by its size, unread (a sparse file costs no disk).
    truncateSync(reportIn(dir, 1, 2), 129 * 1024 * 1024);
    const big = await runCli(["merge", dir], root, ENV);
    expect(big.code).toBe(1);
    expect(big.stdout).toContain("over 128 MiB");
  });

  it("takes the newest run attempt of a shard; two of one attempt fail", async () => {
    const root = shardRepo();
    const dir = await shards(root, 2);
    // A re-run of leg 2 (attempt 2) beside its first attempt, in a subdirectory per artifact.
    mkdirSync(join(dir, "old"));
    copyFileSync(reportIn(dir, 2, 2), join(dir, "old", "contract-gate-shard-2-of-2.json"));
    editJson(join(dir, "old", "contract-gate-shard-2-of-2.json"), (d) => {
      d.contracts = [];
    });
    editJson(reportIn(dir, 2, 2), (d) => {
      d.shard.runAttempt = 2;
    });
    const newest = await runCli(["merge", dir, "--json"], root, ENV);
    const codes = (s: string) =>
      JSON.parse(s).contracts.flatMap((c: { problems: { code: string }[] }) =>
        c.problems.map((p) => p.code),
      );
    // The stale attempt (with no contracts) lost: no contract is missing.
    expect(codes(newest.stdout)).not.toContain("shard-scope-mismatch");
    expect(codes(newest.stdout)).not.toContain("shard-report-duplicate");
    editJson(join(dir, "old", "contract-gate-shard-2-of-2.json"), (d) => {
      d.shard.runAttempt = 2;
    });
    const dup = await runCli(["merge", dir], root, ENV);
    expect(dup.code).toBe(1);
    expect(dup.stdout).toContain("shard-report-duplicate");
  });

  it("fails closed on a contract in two shards, and on one in none", async () => {
    const root = shardRepo();
    const dir = await shards(root, 2);
    const one = JSON.parse(readFileSync(reportIn(dir, 1, 2), "utf8"));
    const moved = one.contracts[0];
    editJson(reportIn(dir, 2, 2), (d) => {
      d.contracts.push(moved);
    });
    const twice = await runCli(["merge", dir], root, ENV);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toContain("a contract runs in one shard");
    editJson(reportIn(dir, 2, 2), (d) => {
      d.contracts.pop();
    });
    editJson(reportIn(dir, 1, 2), (d) => {
      d.contracts.shift();
    });
    const none = await runCli(["merge", dir], root, ENV);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("in no shard's report: it never ran");
  });

  it("is a usage error (exit 2) without exactly one DIR, or with a file for it", async () => {
    const root = shardRepo();
    expect((await runCli(["merge"], root)).code).toBe(2);
    const file = join(tempDir(), "f");
    writeFileSync(file, "");
    const r = await runCli(["merge", file], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a directory");
  });
});
