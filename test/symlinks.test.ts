import { createHash } from "node:crypto";
import {
  copyFileSync,
  lstatSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverContracts } from "../src/scope/discover.js";
import { runCli } from "./helpers/cli.js";
import { commitAll } from "./helpers/git.js";
import { copyTree, tempDir } from "./helpers/tmp.js";

/**
 * A contract, plan or evidence path that is a symlink is an error naming
 * where it leads, in every path through the gate. Each attack is shown to
 * pay off without the rule (the linked content, committed as a regular
 * file, changes the outcome) before it is shown to be refused.
 */
const FIXTURE = join(import.meta.dirname, "fixtures/files/symlinks");
const CONTRACT = ".planning/phase-1-contract.json";
const PLAN = ".planning/phase-1-plan.md";
const EVIDENCE = ".planning/phase-1-evidence.json";
const ORACLE = ".claude/tasks/contracts/c.md";

async function validate(root: string, ...args: string[]) {
  return runCli(["validate", "--root", root, ...args], root);
}

async function runJson(root: string, ...args: string[]) {
  const r = await runCli(["run", "--root", root, "--json", ...args], root);
  return { ...r, report: JSON.parse(r.stdout) };
}

/** The fixture's plan contract alone, made to fail: a README without the usage section. */
function failingTree(): string {
  const root = copyTree(FIXTURE);
  rmSync(join(root, ORACLE));
  writeFileSync(join(root, "README.md"), "# Tool\n\nNo usage yet.\n");
  return root;
}

/** The plan contract's entry in a report. */
function planEntry(report: { contracts: { path: string }[] }) {
  return report.contracts.find((c) => c.path === CONTRACT) as {
    path: string;
    drift: string | null;
    verdict: string;
    problems: { code: string; message: string }[];
    criteria: { status: string; reason: string }[];
  };
}

function sha(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

describe("a contract replaced by a symlink", () => {
  it("is refused by validate and run, naming the target; committed as a file, the same content would pass", async () => {
    // The honest twin: valid, and blocking while the README lacks its usage section.
    const honest = failingTree();
    expect((await validate(honest)).code).toBe(0);
    expect((await runJson(honest, "--no-write")).code).toBe(1);

    // Positive control: the lenient contract in place of the real one makes the run pass.
    const copied = failingTree();
    copyFileSync(join(copied, "docs/lenient-contract.json"), join(copied, CONTRACT));
    expect((await runJson(copied, "--no-write")).code).toBe(0);

    const linked = failingTree();
    rmSync(join(linked, CONTRACT));
    symlinkSync("../docs/lenient-contract.json", join(linked, CONTRACT));
    expect(await discoverContracts({ root: linked })).toContain(CONTRACT);
    const v = await validate(linked);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(
      `${CONTRACT}:1:1: error symlinked-contract ${CONTRACT} is a symlink to docs/lenient-contract.json`,
    );
    const r = await runJson(linked, "--no-write");
    expect(r.code).toBe(1);
    expect(planEntry(r.report).verdict).toBe("invalid");
  });

  it("a markdown contract too, and a dangling link, and a directory of contracts linked elsewhere", async () => {
    const root = copyTree(FIXTURE);
    const outside = tempDir();
    copyFileSync(join(root, ORACLE), join(outside, "c.md"));
    rmSync(join(root, ORACLE));
    symlinkSync(join(outside, "c.md"), join(root, ORACLE));
    const dangling = ".claude/tasks/contracts/gone.md";
    symlinkSync("nowhere.md", join(root, dangling));
    const v = await validate(root);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`${ORACLE} is a symlink to ${join(outside, "c.md")}`);
    expect(v.stdout).toContain(`${dangling} is a symlink to nowhere.md (broken)`);
    // run refuses it too, and writes nothing through the link or over it.
    const before = readFileSync(join(outside, "c.md"), "utf8");
    expect((await runCli(["run", "--root", root], root)).code).toBe(1);
    expect(lstatSync(join(root, ORACLE)).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outside, "c.md"), "utf8")).toBe(before);
    // So does refresh-hash, for a plan contract behind a link.
    const plan = failingTree();
    rmSync(join(plan, CONTRACT));
    symlinkSync("../docs/lenient-contract.json", join(plan, CONTRACT));
    const refresh = await runCli(["refresh-hash", "--root", plan, join(plan, CONTRACT)], plan);
    expect(refresh.code).toBe(2);
    expect(refresh.stderr).toContain(`${CONTRACT} is a symlink to docs/lenient-contract.json`);
    expect(lstatSync(join(plan, CONTRACT)).isSymbolicLink()).toBe(true);

    // A directory of contracts linked in from outside: what it holds is found, and refused.
    const nested = copyTree(FIXTURE);
    const shelf = tempDir();
    copyFileSync(join(nested, ORACLE), join(shelf, "x.md"));
    symlinkSync(shelf, join(nested, ".claude/tasks/contracts/shelf"));
    const n = await validate(nested);
    expect(n.code).toBe(1);
    expect(n.stdout).toContain(
      `.claude/tasks/contracts/shelf/x.md lies under the symlink .claude/tasks/contracts/shelf, which leads to ${shelf}`,
    );

    // `.planning` itself linked out of the repository: its contract is still found, and refused.
    const moved = copyTree(FIXTURE);
    const elsewhere = tempDir();
    renameSync(join(moved, ".planning"), join(elsewhere, "planning"));
    symlinkSync(join(elsewhere, "planning"), join(moved, ".planning"));
    const d = await validate(moved);
    expect(d.code).toBe(1);
    expect(d.stdout).toContain(
      `${CONTRACT} lies under the symlink .planning, which leads to ${join(elsewhere, "planning")}`,
    );
  });
});

describe("a plan or evidence file that is a symlink", () => {
  it("a plan linked out of the repository is never read or hashed", async () => {
    const secret = "root:x:0:0:the file outside\n";
    const outside = join(tempDir(), "passwd");
    writeFileSync(outside, secret);

    // Positive control: read as a plan, the outside file's hash is printed.
    const copied = copyTree(FIXTURE);
    writeFileSync(join(copied, PLAN), secret);
    expect((await validate(copied)).stdout).toContain(sha(secret));

    const root = copyTree(FIXTURE);
    rmSync(join(root, PLAN));
    symlinkSync(outside, join(root, PLAN));
    const v = await validate(root, "--json");
    expect(v.code).toBe(1);
    expect(v.stdout).not.toContain(sha(secret));
    const contract = planEntry(JSON.parse(v.stdout));
    expect(contract.drift).toBeNull();
    expect(contract.problems).toEqual([
      expect.objectContaining({
        code: "symlinked-contract",
        message: `${PLAN} (the plan of ${CONTRACT}) is a symlink to ${outside}; a plan is never read through a symlink`,
      }),
    ]);
    expect((await runJson(root, "--no-write")).code).toBe(1);

    // refresh-hash neither hashes it nor writes the contract.
    const before = readFileSync(join(root, CONTRACT));
    const refresh = await runCli(["refresh-hash", "--root", root, join(root, CONTRACT)], root);
    expect(refresh.code).toBe(1);
    expect(refresh.stderr).toContain("is a symlink");
    expect(readFileSync(join(root, CONTRACT))).toEqual(before);
  });

  it("an evidence file linked elsewhere is refused by validate and trusted for no citation by run", async () => {
    // Positive control: the same citations, in the evidence file itself, meet the check.
    const honest = copyTree(FIXTURE);
    expect(planEntry((await runJson(honest, "--no-write")).report).criteria[1]!.status).toBe("met");

    const root = copyTree(FIXTURE);
    renameSync(join(root, EVIDENCE), join(root, "docs/evidence.json"));
    symlinkSync("../docs/evidence.json", join(root, EVIDENCE));
    const v = await validate(root);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(
      `${EVIDENCE}:1:1: error symlinked-contract ${EVIDENCE} is a symlink to docs/evidence.json`,
    );
    const r = await runJson(root, "--no-write");
    expect(r.code).toBe(1);
    const behavioral = planEntry(r.report).criteria[1]!;
    expect(behavioral.status).toBe("evidence-missing");
    expect(behavioral.reason).toContain(`${EVIDENCE} is invalid`);
  });
});

describe("--changed-since", () => {
  it("selects a contract replaced by a symlink, and refuses it", async () => {
    // Positive control: the lenient content committed as a regular file is selected and passes.
    const control = failingTree();
    commitAll(control);
    copyFileSync(join(control, "docs/lenient-contract.json"), join(control, CONTRACT));
    const passed = await runJson(control, "--no-write", "--changed-since", "HEAD");
    expect(passed.report.contracts.map((c: { path: string }) => c.path)).toEqual([CONTRACT]);
    expect(passed.code).toBe(0);

    const root = failingTree();
    commitAll(root);
    rmSync(join(root, CONTRACT));
    symlinkSync("../docs/lenient-contract.json", join(root, CONTRACT));
    commitAll(root, "link");
    const r = await runJson(root, "--no-write", "--changed-since", "HEAD~1");
    expect(r.report.contracts).toEqual([
      expect.objectContaining({ path: CONTRACT, verdict: "invalid" }),
    ]);
    expect(r.code).toBe(1);
  });

  it("a plan replaced by a symlink selects its contract, which is refused", async () => {
    const root = copyTree(FIXTURE);
    commitAll(root);
    renameSync(join(root, PLAN), join(root, "docs/plan.md"));
    symlinkSync("../docs/plan.md", join(root, PLAN));
    const r = await runJson(root, "--no-write", "--changed-since", "HEAD");
    expect(r.report.contracts.map((c: { verdict: string }) => c.verdict)).toEqual(["invalid"]);
    expect(r.report.contracts[0].problems[0].code).toBe("symlinked-contract");
  });
});

describe("write-back never replaces a symlink", () => {
  it("a contract a check turns into a symlink mid-run stays a link, and nothing is written through it", async () => {
    const root = copyTree(FIXTURE);
    rmSync(join(root, ".planning"), { recursive: true });
    const oracle = readFileSync(join(root, ORACLE), "utf8").replace(
      "CHECK: grep -c '^## Usage' README.md",
      `CHECK: cp ${ORACLE} kept.md && ln -sf ../../../kept.md ${ORACLE} && grep -c '^## Usage' README.md`,
    );
    writeFileSync(join(root, ORACLE), oracle);
    const r = await runCli(["run", "--root", root], root);
    expect(r.code).toBe(0);
    expect(lstatSync(join(root, ORACLE)).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, "kept.md"), "utf8")).toContain("EVIDENCE: pending");
    expect(r.stderr).toContain(`${ORACLE}: is now a symlink to kept.md; nothing written`);

    // Positive control: the same check without the link records its outcome.
    const control = copyTree(FIXTURE);
    await runCli(["run", "--root", control], control);
    expect(readFileSync(join(control, ORACLE), "utf8")).toMatch(/EVIDENCE: MET/);
  });

  it("a verification file that is a symlink is left alone, and so is what it points to", async () => {
    const control = copyTree(FIXTURE);
    await runCli(["run", "--root", control], control);
    expect(
      JSON.parse(readFileSync(join(control, ".planning/phase-1-verification.json"), "utf8"))
        .verdict,
    ).toBe("pass");

    const root = copyTree(FIXTURE);
    const outside = join(tempDir(), "bashrc");
    writeFileSync(outside, "# untouched\n");
    symlinkSync(outside, join(root, ".planning/phase-1-verification.json"));
    const r = await runCli(["run", "--root", root], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      ".planning/phase-1-verification.json is a symlink; no verdict recorded",
    );
    expect(readFileSync(outside, "utf8")).toBe("# untouched\n");
    expect(lstatSync(join(root, ".planning/phase-1-verification.json")).isSymbolicLink()).toBe(
      true,
    );
  });
});
