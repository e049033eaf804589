import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlanContract } from "../src/formats/plan-contract/index.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

// Issue 7, sections 3, 5 and 6: what the upstream generator writes validates
// (with warnings), and the dishonest or careless twin of each is an error.
// Each fixture pair is checked by the parser, then end to end through the
// CLI: `validate` (exit code) and `run` (whether its commands executed).

const FIXTURES = "test/fixtures/plan-contract";
const CONTRACT = ".planning/phase-2-contract.json";

function parse(fixture: string) {
  const path = `${FIXTURES}/${fixture}/phase-2-contract.json`;
  return parsePlanContract(path, readFileSync(path));
}

/** `severity code line:column` per problem, in report order. */
const found = (fixture: string) =>
  parse(fixture).problems.map((p) => `${p.severity} ${p.code} ${p.line}:${p.column}`);

/** A repository holding the fixture as its only contract, with the files its checks read. */
function repoWith(fixture: string): string {
  const root = tempDir();
  writeTree(root, {
    [CONTRACT]: readFileSync(`${FIXTURES}/${fixture}/phase-2-contract.json`),
    "greet.js": 'console.log("Hello, " + process.argv[2] + "!");\n',
    "README.md": "# greeter\n",
  });
  return root;
}

/** Which `RAN-n` sentinels the contract's commands wrote. */
function ran(root: string): number[] {
  return [1, 2, 3, 4, 5, 6].filter((n) => existsSync(join(root, `RAN-${n}`)));
}

async function validate(fixture: string) {
  return runCli(["validate"], repoWith(fixture));
}

async function run(fixture: string) {
  const root = repoWith(fixture);
  const result = await runCli(["run", "--no-write"], root);
  return { ...result, ran: ran(root) };
}

/**
 * End to end: the honest fixture validates (exit 0) and `run` executes the
 * commands `ranHonest` and succeeds; the dishonest twin is refused by both,
 * `run` executing nothing. Returns both `validate` outputs.
 */
async function expectTwins(honest: string, dishonest: string, ranHonest: number[]) {
  const valid = await validate(honest);
  expect(valid.code).toBe(0);
  const refused = await validate(dishonest);
  expect(refused.code).toBe(1);
  const honestRun = await run(honest);
  expect(honestRun.ran).toEqual(ranHonest);
  expect(honestRun.code).toBe(0);
  const dishonestRun = await run(dishonest);
  expect(dishonestRun.ran).toEqual([]);
  expect(dishonestRun.code).toBe(1);
  return { valid: valid.stdout, refused: refused.stdout, refusedRun: dishonestRun.stdout };
}

describe("generator leftovers: another check type's key, empty or at its default", () => {
  it("is an ignored-key warning, and every check still becomes a criterion", () => {
    const warnings = found("generator-leftovers");
    expect(warnings).toHaveLength(11);
    expect(new Set(warnings.map((w) => w.split(" ").slice(0, 2).join(" ")))).toEqual(
      new Set(["warning ignored-key"]),
    );
    expect(parse("generator-leftovers").criteria.map((c) => c.id)).toEqual([
      "T1.1",
      "T1.2",
      "T1.3",
    ]);
    // The model never carries an ignored key: the file-exists check is just a file-exists check.
    const check = parse("generator-leftovers").criteria[0]!.checks[0]!;
    expect(check).toEqual({
      type: "file-exists",
      location: expect.anything(),
      path: "greet.js",
      mustContain: "Hello",
    });
  });

  it("is an unknown-key error with a value, or when no check type knows the key", () => {
    const contract = parse("generator-leftovers-typo");
    expect(found("generator-leftovers-typo")).toEqual([
      "error unknown-key 32:11",
      "warning ignored-key 33:11",
      "error unknown-key 40:11",
      "error unknown-key 50:11",
    ]);
    const hints = contract.problems.filter((p) => p.code === "unknown-key").map((p) => p.hint);
    expect(hints[0]).toBe(
      'did you mean "pattern"? That key belongs to grep-match checks, not file-exists checks',
    );
    expect(hints[1]).toContain('"must_contain" belongs to file-exists checks');
    expect(hints[2]).toContain('"expect" belongs to grep-match checks');
    expect(contract.criteria).toEqual([]);
  });

  it("validates and runs the honest form; refuses and runs nothing of the typo form", async () => {
    const out = await expectTwins("generator-leftovers", "generator-leftovers-typo", [1]);
    expect(out.valid).toContain("warning ignored-key");
    expect(out.refused).toContain(
      'error unknown-key tasks[0].verification[0]: unknown key "patern"',
    );
  });
});

describe("unsafe paths: advisory fields warn, fields a check reads refuse", () => {
  it("warns for context_files and refuses the same paths in a check's path and cwd", () => {
    expect(found("advisory-path")).toEqual([
      "warning advisory-path 25:9",
      "warning advisory-path 26:9",
    ]);
    expect(parse("advisory-path").criteria.map((c) => c.id)).toEqual(["T1.1", "T1.2"]);
    expect(found("advisory-path-in-check")).toEqual([
      "error unsafe-path 30:19",
      "error unsafe-path 41:18",
    ]);
  });

  it("validates and runs the advisory form; refuses and runs nothing of the other", async () => {
    const out = await expectTwins("advisory-path", "advisory-path-in-check", [1]);
    expect(out.valid).toContain("warning advisory-path");
    expect(out.refused).toContain("error unsafe-path");
  });
});

describe("no criteria: a phase contract that checks nothing", () => {
  it("is an error with no tasks, or with no check in any task", () => {
    expect(found("no-criteria-no-tasks")).toEqual(["error no-criteria 9:12"]);
    expect(found("no-criteria-no-checks")).toEqual([
      "error no-criteria 9:12",
      "error no-verification 27:23",
      "error no-verification 46:23",
    ]);
    expect(found("no-criteria-twin")).toEqual([]);
    // Tasks that are not objects are not "no tasks": the message says what is missing.
    const text = readFileSync(`${FIXTURES}/no-criteria-no-tasks/phase-2-contract.json`, "utf8");
    const notObjects = parsePlanContract(
      CONTRACT,
      new TextEncoder().encode(text.replace('"tasks": []', '"tasks": [1, 2]')),
    );
    expect(notObjects.problems.find((p) => p.code === "no-criteria")?.message).toBe(
      "no task has a verification check; this contract checks nothing and would always pass",
    );
  });

  it("fails validate and run instead of succeeding with 0 criteria; the twin runs", async () => {
    for (const fixture of ["no-criteria-no-tasks", "no-criteria-no-checks"]) {
      const out = await expectTwins("no-criteria-twin", fixture, [1]);
      expect(out.refused).toContain("error no-criteria");
      expect(out.refusedRun).toContain("no-criteria");
    }
  });
});

describe("timeout_ms and other integers", () => {
  it("refuses timeouts outside 1..3,600,000, fractions and negatives, naming the range", () => {
    const contract = parse("timeout-out-of-range");
    expect(found("timeout-out-of-range")).toEqual([
      "error invalid-value 36:25",
      "error invalid-value 46:25",
      "error invalid-value 56:25",
      "error invalid-value 66:25",
      "error wrong-type 76:25",
      "error invalid-value 85:28",
    ]);
    for (const p of contract.problems.slice(0, 5)) {
      expect(p.message).toContain("must be an integer from 1 to 3600000");
    }
    expect(contract.problems[0]!.message).toContain("2147483647");
    expect(contract.problems[5]!.message).toBe(
      "tasks[0].verification[5].expected_exit must be at least 0, got -1",
    );
    expect(found("timeout-in-range")).toEqual([]);
    expect(parse("timeout-in-range").criteria.map((c) => c.checks[0])).toMatchObject([
      { timeoutMs: 3_600_000 },
      { timeoutMs: 60_000 },
      { timeoutMs: 300_000 },
    ]);
    // The lower bound itself (too short to start a process, so not in the run fixture).
    const one = readFileSync(`${FIXTURES}/timeout-in-range/phase-2-contract.json`, "utf8").replace(
      '"timeout_ms": 60000',
      '"timeout_ms": 1',
    );
    expect(parsePlanContract(CONTRACT, new TextEncoder().encode(one)).problems).toEqual([]);
  });

  it("refuses fractional and negative waves and phases", () => {
    const text = readFileSync(`${FIXTURES}/no-criteria-twin/phase-2-contract.json`, "utf8")
      .replace('"wave": 1', '"wave": 1.5')
      .replace('"phase": 2', '"phase": -2');
    const contract = parsePlanContract(CONTRACT, new TextEncoder().encode(text));
    expect(contract.problems.map((p) => `${p.code} ${p.message}`)).toEqual([
      "invalid-value phase must be a positive integer, got -2",
      "invalid-value tasks[0].wave must be an integer, got 1.5",
    ]);
  });

  it("validates and runs the in-range twin; refuses and runs nothing out of range", async () => {
    const out = await expectTwins("timeout-in-range", "timeout-out-of-range", [1, 2, 3]);
    expect(out.refused).toContain("must be an integer from 1 to 3600000");
  });
});

describe("severities", () => {
  it("registers the new codes with the severities the rules need", () => {
    expect(PROBLEM_CODES["ignored-key"].severity).toBe("warning");
    expect(PROBLEM_CODES["advisory-path"].severity).toBe("warning");
    expect(PROBLEM_CODES["no-criteria"].severity).toBe("error");
    expect(PROBLEM_CODES["unknown-key"].severity).toBe("error");
  });
});
