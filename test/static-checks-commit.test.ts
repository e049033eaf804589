import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitTree } from "../src/checks/files/commit-tree.js";
import { createFileService } from "../src/checks/files/service.js";
import { openGit } from "../src/git/index.js";
import { loadContract } from "../src/load/index.js";
import { checkEnv } from "../src/process/env.js";
import { type EngineOptions, runContracts } from "../src/run/engine.js";
import type { ContractOutcome } from "../src/verdict.js";
import { bashExit, oracleContract, planContract } from "./fixtures/run/contracts.js";
import { commitAll, git } from "./helpers/git.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

// Issue 32, item 1: file-exists, grep-match and citations judge the head
// commit's objects, never what is on disk, once the run judges a commit.

const PLAN = ".planning/phase-1-contract.json";
const C = ".claude/tasks/contracts";

/** Commit `files` in a fresh repository, apply `onDisk` after the commit, run every contract. */
async function run(
  files: Record<string, string>,
  opts: { atCommit: boolean; onDisk?: (root: string) => void; engine?: Partial<EngineOptions> },
) {
  const root = tempDir();
  writeTree(root, files);
  commitAll(root);
  opts.onDisk?.(root);
  const paths = Object.keys(files)
    .filter((p) => /-contract\.json$/.test(p) || p.startsWith(`${C}/`))
    .sort();
  const contracts = await Promise.all(paths.map((p) => loadContract(root, p)));
  const g = openGit(root);
  const sha = (await g.resolveCommit("HEAD"))!;
  const result = await runContracts(contracts, {
    root,
    maxParallel: 4,
    requireOracles: false,
    oracleTimeoutMs: 30_000,
    regexTimeoutMs: 10_000,
    env: checkEnv(process.env).env,
    ...(opts.atCommit && { commit: { git: g, sha } }),
    ...opts.engine,
  });
  return { root, ...result };
}

function statuses(contracts: ContractOutcome[]) {
  return contracts.flatMap((c) => c.criteria.map((k) => [k.id, k.status]));
}

/** The wave-ordered rewrite of issue 32: wave 1 runs the PR's script, wave 2 greps. */
const waveRewrite = (legacy: string) => ({
  "src/legacy.js": legacy,
  "test/setup.sh": "rm src/legacy.js\necho 'export const g = 1;' > src/generated.js\n",
  ...planContract(1, [
    { id: "T1", wave: 1, verification: [bashExit("bash test/setup.sh")] },
    {
      id: "T2",
      wave: 2,
      dependsOn: ["T1"],
      verification: [
        { type: "grep-match", path: "src/**/*.js", pattern: "console\\.error", expect: "absent" },
        { type: "file-exists", path: "src/generated.js" },
      ],
    },
  ]),
});

describe("static checks read the head commit", () => {
  it("attack: a wave-1 command deletes a file and writes another; wave 2 judges the commit (unmet)", async () => {
    const { contracts, summary, read, root } = await run(waveRewrite("console.error('x');\n"), {
      atCommit: true,
    });
    expect(read?.kind).toBe("commit");
    expect(statuses(contracts)).toEqual([
      ["T1.1", "met"],
      ["T2.1", "unmet"],
      ["T2.2", "unmet"],
    ]);
    expect(contracts[0]!.criteria[1]!.checks[0]!.reason).toMatch(/src\/legacy\.js:1/);
    expect(summary.conclusion).toBe("failure");
    // The command did run and did rewrite the checkout: only the verdict ignores it.
    expect(git(root, "status", "--porcelain")).toMatch(/D src\/legacy\.js/);
  });

  it("control: the same contract over the working tree (the old semantics) is fooled: met", async () => {
    const { contracts, read } = await run(waveRewrite("console.error('x');\n"), {
      atCommit: false,
    });
    expect(read?.kind).toBe("working-tree");
    expect(statuses(contracts)).toEqual([
      ["T1.1", "met"],
      ["T2.1", "met"],
      ["T2.2", "met"],
    ]);
  });

  it("control: with the committed files honest, the same checks at the commit are met", async () => {
    const files = {
      ...waveRewrite("console.log('x');\n"),
      "src/generated.js": "export const g = 1;\n",
    };
    const { contracts } = await run(files, { atCommit: true });
    expect(statuses(contracts)).toEqual([
      ["T1.1", "met"],
      ["T2.1", "met"],
      ["T2.2", "met"],
    ]);
  });

  it("a grep and a file-exists over a file that differs on disk from the commit read the commit", async () => {
    const files = {
      "notes.txt": "status: COMMITTED\n",
      ...planContract(1, [
        {
          id: "T1",
          verification: [
            { type: "grep-match", path: "notes.txt", pattern: "COMMITTED", expect: "present" },
            { type: "grep-match", path: "*.txt", pattern: "EDITED", expect: "absent" },
            { type: "file-exists", path: "notes.txt", must_contain: "COMMITTED" },
            { type: "file-exists", path: "untracked.txt" },
          ],
        },
      ]),
    };
    const onDisk = (root: string) => {
      writeFileSync(join(root, "notes.txt"), "status: EDITED\n");
      writeFileSync(join(root, "untracked.txt"), "x\n");
    };
    const atCommit = await run(files, { atCommit: true, onDisk });
    expect(statuses(atCommit.contracts)).toEqual([
      ["T1.1", "met"],
      ["T1.2", "met"],
      ["T1.3", "met"],
      ["T1.4", "unmet"],
    ]);
    // Control: the working tree says the opposite of each.
    const onTree = await run(files, { atCommit: false, onDisk });
    expect(statuses(onTree.contracts)).toEqual([
      ["T1.1", "unmet"],
      ["T1.2", "unmet"],
      ["T1.3", "unmet"],
      ["T1.4", "met"],
    ]);
  });

  it("a check that rewrites the cited file, and the evidence file, changes no citation", async () => {
    const files = {
      "src/auth.ts": "export function login() { return token(); }\n",
      ...planContract(1, [
        {
          id: "T1",
          wave: 1,
          verification: [
            bashExit(
              "echo 'nothing here' > src/auth.ts && echo '{}' > .planning/phase-1-evidence.json",
            ),
          ],
        },
        {
          id: "T2",
          wave: 2,
          dependsOn: ["T1"],
          verification: [
            {
              type: "behavioral",
              description: "login returns a token",
              evidence_required: [
                { path: "src/auth.ts", matcher: "token\\(\\)", description: "the call" },
              ],
            },
          ],
        },
      ]),
      ".planning/phase-1-evidence.json": `${JSON.stringify({
        version: 1,
        phase: 1,
        citations: [
          {
            task: "T2",
            check: 0,
            evidence: 0,
            path: "src/auth.ts",
            line: 1,
            snippet: "return token();",
          },
        ],
      })}\n`,
    };
    const { contracts } = await run(files, { atCommit: true });
    expect(statuses(contracts)).toEqual([
      ["T1.1", "met"],
      ["T2.1", "met"],
    ]);
    // Control: over the working tree, the rewritten file no longer holds the cited line.
    const onTree = await run(files, { atCommit: false });
    expect(statuses(onTree.contracts)).toEqual([
      ["T1.1", "met"],
      ["T2.1", "evidence-missing"],
    ]);
  });

  it("honest twin: an oracle that builds something and a later oracle of the same contract that uses it passes", async () => {
    const criteria = [
      // Slow on purpose: a second oracle started early would find nothing to use.
      "1. builds\n   CHECK: sleep 0.3 && mkdir -p build && echo built > build/out.txt && echo BUILT\n   EXPECT: BUILT\n   EVIDENCE: pending\n",
      "2. uses the build\n   CHECK: cat build/out.txt\n   EXPECT: built\n   EVIDENCE: pending\n",
    ].join("");
    const { contracts } = await run(
      { [`${C}/build.md`]: oracleContract(criteria) },
      {
        atCommit: true,
        engine: { maxParallel: 4 },
      },
    );
    expect(statuses(contracts)).toEqual([
      ["1", "met"],
      ["2", "met"],
    ]);
  });

  it("symlinks in the commit follow the confinement rules: inside followed, outside refused, never by a glob", async () => {
    const files = {
      "real/a.txt": "hello\n",
      ...planContract(1, [
        {
          id: "T1",
          verification: [
            { type: "file-exists", path: "inside.txt", must_contain: "hello" },
            { type: "file-exists", path: "outside.txt" },
            { type: "file-exists", path: "dir/a.txt" },
            { type: "grep-match", path: "**/*.txt", pattern: "hello", expect: "present" },
          ],
        },
      ]),
    };
    const root = tempDir();
    writeTree(root, files);
    symlinkSync("real/a.txt", join(root, "inside.txt"));
    symlinkSync("../../etc/passwd", join(root, "outside.txt"));
    symlinkSync("real", join(root, "dir"));
    commitAll(root);
    // On disk the links are gone; the commit still has them.
    for (const l of ["inside.txt", "outside.txt", "dir"]) rmSync(join(root, l));
    const contract = await loadContract(root, PLAN);
    const g = openGit(root);
    const result = await runContracts([contract], {
      root,
      maxParallel: 2,
      requireOracles: false,
      oracleTimeoutMs: 30_000,
      regexTimeoutMs: 10_000,
      env: {},
      commit: { git: g, sha: (await g.resolveCommit("HEAD"))! },
    });
    const checks = result.contracts[0]!.criteria.map((k) => [k.status, k.checks[0]!.reason]);
    expect(checks[0]).toEqual(["met", 'inside.txt exists and contains "hello"']);
    expect(checks[1]![0]).toBe("error");
    expect(checks[1]![1]).toMatch(/resolves outside the repository/);
    expect(checks[2]).toEqual(["met", "dir/a.txt exists"]);
    // A glob never follows a link: only the real file matches.
    expect(checks[3]).toEqual(["met", "found at real/a.txt:1"]);
  });
});

describe("the file service over a commit", () => {
  it("sends a grep in chunks under one answer, and each file to the worker once", async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++)
      files[`f/${String(i).padStart(2, "0")}.txt`] = `line ${i}\nneedle ${i}\n`;
    writeTree(root, files);
    commitAll(root);
    rmSync(join(root, "f"), { recursive: true });
    const g = openGit(root);
    const tree = commitTree(g, (await g.resolveCommit("HEAD"))!);
    // About three files a request: the grep below spans fourteen requests.
    const service = createFileService({
      regexTimeoutMs: 10_000,
      blobs: tree.blobs,
      givenChunkBytes: 40,
    });
    try {
      const listed = await tree.list("f/*.txt");
      if (!listed.ok) throw new Error(listed.error);
      const abs = listed.files.map((f) => f.abs);
      const first = await service.grep(abs, "needle 3", 100);
      expect(first).toEqual({
        ok: true,
        value: {
          hits: [
            { file: "f/03.txt", line: 2 },
            { file: "f/30.txt", line: 2 },
            { file: "f/31.txt", line: 2 },
            { file: "f/32.txt", line: 2 },
            { file: "f/33.txt", line: 2 },
            { file: "f/34.txt", line: 2 },
            { file: "f/35.txt", line: 2 },
            { file: "f/36.txt", line: 2 },
            { file: "f/37.txt", line: 2 },
            { file: "f/38.txt", line: 2 },
            { file: "f/39.txt", line: 2 },
          ],
          scanned: 40,
          unreadable: [],
        },
      });
      const afterFirst = service.stats();
      expect(afterFirst.diskReads).toBe(40);
      expect(afterFirst.requests).toBeGreaterThan(10);
      // Cached in the worker: the second grep reads nothing again.
      expect(await service.contains("f/07.txt", "needle 7")).toEqual({ ok: true, value: true });
      expect(service.stats().diskReads).toBe(40);
    } finally {
      await service.close();
    }
  });

  it("refuses a file over the size limit without reading it", async () => {
    const root = tempDir();
    writeTree(root, { "big.txt": "x".repeat(2000), "small.txt": "x\n" });
    commitAll(root);
    const g = openGit(root);
    const tree = commitTree(g, (await g.resolveCommit("HEAD"))!);
    const service = createFileService({
      regexTimeoutMs: 10_000,
      blobs: tree.blobs,
      maxFileBytes: 1000,
    });
    try {
      const out = await service.grep(["big.txt", "small.txt"], "y", 10);
      expect(out).toEqual({
        ok: true,
        value: {
          hits: [],
          scanned: 1,
          unreadable: [{ file: "big.txt", error: "file is 2000 bytes, over the 1000-byte limit" }],
        },
      });
    } finally {
      await service.close();
    }
  });
});
