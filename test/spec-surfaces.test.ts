/**
 * What a reviewer reads for the requirement-spec kinds, as golden files: the
 * check run's summary, text and annotations and the terminal report for a
 * seed-layout spec (a Verification command that fails, a requirement awaiting
 * its proof, a manual one), a spec that NEEDS CLARIFICATION (its open
 * question a blocking criterion) and a spec-kit spec with a phantom completion.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { checkEnv } from "../src/process/env.js";
import { checkRunOutput, rerunHint } from "../src/report/github-surfaces.js";
import { plain } from "../src/report/paint.js";
import { renderTerminal } from "../src/report/terminal.js";
import { runContracts } from "../src/run/engine.js";
import { expectGolden } from "./helpers/golden.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "specs");
const SPEC = "specs/001-trim/spec.md";
const KIT = "specs/002-albums/spec.md";
const OPEN = "specs/003-tabs/spec.md";

function treeOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [relative(dir, path), readFileSync(path, "utf8")];
      }),
  );
}

async function surfaces() {
  const seed = readFileSync(join(FIXTURES, "manual-not-allowed", "twin", SPEC), "utf8").replace(
    '`node -e "process.exit(0)"`',
    "`echo 'trim: 1 failing'; exit 3`",
  );
  const root = tempDir();
  writeTree(root, {
    ...treeOf(join(FIXTURES, "phantom-completion", "fail")),
    [SPEC]: seed,
    [OPEN]: readFileSync(
      join(FIXTURES, "spec-status-ready-open", "twin", "specs/001-trim/spec.md"),
      "utf8",
    ),
    "tests/trim.test.ts": "// test\n",
  });
  const contracts = [
    await loadContract(root, SPEC),
    // Judged as a change that added the whole tree: its done tasks are the change's.
    await loadContract(root, KIT, undefined, { base: { read: async () => undefined } }),
    await loadContract(root, OPEN),
  ];
  const result = await runContracts(contracts, {
    root,
    maxParallel: 1,
    requireOracles: false,
    oracleTimeoutMs: 30_000,
    regexTimeoutMs: 10_000,
    env: checkEnv(process.env).env,
  });
  return { result };
}

describe("requirement specs on every surface", () => {
  it("check run summary, text and annotations, and the terminal report", async () => {
    const { result } = await surfaces();
    const output = checkRunOutput({
      summary: result.summary,
      outcomes: result.contracts,
      integrity: undefined,
      sandbox: { line: "Commands ran in a sandbox." },
      checkName: "Contract Gate",
      rerun: rerunHint(7),
    });
    expectGolden("spec/check-run-summary.md", output.summary);
    expectGolden("spec/check-run-text.md", output.text);
    expectGolden("spec/annotations.json", `${JSON.stringify(output.annotations, null, 2)}\n`);
    expectGolden("spec/terminal.txt", renderTerminal(result.summary, result.contracts, plain));
  });
});
