import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectContracts } from "../src/action/collect.js";
import type { ActionSettings } from "../src/action/inputs.js";
import type { ActionIO } from "../src/action/io.js";
import { DEFAULT_CONTRACT_GLOBS } from "../src/formats/kinds/index.js";
import { openGit } from "../src/git/index.js";
import type { GitHubApi } from "../src/github/types.js";
import { MAX_LISTED } from "../src/scope/discover-audit.js";
import { oracleContract, planContract } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { commitAll } from "./helpers/git.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";
const ORACLE = oracleContract("1. ok\n   CHECK: echo OK\n   EXPECT: OK\n   EVIDENCE: pending\n");
const PLAN = planContract(1, [{ id: "T1", verification: [{ type: "file-exists", path: "a" }] }]);

/** A plan contract moved from .planning/ to `dir/`, beside a discovered oracle contract (or not). */
function moved(dir: string, withOracle: boolean): string {
  const root = tempDir();
  const files: Record<string, string> = { a: "x\n" };
  for (const [p, t] of Object.entries(PLAN)) files[p.replace(".planning/", `${dir}/`)] = t;
  if (withOracle) files[`${C}/a.md`] = ORACLE;
  writeTree(root, files);
  // The action runs in a checkout: what it gates is a commit.
  commitAll(root, "moved");
  return root;
}

describe("loud misconfiguration (CLI)", () => {
  it("a plan contract moved out of .planning beside a found contract is a warning naming it and the glob", async () => {
    const root = moved("contracts", true);
    const r = await runCli(["validate", "--root", root], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("contracts/phase-1-contract.json (a plan contract by its name)");
    expect(r.stderr).toContain("--contracts 'contracts/phase-*-contract.json'");
    // The glob it names does include it.
    const fixed = await runCli(
      ["validate", "--root", root, "--contracts", "contracts/phase-*-contract.json"],
      root,
    );
    expect(fixed.stderr).toBe("");
    expect(fixed.stdout).toContain("2 contracts checked");
    // Control: where the default globs look, nothing is said.
    const home = moved(".planning", true);
    expect((await runCli(["validate", "--root", home], home)).stderr).toBe("");
  });

  it("no contract found while contract-like files exist is an error listing up to 10 of them", async () => {
    const root = moved("contracts", false);
    const r = await runCli(["run", "--no-write", "--root", root], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "no contract matched the globs, but these files look like contracts",
    );
    expect(r.stdout).toBe("");
    // By first bytes: an oracle contract anywhere else is recognised by its title.
    const many = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`docs/tasks/t-${String(i).padStart(2, "0")}.md`] = ORACLE;
    files["docs/notes.md"] = "# Notes\n"; // control: not a contract by its first bytes
    writeTree(many, files);
    const m = await runCli(["validate", "--root", many], many);
    expect(m.code).toBe(2);
    expect(m.stderr.match(/docs\/tasks\/t-\d+\.md/g)).toHaveLength(MAX_LISTED);
    expect(m.stderr).toContain("and 2 more");
    expect(m.stderr).toContain("--contracts 'docs/tasks/*.md'");
    expect(m.stderr).not.toContain("notes.md");
    // Control: an empty repository is simply "no contracts found".
    const empty = tempDir();
    writeTree(empty, { "README.md": "# hi\n" });
    const e = await runCli(["validate", "--root", empty], empty);
    expect([e.code, e.stdout, e.stderr]).toEqual([0, "no contracts found\n", ""]);
  });

  it("a mistyped --contracts glob is a warning naming it (control: the right one is silent)", async () => {
    const root = moved("contracts", true);
    const r = await runCli(["validate", "--root", root, "--contracts", "contract/*.json"], root);
    expect(r.stderr).toContain("the glob 'contract/*.json' matches no file");
    const ok = await runCli(["validate", "--root", root, "--contracts", "contracts/*.json"], root);
    expect(ok.stderr).not.toContain("matches no file");
  });

  it("a directory with a contract's name is an error naming it (control: the file is read)", async () => {
    const root = moved(".planning", true);
    mkdirSync(join(root, ".planning/phase-3-contract.json"));
    mkdirSync(join(root, `${C}/old.md`), { recursive: true });
    const r = await runCli(["run", "--no-write", "--root", root], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      ".planning/phase-3-contract.json has a contract's name but is a directory",
    );
    expect(r.stderr).toContain(`${C}/old.md has a contract's name but is a directory`);
    const control = moved(".planning", true);
    expect((await runCli(["run", "--no-write", "--root", control], control)).code).toBe(0);
  });
});

describe("loud misconfiguration (action)", () => {
  const io = () => {
    const warnings: string[] = [];
    const sink = {
      warning: (m: string) => warnings.push(m),
      info: () => {},
    } as unknown as ActionIO;
    return { sink, warnings };
  };
  const collect = (root: string, contracts: readonly string[], sink: ActionIO) =>
    collectContracts({
      api: {} as GitHubApi,
      io: sink,
      runner: { workspace: root } as never,
      settings: { workingDirectory: root, contracts, scope: "all" } as unknown as ActionSettings,
      gated: {
        target: { kind: "commit", sha: "0".repeat(40), event: "push" },
        headSha: "0".repeat(40),
      },
      git: openGit(root),
    });

  it("moved contracts with nothing found fail the gate and lead every surface; a mistyped glob warns", async () => {
    const root = moved("contracts", false);
    const { sink, warnings } = io();
    const scope = await collect(root, DEFAULT_CONTRACT_GLOBS, sink);
    expect(scope.misconfigured).toContain("contracts/phase-1-contract.json");
    expect(scope.noMatch).toBe(scope.misconfigured);
    expect(warnings.join("\n")).toContain("look like contracts");
    // A given glob that matches nothing is named; control: the default list is not audited glob by glob.
    const typo = io();
    const found = moved(".planning", true);
    const s2 = await collect(found, [...DEFAULT_CONTRACT_GLOBS, "contract/*.json"], typo.sink);
    expect(s2.misconfigured).toBeUndefined();
    expect(typo.warnings.join("\n")).toContain("the glob 'contract/*.json' matches no file");
    const quiet = io();
    await collect(found, DEFAULT_CONTRACT_GLOBS, quiet.sink);
    expect(quiet.warnings).toEqual([]);
  });
});
