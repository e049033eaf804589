import { describe, expect, it } from "vitest";
import { parseChangedLines, unquote } from "../src/git/diff-lines.js";
import { openGit } from "../src/git/index.js";
import { commitAll, git } from "./helpers/git.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const lines = (m: Map<string, Set<number>>, p: string) =>
  [...(m.get(p) ?? [])].sort((a, b) => a - b);

describe("Git.changedLines: the lines the working tree adds or changes against a commit", () => {
  it("reads a real diff: edits, insertions, a moved block, a pure deletion, hunk text that looks like headers", async () => {
    const root = tempDir("cg-changed-lines-");
    writeTree(root, {
      "src/a.py": "def f(x):\n    return x\n\n\ndef g(y):\n    return y\n",
      "src/b.ts": "one\ntwo\nthree\nfour\n",
      "src/gone.ts": "a\nb\nc\n",
      'src/café "q".js': "x\n",
    });
    commitAll(root, "base");
    const base = git(root, "rev-parse", "HEAD").trim();
    writeTree(root, {
      // Line 2 edited; two lines inserted after line 6.
      "src/a.py":
        "def f(x):\n    return x + 1\n\n\ndef g(y):\n    return y\n+++ b/src/evil\n@@ -1 +100,50 @@\n",
      // Pure deletion of line 2: nothing on the head side changed.
      "src/b.ts": "one\nthree\nfour\n",
      'src/café "q".js': "y\n",
    });
    git(root, "rm", "-q", "src/gone.ts");
    const out = await openGit(root).changedLines(base, [
      "src/a.py",
      "src/b.ts",
      "src/gone.ts",
      'src/café "q".js',
      "src/untouched.ts",
    ]);
    expect(lines(out, "src/a.py")).toEqual([2, 7, 8]);
    expect(lines(out, "src/b.ts")).toEqual([]);
    expect(out.has("src/gone.ts")).toBe(false);
    expect(lines(out, 'src/café "q".js')).toEqual([1]);
    expect(out.has("src/evil")).toBe(false);
  });

  it("a moved function is changed on the head side, as the diff says (the old text stand-in called it unchanged)", async () => {
    const root = tempDir("cg-changed-lines-");
    writeTree(root, { "m.py": "def a():\n    return 1\n\n\ndef b():\n    return 2\n" });
    commitAll(root, "base");
    const base = git(root, "rev-parse", "HEAD").trim();
    writeTree(root, { "m.py": "def b():\n    return 2\n\n\ndef a():\n    return 1\n" });
    const out = await openGit(root).changedLines(base, ["m.py"]);
    expect(lines(out, "m.py").length).toBeGreaterThan(0);
  });

  it("parses hunk headers only, and C-quoted names", () => {
    const out = parseChangedLines(
      [
        "diff --git a/x b/x",
        "--- a/x",
        "+++ b/x",
        "@@ -3 +3 @@",
        "-old",
        "+new",
        "@@ -10,0 +11,2 @@",
        "++++ b/y",
        "+@@ -1 +1,9 @@",
        'diff --git "a/t\\tab" "b/t\\tab"',
        '+++ "b/t\\tab\\303\\251"',
        "@@ -1,2 +1,0 @@",
        "diff --git a/z b/z",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
      ].join("\n"),
    );
    expect([...out.keys()]).toEqual(["x", "t\tabé"]);
    expect(lines(out, "x")).toEqual([3, 11, 12]);
    expect(lines(out, "t\tabé")).toEqual([]);
    expect(unquote("plain")).toBe("plain");
  });
});
