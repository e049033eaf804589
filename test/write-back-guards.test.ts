import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_CONTRACT_BYTES } from "../src/formats/text.js";
import { runCli } from "./helpers/cli.js";
import { copyTree } from "./helpers/tmp.js";

/**
 * Write-back never produces a file the next `validate` refuses, and never
 * records outcomes over a contract (or plan) that changed during the run.
 */
const FIXTURES = join(import.meta.dirname, "fixtures/files/write-back");
const ORACLE = ".claude/tasks/contracts/c.md";
const VERIFICATION = ".planning/phase-1-verification.json";

const run = (root: string) => runCli(["run", "--root", root], root);
const read = (root: string, rel: string) => readFileSync(join(root, rel), "utf8");

describe("a check that rewrites its own contract", () => {
  it("leaves the EVIDENCE lines unwritten and says so; the honest twin records them", async () => {
    const honest = copyTree(join(FIXTURES, "honest-contract"));
    const ok = await run(honest);
    expect(ok.code).toBe(0);
    expect(read(honest, ORACLE)).toContain("EVIDENCE: MET exit=0 marker-found");

    const root = copyTree(join(FIXTURES, "rewrites-contract"));
    const r = await run(root);
    expect(r.code).toBe(0);
    // The check really ran and rewrote the file: the attack had its effect on disk...
    const after = read(root, ORACLE);
    expect(after).toContain("touched-by-check");
    // ...and nothing was written over it.
    expect(after).toContain("EVIDENCE: pending");
    expect(r.stderr).toContain(
      `contract-gate: ${ORACLE}: changed on disk during the run (a check rewrote it?), so the outcomes may not be its own; nothing written`,
    );
  });
});

describe("a check that rewrites the plan", () => {
  it("records no verdict for a contract that no longer matches its plan; the honest twin does", async () => {
    const honest = copyTree(join(FIXTURES, "honest-plan"));
    expect((await run(honest)).code).toBe(0);
    expect(JSON.parse(read(honest, VERIFICATION)).verdict).toBe("pass");

    const root = copyTree(join(FIXTURES, "rewrites-plan"));
    const r = await run(root);
    expect(read(root, ".planning/phase-1-plan.md")).toContain("edited mid-run");
    expect(r.stderr).toContain(
      ".planning/phase-1-plan.md changed during the run, so the contract no longer matches its plan; no verdict recorded",
    );
    expect(existsSync(join(root, VERIFICATION))).toBe(false);
    // The next validate sees the drift the run left behind.
    expect((await runCli(["validate", "--root", root], root)).stdout).toContain("plan-drift");
  });
});

describe("the size cap", () => {
  /** The honest contract padded with a comment paragraph to `size` bytes. */
  function padded(size: number): string {
    const root = copyTree(join(FIXTURES, "honest-contract"));
    const text = read(root, ORACLE);
    const filler = size - Buffer.byteLength(text) - 1;
    writeFileSync(join(root, ORACLE), `${text}${"x".repeat(filler)}\n`);
    return root;
  }

  it("writes nothing when the EVIDENCE lines would push the contract past 1 MiB; a contract with room is written", async () => {
    const roomy = padded(MAX_CONTRACT_BYTES - 100);
    expect((await runCli(["validate", "--root", roomy], roomy)).code).toBe(0);
    await run(roomy);
    expect(read(roomy, ORACLE)).toContain("EVIDENCE: MET");
    expect((await runCli(["validate", "--root", roomy], roomy)).code).toBe(0);

    const full = padded(MAX_CONTRACT_BYTES - 4);
    const before = read(full, ORACLE);
    const r = await run(full);
    expect(r.stderr).toMatch(
      new RegExp(
        `${ORACLE}: writing its EVIDENCE lines would make it \\d+ bytes, over the ${MAX_CONTRACT_BYTES}-byte cap that validate enforces; nothing written`,
      ),
    );
    expect(read(full, ORACLE)).toBe(before);
    expect((await runCli(["validate", "--root", full], full)).code).toBe(0);
  });

  it("file-too-large reports the file's real size", async () => {
    const root = padded(3 * MAX_CONTRACT_BYTES);
    const r = await runCli(["validate", "--root", root], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`file-too-large file is ${3 * MAX_CONTRACT_BYTES} bytes`);
  });
});

describe("output that holds HTML comment markers", () => {
  /** `s` as two quoted shell words split inside its comment marker. */
  const halves = (s: string) => {
    const cut = s.indexOf("-") + 1;
    return `'${s.slice(0, cut)}' '${s.slice(cut)}'`;
  };
  /**
   * The honest contract with two criteria whose checks print `first` and
   * `second` last, each assembled by printf from its halves (a CHECK: that
   * contains a comment marker is refused before anything runs).
   */
  function printing(first: string, second: string): string {
    const root = copyTree(join(FIXTURES, "honest-contract"));
    const text = read(root, ORACLE)
      .replace(/CHECK: .*/, `CHECK: echo DONE && printf '%s%s\\n' ${halves(first)}`)
      .replace(
        "\n## FILE SCOPE",
        `2. the second check passes\n   CHECK: echo OK && printf '%s%s\\n' ${halves(second)}\n   EXPECT: OK\n   EVIDENCE: pending\n\n## FILE SCOPE`,
      );
    writeFileSync(join(root, ORACLE), text);
    return root;
  }

  it("are written back so that the next validate still reads every criterion", async () => {
    const root = printing("see <!-- the log", "done -->");
    expect((await runCli(["validate", "--root", root], root)).code).toBe(0);
    expect((await run(root)).code).toBe(0);
    const after = read(root, ORACLE);
    expect(after).toContain("EVIDENCE: MET exit=0 marker-found :: see <! -- the log");
    expect(after).toContain("EVIDENCE: MET exit=0 marker-found :: done -- >");
    expect((await runCli(["validate", "--root", root], root)).code).toBe(0);
  });

  it("would hide the lines between them if written as printed (positive control)", async () => {
    const root = printing("see <!-- the log", "done -->");
    let n = 0;
    const raw = read(root, ORACLE).replace(/EVIDENCE: pending/g, () =>
      n++ === 0
        ? "EVIDENCE: MET exit=0 marker-found :: see <!-- the log"
        : "EVIDENCE: MET exit=0 marker-found :: done -->",
    );
    writeFileSync(join(root, ORACLE), raw);
    const r = await runCli(["validate", "--root", root], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("hidden-structure");
  });
});
