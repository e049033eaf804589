import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { behavioralExecutor, runBehavioral } from "../src/checks/behavioral.js";
import { diskTree } from "../src/checks/files/disk-tree.js";
import { createFileService } from "../src/checks/files/service.js";
import type { CheckResult, ExecutionContext, FileService } from "../src/checks/types.js";
import { type Citation, citationsFor, parseEvidenceFile } from "../src/formats/evidence/index.js";
import type { Check, Evidence } from "../src/model/contract.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

type Behavioral = Extract<Check, { type: "behavioral" }>;

const services: FileService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

const location = { path: ".planning/phase-2-contract.json", line: 1, column: 1 };
const AUTH = [
  "import { client } from './client';",
  "",
  "export async function signIn(email: string, password: string) {",
  "  const { error } = await client.auth.signInWithPassword({ email, password });",
  "  if (error) throw new AuthError('Invalid credentials');",
  "}",
  "",
  "",
  "",
  "",
  "",
  "// end",
].join("\r\n");

function setup(extra: Record<string, string> = {}) {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(root);
  writeTree(root, { "src/auth.ts": `${AUTH}\r\n`, ...extra });
  writeTree(base, { "outside/auth.ts": AUTH });
  const files = createFileService({ regexTimeoutMs: 300 });
  services.push(files);
  const ctx: ExecutionContext = {
    root,
    oracleTimeoutMs: 10_000,
    regexTimeoutMs: 300,
    env: {},
    signal: new AbortController().signal,
    files,
    tree: diskTree(root),
    processSlot: (fn) => fn(),
  };
  return { root, base, ctx };
}

const evidence: Evidence[] = [
  { path: "src/auth.ts", matcher: "signInWithPassword\\(", description: "uses password sign-in" },
  { path: "src/auth.ts", description: "a clear error message" },
];
const check: Behavioral = {
  type: "behavioral",
  location,
  description: "login reports bad credentials clearly",
  evidenceRequired: evidence,
};

function cite(
  evidenceIndex: number,
  line: number,
  snippet: string,
  path = "src/auth.ts",
): Citation {
  return {
    task: "T2",
    check: 0,
    evidence: evidenceIndex,
    path,
    line,
    snippet,
    location: { path: ".planning/phase-2-evidence.json", line: 1, column: 1 },
  };
}
const good = [
  cite(0, 4, "await client.auth.signInWithPassword"),
  cite(1, 5, "'Invalid credentials'"),
];

describe("behavioral", () => {
  it("passes when every entry has a citation that holds up", async () => {
    const { ctx } = setup();
    expect(await runBehavioral(check, ctx, good)).toMatchObject({
      result: "pass",
      reason: "2 of 2 evidence entries cited",
    });
    // A snippet may be the whole trimmed line; the same file is read once.
    const whole = cite(1, 5, "  if (error) throw new AuthError('Invalid credentials');  ");
    expect(await behavioralExecutor([good[0]!, whole])(check, ctx)).toMatchObject({
      result: "pass",
    });
    expect(ctx.files.stats().diskReads).toBe(1);
  });

  it("fails with evidence missing when the evidence file cannot be trusted", async () => {
    const { ctx } = setup();
    expect(
      await runBehavioral(check, ctx, { invalid: "phase-2-evidence.json is invalid (3 problems)" }),
    ).toMatchObject({
      result: "fail",
      failureReason: "verification-evidence-missing",
      reason: "phase-2-evidence.json is invalid (3 problems)",
    });
  });

  it("names the exact reason an entry's citation fails", async () => {
    const { root, base, ctx } = setup({ "src/empty.ts": "" });
    symlinkSync(join(base, "outside/auth.ts"), join(root, "src/escape.ts"));
    const second = (c: Citation, entry: Evidence = evidence[1]!) =>
      runBehavioral({ ...check, evidenceRequired: [evidence[0]!, entry] }, ctx, [good[0]!, c]);
    const cases: [Promise<CheckResult>, string][] = [
      [runBehavioral(check, ctx, [good[0]!]), "no citation"],
      [
        second(cite(1, 5, "Invalid", "src/other.ts")),
        "the citation is for src/other.ts, not src/auth.ts",
      ],
      [
        second(cite(1, 5, "Invalid", "src/gone.ts"), { path: "src/gone.ts", description: "d" }),
        "src/gone.ts does not exist",
      ],
      [second(cite(1, 40, "Invalid")), "line 40 out of range (file has 12 lines)"],
      [
        second(cite(1, 1, "x", "src/empty.ts"), { path: "src/empty.ts", description: "d" }),
        "line 1 out of range (file has 0 lines)",
      ],
      [
        second(cite(1, 5, "Valid credentials")),
        `snippet differs from line 5: cited "Valid credentials", the line is "if (error) throw new AuthError('Invalid credentials');"`,
      ],
      [
        second(cite(1, 5, "Invalid"), { ...evidence[1]!, matcher: "^\\s*return" }),
        "matcher /^\\s*return/ does not match line 5",
      ],
      [
        second(cite(1, 5, "Invalid", "src/escape.ts"), { path: "src/escape.ts", description: "d" }),
        "src/escape.ts resolves outside the repository",
      ],
      [runBehavioral(check, ctx, [...good, good[1]!]), "2 citations; cite each entry once"],
    ];
    for (const [run, why] of cases) {
      const result = await run;
      expect(result).toMatchObject({
        result: "fail",
        failureReason: "verification-evidence-missing",
      });
      expect(result.reason).toContain(`1 of 2 evidence entries cited; evidence_required[`);
      expect(result.detail).toContain(why);
    }
  });

  it("lists every failing entry in the detail", async () => {
    const { ctx } = setup();
    const result = await runBehavioral(check, ctx, [cite(0, 4, "nope"), cite(3, 1, "x")]);
    expect(result).toMatchObject({
      result: "fail",
      reason: `0 of 2 evidence entries cited; evidence_required[0] src/auth.ts: snippet differs from line 4: cited "nope", the line is "const { error } = await client.auth.signInWithPassword({ e…`,
    });
    expect(result.detail?.split("\n")).toEqual([
      expect.stringContaining("evidence_required[0] src/auth.ts: snippet differs"),
      "evidence_required[1] src/auth.ts: no citation",
      "ignored: a citation for evidence_required[3], but the check has 2",
    ]);
  });

  it("is an execution error when a matcher runs over its time bound", async () => {
    const { ctx } = setup({ "src/slow.ts": `${"a".repeat(40)}b\n` });
    const slow: Behavioral = {
      ...check,
      evidenceRequired: [{ path: "src/slow.ts", matcher: "(a+)+$", description: "d" }],
    };
    expect(await runBehavioral(slow, ctx, [cite(0, 1, "aaab", "src/slow.ts")])).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
      reason:
        "0 of 1 evidence entries cited; evidence_required[0] src/slow.ts: matcher /(a+)+$/ could not be evaluated: regex /(a+)+$/ ran over 300 ms and was stopped",
    });
  });

  it("works from a parsed evidence file", async () => {
    const { ctx } = setup();
    const file = JSON.stringify({
      version: 1,
      phase: 2,
      citations: [
        {
          task: "T2",
          check: 0,
          evidence: 0,
          path: "./src/auth.ts",
          line: 4,
          snippet: "signInWithPassword",
        },
        {
          task: "T2",
          check: 0,
          evidence: 1,
          path: "src/auth.ts",
          line: 5,
          snippet: "Invalid credentials",
        },
        { task: "T2", check: 1, evidence: 0, path: "src/auth.ts", line: 1, snippet: "import" },
      ],
    });
    const parsed = parseEvidenceFile(
      ".planning/phase-2-evidence.json",
      new TextEncoder().encode(file),
    );
    expect(parsed.problems).toEqual([]);
    expect(await runBehavioral(check, ctx, citationsFor(parsed.citations, "T2", 0))).toMatchObject({
      result: "pass",
    });
  });
});
