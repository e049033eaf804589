import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { hasLookaround, lineAt, matchingLines } from "../src/checks/files/lines.js";
import { createFileService, type FileServiceSettings } from "../src/checks/files/service.js";
import type { FileService } from "../src/checks/types.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const services: FileService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

function service(settings: Partial<FileServiceSettings> = {}): FileService {
  const s = createFileService({ regexTimeoutMs: 300, ...settings });
  services.push(s);
  return s;
}

/** A pattern that backtracks exponentially on "aaaa…b": it never finishes. */
const RUNAWAY = "(a+)+$";
const RUNAWAY_TEXT = `${"a".repeat(40)}b`;

function tree(files: Record<string, string>): (rel: string) => string {
  const root = tempDir();
  writeTree(root, files);
  return (rel) => join(root, rel);
}

describe("file service: grep", () => {
  it("returns matching lines in the order the files are given, CRLF read like LF", async () => {
    const at = tree({ "a.ts": "one\r\ntwo\r\nthree\r\n", "b.ts": "zero\ntwo\n" });
    const result = await service().grep([at("b.ts"), at("a.ts")], "^t.o$", 10);
    expect(result).toEqual({
      ok: true,
      value: {
        hits: [
          { file: at("b.ts"), line: 2 },
          { file: at("a.ts"), line: 2 },
        ],
        scanned: 2,
        unreadable: [],
      },
    });
  });

  it("stops once `limit` lines matched", async () => {
    const at = tree({ "a.ts": "x\nx\nx\n", "b.ts": "x\n" });
    const result = await service().grep([at("a.ts"), at("b.ts")], "x", 2);
    expect(result.ok && result.value).toEqual({
      hits: [
        { file: at("a.ts"), line: 1 },
        { file: at("a.ts"), line: 2 },
      ],
      scanned: 1,
      unreadable: [],
    });
  });

  it("reports files it could not read instead of skipping them silently", async () => {
    const at = tree({ "a.ts": "nothing\n", "big.ts": "x".repeat(200) });
    const files = service({ maxFileBytes: 100 });
    const result = await files.grep([at("a.ts"), at("gone.ts"), at("big.ts")], "x", 10);
    expect(result.ok && result.value).toEqual({
      hits: [],
      scanned: 1,
      unreadable: [
        { file: at("gone.ts"), error: "ENOENT: no such file or directory" },
        { file: at("big.ts"), error: "file is 200 bytes, over the 100-byte limit" },
      ],
    });
  });

  it.skipIf(process.platform === "win32")(
    "refuses to open a FIFO (it could block forever)",
    async () => {
      const root = tempDir();
      execFileSync("mkfifo", [join(root, "pipe")]);
      const result = await service().grep([join(root, "pipe")], "x", 1);
      expect(result.ok && result.value.unreadable).toEqual([
        { file: join(root, "pipe"), error: "not a regular file" },
      ]);
    },
  );

  it("reads invalid UTF-8 with replacement characters rather than failing", async () => {
    const root = tempDir();
    writeTree(root, { "bin.dat": new Uint8Array([0x66, 0x6f, 0x6f, 0xff, 0x0a]) });
    const result = await service().grep([join(root, "bin.dat")], "foo\uFFFD", 1);
    expect(result.ok && result.value.hits).toEqual([{ file: join(root, "bin.dat"), line: 1 }]);
  });

  it("finds a line a lookaround only matches on its own", async () => {
    // In the whole text `foo` is followed by "\n"; on its own line it is followed by nothing.
    const at = tree({ "a.ts": "foo\nbar\n" });
    const result = await service().grep([at("a.ts")], "foo(?![\\s\\S])", 5);
    expect(result.ok && result.value.hits).toEqual([{ file: at("a.ts"), line: 1 }]);
  });

  it("reports a pattern that does not compile as an error", async () => {
    const at = tree({ "a.ts": "x\n" });
    expect(await service().grep([at("a.ts")], "x(", 1)).toEqual({
      ok: false,
      error: "invalid regex /x(/: Unterminated group",
    });
  });
});

describe("file service: time bound", () => {
  it("stops a runaway grep, names the pattern, and keeps working afterwards", async () => {
    const at = tree({ "slow.txt": `${RUNAWAY_TEXT}\n`, "ok.txt": "fine\n" });
    const files = service();
    const [runaway, queued] = await Promise.all([
      files.grep([at("slow.txt")], RUNAWAY, 1),
      files.grep([at("ok.txt")], "fine", 1),
    ]);
    expect(runaway).toEqual({ ok: false, error: "regex /(a+)+$/ ran over 300 ms and was stopped" });
    // Queued behind the runaway: served by the fresh worker.
    expect(queued).toEqual({
      ok: true,
      value: { hits: [{ file: at("ok.txt"), line: 1 }], scanned: 1, unreadable: [] },
    });
    expect(await files.matchText("abc", "b", "")).toEqual({ ok: true, value: true });
    expect(files.stats().regexTimeouts).toBe(1);
  });

  it("stops a runaway matchText, flags included in the name", async () => {
    const files = service();
    expect(await files.matchText(RUNAWAY_TEXT, RUNAWAY, "i")).toEqual({
      ok: false,
      error: "regex /(a+)+$/i ran over 300 ms and was stopped",
    });
    expect(await files.matchText("ABC", "b", "i")).toEqual({ ok: true, value: true });
    expect(await files.matchText("ABC", "b", "")).toEqual({ ok: true, value: false });
  });

  it("fails pending requests when the run is aborted", async () => {
    const controller = new AbortController();
    const files = service({ signal: controller.signal, regexTimeoutMs: 60_000 });
    const pending = files.matchText(RUNAWAY_TEXT, RUNAWAY, "");
    const queued = files.matchText("x", "x", "");
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: "stopped: the run was aborted" });
    expect(await queued).toEqual({ ok: false, error: "stopped: the run was aborted" });
    expect(await files.matchText("x", "x", "")).toEqual({
      ok: false,
      error: "stopped: the run was aborted",
    });
  });

  it("refuses work after close", async () => {
    const files = service();
    await files.close();
    expect(await files.contains("/nowhere", "x")).toEqual({
      ok: false,
      error: "stopped: the file service was closed",
    });
  });

  it("does not keep the process alive when idle, even without close()", () => {
    const at = tree({ "a.txt": "x\n" });
    const script = `
      const { createFileService } = await import(process.argv[1]);
      const files = createFileService({ regexTimeoutMs: 5000 });
      const r = await files.grep([process.argv[2]], "x", 1);
      console.log(JSON.stringify(r.ok && r.value.hits));`;
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
        fileURLToPath(new URL("../src/checks/files/service.ts", import.meta.url)),
        at("a.txt"),
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ file: at("a.txt"), line: 1 }]);
  });
});

describe("file service: reading and cache", () => {
  it("reads a file once however many requests use it", async () => {
    const at = tree({ "a.ts": "alpha\nbeta\n" });
    const files = service();
    await files.grep([at("a.ts")], "beta", 1);
    await files.contains(at("a.ts"), "alpha");
    await files.readLine(at("a.ts"), 2);
    await files.grep([at("a.ts")], "gamma", 1);
    expect(files.stats()).toEqual({ diskReads: 1, requests: 4, regexTimeouts: 0 });
  });

  it("loses the cache with a stopped worker, and reads again", async () => {
    const at = tree({ "a.ts": "alpha\n" });
    const files = service();
    await files.contains(at("a.ts"), "alpha");
    await files.matchText(RUNAWAY_TEXT, RUNAWAY, "");
    await files.contains(at("a.ts"), "alpha");
    expect(files.stats().diskReads).toBe(2);
  });

  it("keeps the cache within its byte budget, least recently used out first", async () => {
    const names = Array.from({ length: 9 }, (_, i) => `f${i}.ts`);
    const at = tree(Object.fromEntries(names.map((n) => [n, "0123456789"])));
    // 80 bytes: room for eight of these 10-byte files.
    const files = service({ cacheBytes: 80 });
    const read = async (i: number) => {
      await files.contains(at(`f${i}.ts`), "0");
      return files.stats().diskReads;
    };
    for (let i = 0; i < 9; i++) await read(i); // f0 is evicted to make room for f8
    expect(files.stats().diskReads).toBe(9);
    expect(await read(8)).toBe(9);
    expect(await read(1)).toBe(9); // f1 is now the most recently used
    expect(await read(0)).toBe(10); // evicted earlier; evicts f2, the least recently used
    expect(await read(1)).toBe(10);
    expect(await read(2)).toBe(11);
  });

  it("never caches a file over an eighth of the budget", async () => {
    const at = tree({ "a.ts": "0123456789" });
    const files = service({ cacheBytes: 79 });
    await files.contains(at("a.ts"), "0");
    await files.contains(at("a.ts"), "0");
    expect(files.stats().diskReads).toBe(2);
  });

  it("reads a line and the line count", async () => {
    const at = tree({ "a.ts": "one\r\ntwo\r\n", "empty.ts": "", "open.ts": "x\ny" });
    const files = service();
    expect(await files.readLine(at("a.ts"), 2)).toEqual({
      ok: true,
      value: { lineCount: 2, text: "two" },
    });
    expect(await files.readLine(at("a.ts"), 3)).toEqual({ ok: true, value: { lineCount: 2 } });
    expect(await files.readLine(at("empty.ts"), 1)).toEqual({ ok: true, value: { lineCount: 0 } });
    expect(await files.readLine(at("open.ts"), 2)).toEqual({
      ok: true,
      value: { lineCount: 2, text: "y" },
    });
    expect(await files.readLine(at("gone.ts"), 1)).toEqual({
      ok: false,
      error: "ENOENT: no such file or directory",
    });
  });

  it("answers concurrent requests each with its own result", async () => {
    const at = tree({ "a.ts": "alpha\n", "b.ts": "beta\n" });
    const files = service();
    const answers = await Promise.all([
      files.contains(at("a.ts"), "alpha"),
      files.contains(at("b.ts"), "alpha"),
      files.matchText("x", "y", ""),
      files.contains(at("b.ts"), "beta"),
    ]);
    expect(answers.map((a) => a.ok && a.value)).toEqual([true, false, false, true]);
  });
});

describe("line matching (the worker's fast path)", () => {
  /** The definition: split into lines, test each on its own. */
  function naive(text: string, re: RegExp): number[] {
    if (text === "") return [];
    const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
    return lines.flatMap((l, i) => (re.test(l.endsWith("\r") ? l.slice(0, -1) : l) ? [i + 1] : []));
  }

  const patterns = [
    "a",
    "^a",
    "a$",
    "^$",
    "a*",
    "b+a",
    "a\\s*$",
    "a[\\s\\S]*b",
    "a[^]*b",
    "\\ba",
    "(a|b)\\1",
    "^\\s*$",
    ".",
    "a.b",
    "\\r",
    "a(?=b)",
    "(?<!a)b",
  ];

  it("finds exactly the lines a line-by-line test finds", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", " ", "\n", "\r", "\r\n", "\u2028"), { maxLength: 30 }),
        fc.constantFrom(...patterns),
        (chars, source) => {
          const text = chars.join("");
          const single = new RegExp(source);
          const whole = hasLookaround(source) ? undefined : new RegExp(source, "gm");
          const expected = naive(text, single);
          expect(matchingLines(text, single, whole, Number.POSITIVE_INFINITY)).toEqual(expected);
          expect(matchingLines(text, single, undefined, Number.POSITIVE_INFINITY)).toEqual(
            expected,
          );
          expect(matchingLines(text, single, whole, 1)).toEqual(expected.slice(0, 1));
        },
      ),
    );
  });

  it("counts lines the way grep does", () => {
    expect(lineAt("", 1)).toEqual({ lineCount: 0 });
    expect(lineAt("a\n", 1)).toEqual({ lineCount: 1, text: "a" });
    expect(lineAt("a\n\n", 2)).toEqual({ lineCount: 2, text: "" });
    expect(lineAt("a\r\nb", 2)).toEqual({ lineCount: 2, text: "b" });
  });

  it("detects lookarounds, not named groups", () => {
    expect(["a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b"].every(hasLookaround)).toBe(true);
    expect(["(?<name>a)", "(?:a)", "a"].some(hasLookaround)).toBe(false);
  });
});

describe("file service: invalidate", () => {
  it("serves cached text until invalidated, then reads the file again", async () => {
    const at = tree({ "n.txt": "OLD\n" });
    const s = service({ idleReleaseMs: 60_000 });
    expect(await s.contains(at("n.txt"), "OLD")).toEqual({ ok: true, value: true });
    writeFileSync(at("n.txt"), "NEW\n");
    // Cached: the change is not seen (one read per run is the point of the cache).
    expect(await s.contains(at("n.txt"), "NEW")).toEqual({ ok: true, value: false });
    expect(s.stats().diskReads).toBe(1);
    await s.invalidate();
    expect(await s.contains(at("n.txt"), "NEW")).toEqual({ ok: true, value: true });
    expect(s.stats().diskReads).toBe(2);
  });
});
