import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { checkEnv } from "../src/process/env.js";
import { type EngineOptions, type Progress, runContracts } from "../src/run/engine.js";
import { type ContractOutcome, skippedCommands } from "../src/verdict.js";
import { bashExit, oracleContract, planContract } from "./fixtures/run/contracts.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const C = ".claude/tasks/contracts";

/** Write `files` into a fresh root, load every contract among them, run the engine. */
async function engine(
  files: Record<string, string>,
  opts: Partial<EngineOptions> = {},
  root = tempDir(),
) {
  writeTree(root, files);
  const paths = Object.keys(files)
    .filter((p) => /-contract\.json$/.test(p) || p.startsWith(`${C}/`))
    .sort();
  const contracts = await Promise.all(paths.map((p) => loadContract(root, p)));
  for (const c of contracts) {
    expect(
      c.problems.filter((p) => p.severity === "error"),
      c.path,
    ).toEqual([]);
  }
  const result = await runContracts(contracts, {
    root,
    maxParallel: 4,
    requireOracles: false,
    oracleTimeoutMs: 30_000,
    regexTimeoutMs: 10_000,
    env: checkEnv(process.env).env,
    ...opts,
  });
  return { root, ...result };
}

function find(contracts: ContractOutcome[], path: string, id: string) {
  const k = contracts.find((c) => c.path === path)?.criteria.find((c) => c.id === id);
  if (!k) throw new Error(`no criterion ${id} in ${path}`);
  return k;
}

const PLAN = ".planning/phase-1-contract.json";

describe("runContracts", () => {
  it("forgets cached file text between waves: wave 3 sees what wave 2's command wrote", async () => {
    const { contracts } = await engine({
      "notes.txt": "status: OLD\n",
      ...planContract(1, [
        // Wave 1 reads (and caches) the file.
        {
          id: "T1",
          wave: 1,
          verification: [
            { type: "grep-match", path: "notes.txt", pattern: "OLD", expect: "present" },
          ],
        },
        {
          id: "T2",
          wave: 2,
          dependsOn: ["T1"],
          verification: [bashExit("echo 'status: NEW' > notes.txt")],
        },
        {
          id: "T3",
          wave: 3,
          dependsOn: ["T2"],
          verification: [
            { type: "grep-match", path: "notes.txt", pattern: "NEW", expect: "present" },
            { type: "file-exists", path: "notes.txt", must_contain: "NEW" },
          ],
        },
      ]),
    });
    expect(contracts[0]!.criteria.map((k) => [k.id, k.status])).toEqual([
      ["T1.1", "met"],
      ["T2.1", "met"],
      ["T3.1", "met"],
      ["T3.2", "met"],
    ]);
  });

  it("runs plan waves in order: wave 2 observes what wave 1 made", async () => {
    const { contracts, summary } = await engine(
      planContract(1, [
        // Slow on purpose: a wave 2 that started early would find nothing.
        { id: "T1", wave: 1, verification: [bashExit("sleep 0.5 && echo one > WAVE1")] },
        {
          id: "T2",
          wave: 2,
          dependsOn: ["T1"],
          verification: [
            { type: "file-exists", path: "WAVE1", must_contain: "one" },
            bashExit("test -f WAVE1 && touch WAVE2"),
          ],
        },
        {
          id: "T3",
          wave: 3,
          dependsOn: ["T2"],
          verification: [{ type: "file-exists", path: "WAVE2" }],
        },
      ]),
    );
    expect(contracts[0]!.criteria.map((k) => [k.id, k.status])).toEqual([
      ["T1.1", "met"],
      ["T2.1", "met"],
      ["T2.2", "met"],
      ["T3.1", "met"],
    ]);
    expect(summary.conclusion).toBe("success");
  });

  it("completes everything with maxParallel 1", async () => {
    const marker = (n: number) =>
      `${n}. check ${n}\n   CHECK: sleep 0.1; echo OK-${n}\n   EXPECT: OK-${n}\n   EVIDENCE: pending\n`;
    const progress: Progress[] = [];
    const { contracts, summary } = await engine(
      {
        [`${C}/a.md`]: oracleContract([1, 2, 3].map(marker).join("")),
        [`${C}/b.md`]: oracleContract([1, 2].map(marker).join("")),
        ...planContract(1, [
          { id: "T1", verification: [bashExit("exit 0"), bashExit("exit 0")] },
          { id: "T2", wave: 2, dependsOn: ["T1"], verification: [bashExit("exit 0")] },
        ]),
      },
      { maxParallel: 1, onProgress: (p) => progress.push(p) },
    );
    expect(contracts.flatMap((c) => c.criteria.map((k) => k.status))).toEqual(Array(8).fill("met"));
    expect(summary.counts.met).toBe(8);
    expect(progress.at(-1)).toEqual({ done: 8, total: 8, running: [] });
    // Running is holding a process slot: checks waiting for one are not listed.
    expect(Math.max(...progress.map((p) => p.running.length))).toBe(1);
  });

  it("runs an abandoned criterion's check, and it still blocks", async () => {
    const { root, contracts, summary } = await engine({
      [`${C}/c.md`]: oracleContract(
        "1. works\n   CHECK: touch ABANDONED-RAN && echo WORKS\n   EXPECT: WORKS\n   EVIDENCE: pending\n\nABANDON: 1 needs hardware we do not have\n",
      ),
    });
    expect(existsSync(join(root, "ABANDONED-RAN"))).toBe(true);
    const k = contracts[0]!.criteria[0]!;
    expect(k.status).toBe("abandoned");
    expect(k.blocking).toBe(true);
    expect(k.reason).toBe(
      "ABANDON: needs hardware we do not have (check ran for information: met, exit 0, marker found)",
    );
    expect(k.checks[0]!.result).toBe("pass");
    expect(contracts[0]!.verdict).toBe("abandoned");
    expect(summary.conclusion).toBe("failure");
  });

  describe("untrusted commands", () => {
    const files = () => ({
      "README.md": "hello\n",
      [`${C}/c.md`]: oracleContract(
        "1. oracle\n   CHECK: touch ORACLE-RAN && echo RAN\n   EXPECT: RAN\n   EVIDENCE: pending\n2. manual\n",
      ),
      ...planContract(1, [
        {
          id: "T1",
          verification: [
            { type: "command-exit", command: "touch", args: ["COMMAND-RAN"], expected_exit: 0 },
            { type: "file-exists", path: "README.md", must_contain: "hello" },
            { type: "grep-match", path: "*.md", pattern: "nowhere", expect: "present" },
          ],
        },
      ]),
    });

    it("runs commands by default (control)", async () => {
      const { root, contracts } = await engine(files());
      expect(existsSync(join(root, "ORACLE-RAN"))).toBe(true);
      expect(existsSync(join(root, "COMMAND-RAN"))).toBe(true);
      expect(find(contracts, `${C}/c.md`, "1").status).toBe("met");
      expect(find(contracts, PLAN, "T1.1").status).toBe("met");
    });

    it("block: command checks are errors that never execute; file checks still run", async () => {
      const { root, contracts, summary } = await engine(files(), { commands: "block" });
      expect(existsSync(join(root, "ORACLE-RAN"))).toBe(false);
      expect(existsSync(join(root, "COMMAND-RAN"))).toBe(false);
      const reason = "not run: commands from an untrusted fork (untrusted-commands: block)";
      for (const k of [find(contracts, `${C}/c.md`, "1"), find(contracts, PLAN, "T1.1")]) {
        expect(k).toMatchObject({ status: "error", blocking: true, reason });
        expect(k.checks[0]).toMatchObject({ result: "partial", reason });
      }
      expect(find(contracts, PLAN, "T1.2").status).toBe("met");
      expect(find(contracts, PLAN, "T1.3")).toMatchObject({ status: "unmet", blocking: true });
      expect(find(contracts, `${C}/c.md`, "2").status).toBe("manual");
      expect(summary.conclusion).toBe("failure");
    });

    it("skip: command checks are not-run, never executed, never met (neutral at best); file checks still run", async () => {
      const { root, contracts, summary } = await engine(files(), { commands: "skip" });
      expect(existsSync(join(root, "ORACLE-RAN"))).toBe(false);
      expect(existsSync(join(root, "COMMAND-RAN"))).toBe(false);
      for (const k of [find(contracts, `${C}/c.md`, "1"), find(contracts, PLAN, "T1.1")]) {
        expect(k).toMatchObject({
          status: "not-run",
          blocking: false,
          reason: "not run: a command from an untrusted fork (untrusted-commands: skip)",
        });
      }
      expect(find(contracts, PLAN, "T1.2").status).toBe("met");
      expect(find(contracts, PLAN, "T1.3").status).toBe("unmet");
      expect(contracts.find((c) => c.path === `${C}/c.md`)!.verdict).toBe("neutral");
      expect(skippedCommands(contracts)).toBe(1);
      // The plan's unmet grep still blocks.
      expect(summary.conclusion).toBe("failure");
    });

    it("skip: a run whose only undecided criteria are skipped commands is neutral, never success", async () => {
      const only = { [`${C}/c.md`]: files()[`${C}/c.md`]! };
      const skipped = await engine(only, { commands: "skip" });
      expect(skipped.summary.conclusion).toBe("neutral");
      expect(skippedCommands(skipped.contracts)).toBe(1);
      // Control: the same contract with its command run is green.
      const ran = await engine(only);
      expect(ran.summary.conclusion).toBe("success");
      expect(ran.contracts[0]!.verdict).toBe("pass");
    });

    it("skip: a skipped criterion blocks under requireOracles", async () => {
      const { contracts, summary } = await engine(files(), {
        commands: "skip",
        requireOracles: true,
      });
      expect(find(contracts, `${C}/c.md`, "1")).toMatchObject({
        status: "not-run",
        blocking: true,
      });
      expect(summary.conclusion).toBe("failure");
    });

    it("an abandoned criterion blocks under every policy", async () => {
      const abandoned = {
        [`${C}/c.md`]: oracleContract(
          "1. works\n   CHECK: echo WORKS\n   EXPECT: WORKS\n   EVIDENCE: pending\n\nABANDON: 1 cannot be done here\n",
        ),
      };
      for (const commands of ["run", "block", "skip"] as const) {
        const { contracts, summary } = await engine(abandoned, { commands });
        expect(contracts[0]!.criteria[0], commands).toMatchObject({
          status: "abandoned",
          blocking: true,
        });
        expect(contracts[0]!.criteria[0]!.reason, commands).toBe(
          commands === "run"
            ? "ABANDON: cannot be done here (check ran for information: met, exit 0, marker found)"
            : "ABANDON: cannot be done here",
        );
        expect(contracts[0]!.verdict, commands).toBe("abandoned");
        expect(summary.conclusion, commands).toBe("failure");
      }
    });
  });

  it("kills a running check's whole process tree when the signal aborts", async () => {
    const check = (n: string) =>
      `1. slow\n   CHECK: touch STARTED; (sleep 1.5; touch ${n}) & wait; echo DONE\n   EXPECT: DONE\n   EVIDENCE: pending\n`;

    // Control: left alone, the grandchild writes its sentinel.
    const control = await engine({ [`${C}/c.md`]: oracleContract(check("GRANDCHILD")) });
    expect(existsSync(join(control.root, "GRANDCHILD"))).toBe(true);
    expect(control.contracts[0]!.criteria[0]!.status).toBe("met");

    const root = tempDir();
    const ac = new AbortController();
    // Abort as soon as the check is running (polled by a timer).
    const poll = setInterval(() => {
      if (existsSync(join(root, "STARTED"))) {
        clearInterval(poll);
        ac.abort();
      }
    }, 20);
    try {
      const { contracts } = await engine(
        { [`${C}/c.md`]: oracleContract(check("GRANDCHILD")), "README.md": "x\n" },
        { signal: ac.signal },
        root,
      );
      expect(ac.signal.aborted).toBe(true);
      const k = contracts[0]!.criteria[0]!;
      expect(k).toMatchObject({
        status: "error",
        blocking: true,
        reason: "aborted: the run was interrupted (process tree killed)",
      });
    } finally {
      clearInterval(poll);
    }
    // Well past the grandchild's 1.5 s: had it survived, its file would be there.
    await sleep(2500);
    expect(existsSync(join(root, "GRANDCHILD"))).toBe(false);
  });
});
