/**
 * The allowlisted view through the real bundle (dist/index.js) and the API
 * stand-in, with its positive control (`sandbox: off`): a monorepo gated at
 * `working-directory: app` whose check reads the token `actions/checkout`
 * persisted in the top level's `.git/config`, and credentials an earlier
 * step left in `$HOME`.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  makeRepo,
  oracleContract,
  oraclePath,
  runAction,
  scratch,
  standInFor,
} from "./helpers/action-harness.js";

const CANARY = `cgcanary${randomBytes(6).toString("hex")}`;

async function monorepoRun(sandbox: "off" | "auto") {
  const repo = await makeRepo({
    base: { "app/README.md": "app\n" },
    head: {
      [`app/${oraclePath("leak")}`]: oracleContract("leak", [
        {
          title: "parent git config",
          // Prints what it finds: the command names only the canary's prefix, so the
          // full canary in any surface means the file was read.
          // By the checkout's path from the job: a relative `..` leaves the contract's
          // private tree of the head (issue 32), not the checkout.
          check: "grep -o 'cgcanary[0-9a-f]*' \"$GITHUB_WORKSPACE/.git/config\" && echo PWNED",
          expect: "PWNED",
        },
        {
          title: "docker login",
          check: "grep -o 'cgcanary[0-9a-f]*' ~/.docker/config.json && echo PWNED",
          expect: "PWNED",
        },
      ]),
    },
  });
  execFileSync("git", [
    "-C",
    repo.dir,
    "config",
    "http.https://github.com/.extraheader",
    `AUTHORIZATION: basic ${CANARY}`,
  ]);
  const home = scratch("cg-e2e-home-");
  mkdirSync(join(home, ".docker"));
  writeFileSync(join(home, ".docker/config.json"), `{"auths":{"ghcr.io":{"auth":"${CANARY}"}}}`);
  const gh = await standInFor(repo);
  const result = await runAction({
    repo,
    gh,
    event: "pull_request",
    inputs: { sandbox, "working-directory": "app" },
    env: { HOME: home },
  });
  const summary = gh.repo("acme/widgets").checkRuns[0]?.output.summary ?? "";
  await gh.close();
  return { result, summary };
}

describe("the allowlisted view through the bundle", () => {
  it("working-directory below the top level: no token from ../.git/config, no ~/.docker credentials (both read when off)", async () => {
    const off = await monorepoRun("off");
    expect(off.summary).toContain("parent git config");
    expect(off.result.code).toBe(0);
    // Control: without the sandbox both checks met, so `grep -o` found the canary in both files.
    const on = await monorepoRun("auto");
    expect(on.result.code).toBe(1);
    expect(on.result.stdout).toContain("Sandbox: namespaces (root)");
    expect(on.summary).toMatch(/Checks saw the working tree \(read-write; .*read-only\)/);
    expect(on.summary).not.toContain(CANARY);
    expect(on.result.stdout).not.toContain(CANARY);
  });
});
