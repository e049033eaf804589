/**
 * What happens to command checks and oracles, for every value of the
 * `untrusted-commands` input, trusted or not, with and without a sandbox
 * boundary: a row per combination, generated from the input's values, so a
 * new value without a decision here fails. The end-to-end fork tests
 * (test/fork-e2e.test.ts, test/fork-proof-e2e.test.ts) run the bundle; these
 * rows run the source, which is what mutation testing mutates.
 */
import { describe, expect, it } from "vitest";
import { UNTRUSTED_COMMANDS, type UntrustedCommands } from "../src/action/inputs.js";
import { commandPolicy, untrustedWarning } from "../src/action/trust.js";
import type { SandboxInfo } from "../src/sandbox/index.js";

const boundary = (mechanism: SandboxInfo["mechanism"]): SandboxInfo =>
  ({ mode: "auto", mechanism, cgroup: "none", memoryMb: 0 }) as SandboxInfo;

const MECHANISMS: SandboxInfo["mechanism"][] = [
  "namespaces (root)",
  "namespaces (sudo -n)",
  "none",
];

/** An untrusted head's commands, by setting, with a boundary and without one. */
const UNTRUSTED: Record<UntrustedCommands, { withBoundary: string; without: string }> = {
  sandbox: { withBoundary: "run", without: "block" },
  block: { withBoundary: "block", without: "block" },
  skip: { withBoundary: "skip", without: "skip" },
  run: { withBoundary: "run", without: "run" },
};

describe("commandPolicy: a row per setting, trust and boundary", () => {
  it("every value of untrusted-commands has its row", () => {
    expect(Object.keys(UNTRUSTED).sort()).toEqual([...UNTRUSTED_COMMANDS].sort());
  });

  const rows = UNTRUSTED_COMMANDS.flatMap((setting) =>
    MECHANISMS.flatMap((mechanism) => [
      { setting, mechanism, untrusted: false, policy: "run" },
      {
        setting,
        mechanism,
        untrusted: true,
        policy: mechanism === "none" ? UNTRUSTED[setting].without : UNTRUSTED[setting].withBoundary,
      },
    ]),
  );

  it.each(rows)(
    "$setting, untrusted $untrusted, $mechanism → $policy",
    ({ setting, mechanism, untrusted, policy }) => {
      expect(commandPolicy(untrusted, setting, boundary(mechanism))).toBe(policy);
    },
  );
});

describe("untrustedWarning: says what happens, and why", () => {
  const event = "pull_request_target";
  const head = `PR code comes from another repository and this job holds a privileged token (${event}): `;

  it.each([
    [
      "sandbox",
      "run",
      "command checks and oracles run inside the sandbox (untrusted-commands: sandbox); they can still use the network and CPU time.",
    ],
    [
      "sandbox",
      "block",
      "no sandbox boundary is active, so command checks and oracles are not run and block (untrusted-commands: sandbox behaves as block); file checks and evidence still run.",
    ],
    ["run", "run", "command checks and oracles WILL run (untrusted-commands: run)."],
    [
      "block",
      "block",
      "command checks and oracles are not run (untrusted-commands: block); file checks and evidence still are.",
    ],
    [
      "skip",
      "skip",
      "command checks and oracles are not run (untrusted-commands: skip); file checks and evidence still are.",
    ],
  ] as const)("%s → %s", (setting, policy, said) => {
    expect(untrustedWarning(event, setting, policy)).toBe(head + said);
  });
});
