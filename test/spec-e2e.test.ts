/**
 * The requirement-spec kinds end to end: through the bundled CLI
 * (bin/contract-gate.js) and the bundled action (dist/index.js) against the
 * GitHub stand-in. Run `npm run bundle` after changing src/.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "vitest";
import type { Annotation } from "../src/github/types.js";
import { RunReportSchema } from "../src/report/run-json.js";
import { makeRepo, REPO, runAction, standInFor } from "./helpers/action-harness.js";
import { commitAll, emptyBase } from "./helpers/git.js";
import { copyTree } from "./helpers/tmp.js";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "bin/contract-gate.js");
const FIXTURES = join(import.meta.dirname, "fixtures", "specs");
const SPEC = "specs/001-trim/spec.md";
const KIT = "specs/002-albums";
const read = (rel: string) => readFileSync(join(FIXTURES, rel), "utf8");
const GOOD = read(`manual-not-allowed/twin/${SPEC}`);
const KIT_FILES = {
  [`${KIT}/spec.md`]: read(`missing-section/twin/${KIT}/spec.md`),
  [`${KIT}/tasks.md`]: read(`missing-section/twin/${KIT}/tasks.md`),
  [`${KIT}/contracts/albums.md`]: "# API\n",
  "src/models/album.ts": "export {};\n",
  "src/services/albums.ts": "export {};\n",
  "tests/albums.test.ts": "//\n",
};

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

/** These tests are about the spec kinds, not the proof (proof-e2e.test.ts): mapped requirements await it. */
const PROOF_OFF = { "requirement-proof": "off" };

describe("the CLI (bin/contract-gate.js) on requirement specs", () => {
  it("validate --base names a phantom completion the change made at its file:line:col and fails; its twin passes", async ({
    expect,
  }) => {
    // The fixture as one change on an empty first commit: every done task is the change's.
    const root = copyTree(join(FIXTURES, "phantom-completion", "fail"));
    emptyBase(root);
    commitAll(root);
    const bad = await cli(["validate", "--root", root, "--base", "HEAD~1"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /specs\/002-albums\/tasks\.md:\d+:\d+: error phantom-completion task T005 is marked done by this change, but src\/services\/album-service\.ts/,
    );
    // Without a base nothing says the change checked it off: a warning.
    const alone = await cli(["validate", "--root", root]);
    expect(alone.stdout).toContain("warning phantom-completion task T005 is marked done, but");
    expect(alone.code).toBe(0);
    const twin = await cli(["validate", "--root", join(FIXTURES, "phantom-completion", "twin")]);
    expect(twin.code, twin.stdout).toBe(0);
  });

  it("run --json reports both layouts with the awaiting-proof status, valid against the schema", async ({
    expect,
  }) => {
    const root = copyTree(join(FIXTURES, "missing-section", "twin"));
    const r = await cli(["run", "--json", "--no-write", "--root", root]);
    expect(r.code, r.stderr).toBe(0);
    const report = RunReportSchema.parse(JSON.parse(r.stdout));
    expect(report.contracts.map((c) => [c.path, c.kind, c.verdict])).toEqual([
      [`${KIT}/spec.md`, "speckit-spec", "neutral"],
    ]);
    expect(report.contracts[0]!.criteria.map((k) => `${k.id}:${k.status}`)).toEqual([
      "FR-001:awaiting-proof",
      "FR-002:awaiting-proof",
      "FR-002a:awaiting-proof",
      "FR-003:manual",
    ]);
  });
});

describe("the action (dist/index.js) on requirement specs", () => {
  it("a PR adding both layouts: Verification commands run, requirements await proof, nothing green", async ({
    expect,
  }) => {
    const repo = await makeRepo({
      base: { "README.md": "# widgets\n" },
      head: { [SPEC]: GOOD, "tests/trim.test.ts": "//\n", ...KIT_FILES },
    });
    const gh = await standInFor(repo, {});
    try {
      const r = await runAction({ repo, gh, event: "pull_request", inputs: PROOF_OFF });
      expect(r.code, r.stdout).toBe(0);
      const report = RunReportSchema.parse(JSON.parse(readFileSync(r.outputs.report!, "utf8")));
      expect(report.contracts.map((c) => [c.path, c.kind, c.verdict])).toEqual([
        [SPEC, "spec", "neutral"],
        [`${KIT}/spec.md`, "speckit-spec", "neutral"],
      ]);
      const spec = report.contracts[0]!.criteria;
      expect(spec.find((k) => k.id === "V1")).toMatchObject({ status: "met" });
      expect(spec.find((k) => k.id === "FR-001")).toMatchObject({
        status: "awaiting-proof",
        blocking: false,
      });
      const [run] = gh.repo(REPO).checkRuns;
      expect(run!.conclusion).toBe("neutral");
      const notices = (run!.output.annotations as unknown as Annotation[]).filter(
        (a) => a.annotation_level === "notice" && a.title?.startsWith("awaiting-proof"),
      );
      expect(notices.map((a) => `${a.path}:${a.start_line}`)).toContain(`${SPEC}:7`);
      const [comment] = gh.repo(REPO).comments;
      expect(comment!.body).toContain("awaiting-proof");
      expect(gh.violations).toEqual([]);
    } finally {
      await gh.close();
    }
  });

  it("a PR pointing a map line at another test blocks on the base comparison; adding a requirement does not", async ({
    expect,
  }) => {
    const base = { [SPEC]: GOOD, "tests/trim.test.ts": "//\n" };
    const weakened = await makeRepo({
      base,
      head: { [SPEC]: GOOD.replace("> trims surrounding spaces", "> anything") },
    });
    const gh = await standInFor(weakened, {});
    try {
      const r = await runAction({ repo: weakened, gh, event: "pull_request", inputs: PROOF_OFF });
      expect(r.code, r.stdout).toBe(1);
      const [run] = gh.repo(REPO).checkRuns;
      expect(run!.conclusion).toBe("failure");
      const report = JSON.parse(readFileSync(r.outputs.report!, "utf8")) as {
        integrity?: { findings: { code: string; blocking: boolean }[] };
      };
      expect(report.integrity?.findings).toContainEqual(
        expect.objectContaining({ code: "map-changed", blocking: true }),
      );
    } finally {
      await gh.close();
    }
    // Control: the same PR shape adding a requirement (mapped, covered) is no blocking change.
    const grown = await makeRepo({
      base,
      head: {
        [SPEC]: GOOD.replace(
          "## Behavior Scenarios",
          "- FR-003 [ADDED]: the system SHALL log each trim.\n\n## Behavior Scenarios",
        )
          .replace("## Acceptance Criteria", "- Scenario: logs (FR-003)\n\n## Acceptance Criteria")
          .replace("\nSPEC STATUS", "- FR-003 → tests/trim.test.ts > logs\n\nSPEC STATUS"),
      },
    });
    const gh2 = await standInFor(grown, {});
    try {
      const r = await runAction({ repo: grown, gh: gh2, event: "pull_request", inputs: PROOF_OFF });
      expect(r.code, r.stdout).toBe(0);
      const [run] = gh2.repo(REPO).checkRuns;
      expect(run!.conclusion).toBe("neutral");
    } finally {
      await gh2.close();
    }
  });

  it("a PR checking a task off in the tasks.md beside a spec is progress, not a contract gone", async ({
    expect,
  }) => {
    const repo = await makeRepo({
      base: KIT_FILES,
      head: {
        [`${KIT}/tasks.md`]: KIT_FILES[`${KIT}/tasks.md`]!.replace(
          "- [ ] T003 [P] Configure linting",
          "- [X] T003 [P] Configure linting",
        ),
      },
    });
    const gh = await standInFor(repo, {});
    try {
      const r = await runAction({ repo, gh, event: "pull_request", inputs: PROOF_OFF });
      expect(r.code, r.stdout).toBe(0);
      const report = JSON.parse(readFileSync(r.outputs.report!, "utf8")) as {
        contracts: { path: string }[];
        integrity?: { findings: { code: string; blocking: boolean }[] };
      };
      expect(report.contracts.map((c) => c.path)).toEqual([`${KIT}/spec.md`]);
      expect(report.integrity?.findings.filter((f) => f.blocking)).toEqual([]);
      const [run] = gh.repo(REPO).checkRuns;
      expect(run!.conclusion).toBe("neutral");
    } finally {
      await gh.close();
    }
  });

  it("a task checked off whose file the PR does not touch warns (task-done-untouched); touching it is the twin", async ({
    expect,
  }) => {
    const TASKS = `${KIT}/tasks.md`;
    const before = KIT_FILES[TASKS]!.replace("- [X] T005 [US1]", "- [ ] T005 [US1]");
    const findingsOf = async (head: Record<string, string>) => {
      const repo = await makeRepo({ base: { ...KIT_FILES, [TASKS]: before }, head });
      const gh = await standInFor(repo, {});
      try {
        const r = await runAction({ repo, gh, event: "pull_request", inputs: PROOF_OFF });
        const report = JSON.parse(readFileSync(r.outputs.report!, "utf8")) as {
          integrity?: { findings: { code: string; blocking: boolean; message: string }[] };
        };
        return { code: r.code, findings: report.integrity?.findings ?? [] };
      } finally {
        await gh.close();
      }
    };
    const untouched = await findingsOf({ [TASKS]: KIT_FILES[TASKS]! });
    expect(untouched.findings).toEqual([
      expect.objectContaining({ code: "task-done-untouched", blocking: false }),
    ]);
    expect(untouched.findings[0]!.message).toContain("src/services/albums.ts");
    expect(untouched.code).toBe(0);
    const twin = await findingsOf({
      [TASKS]: KIT_FILES[TASKS]!,
      "src/services/albums.ts": "export const albums = [];\n",
    });
    expect(twin.findings).toEqual([]);
  });
});
