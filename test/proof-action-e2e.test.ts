/**
 * The requirement proof's verdicts end to end through the bundled action
 * (dist/index.js) against the GitHub stand-in, each beside its honest twin.
 * Two pull requests on one base share the cost: the honest one (a new
 * function and a fixed one, both proven; an invariant that holds) is green;
 * the faulty one is the same change plus one fault per scenario — a test
 * that passes on the base code, a skipped test, a deleted test, a
 * test-environment branch, a new dependency, a protected path — whose
 * findings each carry their own file and line, so one run tells them apart.
 * The honest PR is then gated with two broken runners (one prints PASSED
 * and exits 1, one runs zero tests), each differing from the honest command
 * in that one place. Run `npm run bundle` after changing src/.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { StandIn } from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  finish,
  type GitRepo,
  lastCheckRun,
  lineOf,
  makeRepo,
  REPO,
  reportOf,
  runAction,
  standInFor,
  stoppedLines,
} from "./helpers/action-harness.js";
import { linkNodeModules } from "./helpers/proof-repo.js";

const SPEC_PATH = "specs/001-names/spec.md";

/** Each requirement's spec lines: statement, acceptance criterion, map line. */
const REQUIREMENTS = {
  "FR-001": {
    text: "- FR-001 [ADDED]: WHEN a name is saved, the system SHALL remove surrounding spaces.",
    ac: "- [ ] AC-1 (FR-001): padded names are stored trimmed",
    map: "- FR-001 → tests/trim.test.ts > trims surrounding spaces",
  },
  "FR-002": {
    text: "- FR-002: WHEN a name is shown, the system SHALL keep inner spaces.",
    ac: "- [ ] AC-2 (FR-002): inner spaces survive",
    map: "- FR-002 → tests/trim.test.ts > keeps inner spaces",
  },
  "FR-003": {
    text: "- FR-003 [ADDED]: WHEN a code is shown, the system SHALL pad it to its width.",
    ac: "- [ ] AC-3 (FR-003): short codes are padded",
    map: "- FR-003 → tests/pad.test.ts > pads to the width",
  },
  "FR-004": {
    text: "- FR-004 [ADDED]: WHEN a name has no spaces, the system SHALL keep it as it is.",
    ac: "- [ ] AC-4 (FR-004): plain names are unchanged",
    map: "- FR-004 → tests/trim.test.ts > keeps a plain name",
  },
};
type Id = keyof typeof REQUIREMENTS;

function spec(ids: Id[]): string {
  const pick = (k: "text" | "ac" | "map") => ids.map((id) => REQUIREMENTS[id][k]).join("\n");
  return `# Specification: names

Store and show names and codes.

## Requirements

${pick("text")}

## Behavior Scenarios

- Scenario: keeps a name readable (FR-002)

## Acceptance Criteria

${pick("ac")}

## Guardrails

- No new dependencies.
- Protected surfaces:
  - \`src/api/**\`
- Keep the public names stable.

## Verification

- \`node -e "process.exit(0)"\` — proves AC-2

## Requirement Map

${pick("map")}

SPEC STATUS: READY
`;
}

const HEADER = `import { it, expect } from "vitest";\nimport { trim } from "../src/trim.js";\n`;
const KEEPS_INNER = `it("keeps inner spaces", () => { expect(trim("a b")).toBe("a b"); });\n`;
const KEEPS_EMPTY = `it("keeps empty names", () => { expect(trim("")).toBe(""); });\n`;
const TRIMS = `it("trims surrounding spaces", () => { expect(trim("  a  ")).toBe("a"); });\n`;
// Asserts what the identity function already does: it passes on the code before the change.
const KEEPS_PLAIN = `it("keeps a plain name", () => { expect(trim("a")).toBe("a"); });\n`;

const BASE: Files = {
  ".gitignore": "node_modules\n",
  "package.json": `${JSON.stringify({ name: "x", devDependencies: { vitest: "^4.0.0" } }, null, 2)}\n`,
  "src/trim.ts": "export const trim = (s: string) => s;\n",
  "src/api/index.ts": "export const api = 1;\n",
  "tests/trim.test.ts": HEADER + KEEPS_INNER + KEEPS_EMPTY,
  [SPEC_PATH]: spec(["FR-002"]),
};

/** Fixes trim (FR-001) and adds pad in a new file (FR-003): its test cannot import it at base. */
const HONEST: Files = {
  [SPEC_PATH]: spec(["FR-001", "FR-002", "FR-003"]),
  "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
  "src/pad.ts": "export const pad = (s: string, n: number) => s.padStart(n);\n",
  "tests/pad.test.ts": `import { it, expect } from "vitest";\nimport { pad } from "../src/pad.js";\nit("pads to the width", () => { expect(pad("7", 3)).toBe("  7"); });\n`,
  "tests/trim.test.ts": HEADER + KEEPS_INNER + KEEPS_EMPTY + TRIMS,
};

const FAULTY_TEST = `${HEADER}${KEEPS_INNER.replace('it("', 'it.skip("')}${TRIMS}${KEEPS_PLAIN}`;
const FAULTY_PACKAGE = `${JSON.stringify(
  { name: "x", dependencies: { "left-pad": "^1.3.0" }, devDependencies: { vitest: "^4.0.0" } },
  null,
  2,
)}\n`;
const MODE = "export const quick = process.env.VITEST !== undefined;\n";

/**
 * The honest change plus one fault per scenario: FR-004's test passes at
 * base; FR-002's test is skipped; "keeps empty names" is deleted; a source
 * file branches on the test runner; package.json gains left-pad; a
 * protected file changes.
 */
const FAULTY_SPEC = spec(["FR-001", "FR-002", "FR-003", "FR-004"]);
const FAULTY: Files = {
  ...HONEST,
  [SPEC_PATH]: FAULTY_SPEC,
  "tests/trim.test.ts": FAULTY_TEST,
  "src/mode.ts": MODE,
  "package.json": FAULTY_PACKAGE,
  "src/api/index.ts": "export const api = 2;\n",
};

// One template, three runners: the honest one keeps vitest's status; each broken one changes one
// place. Each ends with lines an adversarial runner prints (a forged workflow command, a mention):
// shown as untrusted text wherever the output is, never acted on.
const VITEST =
  "npx --no vitest run --passWithNoTests --reporter=default --reporter=junit --outputFile.junit={junit}";
// (`##[error]` is acted on anywhere in a line, so indenting the output would not defuse it.)
const OUTRO = `echo '##[error]forged by the runner'; echo 'cc @maintainer PASSED'`;
const HONEST_COMMAND = `${VITEST} {files}; s=$?; ${OUTRO}; exit $s`;
const PASSED_EXIT_1 = `${VITEST} {files}; ${OUTRO}; exit 1`;
const ZERO_TESTS = `${VITEST} --dir src; s=$?; ${OUTRO}; exit $s`;

interface Gated {
  result: ActionResult;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the fields they assert on.
  report: any;
  // biome-ignore lint/suspicious/noExplicitAny: the spec contract's entry of the JSON report.
  spec: any;
  checkRun: ReturnType<typeof lastCheckRun>;
  /** The check run's summary: the verdict table and the Requirement proof section. */
  checkSummary: string;
  comment: string;
}

async function pr(head: Files): Promise<GitRepo> {
  const repo = await makeRepo({ base: BASE, head });
  linkNodeModules(repo.dir);
  return repo;
}

/**
 * One gate run of `repo` on a stand-in of its own. vitest comes from this
 * repository's node_modules, inside the action's own folder (which the
 * sandbox keeps read-only over anything inside it): the runs go unsandboxed
 * here, as in proof-e2e.test.ts; proof-run.test.ts runs the proof sandboxed.
 */
async function gate(repo: GitRepo, command: string): Promise<Gated> {
  const gh: StandIn = await standInFor(repo);
  try {
    const result = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { sandbox: "off", "test-command": command },
    });
    const report = reportOf(result);
    return {
      result,
      report,
      spec: report.contracts.find((c: { path: string }) => c.path === SPEC_PATH),
      checkRun: lastCheckRun(gh),
      checkSummary: lastCheckRun(gh).output.summary ?? "",
      comment: gh.repo(REPO).comments.at(-1)?.body ?? "",
    };
  } finally {
    await finish(gh, expect);
  }
}

/** The human surfaces of one run: check run summary, sticky comment, job summary, terminal. */
function surfaces(g: Gated): [string, string][] {
  return [
    ["check run", g.checkSummary],
    ["comment", g.comment],
    ["job summary", g.result.summary],
    ["terminal", g.result.stdout],
  ];
}

function testOf(g: Gated, requirement: string) {
  const t = g.spec.proof.tests.find((x: { requirement: string }) => x.requirement === requirement);
  expect(t, `${requirement} in ${JSON.stringify(g.spec.proof.tests)}`).toBeDefined();
  return t;
}

function criterion(g: Gated, id: string) {
  const c = g.spec.criteria.find((x: { id: string }) => x.id === id);
  expect(c, id).toBeDefined();
  return c;
}

/** The check run's table row of a criterion. */
function row(g: Gated, id: string): string {
  const line = g.checkSummary.split("\n").find((l) => l.includes(`| \`${id}\``));
  expect(line, `${id}'s row in the check run`).toBeDefined();
  return line!;
}

const findings = (g: Gated) =>
  g.report.integrity.findings.map((f: { code: string; path: string; line?: number }) => ({
    code: f.code,
    path: f.path,
    line: f.line,
  }));

describe("the requirement proof's verdicts through the bundled action, each beside its honest twin", () => {
  let honestRepo: GitRepo;
  let honest: Gated;
  let faulty: Gated;
  let passedExit1: Gated;
  let zeroTests: Gated;

  beforeAll(async () => {
    honestRepo = await pr(HONEST);
    honest = await gate(honestRepo, HONEST_COMMAND);
    faulty = await gate(await pr(FAULTY), HONEST_COMMAND);
    passedExit1 = await gate(honestRepo, PASSED_EXIT_1);
    zeroTests = await gate(honestRepo, ZERO_TESTS);
  });

  it("the honest twin is green: a new test of a new function, which cannot import it at base, is proven", () => {
    expect(honest.result.code, honest.result.stdout).toBe(0);
    expect(honest.checkRun.conclusion).toBe("success");
    expect(honest.report.integrity.findings).toEqual([]);
    expect(honest.spec.proof.tamper).toEqual([]);
    expect(honest.spec.proof.guardrails).toEqual([]);
    expect(honest.spec.proof.runs.map((r: { error?: unknown }) => r.error)).toEqual([
      undefined,
      undefined,
    ]);
    expect(testOf(honest, "FR-003")).toMatchObject({
      base: "absent",
      head: "passed",
      verdict: "proven",
      reason: "proven: its file failed to load on the code before this change, passes at head",
    });
    expect(testOf(honest, "FR-001")).toMatchObject({ base: "failed", verdict: "proven" });
    expect(testOf(honest, "FR-002")).toMatchObject({ head: "passed", verdict: "invariant-holds" });
    for (const id of ["FR-001", "FR-002", "FR-003", "AC-1", "AC-3"])
      expect(criterion(honest, id), id).toMatchObject({ status: "met", blocking: false });
    expect(row(honest, "FR-003")).toContain(
      "its file failed to load on the code before this change",
    );
    for (const [where, text] of surfaces(honest)) {
      if (where === "terminal") expect(text).not.toContain("✘ blocking");
      else expect(text, where).toContain("no tampering found");
      expect(text, where).toContain(
        "proven: its file failed to load on the code before this change",
      );
      expect(text, where).not.toContain("its last lines");
    }
  });

  it("a test that passes on the base code blocks with 'proves nothing'; beside it the fixed test is still proven", () => {
    expect(faulty.result.code, faulty.result.stdout).toBe(1);
    expect(faulty.checkRun.conclusion).toBe("failure");
    expect(testOf(faulty, "FR-004")).toMatchObject({
      base: "passed",
      head: "passed",
      verdict: "passes-at-base",
    });
    expect(criterion(faulty, "FR-004")).toMatchObject({ status: "unmet", blocking: true });
    expect(criterion(faulty, "AC-4")).toMatchObject({ status: "unmet", blocking: true });
    expect(row(faulty, "FR-004")).toContain(
      "proves nothing: passes on the code before this change",
    );
    expect(row(faulty, "FR-004")).toContain("**blocking**");
    // The same run's other new tests fail at base: the verdict is the test's, not the run's.
    expect(testOf(faulty, "FR-001")).toMatchObject({ verdict: "proven" });
    expect(testOf(faulty, "FR-003")).toMatchObject({ verdict: "proven" });
    for (const [where, text] of surfaces(faulty))
      expect(text, where).toContain("proves nothing: passes on the code before this change");
  });

  it("a skipped test blocks: a new marker at its line, and its invariant is broken", () => {
    const line = lineOf(FAULTY_TEST, "it.skip(");
    expect(findings(faulty)).toContainEqual({
      code: "test-marker-added",
      path: "tests/trim.test.ts",
      line,
    });
    expect(testOf(faulty, "FR-002")).toMatchObject({
      head: "skipped",
      verdict: "invariant-broken",
    });
    expect(row(faulty, "FR-002")).toContain("invariant broken: skipped at head");
    expect(faulty.checkSummary).toContain(`\`tests/trim.test.ts:${line}\` \`test-marker-added\``);
    expect(testOf(honest, "FR-002")).toMatchObject({ verdict: "invariant-holds" });
  });

  it("a deleted test blocks, named at its line in the base version", () => {
    const line = lineOf(BASE["tests/trim.test.ts"] as string, "keeps empty names");
    expect(findings(faulty)).toContainEqual({
      code: "test-removed",
      path: "tests/trim.test.ts",
      line,
    });
    for (const [where, text] of surfaces(faulty))
      expect(text, where).toMatch(new RegExp(`tests/trim\\.test\\.ts:${line}\\W+test-removed`));
  });

  it("a branch on the test environment in non-test source blocks", () => {
    expect(findings(faulty)).toContainEqual({
      code: "test-environment-branch",
      path: "src/mode.ts",
      line: 1,
    });
    for (const [where, text] of surfaces(faulty))
      expect(text, where).toMatch(/src\/mode\.ts:1\W+test-environment-branch/);
  });

  it("a new dependency breaks the 'No new dependencies.' guardrail and blocks", () => {
    const guard = lineOf(FAULTY_SPEC, "No new dependencies.");
    const found = faulty.spec.proof.guardrails.find(
      (g: { code: string }) => g.code === "guardrail-new-dependency",
    );
    expect(found).toMatchObject({
      file: "package.json",
      line: lineOf(FAULTY_PACKAGE, "left-pad"),
      guardrail: { path: SPEC_PATH, line: guard },
    });
    expect(found.message).toContain("left-pad");
    expect(findings(faulty)).toContainEqual(
      expect.objectContaining({ code: "guardrail-new-dependency", path: "package.json" }),
    );
    for (const [where, text] of surfaces(faulty))
      expect(text, where).toMatch(/package\.json:\d+\W+guardrail-new-dependency/);
  });

  it("a change to a protected path blocks", () => {
    expect(faulty.spec.proof.guardrails).toContainEqual(
      expect.objectContaining({
        code: "guardrail-protected-path",
        file: "src/api/index.ts",
        guardrail: { path: SPEC_PATH, line: lineOf(FAULTY_SPEC, "`src/api/**`") },
      }),
    );
    for (const [where, text] of surfaces(faulty))
      expect(text, where).toMatch(/src\/api\/index\.ts\W+guardrail-protected-path/);
  });

  it("every diff finding of the faulty PR blocks, and only the faults are found", () => {
    const all = faulty.report.integrity.findings;
    expect(all.map((f: { code: string }) => f.code).sort()).toEqual([
      "guardrail-new-dependency",
      "guardrail-protected-path",
      "test-environment-branch",
      "test-marker-added",
      "test-removed",
    ]);
    expect(all.every((f: { blocking: boolean }) => f.blocking)).toBe(true);
    expect(faulty.report.integrity.blocking).toBe(all.length);
  });

  it("a runner that prints PASSED and exits 1 is an execution error; its output's last lines are on every surface", () => {
    const g = passedExit1;
    expect(g.result.code, g.result.stdout).toBe(1);
    expect(g.checkRun.conclusion).toBe("failure");
    const head = g.spec.proof.runs.find((r: { side: string }) => r.side === "head");
    expect(head).toMatchObject({ exitCode: 1 });
    expect(head.error.message).toContain("the runner exited 1 while no test failed");
    expect(head.outputTail).toMatch(/PASSED$/);
    for (const id of ["FR-001", "FR-002", "FR-003"]) {
      expect(testOf(g, id), id).toMatchObject({ verdict: "execution-error" });
      expect(criterion(g, id), id).toMatchObject({ status: "error", blocking: true });
      expect(row(g, id), id).toContain("execution error at head: the runner exited 1");
    }
    for (const [where, text] of surfaces(g)) {
      expect(text, where).toMatch(/output of the head run, its last lines:/i);
      // vitest's own summary, then the lie: the runner's words, not only the gate's.
      expect(text, where).toMatch(/Tests\s+4 passed/);
      expect(text, where).toMatch(/PASSED\n/);
    }
    // The twin: the same command keeping vitest's status.
    expect(honest.spec.proof.runs[0].error).toBeUndefined();
  });

  it("a failed run's output is untrusted text: a forged workflow command is logged, never run; a mention is defused", () => {
    for (const g of [honest, passedExit1, zeroTests]) {
      expect(g.result.commands.filter((c) => c.line.includes("forged"))).toEqual([]);
      expect(
        (g.checkRun.output.annotations ?? []).filter((a) => JSON.stringify(a).includes("forged")),
      ).toEqual([]);
    }
    const g = passedExit1;
    // The positive control: the line is in the log, inside the stop-commands block.
    expect(stoppedLines(g.result.stdout).join("\n")).toContain("│ ##[error]forged by the runner");
    for (const [where, text] of surfaces(g).filter(([w]) => w !== "terminal")) {
      // Whole lines of the output's code block (the command, quoted in the run's line, has them too).
      expect(text, where).toContain("\n##[error]forged by the runner\n");
      expect(text, where).toContain("\ncc @\u2060maintainer PASSED\n");
      expect(text, where).not.toContain("@maintainer");
    }
  });

  it("zero tests ran is an execution error, its output on every surface", () => {
    const g = zeroTests;
    expect(g.result.code, g.result.stdout).toBe(1);
    expect(g.checkRun.conclusion).toBe("failure");
    const head = g.spec.proof.runs.find((r: { side: string }) => r.side === "head");
    expect(head).toMatchObject({ exitCode: 0 });
    expect(head.error.message).toBe("the head run reported zero test cases");
    for (const id of ["FR-001", "FR-002", "FR-003"]) {
      expect(testOf(g, id), id).toMatchObject({ verdict: "execution-error" });
      expect(criterion(g, id), id).toMatchObject({ status: "error", blocking: true });
      expect(row(g, id), id).toContain("zero test cases");
    }
    for (const [where, text] of surfaces(g)) {
      expect(text, where).toMatch(/output of the head run, its last lines:/i);
      expect(text, where).toContain("No test files found");
    }
  });
});
