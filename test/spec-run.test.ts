import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { checkEnv } from "../src/process/env.js";
import { runContracts } from "../src/run/engine.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const SPEC = "specs/001-trim/spec.md";
const GOOD = readFileSync(
  join(import.meta.dirname, "fixtures", "specs", "manual-not-allowed", "twin", SPEC),
  "utf8",
);

/** Write a spec (and its test file) into a fresh root, load it, run the engine. */
async function run(spec: string, extra: Record<string, string> = {}) {
  const root = tempDir();
  writeTree(root, { [SPEC]: spec, "tests/trim.test.ts": "// test\n", ...extra });
  const contract = await loadContract(root, SPEC);
  const result = await runContracts([contract], {
    root,
    maxParallel: 2,
    requireOracles: false,
    oracleTimeoutMs: 30_000,
    regexTimeoutMs: 10_000,
    env: checkEnv(process.env).env,
  });
  const outcome = result.contracts[0]!;
  const by = (id: string) => {
    const k = outcome.criteria.find((c) => c.id === id);
    if (!k) throw new Error(`no criterion ${id}`);
    return k;
  };
  return { root, contract, outcome, summary: result.summary, by };
}

const withCommand = (command: string) =>
  GOOD.replace('`node -e "process.exit(0)"`', `\`${command}\``);

describe("a spec's criteria", () => {
  it("a mapped requirement awaits its proof: shown, not blocking, never green", async () => {
    const { outcome, summary, by } = await run(GOOD);
    expect(by("FR-001")).toMatchObject({ status: "awaiting-proof", blocking: false });
    expect(by("FR-001").reason).toContain("tests/trim.test.ts > trims surrounding spaces");
    expect(by("FR-002")).toMatchObject({ status: "manual", blocking: false });
    expect(by("FR-002").reason).toBe("manual: open the profile page and compare");
    expect(outcome.verdict).toBe("neutral");
    expect(summary.conclusion).toBe("neutral");
  });

  it("a Verification command decides its criterion and the acceptance criteria it proves, run once", async () => {
    const { by, root } = await run(withCommand("echo ran >> runs.txt; exit 3"));
    expect(by("V1")).toMatchObject({ status: "unmet", blocking: true });
    expect(by("V1").reason).toContain("exit 3");
    expect(by("AC-1")).toMatchObject({ status: "unmet", blocking: true });
    expect(readFileSync(join(root, "runs.txt"), "utf8")).toBe("ran\n");
    // Control: exit 0 is met.
    const ok = await run(withCommand("exit 0"));
    expect(ok.by("V1")).toMatchObject({ status: "met", blocking: false });
  });

  it("a command that cannot run is an error, never met (fail closed)", async () => {
    const { by } = await run(withCommand("no-such-command-cg"));
    expect(by("V1")).toMatchObject({ status: "error", blocking: true });
  });

  it("an invalid spec executes nothing", async () => {
    const bad = withCommand("touch ran.txt").replace("SPEC STATUS: READY", "SPEC STATUS: Ready");
    const { root, outcome } = await run(bad);
    expect(outcome.verdict).toBe("invalid");
    expect(existsSync(join(root, "ran.txt"))).toBe(false);
    // Control: the same command in a valid spec does run.
    const good = await run(withCommand("touch ran.txt"));
    expect(existsSync(join(good.root, "ran.txt"))).toBe(true);
  });

  it("NEEDS CLARIFICATION is valid and blocks with one criterion per open question", async () => {
    const spec = GOOD.replace("SPEC STATUS: READY", "SPEC STATUS: NEEDS CLARIFICATION").replace(
      "## Requirement Map",
      "## Open Questions\n\n- Are tabs spaces too?\n- (none) is not a question\n\n## Requirement Map",
    );
    const { contract, outcome, by } = await run(spec);
    expect(contract.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(by("Q1")).toMatchObject({ status: "unmet", blocking: true });
    expect(by("Q1").title).toBe("needs clarification: Are tabs spaces too?");
    expect(outcome.criteria.filter((c) => c.id.startsWith("Q"))).toHaveLength(1);
    expect(outcome.verdict).toBe("fail");
  });

  it("an open spec-kit marker blocks the run, showing its question", async () => {
    const root = tempDir();
    const spec = readFileSync(
      join(
        import.meta.dirname,
        "fixtures",
        "specs",
        "missing-section",
        "twin",
        "specs",
        "002-albums",
        "spec.md",
      ),
      "utf8",
    ).replace("rename an album.", "rename an album [NEEDS CLARIFICATION: max name length?].");
    writeTree(root, { "specs/002-albums/spec.md": spec, "tests/albums.test.ts": "//\n" });
    const contract = await loadContract(root, "specs/002-albums/spec.md");
    expect(contract.problems.filter((p) => p.severity === "error")).toEqual([]);
    const result = await runContracts([contract], {
      root,
      maxParallel: 1,
      requireOracles: false,
      oracleTimeoutMs: 30_000,
      regexTimeoutMs: 10_000,
      env: checkEnv(process.env).env,
    });
    const q = result.contracts[0]!.criteria.find((c) => c.id === "Q1");
    expect(q).toMatchObject({
      status: "unmet",
      blocking: true,
      title: "needs clarification: max name length?",
    });
    expect(result.summary.conclusion).toBe("failure");
  });
});
