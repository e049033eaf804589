/**
 * One PR touching a file of each planner and workphase kind, through the
 * bundled action (dist/index.js) and the GitHub stand-in. Run `npm run bundle`
 * after changing src/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import type { Annotation } from "../src/github/types.js";
import { makeRepo, REPO, runAction, standInFor } from "./helpers/action-harness.js";

const KINDS = join(import.meta.dirname, "fixtures", "kinds");
const fixture = (rel: string) => readFileSync(join(KINDS, rel), "utf8");

describe("contract-gate action (dist/index.js): the planner and workphase kinds", {
  timeout: 90_000,
}, () => {
  it("a PR with a plan, its context, a QR file and a workphase pair: every criterion on every surface", async ({
    expect,
  }) => {
    const repo = await makeRepo({
      base: { "README.md": "# widgets\n", "tests/test_auth.py": "def test_ok(): pass\n" },
      head: {
        "plans/auth-plan.json": fixture("planner-unknown-key/twin/plans/auth-plan.json"),
        "plans/context.json": fixture("context-missing-field/twin/plans/context.json"),
        "plans/qr-plan-design.json": fixture("qr-status/twin/plans/qr-plan-design.json"),
        ".workphase/auth/research.json": fixture(
          "citation-unknown/twin/.workphase/auth/research.json",
        ),
        ".workphase/auth/plan.json": fixture("citation-unknown/twin/.workphase/auth/plan.json"),
      },
    });
    const gh = await standInFor(repo, {});
    try {
      const r = await runAction({ repo, gh, event: "pull_request" });
      expect(r.code, r.stdout).toBe(1);
      const report = JSON.parse(readFileSync(r.outputs.report!, "utf8")) as {
        contracts: {
          path: string;
          kind: string;
          criteria: { id: string; status: string; blocking: boolean }[];
        }[];
      };
      expect(report.contracts.map((c) => [c.path, c.kind])).toEqual([
        [".workphase/auth/plan.json", "workphase-plan"],
        [".workphase/auth/research.json", "workphase-research"],
        ["plans/auth-plan.json", "planner-plan"],
        ["plans/context.json", "planner-context"],
        ["plans/qr-plan-design.json", "planner-qr"],
      ]);
      const blocking = report.contracts.flatMap((c) =>
        c.criteria.filter((k) => k.blocking).map((k) => `${c.path}#${k.id}`),
      );
      expect(blocking.sort()).toEqual([
        ".workphase/auth/plan.json#assumption-r2",
        "plans/qr-plan-design.json#in-progress",
        "plans/qr-plan-design.json#qa-002",
        "plans/qr-plan-design.json#qa-003",
      ]);
      const [run] = gh.repo(REPO).checkRuns;
      expect(run!.conclusion).toBe("failure");
      const failures = (run!.output.annotations as unknown as Annotation[]).filter(
        (a) => a.annotation_level === "failure",
      );
      expect(failures.map((a) => a.path)).toContain("plans/qr-plan-design.json");
      const [comment] = gh.repo(REPO).comments;
      expect(comment!.body).toContain("quality review in progress");
      expect(comment!.body).toContain("needs a person");
      expect(gh.violations).toEqual([]);
    } finally {
      await gh.close();
    }
  });
});
