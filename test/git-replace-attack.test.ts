/**
 * The `git replace` attack: a check in one contract writes a replacement
 * object for the base version of another contract, so that a later
 * comparison (the next run in the same clone, or on a self-hosted runner's
 * reused workspace, which keeps `.git`) reads the weakened text as the base
 * and sees no change. The gate's git ignores replace objects; the control
 * shows plain git reading the replacement. Through the CLI with `--base` and
 * through the bundled action (run `npm run bundle` after changing src/).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  finish,
  lastCheckRun,
  makeRepo,
  oracleContract,
  oraclePath,
  reportOf,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import { baseAndHead } from "./helpers/integrity-repo.js";

const VICTIM = oraclePath("login");
const ATTACKER = oraclePath("tidy");

const HONEST = oracleContract("login", [
  { title: "the loop is gone", check: "test -f src/fixed && echo FIXED", expect: "FIXED" },
]);
const WEAK = oracleContract("login", [
  { title: "the loop is gone", check: "echo FIXED", expect: "FIXED" },
]);

/** A blob's id, from its content alone (what the base and head versions will have). */
function blobId(text: string): string {
  return execFileSync("git", ["hash-object", "--stdin"], { input: text }).toString().trim();
}

/** The attacker's contract: its one check replaces the victim's base blob with the weak one. */
const ATTACK = oracleContract("tidy", [
  {
    title: "the tree is tidy",
    // In the checkout by its absolute path where the job names it: a check's own tree is a
    // private one of the head (issue 32), whose repository is not the one the gate reads.
    check: `git -C "\${GITHUB_WORKSPACE:-.}" replace -f ${blobId(HONEST)} ${blobId(WEAK)} && echo TIDY`,
    expect: "TIDY",
  },
]);

const findingCodes = (json: { integrity?: { findings?: { code: string }[] } }) =>
  (json.integrity?.findings ?? []).map((f) => f.code);

describe("a replace object written by a check changes nothing the gate compares", () => {
  it("CLI, twice in one clone: the weakened contract blocks both times; plain git reads the replacement (control)", async () => {
    const root = baseAndHead({ [VICTIM]: WEAK, [ATTACKER]: ATTACK }, { [VICTIM]: HONEST });
    const base = git(root, "rev-parse", "main").trim();
    const args = ["run", "--base", "main", "--no-write", "--sandbox", "off", "--json"];

    const first = await runCli(args, root);
    expect(first.code).toBe(1);
    const firstJson = JSON.parse(first.stdout);
    expect(findingCodes(firstJson)).toEqual(["oracle-changed"]);
    // The attacker's check ran and its replacement is in effect for plain git.
    expect(git(root, "cat-file", "-p", `${base}:${VICTIM}`)).toBe(WEAK);

    const second = await runCli(args, root);
    expect(second.code).toBe(1);
    expect(findingCodes(JSON.parse(second.stdout))).toEqual(["oracle-changed"]);
  });

  it("CLI honest twin: the same replacement beside an unchanged contract is no finding, twice", async () => {
    // The weak text exists as another file, so the replacement is written; the contract is not changed.
    const root = baseAndHead(
      { [ATTACKER]: ATTACK, "notes/old-login.txt": WEAK },
      { [VICTIM]: HONEST, "src/fixed": "" },
    );
    const base = git(root, "rev-parse", "main").trim();
    const args = ["run", "--base", "main", "--no-write", "--sandbox", "off", "--json"];
    for (const _ of [1, 2]) {
      const r = await runCli(args, root);
      expect(findingCodes(JSON.parse(r.stdout))).toEqual([]);
      expect(r.code, r.stdout).toBe(0);
    }
    expect(git(root, "cat-file", "-p", `${base}:${VICTIM}`)).toBe(WEAK);
  });

  it("bundled action, on a reused workspace: the second run compares the real base too", async () => {
    const repo = await makeRepo({
      base: { [VICTIM]: HONEST },
      head: { [VICTIM]: WEAK, [ATTACKER]: ATTACK },
    });
    const gh = await standInFor(repo);
    const inputs = { sandbox: "off" };
    const first = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(first.code, first.stdout).toBe(1);
    expect(findingCodes(reportOf(first))).toEqual(["oracle-changed"]);
    expect(await repo.git("cat-file", "-p", `${repo.base}:${VICTIM}`)).toBe(WEAK.trim());

    const second = await runAction({ repo, gh, event: "pull_request", inputs });
    expect(second.code, second.stdout).toBe(1);
    expect(findingCodes(reportOf(second))).toEqual(["oracle-changed"]);
    expect(lastCheckRun(gh).conclusion).toBe("failure");
    await finish(gh, expect);
  });
});
