import { describe, expect, it } from "vitest";
import { kindOf, parseContract } from "../src/formats/index.js";
import {
  type CommandCheck,
  harnessFindings,
  proofChecks,
  resolveAll,
} from "../src/integrity/harness-diff.js";
import { DEFAULT_PROOF_OPTIONS } from "../src/proof/prover.js";
import { proofHarnessCommand } from "../src/proof/run/harness-command.js";
import { BASE_FILES, SPEC_PATH } from "./helpers/proof-repo.js";

// The requirement proof's own test command is a check too (issue 33): the
// command the gate would choose at base — the test-command input, or
// detection — resolved through the same harness table, so the script entry
// or runner configuration it runs is compared with the base. Pure, over
// in-memory trees; the edge reads are the same as a criterion's.

type Files = Record<string, string>;

function findings(base: Files, head: Files, testCommand?: string, withProof = true) {
  const contract = parseContract(
    kindOf(SPEC_PATH) ?? "spec",
    SPEC_PATH,
    new TextEncoder().encode(base[SPEC_PATH]),
  );
  const command = proofHarnessCommand({
    ...DEFAULT_PROOF_OPTIONS,
    ...(testCommand !== undefined ? { testCommand } : {}),
  });
  const tree = (p: string) => base[p] ?? null;
  const checks: CommandCheck[] =
    withProof && command ? proofChecks([contract], command, (p) => base[p]) : [];
  const changed = new Set(
    [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]),
  );
  const resolved = resolveAll(checks, tree, [...changed].sort());
  return harnessFindings(checks, resolved, tree, (p) => head[p] ?? null, changed);
}

const pkgWith = (scripts: Record<string, string>) =>
  `${JSON.stringify({ name: "x", devDependencies: { vitest: "^4.0.0" }, scripts }, null, 2)}\n`;

describe("the proof's test command through the harness resolver", () => {
  it("detected (vitest at base): a vitest.config.ts the PR adds to exclude the mapped tests blocks, naming the proof's command", () => {
    const head = {
      ...BASE_FILES,
      "vitest.config.ts": "export default { test: { exclude: ['tests/**'] } };\n",
    };
    const out = findings(BASE_FILES, head);
    expect(out.map((f) => `${f.code} ${f.path} ${f.subject}`)).toEqual([
      "check-harness-changed vitest.config.ts the proof's test command harness",
    ]);
    expect(out[0]?.message).toContain(
      `the proof's test command of ${SPEC_PATH} runs the whole file of vitest.config.ts`,
    );
    // The control: the same PR with only the criteria's checks resolved (the rule before) is no finding.
    expect(findings(BASE_FILES, head, undefined, false)).toEqual([]);
  });

  it("the test-command input's script entry rewritten blocks; another script entry changed does not (twin)", () => {
    const cmd = "npm test -- --reporter=junit --outputFile={junit} {files}";
    const base = {
      ...BASE_FILES,
      "package.json": pkgWith({ test: "vitest run", lint: "biome check" }),
    };
    const rewritten = { ...base, "package.json": pkgWith({ test: "exit 0", lint: "biome check" }) };
    const out = findings(base, rewritten, cmd);
    expect(out.map((f) => `${f.code} ${f.path}`)).toEqual(["check-harness-changed package.json"]);
    expect(out[0]).toMatchObject({ before: "vitest run", after: "exit 0", blocking: true });
    const twin = { ...base, "package.json": pkgWith({ test: "vitest run", lint: "eslint ." }) };
    expect(findings(base, twin, cmd)).toEqual([]);
  });

  it("the proof off: no proof command, nothing compared for it", () => {
    expect(
      proofHarnessCommand({ ...DEFAULT_PROOF_OPTIONS, requirementProof: false }),
    ).toBeUndefined();
  });

  it("placeholders filled: the mapped files shell-quoted, a results path, Go packages", () => {
    const c = proofHarnessCommand({ ...DEFAULT_PROOF_OPTIONS, testCommand: "go" });
    expect(c?.choose(() => undefined, ["pkg/a/a_test.go"])).toBe(
      "go test -json './pkg/a' > results.xml",
    );
  });
});
