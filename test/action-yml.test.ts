import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { INPUT_DEFAULTS } from "../src/action/inputs.js";

const action = parse(readFileSync("action.yml", "utf8")) as {
  runs: { using: string; main: string; post: string };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
  branding: { icon: string; color: string };
};
const reference = readFileSync("docs/action.md", "utf8");

const INPUTS = [
  "github-token",
  "contracts",
  "scope",
  "pr-number",
  "check-name",
  "comment",
  "fail-on-blocking",
  "untrusted-commands",
  "require-oracles",
  "max-parallel",
  "timeout-seconds",
  "working-directory",
  "sandbox",
  "check-memory-mb",
  "sandbox-read",
  "check-network",
  "check-env",
  "if-no-contracts",
  "requirement-proof",
  "requirement-map",
  "test-tamper",
  "test-command",
  "test-files",
  "test-timeout-seconds",
  "mutants-per-requirement",
  "mutation-timeout-seconds",
  "shard",
  "merge-reports",
];
const OUTPUTS = [
  "conclusion",
  "blocking",
  "met",
  "unmet",
  "errors",
  "abandoned",
  "evidence-missing",
  "manual",
  "contracts",
  "report",
  "report-file",
  "check-run-id",
  "check-run-url",
  "comment-url",
];

describe("action.yml", () => {
  it("runs the committed bundle on node24", () => {
    expect(action.runs).toEqual({ using: "node24", main: "dist/index.js", post: "dist/index.js" });
    expect(action.branding.icon).toBeTruthy();
  });

  it("declares exactly the documented inputs and outputs, each described", () => {
    expect(Object.keys(action.inputs)).toEqual(INPUTS);
    expect(Object.keys(action.outputs)).toEqual(OUTPUTS);
    for (const [name, input] of Object.entries({ ...action.inputs, ...action.outputs })) {
      expect(input.description, name).toMatch(/\w{3,}/);
    }
  });

  it("has the defaults the code assumes when an input is empty", () => {
    for (const [name, value] of Object.entries(INPUT_DEFAULTS)) {
      expect(String(action.inputs[name]?.default).trim(), name).toBe(value);
    }
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression itself
    expect(action.inputs["github-token"]?.default).toBe("${{ github.token }}");
  });

  it("is documented in docs/action.md's tables", () => {
    for (const name of [...INPUTS, ...OUTPUTS])
      expect(reference, name).toContain(`| \`${name}\` |`);
  });
});
