/**
 * Run what was compared. The comparison reads the commit; the checks run the
 * working tree. A step before the gate that runs PR code — the quick start's
 * own `npm ci` runs the PR's `postinstall` — could rewrite a contract on disk
 * after checkout (`EXPECT` of a failing oracle replaced by what an `echo`
 * prints): the committed contract honest, the executed one not. The gate
 * (the action always; the CLI with `CI` set or `--committed`) blocks such a
 * contract as `worktree-modified` and runs nothing of it. Through the CLI
 * and the bundled action (run `npm run bundle` after changing src/).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  finish,
  makeRepo,
  oracleContract,
  oraclePath,
  reportOf,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { baseAndHead } from "./helpers/integrity-repo.js";

const CONTRACT = oraclePath("login");
const HONEST = oracleContract("login", [
  { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
]);
const REWRITTEN = HONEST.replace("test -f src/fixed && echo FIXED", "echo FIXED");

/** What a `postinstall` of the PR does: rewrite the contract after checkout. */
const REWRITE = `require("fs").writeFileSync(${JSON.stringify(CONTRACT)}, ${JSON.stringify(REWRITTEN)});\n`;
const PACKAGE = {
  "package.json": `${JSON.stringify({ name: "app", version: "1.0.0", private: true, scripts: { postinstall: "node rewrite.js" } }, null, 2)}\n`,
  "package-lock.json": `${JSON.stringify({ name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "app", version: "1.0.0", hasInstallScript: true } } }, null, 2)}\n`,
  "rewrite.js": REWRITE,
};

const problemCodes = (json: { contracts: { problems?: { code: string }[]; verdict: string }[] }) =>
  json.contracts.flatMap((c) => (c.problems ?? []).map((p) => p.code));

function npmCi(dir: string, ...flags: string[]): void {
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--offline", ...flags], {
    cwd: dir,
    stdio: "pipe",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

/** Every file of a fixture tree, by its path relative to the tree. */
function treeOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [relative(dir, path), readFileSync(path, "utf8")];
      }),
  );
}

describe("a spec's tasks.md changed on disk by a step before the gate", () => {
  const FIXTURE = join(import.meta.dirname, "fixtures", "specs", "phantom-completion", "fail");
  const TASKS = "specs/002-albums/tasks.md";
  const SPEC = "specs/002-albums/spec.md";
  // The committed tasks.md marks T005 done naming a file that does not exist: a phantom.
  const honest = treeOf(FIXTURE);
  const hidden = honest[TASKS]!.replace("album-service.ts", "albums.ts");

  it("CLI --committed: the spec blocks as worktree-modified naming tasks.md; the working tree's reading hides the phantom (control)", async () => {
    const root = baseAndHead(honest, { "README.md": "app\n" });
    writeFileSync(join(root, TASKS), hidden);
    // Control: read from the working tree, the rewritten tasks.md names a file that exists.
    expect((await runCli(["validate"], root)).code).toBe(0);
    const r = await runCli(["validate", "--committed"], root);
    expect(r.stdout).toContain(`${SPEC}:1:1: error worktree-modified ${TASKS} in the working tree`);
    expect(r.code).toBe(1);
  });

  it("honest twin: unchanged on disk, --committed reads the committed phantom and nothing else", async () => {
    const root = baseAndHead(honest, { "README.md": "app\n" });
    const r = await runCli(["validate", "--committed"], root);
    // No --base: nothing says this change checked the task off, so it warns.
    expect(r.stdout).toContain("warning phantom-completion");
    expect(r.stdout).not.toContain("worktree-modified");
    expect(r.code).toBe(0);
  });
});

describe("a contract changed on disk by a step before the gate", () => {
  it("CLI: with CI set or --committed it runs nothing and blocks; without, the working tree runs (control)", async () => {
    const root = baseAndHead({ [CONTRACT]: HONEST }, { "README.md": "app\n" });
    writeFileSync(join(root, CONTRACT), REWRITTEN);
    const args = ["run", "--no-write", "--sandbox", "off", "--json"];

    // Control: a developer's run reads the working tree, so the rewrite turns it green.
    const dev = await runCli(args, root);
    expect(dev.code).toBe(0);

    for (const [how, extra, env] of [
      ["--committed", ["--committed"], {}],
      ["CI=true", [], { CI: "true" }],
    ] as const) {
      const r = await runCli([...args, ...extra], root, env);
      const json = JSON.parse(r.stdout);
      expect(problemCodes(json), how).toContain("worktree-modified");
      expect(json.contracts[0].verdict, how).toBe("invalid");
      expect(r.code, how).toBe(1);
    }
    const text = await runCli(["validate", "--committed"], root);
    expect(text.stdout).toContain(`${CONTRACT} in the working tree differs from commit`);
    expect(text.stdout).toContain("npm ci --ignore-scripts");
  });

  it("CLI honest twin: the committed contract, unchanged on disk, runs under --committed", async () => {
    const root = baseAndHead({ [CONTRACT]: HONEST, "src/fixed": "" }, { "README.md": "app\n" });
    const r = await runCli(
      ["run", "--no-write", "--sandbox", "off", "--json", "--committed"],
      root,
    );
    expect(problemCodes(JSON.parse(r.stdout))).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("bundled action: `npm ci` runs the PR's postinstall, which rewrites the contract: it blocks as worktree-modified; `npm ci --ignore-scripts` leaves the honest red (twin)", async () => {
    const attack = await makeRepo({ base: PACKAGE, head: { [CONTRACT]: HONEST } });
    npmCi(attack.dir);
    expect(await attack.git("status", "--porcelain", "--", CONTRACT)).toBe(`M ${CONTRACT}`);
    const gh = await standInFor(attack);
    const r = await runAction({
      repo: attack,
      gh,
      event: "pull_request",
      inputs: { sandbox: "off" },
    });
    expect(r.code, r.stdout).toBe(1);
    const report = reportOf(r);
    expect(problemCodes(report)).toContain("worktree-modified");
    expect(report.contracts[0].verdict).toBe("invalid");
    await finish(gh, expect);

    const twin = await makeRepo({ base: PACKAGE, head: { [CONTRACT]: HONEST } });
    npmCi(twin.dir, "--ignore-scripts");
    expect(await twin.git("status", "--porcelain", "--", CONTRACT)).toBe("");
    const gh2 = await standInFor(twin);
    const honest = await runAction({
      repo: twin,
      gh: gh2,
      event: "pull_request",
      inputs: { sandbox: "off" },
    });
    const honestReport = reportOf(honest);
    expect(problemCodes(honestReport)).toEqual([]);
    // The committed contract runs, and is red for the honest reason: its check fails.
    expect(honestReport.contracts[0].verdict).toBe("fail");
    expect(honest.code).toBe(1);
    await finish(gh2, expect);
  });
});

describe("a contract deleted on disk by a step before the gate", () => {
  const PASSING = oraclePath("ok");
  const OK = oracleContract("ok", [{ title: "it is there", check: "echo THERE", expect: "THERE" }]);

  async function gate(deleteOnDisk: boolean) {
    const repo = await makeRepo({
      base: { [CONTRACT]: HONEST, [PASSING]: OK },
      head: { "README.md": "app\n" },
    });
    if (deleteOnDisk) rmSync(join(repo.dir, CONTRACT));
    const gh = await standInFor(repo);
    const r = await runAction({
      repo,
      gh,
      event: "pull_request",
      inputs: { sandbox: "off", scope: "all" },
    });
    await finish(gh, expect);
    return r;
  }

  it("bundled action, scope: all: the failing contract gone from disk fails the gate, naming it (without the check only the passing one would run, green)", async () => {
    const r = await gate(true);
    expect(r.stdout).toContain(
      `\`${CONTRACT}\` is in the checked-out commit but gone from the working tree`,
    );
    expect(reportOf(r).contracts.map((c: { path: string }) => c.path)).toEqual([PASSING]);
    expect(r.code, r.stdout).toBe(1);
  });

  it("honest twin: nothing deleted, both run and the failing one is red for its own reason", async () => {
    const r = await gate(false);
    expect(r.stdout).not.toContain("gone from the working tree");
    expect(
      reportOf(r)
        .contracts.map((c: { verdict: string }) => c.verdict)
        .sort(),
    ).toEqual(["fail", "pass"]);
    expect(r.code, r.stdout).toBe(1);
  });
});
