/**
 * A fork's requirement proof through the bundled action (dist/index.js)
 * against the GitHub stand-in. The proof runs the tests a spec maps its new
 * requirements to: the fork's code. On `pull_request_target` and in stage 2
 * (`workflow_run`) the job holds a write token, so without a sandbox boundary
 * (`sandbox: off`) those runs must not happen, as a fork's oracles do not
 * (test/fork-e2e.test.ts). The test command leaves a sentinel outside the
 * checkout (the proof runs in a private copy of it); the same PR from a
 * branch of the repository itself is the control: the sentinel appears.
 * Run `npm run bundle` after changing src/.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { ACTIONS_TOKEN } from "./github/standin.js";
import {
  type Files,
  finish,
  makeRepo,
  PR_NUMBER,
  runAction,
  scratch,
  standInFor,
  workflowRunPayload,
} from "./helpers/action-harness.js";

const SPEC_PATH = "specs/001-names/spec.md";

function spec(requirements: string[], criteria: string[], map: string[]): string {
  return `# Specification: names

Store names.

## Requirements

${requirements.join("\n")}

## Acceptance Criteria

${criteria.join("\n")}

## Verification

- \`node -e "process.exit(0)"\` — proves AC-1

## Requirement Map

${map.join("\n")}

SPEC STATUS: READY
`;
}

const FR1 = "- FR-001: WHEN a name is saved, the system SHALL store it.";
const FR2 = "- FR-002 [ADDED]: WHEN a name is saved, the system SHALL remove surrounding spaces.";
const AC1 = "- [ ] AC-1 (FR-001): names are stored";
const AC2 = "- [ ] AC-2 (FR-002): padded names are stored trimmed";
const BASE: Files = {
  "src/trim.js": "export const trim = (s) => s;\n",
  "tests/trim.test.js": 'it("stores names", () => {});\n',
  [SPEC_PATH]: spec([FR1], [AC1], ["- FR-001 → tests/trim.test.js > stores names"]),
};
/** The PR adds a requirement mapped to a new test: the proof runs that test. */
const HEAD: Files = {
  "src/trim.js": "export const trim = (s) => s.trim();\n",
  "tests/trim.test.js": 'it("stores names", () => {});\nit("trims names", () => {});\n',
  [SPEC_PATH]: spec(
    [FR1, FR2],
    [AC1, AC2],
    ["- FR-001 → tests/trim.test.js > stores names", "- FR-002 → tests/trim.test.js > trims names"],
  ),
};

/** A gate run of a PR (from a fork or not) on `event`, sandbox off; whether the proof's test command ran. */
async function gate(event: "pull_request_target" | "workflow_run", fork: boolean) {
  const repo = await makeRepo({ base: BASE, head: HEAD });
  const gh = await standInFor(repo, { fork });
  const sentinel = join(scratch("cg-proof-sentinel-"), "PROOF-RAN");
  const inputs = {
    sandbox: "off",
    "test-command": `touch ${sentinel}; echo "<testsuites/>" > {junit}`,
  };
  const r =
    event === "workflow_run"
      ? await runAction({
          repo,
          gh,
          event,
          token: ACTIONS_TOKEN,
          payload: workflowRunPayload(repo, { fork }),
          inputs: { ...inputs, "pr-number": String(PR_NUMBER) },
        })
      : await runAction({ repo, gh, event, fork, inputs });
  return { r, gh, ran: existsSync(sentinel) };
}

describe.concurrent("a fork's requirement proof beside a write token, without a sandbox boundary", () => {
  it("pull_request_target, same repository (control): the proof runs the mapped tests", async ({
    expect,
  }) => {
    const { r, gh, ran } = await gate("pull_request_target", false);
    expect(ran, r.stdout).toBe(true);
    await finish(gh, expect);
  });

  it("pull_request_target from a fork: the mapped tests never run, and the gate does not pass", async ({
    expect,
  }) => {
    const { r, gh, ran } = await gate("pull_request_target", true);
    expect(ran, r.stdout).toBe(false);
    expect(r.code, r.stdout).toBe(1);
    await finish(gh, expect);
  });

  it("workflow_run (stage 2) from a fork: the mapped tests never run, and the gate does not pass", async ({
    expect,
  }) => {
    const { r, gh, ran } = await gate("workflow_run", true);
    expect(ran, r.stdout).toBe(false);
    expect(r.code, r.stdout).toBe(1);
    await finish(gh, expect);
  });
});
