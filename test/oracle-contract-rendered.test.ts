import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunReportSchema } from "../src/report/run-json.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

/**
 * Each dishonest form of a markdown contract that once passed, beside its honest
 * twin, end to end through `validate` and `run`. Every dishonest form made
 * the upstream reading skip something a reviewer would see (or see
 * something it skipped) — criterion 2 fails in each, so a silent skip would
 * turn into `success`. Now each is an error naming the line, and nothing of
 * it runs; the honest twin validates and runs (the positive control).
 */
const DIR = join(import.meta.dirname, "fixtures", "oracle-contract", "rendered");
const C = ".claude/tasks/contracts/c.md";

type Honest = "success" | "abandoned";

/** The problems each dishonest form must get (`code@line:column`), and how its twin ends. */
const CASES: Record<string, { problems: string[]; honest: Honest }> = {
  "comment-heading": { problems: ["hidden-structure@14:1"], honest: "success" },
  "comment-fence": { problems: ["hidden-structure@14:1"], honest: "success" },
  "bare-heading": {
    problems: [
      "empty-heading@13:1",
      "oracle-outside-criteria@15:4",
      "oracle-outside-criteria@16:4",
      "oracle-outside-criteria@17:4",
    ],
    honest: "success",
  },
  "comment-status": { problems: ["hidden-structure@3:5"], honest: "success" },
  "definition-status": { problems: ["hidden-structure@3:1"], honest: "success" },
  "two-statuses": { problems: ["duplicate-status@4:1"], honest: "success" },
  "check-zero-width": {
    problems: ["keyword-near-miss@14:4", "partial-oracle@15:4"],
    honest: "success",
  },
  "check-cyrillic": {
    problems: ["keyword-near-miss@14:4", "partial-oracle@15:4"],
    honest: "success",
  },
  "check-lowercase": {
    problems: ["keyword-near-miss@14:4", "partial-oracle@15:4"],
    honest: "success",
  },
  "abandon-indented": { problems: ["misplaced-abandon@17:4"], honest: "abandoned" },
  "abandon-list-item": { problems: ["misplaced-abandon@18:3"], honest: "abandoned" },
  "abandon-after-file-scope": { problems: ["oracle-outside-criteria@21:1"], honest: "abandoned" },
  "hardening-round": {
    problems: [
      "oracle-outside-criteria@16:4",
      "oracle-outside-criteria@17:4",
      "oracle-outside-criteria@18:4",
    ],
    honest: "success",
  },
  "expect-matches-empty": {
    problems: ["empty-attribute@15:4", "empty-attribute@19:4", "empty-attribute@23:4"],
    honest: "success",
  },
  "criterion-id-4b": { problems: ["invalid-criterion-id@13:1"], honest: "success" },
};

function repo(name: string, form: "dishonest" | "honest"): string {
  const root = tempDir();
  writeTree(root, { [C]: readFileSync(join(DIR, `${name}.${form}.md`)) });
  return root;
}

async function run(root: string) {
  const r = await runCli(["run", "--root", root, "--json", "--no-write"], root);
  return { code: r.code, report: RunReportSchema.parse(JSON.parse(r.stdout)) };
}

describe("dishonest markdown contracts are refused, naming the line; honest twins run", () => {
  it("every fixture pair has an expectation here", () => {
    const names = new Set(readdirSync(DIR).map((f) => f.replace(/\.(dishonest|honest)\.md$/, "")));
    expect([...names].sort()).toEqual([...Object.keys(CASES), "status-aborted"].sort());
  });

  for (const [name, { problems, honest }] of Object.entries(CASES)) {
    it(name, async () => {
      const bad = repo(name, "dishonest");
      const validated = await runCli(["validate", "--root", bad], bad);
      expect(validated.code).toBe(1);
      for (const p of problems) {
        const [code, at] = p.split("@");
        expect(validated.stdout).toContain(`${C}:${at}: error ${code} `);
      }
      const refused = await run(bad);
      expect(refused.code).toBe(1);
      expect(refused.report.conclusion).toBe("failure");
      const [contract] = refused.report.contracts;
      expect(contract!.verdict).toBe("invalid");
      expect(contract!.problems.map((q) => `${q.code}@${q.line}:${q.column}`)).toEqual(problems);
      // Nothing of an invalid contract runs.
      expect(existsSync(join(bad, "RAN-1"))).toBe(false);
      expect(existsSync(join(bad, "RAN-2"))).toBe(false);

      const good = repo(name, "honest");
      const valid = await runCli(["validate", "--root", good], good);
      expect(valid.stdout).toContain("1 valid, 0 invalid (0 errors");
      expect(valid.code).toBe(0);
      const ran = await run(good);
      expect(existsSync(join(good, "RAN-1"))).toBe(true);
      expect(existsSync(join(good, "RAN-2"))).toBe(true);
      const verdict = ran.report.contracts[0]!.verdict;
      if (honest === "success") {
        expect([verdict, ran.report.conclusion, ran.code]).toEqual(["pass", "success", 0]);
      } else {
        // A standing ABANDON blocks the pass: a visible handoff, not a success.
        expect([verdict, ran.report.conclusion, ran.code]).toEqual(["abandoned", "failure", 1]);
      }
    });
  }

  it("status-aborted: the only contract in scope aborted is neutral, never success", async () => {
    const aborted = repo("status-aborted", "dishonest");
    expect((await runCli(["validate", "--root", aborted], aborted)).code).toBe(0);
    const set = await run(aborted);
    expect(set.report.contracts[0]!.verdict).toBe("aborted");
    expect(set.report.conclusion).toBe("neutral");
    expect(set.code).toBe(0);
    expect(existsSync(join(aborted, "RAN-1"))).toBe(false);

    const active = repo("status-aborted", "honest");
    const ran = await run(active);
    expect([ran.report.conclusion, ran.code]).toEqual(["success", 0]);
    expect(existsSync(join(active, "RAN-1"))).toBe(true);
  });
});
