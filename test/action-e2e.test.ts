import { describe, expect, it } from "vitest";
import { makeRepo, oracleContract, oraclePath, runAction, standInFor } from "./helpers/action-harness.js";

describe("smoke", () => {
  it("green", async () => {
    const repo = await makeRepo({
      base: { "README.md": "hi\n" },
      head: { [oraclePath("green")]: oracleContract("green", [{ title: "ok", check: "echo OK", expect: "OK" }]) },
    });
    const gh = await standInFor(repo);
    const t0 = Date.now();
    const r = await runAction({ repo, gh, event: "pull_request" });
    console.log(Date.now() - t0, r.code, r.stdout, r.stderr, r.outputs, r.summary.slice(0, 2000));
    console.log(gh.requests.map((q) => `${q.method} ${q.path} ${q.status}`), gh.violations, JSON.stringify(gh.repo("acme/widgets").checkRuns, null, 1).slice(0, 3000), gh.repo("acme/widgets").comments);
    await gh.close();
  });
});
