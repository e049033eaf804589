/**
 * Attacks on the action through the real bundle (dist/index.js) and the API
 * stand-in, each with its positive control (`sandbox: off`): a setsid daemon
 * that waits for the gate to complete its check run as failure and PATCHes
 * it to success with the token it read from the gate's environment, and a
 * check that rewrites the action's own dist/index.js, which the post step runs.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DIST,
  makeRepo,
  oracleContract,
  oraclePath,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { processesWith } from "./helpers/sandbox.js";

const DAEMON = `import { readFileSync, writeFileSync } from "node:fs";
let [gatePid, api, eventPath] = process.argv.slice(2);
const read = (f) => { try { return readFileSync(f, "utf8"); } catch { return ""; } };
// The gate is an ancestor (its parent, or its parent's): walk up until an environment holds the token.
// Checks get no API URL or event path of their own (an allowlisted environment): the gate's has them.
let token = "";
for (let p = gatePid; !token && Number(p) > 0; p = /^PPid:\\s*(\\d+)/m.exec(read("/proc/" + p + "/status"))?.[1] ?? "0") {
  const env = read("/proc/" + p + "/environ").split("\\0");
  const get = (k) => env.find((l) => l.startsWith(k + "="))?.slice(k.length + 1) ?? "";
  token = get("INPUT_GITHUB-TOKEN");
  if (token) { api ||= get("GITHUB_API_URL"); eventPath ||= get("GITHUB_EVENT_PATH"); }
}
writeFileSync(".daemon-up", "");
const sha = JSON.parse(read(eventPath) || "{}").pull_request?.head?.sha ?? "";
const headers = { authorization: "token " + token, accept: "application/vnd.github+json", "content-type": "application/json" };
for (;;) {
  await new Promise((r) => setTimeout(r, 100));
  try {
    const list = await (await fetch(api + "/repos/acme/widgets/commits/" + sha + "/check-runs", { headers })).json();
    const run = list.check_runs?.find((r) => r.status === "completed");
    if (!run) continue;
    await fetch(api + "/repos/acme/widgets/check-runs/" + run.id, { method: "PATCH", headers, body: JSON.stringify({ status: "completed", conclusion: "success" }) });
    process.exit(0);
  } catch {}
}
`;

async function daemonRun(sandbox: "off" | "auto", tag: string) {
  const repo = await makeRepo({
    base: {},
    head: {
      "daemon.mjs": DAEMON,
      [oraclePath("daemon")]: oracleContract("daemon", [
        {
          title: "starts a daemon",
          check: `setsid node daemon.mjs $PPID "$GITHUB_API_URL" "$GITHUB_EVENT_PATH" ${tag} </dev/null >/dev/null 2>&1 & while [ ! -e .daemon-up ]; do sleep 0.05; done; echo STARTED`,
          expect: "STARTED",
        },
        { title: "fails", check: "echo no", expect: "yes" },
      ]),
    },
  });
  const gh = await standInFor(repo);
  const result = await runAction({ repo, gh, event: "pull_request", inputs: { sandbox } });
  return { gh, result, survivors: processesWith(tag) };
}

describe("through the bundle", () => {
  it("a setsid daemon cannot PATCH the completed check run to success (it can when off)", async () => {
    const offTag = `cg-patch-${process.pid}-off`;
    const off = await daemonRun("off", offTag);
    expect(off.result.code).toBe(1);
    // The daemon outlives the gate's completion and turns the merge button green
    // (perhaps before the step even ended): wait for it.
    // Bounded, so a control that stops working fails the test instead of hanging the suite.
    for (let i = 0; off.gh.repo("acme/widgets").checkRuns[0]?.conclusion !== "success"; i++) {
      if (i > 2400) throw new Error("control: the unsandboxed daemon never PATCHed the check run");
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const pid of processesWith(offTag)) process.kill(pid, "SIGKILL");
    await off.gh.close();

    const onTag = `cg-patch-${process.pid}-on`;
    const on = await daemonRun("auto", onTag);
    expect(on.result.code).toBe(1);
    expect(on.result.stdout).toContain("Sandbox: namespaces (root)");
    // Nothing the check started is alive once the step ends, so nothing can PATCH later.
    expect(on.survivors).toEqual([]);
    const [runState] = on.gh.repo("acme/widgets").checkRuns;
    expect(runState).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(runState?.output.summary).toContain("Sandbox: namespaces (root)");
    expect(on.gh.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    const report = JSON.parse(readFileSync(on.result.outputs.report!, "utf8"));
    expect(report.sandbox).toMatchObject({ mode: "auto", mechanism: "namespaces (root)" });
    await on.gh.close();
  });

  it("a check cannot rewrite the action's own dist/index.js (it can when off)", async () => {
    const attack = async (sandbox: "off" | "auto") => {
      const repo = await makeRepo({
        base: {},
        head: {
          [oraclePath("rewrite")]: oracleContract("rewrite", [
            {
              title: "rewrites the action",
              // By the checkout's absolute path: a check's relative writes land in its
              // contract's private tree (issue 32), so only this reaches the real file.
              check:
                "echo '// evil' >> \"$GITHUB_WORKSPACE/.gate-action/dist/index.js\" && echo PWNED",
              expect: "PWNED",
            },
          ]),
        },
      });
      // The action checked out inside the workspace (as `uses: ./path` would have it).
      const action = join(repo.dir, ".gate-action");
      mkdirSync(join(action, "dist"), { recursive: true });
      copyFileSync(DIST, join(action, "dist/index.js"));
      copyFileSync(join(DIST, "../package.json"), join(action, "dist/package.json"));
      const gh = await standInFor(repo);
      const result = await runAction({
        repo,
        gh,
        event: "pull_request",
        inputs: { sandbox },
        dist: join(action, "dist/index.js"),
      });
      await gh.close();
      return { result, bundle: readFileSync(join(action, "dist/index.js"), "utf8") };
    };
    const off = await attack("off");
    expect(off.result.code).toBe(0);
    expect(off.bundle.endsWith("// evil\n")).toBe(true);
    const on = await attack("auto");
    expect(on.result.code).toBe(1);
    expect(on.bundle).toBe(readFileSync(DIST, "utf8"));
  });
});
