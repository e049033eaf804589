/**
 * Issue 11: the bundled action (dist/index.js) under faults — the runner's
 * cancellation, rate limits, hung requests, refused tokens, a GitHub outage —
 * against the stand-in. Each case asserts the final check-run state, how many
 * check runs and comments exist, the exit code and the message; none asserts
 * a duration (timeouts and waits are configured small through the environment).
 * Run `npm run bundle` after changing src/.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, type ExpectStatic, it } from "vitest";
import type { StandIn } from "./github/standin.js";
import {
  type ActionResult,
  type Files,
  makeRepo,
  oracleContract,
  oraclePath,
  REPO,
  type RunOptions,
  runAction,
  standInFor,
} from "./helpers/action-harness.js";
import { processesWith } from "./helpers/sandbox.js";

const BASE: Files = { "README.md": "# widgets\n" };

async function pr(head: Files) {
  const repo = await makeRepo({ base: BASE, head });
  const gh = await standInFor(repo);
  const run = (o: Partial<RunOptions> = {}) => runAction({ repo, gh, event: "pull_request", ...o });
  return { repo, gh, run };
}

async function finish(gh: StandIn, expect: ExpectStatic): Promise<void> {
  try {
    expect(gh.violations).toEqual([]);
  } finally {
    await gh.close();
  }
}

const checkRuns = (gh: StandIn) => gh.repo(REPO).checkRuns;
const comments = (gh: StandIn) => gh.repo(REPO).comments;
const messages = (r: ActionResult, kind: "error" | "warning") =>
  r.commands.filter((c) => c.command === kind).map((c) => c.data);

async function until(what: () => boolean, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!what()) {
    if (Date.now() > end) throw new Error("condition never held");
    await sleep(20);
  }
}

describe("the runner cancels the job", () => {
  for (const [signal, sandbox, code] of [
    ["SIGINT", "required", 130],
    ["SIGTERM", "off", 143],
  ] as const) {
    it(`${signal} (sandbox ${sandbox}): every check killed, exit ${code}, the post step completes the run as cancelled`, async ({
      expect,
    }) => {
      const tag = `cg-cancel-${randomBytes(6).toString("hex")}`;
      const { repo, gh, run } = await pr({
        [oraclePath("slow")]: oracleContract("slow", [
          {
            title: "slow",
            check: `touch STARTED; (sleep 60; echo ${tag}) & sleep 61; echo ${tag} OK`,
            expect: "OK",
          },
        ]),
      });
      const main = await run({
        inputs: { sandbox },
        onSpawn: (child) => {
          void until(() => existsSync(join(repo.dir, "STARTED")))
            .then(() => until(() => processesWith(tag).length >= 2))
            .then(() => child.kill(signal));
        },
      });
      expect(main.code).toBe(code);
      expect(messages(main, "warning").join("\n")).toContain(`${signal}: the job was cancelled`);
      expect(processesWith(tag)).toEqual([]);
      expect(checkRuns(gh).map((c) => c.status)).toEqual(["in_progress"]);
      const post = await run({ postState: main.state });
      expect(post.code).toBe(0);
      expect(checkRuns(gh).map((c) => [c.status, c.conclusion])).toEqual([
        ["completed", "cancelled"],
      ]);
      expect(comments(gh)).toHaveLength(0);
      await finish(gh, expect);
    }, 90_000);
  }
});
