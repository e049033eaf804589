import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import { copyTree } from "./helpers/tmp.js";

/**
 * actions/checkout leaves the job's token in `.git/config`. File checks and
 * behavioral citations must never read under `.git/`: each pass/fail of a
 * grep-match is one bit of the token, and a citation's "the line is …"
 * quotes it outright. The twin fixture aims the same checks at a plain copy
 * of the file (`leak/config`), showing what the checks would reveal.
 */
const FIXTURES = join(import.meta.dirname, "fixtures/files");

/** A repository holding `token` where checkout would put it, or in `leak/` for the twin. */
function checkout(fixture: "git-dir" | "git-dir-twin", token: string): string {
  const root = copyTree(join(FIXTURES, fixture));
  git(root, "init", "-q");
  const dir = fixture === "git-dir" ? ".git" : "leak";
  mkdirSync(join(root, dir), { recursive: true });
  appendFileSync(
    join(root, dir, "config"),
    `[core]\n\tbare = false\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${token}\n`,
  );
  symlinkSync(`${dir}/config`, join(root, "linked-config"));
  symlinkSync(dir, join(root, "linked-dir"));
  return root;
}

interface Criterion {
  id: string;
  status: string;
  reason: string;
  checks: { detail?: string | null; reason: string }[];
}

async function outcomes(root: string) {
  const r = await runCli(["run", "--root", root, "--json", "--no-write"], root);
  const criteria: Criterion[] = JSON.parse(r.stdout).contracts[0].criteria;
  return { stdout: r.stdout, criteria, statuses: criteria.map((k) => k.status) };
}

describe("file checks and citations never read .git/", () => {
  it("positive control: aimed at a plain copy, the checks reveal the token", async () => {
    const early = await outcomes(checkout("git-dir-twin", "AAAA1111"));
    const late = await outcomes(checkout("git-dir-twin", "SSSS2222"));
    // One bit per check: the outcomes depend on the token...
    expect(early.statuses).not.toEqual(late.statuses);
    expect(early.statuses.slice(0, 2)).toEqual(["met", "unmet"]);
    expect(late.statuses.slice(0, 2)).toEqual(["unmet", "met"]);
    // ...and the citation quotes the line that holds it.
    expect(late.stdout).toContain("SSSS2222");
  });

  it("aimed at .git/config — directly, by glob, through a symlinked file or directory, by citation — every check is an execution error naming the rule", async () => {
    const early = await outcomes(checkout("git-dir", "AAAA1111"));
    const late = await outcomes(checkout("git-dir", "SSSS2222"));
    expect(early.statuses).toEqual(late.statuses);
    expect(early.stdout).not.toContain("AAAA1111");
    expect(late.stdout).not.toContain("SSSS2222");
    for (const k of late.criteria) {
      expect(k.status, k.id).toBe("error");
      expect(k.reason, k.id).toMatch(
        /is inside \.git.*: file checks and citations never read git's own files/,
      );
    }
    const reasons = late.criteria.map((k) => k.reason);
    expect(reasons[4]).toContain("linked-config is inside .git (it resolves to .git/config)");
    expect(reasons[5]).toMatch(/^linked-dir\/\S+ is inside \.git \(it resolves to \.git\//);
  });

  it("paths that reach .git through '..' are refused before anything is read", async () => {
    const root = checkout("git-dir", "SSSS2222");
    const contract = join(root, ".planning/phase-1-contract.json");
    const text = readFileSync(contract, "utf8")
      .replace('"path": ".git/config"', '"path": "src/../.git/config"')
      .replace('"path": ".git/conf*"', '"path": "{src,..}/.git/conf*"');
    writeFileSync(contract, text);
    const v = await runCli(["validate", "--root", root], root);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain("contains a '..' segment");
  });
});
