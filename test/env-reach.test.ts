import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type RunReportJson, RunReportSchema } from "../src/report/run-json.js";
import { oracleContract } from "./fixtures/run/contracts.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

// What a contract's check sees of the job's environment, through the real
// path: the CLI's `run` hands its environment to the checks it spawns. These
// are behaviours, not the shape of a rule table, so they hold whether the
// gate drops credentials by a denylist or keeps only an allowlist: a job
// variable that looks like a credential never reaches a check, wherever in
// its name the tell-tale word sits (a survivor of issue 37 turned "contains"
// into "ends with", and every name tested then ended with its pattern).

/** Credential-looking job variables: the word at the end, in the middle, at the start, in any case. */
const CREDENTIALS = [
  "AWS_SECRET_ACCESS_KEY",
  "MY_TOKEN_X",
  "X_PASSWORD_Y",
  "DEPLOY_PRIVATE_KEY_PEM",
  "db_password_url",
  "NPM_TOKEN",
  "GITHUB_TOKEN",
  "INPUT_GITHUB_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
];

const C = ".claude/tasks/contracts/env.md";
/** A marker the control appends to the job's PATH, which every design passes to checks. */
const MARK = "/cg-env-probe-marker";

/** A CHECK that prints ABSENT only when `name` is not set in its environment. */
const absentCheck = (name: string) => `test -z "\${${name}+set}" && echo ABSENT`;

function criteria(): string {
  const rows = CREDENTIALS.map(
    (name, i) =>
      `${i + 1}. ${name} does not reach the check\n   CHECK: ${absentCheck(name)}\n   EXPECT: ABSENT\n   EVIDENCE: pending\n`,
  );
  const control = `${CREDENTIALS.length + 1}. the job's PATH reaches the check (control)\n   CHECK: case "$PATH" in *${MARK}*) echo SEEN;; esac\n   EXPECT: SEEN\n   EVIDENCE: pending\n`;
  return rows.join("") + control;
}

async function runWith(env: NodeJS.ProcessEnv): Promise<RunReportJson> {
  const root = tempDir();
  writeTree(root, { [C]: oracleContract(criteria()) });
  const r = await runCli(
    ["run", "--root", root, "--json", "--no-write", "--sandbox", "off"],
    root,
    env,
  );
  return RunReportSchema.parse(JSON.parse(r.stdout));
}

describe("a credential-looking job variable never reaches a check", () => {
  it("the probe sees a variable that is set (control: the attack works without the defence)", () => {
    for (const name of CREDENTIALS) {
      const leaked = spawnSync("bash", ["-c", absentCheck(name)], {
        env: { PATH: process.env.PATH, [name]: "s3cr3t" },
        encoding: "utf8",
      });
      expect(leaked.stdout, name).not.toContain("ABSENT");
    }
  });

  it("through `run`: none of them is set in the check, while the job's PATH is", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${process.env.PATH}:${MARK}` };
    for (const name of CREDENTIALS) env[name] = "s3cr3t";
    const report = await runWith(env);
    const [contract] = report.contracts;
    const statuses = Object.fromEntries(
      contract!.criteria.map((k) => [CREDENTIALS[Number(k.id) - 1] ?? "control", k.status]),
    );
    expect(statuses).toEqual({
      ...Object.fromEntries(CREDENTIALS.map((n) => [n, "met"])),
      control: "met",
    });
  });
});
