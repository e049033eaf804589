/** Issue 32, item 4: what runs before a command check is part of what it checks. */
import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { compareContracts, supersededPaths } from "../src/integrity/compare.js";
import { reorderedFindings } from "../src/integrity/order.js";
import { version } from "../src/integrity/version.js";
import { bashExit, oracleContract, planContract } from "./fixtures/run/contracts.js";

const PATH = ".claude/tasks/contracts/a.md";
const NEXT = ".claude/tasks/contracts/b.md";
const oracle = (n: number, name: string, check: string) =>
  `${n}. ${name}\n   CHECK: ${check}\n   EXPECT: OK\n   EVIDENCE: pending\n`;
const BUILD = "make build && echo OK";
const TEST = "./run-tests && echo OK";
const REWRITE = "sed -i s/fail/pass/ run-tests && echo OK";

function v(path: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  return version("oracle-contract", path, bytes, bytes.length);
}
const base = oracleContract(oracle(1, "builds", BUILD) + oracle(2, "tests pass", TEST));

function codes(head: string, path = PATH) {
  return compareContracts([{ base: v(PATH, base), head: v(path, head) }], new Map()).map(
    (f) => `${f.blocking ? "B" : "W"} ${f.code} ${f.subject}`,
  );
}

describe("check-reordered", () => {
  it("attack: a new command inserted before a kept oracle blocks, in place", () => {
    const head = oracleContract(
      oracle(1, "builds", BUILD) + oracle(2, "prepares", REWRITE) + oracle(3, "tests pass", TEST),
    );
    // In place, the renumbering blocks first; the order rule says the same of criterion 3.
    expect(codes(head)).toContain("B criterion-renumbered criterion 2");
    const found = reorderedFindings(v(PATH, base).contract, [v(PATH, head).contract]);
    expect(found.map((f) => [f.subject, f.blocking])).toEqual([["criterion 3", true]]);
  });

  it("twin: the same command appended after every kept check is no finding", () => {
    const head = oracleContract(
      oracle(1, "builds", BUILD) + oracle(2, "tests pass", TEST) + oracle(3, "also", REWRITE),
    );
    expect(codes(head).filter((c) => c.includes("check-reordered"))).toEqual([]);
  });

  it("attack: a superseding contract that puts a new command before a kept one blocks", () => {
    const next = oracleContract(
      oracle(1, "prepares", REWRITE) + oracle(2, "builds", BUILD) + oracle(3, "tests pass", TEST),
    ).replace("- status: active", `- status: active\n- supersedes: ${PATH}`);
    const heads = new Map([[NEXT, v(NEXT, next).contract]]);
    const found = compareContracts(
      [{ base: v(PATH, base) }, { head: v(NEXT, next) }],
      supersededPaths([...heads.values()]),
      new Map(),
      heads,
    ).map((f) => `${f.code} ${f.subject}`);
    expect(found).toContain("check-reordered criterion 2");
    expect(found).toContain("check-reordered criterion 3");
  });

  it("plan contracts: a kept command moved to a later wave behind a new task blocks; a new task in a later wave does not", () => {
    const plan = (tasks: Parameters<typeof planContract>[1]) => {
      const files = planContract(1, tasks);
      const path = ".planning/phase-1-contract.json";
      return parseContract("plan-contract", path, new TextEncoder().encode(files[path]!));
    };
    const test = bashExit("./run-tests");
    const at = plan([
      { id: "T1", wave: 1, verification: [bashExit("make build")] },
      { id: "T2", wave: 2, dependsOn: ["T1"], verification: [test] },
    ]);
    const moved = plan([
      { id: "T1", wave: 1, verification: [bashExit("make build")] },
      { id: "T3", wave: 2, dependsOn: ["T1"], verification: [bashExit("rm -rf tests")] },
      { id: "T2", wave: 3, dependsOn: ["T3"], verification: [test] },
    ]);
    expect(reorderedFindings(at, [moved]).map((f) => f.subject)).toEqual(["criterion T2.1"]);
    const later = plan([
      { id: "T1", wave: 1, verification: [bashExit("make build")] },
      { id: "T2", wave: 2, dependsOn: ["T1"], verification: [test] },
      { id: "T3", wave: 3, dependsOn: ["T2"], verification: [bashExit("rm -rf tests")] },
    ]);
    expect(reorderedFindings(at, [later])).toEqual([]);
    // Control: the same plan against itself.
    expect(reorderedFindings(at, [at])).toEqual([]);
  });
});
