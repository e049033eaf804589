import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { baseAndHead, ORACLE_BASE, ORACLE_PATH } from "./helpers/integrity-repo.js";

interface JsonFinding {
  code: string;
  blocking: boolean;
  path: string;
  line: number;
  subject: string;
  message: string;
  before?: string | null;
  after?: string | null;
}

/** `validate --base main --json` in a real repository whose PR branch applies `head` over `base`. */
async function findingsFor(head: Record<string, string | null>, base?: Record<string, string>) {
  const root = baseAndHead(head, base);
  const { code, stdout } = await runCli(["validate", "--base", "main", "--json"], root);
  const json = JSON.parse(stdout || "{}");
  return { code, findings: (json.integrity?.findings ?? []) as JsonFinding[] };
}
const codes = (fs: JsonFinding[]) => fs.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);

const NEXT_PATH = ".claude/tasks/contracts/2026-03-05-login-logout-1000.md";
const successor = (status: string) =>
  ORACLE_BASE.replace("- status: active", `- status: ${status}\n- supersedes: ${ORACLE_PATH}`);

describe("supersession counts only what runs (CLI --base)", () => {
  it("an identical successor that is aborted keeps nothing: criterion-removed, exit 1", async () => {
    const r = await findingsFor({ [ORACLE_PATH]: null, [NEXT_PATH]: successor("aborted") });
    expect(codes(r.findings).filter((c) => c.startsWith("B"))).toEqual([
      "B criterion-removed",
      "B criterion-removed",
      "B criterion-removed",
    ]);
    expect(r.findings[0]?.message).toContain(`${NEXT_PATH} supersedes it but runs nothing`);
    expect(r.code).toBe(1);
  });

  it("the same successor active keeps every criterion: a warning, exit 0 (control)", async () => {
    const r = await findingsFor({ [ORACLE_PATH]: null, [NEXT_PATH]: successor("active") });
    expect(codes(r.findings)).toEqual(["W contract-superseded"]);
    expect(r.code).toBe(0);
  });
});

/** An oracle contract whose three criteria run `npm test`, `make check` and `sh scripts/verify.sh`. */
const HARNESS_CONTRACT = ORACLE_BASE.replace(
  "grep -q resetDone src/login.js && echo LOOP-GONE",
  "npm test && echo LOOP-GONE",
)
  .replace("test -f test/login.test.sh && echo REGRESSION-OK", "make check && echo REGRESSION-OK")
  .replace(
    "3. the reset e-mail copy reads well\n",
    "3. the verify script passes\n   CHECK: sh scripts/verify.sh && echo VERIFIED\n   EXPECT: VERIFIED\n   EVIDENCE: pending\n",
  )
  .replace("ABANDON: 3 copy needs the design team; handed over in the final report\n", "");
const PKG = (scripts: Record<string, string>) =>
  `${JSON.stringify({ name: "app", scripts }, null, 2)}\n`;
const MAKEFILE =
  "include common.mk\n\ncheck: lint\n\t./run-checks.sh\n\nlint:\n\techo lint\n\nother:\n\techo other\n";
const HARNESS_BASE: Record<string, string> = {
  [ORACLE_PATH]: HARNESS_CONTRACT,
  "package.json": PKG({ test: "vitest run", lint: "biome check ." }),
  Makefile: MAKEFILE,
  "common.mk": "CFLAGS = -O2\n",
  "run-checks.sh": "exit 1\n",
  "scripts/verify.sh": "grep -q ok src/state.txt\n",
  "src/state.txt": "ok\n",
};

describe("what a check runs is part of its contract (CLI --base)", () => {
  const harnessed = (head: Record<string, string | null>) => findingsFor(head, HARNESS_BASE);
  const blocking = (fs: JsonFinding[]) => fs.filter((f) => f.blocking);

  it("scripts.test rewritten to exit 0: check-harness-changed naming the criterion, the file, the entry, base → head", async () => {
    const r = await harnessed({ "package.json": PKG({ test: "exit 0", lint: "biome check ." }) });
    expect(codes(blocking(r.findings))).toEqual(["B check-harness-changed"]);
    expect(blocking(r.findings)[0]).toMatchObject({
      path: "package.json",
      subject: "criterion 1 harness",
      before: "vitest run",
      after: "exit 0",
    });
    expect(blocking(r.findings)[0]?.message).toContain("scripts.test of package.json");
    expect(r.code).toBe(1);
  });

  it("an unrelated script entry changed: no blocking finding (control)", async () => {
    const r = await harnessed({ "package.json": PKG({ test: "vitest run", lint: "eslint ." }) });
    expect(blocking(r.findings)).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("a pre-hook added to the script a check runs blocks", async () => {
    const r = await harnessed({
      "package.json": PKG({
        pretest: "cp pass.json results.json",
        test: "vitest run",
        lint: "biome check .",
      }),
    });
    expect(blocking(r.findings).map((f) => f.message)).toEqual([
      expect.stringContaining("scripts.pretest"),
    ]);
  });

  it("the make target's recipe, a prerequisite's recipe and an included file each block; another target does not", async () => {
    const recipe = await harnessed({ Makefile: MAKEFILE.replace("\t./run-checks.sh", "\ttrue") });
    expect(blocking(recipe.findings)).toMatchObject([
      {
        code: "check-harness-changed",
        path: "Makefile",
        before: "check: lint\n\t./run-checks.sh",
        after: "check: lint\n\ttrue",
      },
    ]);
    const prereq = await harnessed({ Makefile: MAKEFILE.replace("\techo lint", "\texit 0") });
    expect(blocking(prereq.findings).map((f) => f.message)).toEqual([
      expect.stringContaining("target lint"),
    ]);
    const included = await harnessed({ "common.mk": "check:\n\t@true\n" });
    expect(blocking(included.findings).map((f) => f.path)).toEqual(["common.mk"]);
    const script = await harnessed({ "run-checks.sh": "exit 0\n" });
    expect(blocking(script.findings).map((f) => f.path)).toEqual(["run-checks.sh"]);
    const other = await harnessed({ Makefile: MAKEFILE.replace("\techo other", "\techo changed") });
    expect(blocking(other.findings)).toEqual([]);
  });

  it("the script a check runs with sh, rewritten, blocks", async () => {
    const r = await harnessed({ "scripts/verify.sh": "exit 0\n" });
    expect(blocking(r.findings)).toMatchObject([
      {
        path: "scripts/verify.sh",
        subject: "criterion 3 harness",
        before: "grep -q ok src/state.txt\n",
        after: "exit 0\n",
      },
    ]);
  });

  it("a .npmrc added to the tree blocks the check that runs npm", async () => {
    const r = await harnessed({ ".npmrc": "script-shell=/bin/true\n" });
    expect(blocking(r.findings)).toMatchObject([
      { path: ".npmrc", subject: "criterion 1 harness" },
    ]);
  });

  it("a new check with its own new script is no finding (additions never block)", async () => {
    const r = await harnessed({
      [ORACLE_PATH]: `${HARNESS_CONTRACT}`.replace(
        "## FILE SCOPE",
        "4. the new script passes [gated 2026-03-02]\n   CHECK: npm run fresh && echo FRESH\n   EXPECT: FRESH\n   EVIDENCE: pending\n\n## FILE SCOPE",
      ),
      "package.json": PKG({ test: "vitest run", lint: "biome check .", fresh: "node fresh.js" }),
      "fresh.js": "process.exit(0)\n",
    });
    expect(blocking(r.findings)).toEqual([]);
  });
});
