import { chmodSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runFileExists } from "../src/checks/file-exists.js";
import { diskTree } from "../src/checks/files/disk-tree.js";
import { createFileService, type FileServiceSettings } from "../src/checks/files/service.js";
import { runGrepMatch } from "../src/checks/grep-match.js";
import type { ExecutionContext, FileService } from "../src/checks/types.js";
import type { Check } from "../src/model/contract.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

type FileExists = Extract<Check, { type: "file-exists" }>;
type GrepMatch = Extract<Check, { type: "grep-match" }>;

const services: FileService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

function context(root: string, settings: Partial<FileServiceSettings> = {}): ExecutionContext {
  const files = createFileService({ regexTimeoutMs: 300, ...settings });
  services.push(files);
  return {
    root,
    oracleTimeoutMs: 10_000,
    regexTimeoutMs: 300,
    env: {},
    signal: new AbortController().signal,
    files,
    tree: diskTree(root),
    processSlot: (fn) => fn(),
  };
}

const location = { path: ".planning/phase-1-contract.json", line: 1, column: 1 };
const fileExists = (path: string, mustContain?: string): FileExists =>
  mustContain === undefined
    ? { type: "file-exists", location, path }
    : { type: "file-exists", location, path, mustContain };
const grep = (path: string, pattern: string, expect: "present" | "absent"): GrepMatch => ({
  type: "grep-match",
  location,
  path,
  pattern,
  expect,
});

/** A repository in a temp dir, plus a sibling directory outside it. */
function repo(files: Record<string, string>) {
  const base = tempDir();
  const root = join(base, "repo");
  const outside = join(base, "outside");
  mkdirSync(root);
  writeTree(root, files);
  writeTree(outside, { "secret.ts": "console.error('secret')\n" });
  return { root, outside, ctx: context(root) };
}

describe("file-exists", () => {
  it("passes for a regular file, and with a substring it contains", async () => {
    const { ctx } = repo({ "src/a.ts": "export const s = z.object({});\n" });
    expect(await runFileExists(fileExists("src/a.ts"), ctx)).toMatchObject({
      result: "pass",
      reason: "src/a.ts exists",
    });
    expect(await runFileExists(fileExists("./src//a.ts", "z.object"), ctx)).toMatchObject({
      result: "pass",
      reason: 'src/a.ts exists and contains "z.object"',
    });
  });

  it("fails with the criterion unmet for a missing file, a directory or an absent substring", async () => {
    const { ctx } = repo({ "src/a.ts": "export {};\n" });
    const unmet = { result: "fail", failureReason: "verification-criteria-unmet" };
    expect(await runFileExists(fileExists("src/b.ts"), ctx)).toMatchObject({
      ...unmet,
      reason: "src/b.ts does not exist",
    });
    expect(await runFileExists(fileExists("src"), ctx)).toMatchObject({
      ...unmet,
      reason: "src is a directory, not a file",
    });
    expect(await runFileExists(fileExists("src/a.ts", "z.object"), ctx)).toMatchObject({
      ...unmet,
      reason: 'src/a.ts does not contain "z.object"',
    });
    expect(await runFileExists(fileExists("src/a.ts/x"), ctx)).toMatchObject({
      ...unmet,
      reason: "src/a.ts/x does not exist",
    });
  });

  it("follows a symlink that stays inside the repository", async () => {
    const { root, ctx } = repo({ "src/a.ts": "z.object\n" });
    symlinkSync("a.ts", join(root, "src/link.ts"));
    expect(await runFileExists(fileExists("src/link.ts", "z.object"), ctx)).toMatchObject({
      result: "pass",
    });
  });

  it("never follows a symlink out of the repository: execution error", async () => {
    const { root, outside, ctx } = repo({ "src/keep.ts": "" });
    symlinkSync(join(outside, "secret.ts"), join(root, "src/a.ts"));
    symlinkSync(outside, join(root, "linked"));
    for (const path of ["src/a.ts", "linked/secret.ts"]) {
      const result = await runFileExists(fileExists(path, "secret"), ctx);
      expect(result).toMatchObject({
        result: "partial",
        failureReason: "verification-execution-error",
      });
      expect(result.reason).toContain(`${path} resolves outside the repository`);
    }
    expect(ctx.files.stats().diskReads).toBe(0);
  });

  it("reports a broken symlink as missing", async () => {
    const { root, ctx } = repo({});
    symlinkSync("nowhere.ts", join(root, "dangling.ts"));
    expect(await runFileExists(fileExists("dangling.ts"), ctx)).toMatchObject({
      result: "fail",
      reason: "dangling.ts does not exist (it is a broken symlink)",
    });
  });

  it("refuses an unsafe path without looking", async () => {
    const { ctx } = repo({});
    expect(await runFileExists(fileExists("../outside/secret.ts"), ctx)).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
      reason: `path "../outside/secret.ts" contains a '..' segment`,
    });
  });
});

describe("grep-match: present", () => {
  it("passes on the first matching line, in path order", async () => {
    const { ctx } = repo({
      "src/z.ts": "signIn()\n",
      "src/b/c.ts": "x\nsignIn()\n",
      "src/a.ts": "nothing here\n",
    });
    expect(await runGrepMatch(grep("src/**/*.ts", "signIn\\(", "present"), ctx)).toMatchObject({
      result: "pass",
      reason: "found at src/b/c.ts:2",
    });
  });

  it("fails when no line matches, naming what was searched", async () => {
    const { ctx } = repo({ "src/a.ts": "x\n", "src/b.ts": "y\n" });
    expect(await runGrepMatch(grep("src/*.ts", "signIn", "present"), ctx)).toMatchObject({
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason: "pattern not found in 2 files",
    });
    expect(await runGrepMatch(grep("src/a.ts", "signIn", "present"), ctx)).toMatchObject({
      result: "fail",
      reason: "pattern not found in src/a.ts",
    });
  });

  it("fails when no file matched", async () => {
    const { ctx } = repo({ "src/a.js": "signIn\n" });
    expect(await runGrepMatch(grep("src/**/*.ts", "signIn", "present"), ctx)).toMatchObject({
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason: "no file matched src/**/*.ts",
    });
    expect(await runGrepMatch(grep("src", "signIn", "present"), ctx)).toMatchObject({
      result: "fail",
      reason: "no file matched src",
      detail: "src is a directory; use src/** to search the files in it",
    });
  });

  it("takes an existing path literally even when it looks like a glob", async () => {
    const { ctx } = repo({ "app/[id]/page.tsx": "export default Page;\n" });
    expect(
      await runGrepMatch(grep("app/[id]/page.tsx", "export default", "present"), ctx),
    ).toMatchObject({ result: "pass", reason: "found at app/[id]/page.tsx:1" });
  });

  it("includes dotfiles", async () => {
    const { ctx } = repo({ ".config/x.ts": "signIn\n" });
    expect(await runGrepMatch(grep("**/*.ts", "signIn", "present"), ctx)).toMatchObject({
      result: "pass",
      reason: "found at .config/x.ts:1",
    });
  });
});

describe("grep-match: absent", () => {
  it("passes when files matched and no line matches", async () => {
    const { ctx } = repo({ "src/a.ts": "log()\n", "src/b.ts": "warn()\n" });
    expect(await runGrepMatch(grep("src/**/*.ts", "console\\.error", "absent"), ctx)).toMatchObject(
      { result: "pass", reason: "pattern absent from 2 files" },
    );
  });

  it("fails listing where the pattern was found", async () => {
    const { ctx } = repo({
      "src/b.ts": "console.error(1)\n",
      "src/a.ts": "ok\nconsole.error(2)\nconsole.error(3)\n",
    });
    expect(await runGrepMatch(grep("src/*.ts", "console\\.error", "absent"), ctx)).toEqual({
      result: "fail",
      failureReason: "verification-criteria-unmet",
      reason: "pattern found in 3 places, first src/a.ts:2",
      detail: "src/a.ts:2\nsrc/a.ts:3\nsrc/b.ts:1",
      durationMs: expect.any(Number),
    });
  });

  it("lists at most 10 places", async () => {
    const { ctx } = repo({ "src/a.ts": "bad\n".repeat(25) });
    const result = await runGrepMatch(grep("src/a.ts", "bad", "absent"), ctx);
    expect(result.reason).toBe("pattern found in more than 10 places, first src/a.ts:1");
    expect(result.detail?.split("\n")).toHaveLength(10);
  });

  it("is an execution error over no files: absence over nothing proves nothing", async () => {
    const { ctx } = repo({ "src/a.js": "x\n" });
    expect(await runGrepMatch(grep("src/**/*.ts", "x", "absent"), ctx)).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
      reason: "no file matched src/**/*.ts — an absence check over no files proves nothing",
    });
  });

  it.skipIf(process.platform === "win32" || process.getuid?.() === 0)(
    "is an execution error when a file could not be read",
    async () => {
      const { root, ctx } = repo({ "src/a.ts": "ok\n", "src/b.ts": "console.error\n" });
      chmodSync(join(root, "src/b.ts"), 0o000);
      const result = await runGrepMatch(grep("src/*.ts", "console\\.error", "absent"), ctx);
      chmodSync(join(root, "src/b.ts"), 0o644);
      expect(result).toMatchObject({
        result: "partial",
        reason: "1 of 2 files could not be read, so absence is unproven",
        detail: "src/b.ts: EACCES: permission denied",
      });
    },
  );
});

describe("grep-match: files that cannot be read", () => {
  it("makes absence unproven and a missing pattern inconclusive", async () => {
    const { root } = repo({ "src/a.ts": "ok\n", "src/b.ts": "console.error\n" });
    const ctx = context(root, { maxFileBytes: 10 });
    expect(await runGrepMatch(grep("src/*.ts", "console\\.error", "absent"), ctx)).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
      reason: "1 of 2 files could not be read, so absence is unproven",
      detail: "src/b.ts: file is 14 bytes, over the 10-byte limit",
    });
    expect(await runGrepMatch(grep("src/*.ts", "console", "present"), ctx)).toMatchObject({
      result: "partial",
      reason: "pattern not found, but 1 of 2 files could not be read",
    });
    // A match elsewhere still settles `present`.
    expect(await runGrepMatch(grep("src/*.ts", "ok", "present"), ctx)).toMatchObject({
      result: "pass",
    });
  });
});

describe("grep-match: what a glob reads", () => {
  it("skips symlinked entries and everything under .git/", async () => {
    const { root, outside, ctx } = repo({
      "src/a.ts": "clean\n",
      ".git/hooks/x.ts": "console.error\n",
      "vendor/.git/y.ts": "console.error\n",
      "lib/dirty.ts": "console.error\n",
    });
    symlinkSync(join(root, "lib/dirty.ts"), join(root, "src/inside-link.ts"));
    symlinkSync(join(outside, "secret.ts"), join(root, "src/outside-link.ts"));
    symlinkSync(join(root, "lib"), join(root, "src/dir-link"));
    expect(await runGrepMatch(grep("**/*.ts", "console\\.error", "absent"), ctx)).toMatchObject({
      result: "fail",
      reason: "pattern found in 1 place, first lib/dirty.ts:1",
    });
    expect(await runGrepMatch(grep("src/**", "console\\.error", "absent"), ctx)).toMatchObject({
      result: "pass",
      reason: "pattern absent from 1 file",
    });
  });

  it("refuses a glob rooted in a symlinked directory that leads outside", async () => {
    const { root, outside, ctx } = repo({});
    symlinkSync(outside, join(root, "linked"));
    const result = await runGrepMatch(grep("linked/*.ts", "secret", "absent"), ctx);
    expect(result).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
    });
    expect(result.reason).toContain("linked/secret.ts resolves outside the repository");
    expect(ctx.files.stats().diskReads).toBe(0);
  });

  it("refuses a glob that could reach outside the repository", async () => {
    const { ctx } = repo({ "src/a.ts": "x\n" });
    expect(await runGrepMatch(grep("{..,src}/*.ts", "x", "present"), ctx)).toMatchObject({
      result: "partial",
      reason: "glob {..,src}/*.ts could reach outside the repository",
    });
  });

  it("stops a runaway pattern and names it", async () => {
    const { ctx } = repo({ "src/a.ts": `${"a".repeat(40)}b\n` });
    expect(await runGrepMatch(grep("src/a.ts", "(a+)+$", "absent"), ctx)).toMatchObject({
      result: "partial",
      failureReason: "verification-execution-error",
      reason: "regex /(a+)+$/ ran over 300 ms and was stopped",
    });
  });

  it("reads a file shared by many checks once", async () => {
    const { ctx } = repo({ "src/a.ts": "z.object\nsignIn\n" });
    await runFileExists(fileExists("src/a.ts", "z.object"), ctx);
    await runGrepMatch(grep("src/a.ts", "signIn", "present"), ctx);
    await runGrepMatch(grep("src/*.ts", "console", "absent"), ctx);
    expect(ctx.files.stats().diskReads).toBe(1);
  });
});
