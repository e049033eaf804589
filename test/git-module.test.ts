/** Reading many files at one commit in one batch of git reads, against real repositories. */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitReadError, openGit } from "../src/git/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=t@e.c", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "cg-git-base-"));
  dirs.push(dir);
  git(dir, "init", "-q");
  return dir;
}

describe("git.readAt", () => {
  it("reads every kind of entry in one batch: files, binary bytes, missing, symlinks, directories, over the limit", async () => {
    const dir = repo();
    mkdirSync(join(dir, "sub/dir"), { recursive: true });
    writeFileSync(join(dir, "a.json"), '{"a":1}\n');
    // Newlines and the batch protocol's own header shape inside a blob must not confuse the parser.
    const tricky = Buffer.from([0, 10, 10, 0xff, ...Buffer.from("\nabc blob 3\n")]);
    writeFileSync(join(dir, "sub/b.bin"), tricky);
    writeFileSync(join(dir, "big.md"), "x".repeat(100));
    writeFileSync(join(dir, "sub/dir/c.md"), "c");
    symlinkSync("a.json", join(dir, "link.json"));
    writeFileSync(join(dir, "empty.md"), "");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    const sha = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "a.json"), "changed on disk, not at the commit");

    const reads = await openGit(dir).readAt(sha, [
      { path: "a.json", limit: 1000 },
      { path: "sub/b.bin", limit: 1000 },
      { path: "big.md", limit: 10 },
      { path: "sub/dir", limit: 1000 },
      { path: "link.json", limit: 1000 },
      { path: "gone.md", limit: 1000 },
      { path: "empty.md", limit: 1000 },
    ]);
    const text = (p: string) => {
      const r = reads.get(p);
      return r?.kind === "file" ? Buffer.from(r.bytes).toString("utf8") : r?.kind;
    };
    expect(text("a.json")).toBe('{"a":1}\n');
    const bin = reads.get("sub/b.bin");
    expect(bin?.kind === "file" && Buffer.from(bin.bytes).equals(tricky)).toBe(true);
    expect(reads.get("big.md")).toEqual({ kind: "file", bytes: new Uint8Array(), size: 100 });
    expect(reads.get("sub/dir")).toEqual({ kind: "not-a-file", mode: "040000" });
    expect(reads.get("link.json")).toEqual({ kind: "not-a-file", mode: "120000" });
    expect(reads.get("gone.md")).toEqual({ kind: "missing" });
    expect(reads.get("empty.md")).toEqual({ kind: "file", bytes: new Uint8Array(), size: 0 });
  });

  it("takes every path literally: pattern characters and pathspec magic in a name are the name", async () => {
    const dir = repo();
    writeFileSync(join(dir, ":(top)a.json"), "magic");
    writeFileSync(join(dir, "*.json"), "star");
    writeFileSync(join(dir, "b.json"), "plain");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    const reads = await openGit(dir).readAt("HEAD", [
      { path: ":(top)a.json", limit: 100 },
      { path: "*.json", limit: 100 },
      { path: ":(exclude)b.json", limit: 100 },
      { path: "b.json", limit: 100 },
    ]);
    const text = (p: string) => {
      const r = reads.get(p);
      return r?.kind === "file" ? Buffer.from(r.bytes).toString() : r?.kind;
    };
    expect(text(":(top)a.json")).toBe("magic");
    expect(text("*.json")).toBe("star");
    expect(text(":(exclude)b.json")).toBe("missing");
    expect(text("b.json")).toBe("plain");
  });

  it("reads relative to a subdirectory, as the working directory input gives it", async () => {
    const dir = repo();
    mkdirSync(join(dir, "pkg"));
    writeFileSync(join(dir, "pkg/c.json"), "inner");
    writeFileSync(join(dir, "c.json"), "outer");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    const reads = await openGit(join(dir, "pkg")).readAt("HEAD", [{ path: "c.json", limit: 100 }]);
    const r = reads.get("c.json");
    expect(r?.kind === "file" && Buffer.from(r.bytes).toString()).toBe("inner");
  });

  it("fails closed when the commit or a blob cannot be read", async () => {
    const dir = repo();
    writeFileSync(join(dir, "a.json"), "a");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    await expect(
      openGit(dir).readAt("0".repeat(40), [{ path: "a.json", limit: 100 }]),
    ).rejects.toThrow(GitReadError);
    // The tree lists the blob, but its object is gone (as in a partial clone).
    const blob = git(dir, "rev-parse", "HEAD:a.json");
    rmSync(join(dir, ".git/objects", blob.slice(0, 2), blob.slice(2)));
    const read = openGit(dir).readAt("HEAD", [{ path: "a.json", limit: 100 }]);
    await expect(read).rejects.toThrow(GitReadError);
    await expect(read).rejects.toThrow(/Cannot read a\.json at commit HEAD/);
    // Positive control: the same read of a readable blob succeeds.
    writeFileSync(join(dir, "b.json"), "b");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "two");
    const ok = await openGit(dir).readAt("HEAD", [{ path: "b.json", limit: 100 }]);
    expect(ok.get("b.json")?.kind).toBe("file");
  });
});

describe("what the repository controls changes no answer and runs nothing", () => {
  /** A repo with `a.md` committed as "honest", and its blob's id. */
  function honest() {
    const dir = repo();
    writeFileSync(join(dir, "a.md"), "honest\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    return { dir, blob: git(dir, "rev-parse", "HEAD:a.md") };
  }

  it("a replace object for a blob: plain git reads the replacement (control), the gate the real blob", async () => {
    const { dir, blob } = honest();
    writeFileSync(join(dir, "weak"), "weak\n");
    const weak = git(dir, "hash-object", "-w", "weak");
    git(dir, "replace", blob, weak);
    expect(git(dir, "cat-file", "-p", "HEAD:a.md")).toBe("weak"); // the attack works on plain git
    const read = (await openGit(dir).readAt("HEAD", [{ path: "a.md", limit: 100 }])).get("a.md");
    expect(read?.kind === "file" && Buffer.from(read.bytes).toString()).toBe("honest\n");
  });

  it("a graft that moves a merge base: plain git follows it (control), the gate does not", async () => {
    const dir = repo();
    writeFileSync(join(dir, "a.md"), "1\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "root");
    const root = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "a.md"), "2\n");
    git(dir, "commit", "-qam", "base");
    const base = git(dir, "rev-parse", "HEAD");
    writeFileSync(join(dir, "a.md"), "3\n");
    git(dir, "commit", "-qam", "head");
    const head = git(dir, "rev-parse", "HEAD");
    // The head's parent grafted to the root: the merge base with `base` becomes the root.
    writeFileSync(join(dir, ".git/info/grafts"), `${head} ${root}\n`);
    expect(git(dir, "merge-base", base, head)).toBe(root);
    expect(await openGit(dir).mergeBase(base, head)).toBe(base);
  });

  it("a filter driver and an fsmonitor hook the repository configures: plain git runs them (control), the gate never", async () => {
    const { dir } = honest();
    const marks = join(dir, "..", `${dir.split("/").pop()}-ran`);
    mkdirSync(marks);
    writeFileSync(join(dir, ".gitattributes"), "*.md filter=evil\n");
    git(dir, "add", ".gitattributes");
    git(dir, "commit", "-qm", "attributes");
    git(dir, "config", "filter.evil.clean", `sh -c 'touch ${marks}/filter; cat'`);
    const monitor = join(marks, "..", `${dir.split("/").pop()}-fsmonitor.sh`);
    writeFileSync(monitor, `#!/bin/sh\ntouch ${marks}/fsmonitor\nexit 1\n`, { mode: 0o755 });
    git(dir, "config", "core.fsmonitor", monitor);
    const head = git(dir, "rev-parse", "HEAD");
    const touch = () => writeFileSync(join(dir, "a.md"), "changed\n");

    touch();
    const changes = await openGit(dir).worktreeChanges(head);
    expect(changes).toEqual([{ path: "a.md", status: "modified" }]);
    expect(readdirSync(marks)).toEqual([]);
    // Control: the same diff by plain git runs both.
    git(dir, "diff", "--name-status", head);
    expect(readdirSync(marks).sort()).toEqual(["filter", "fsmonitor"]);
    rmSync(monitor);
    rmSync(marks, { recursive: true });
  });

  it("a same-size edit in the index's own second is a change: the private index keeps the index's time (control: a fresh copy misses it)", async () => {
    const dir = repo();
    // ctime cannot be set from a test; the edit's ctime in the same second is what makes
    // the stat data match in the wild (a tasks.md un-checked right after a commit).
    git(dir, "config", "core.trustctime", "false");
    const file = join(dir, "tasks.md");
    const then = new Date(2001, 0, 1);
    writeFileSync(file, "- [x] 1.1 done\n");
    utimesSync(file, then, then);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    const head = git(dir, "rev-parse", "HEAD");
    // The edit: same size, same inode, same mtime second as the index file.
    writeFileSync(file, "- [ ] 1.1 done\n");
    utimesSync(file, then, then);
    const index = join(dir, ".git", "index");
    utimesSync(index, then, new Date(then.getTime() + 300));
    expect(git(dir, "diff", "--name-only", head, "--")).toBe("tasks.md"); // git itself sees it
    utimesSync(index, then, new Date(then.getTime() + 300)); // (that diff refreshed the index)
    // Control: the same diff on a copy of the index with a fresh mtime trusts the stat data.
    const fresh = join(mkdtempSync(join(tmpdir(), "cg-git-index-")), "index");
    dirs.push(dirname(fresh));
    copyFileSync(index, fresh);
    const missed = execFileSync("git", ["diff", "--name-only", head, "--"], {
      cwd: dir,
      env: { ...process.env, GIT_INDEX_FILE: fresh },
    });
    expect(missed.toString()).toBe("");
    expect(await openGit(dir).worktreeChanges(head)).toEqual([
      { path: "tasks.md", status: "modified" },
    ]);
  });

  it("the checkout's index is byte-identical after worktreeChanges, however stale its stat data (control: plain git diff rewrites it)", async () => {
    const { dir } = honest();
    const head = git(dir, "rev-parse", "HEAD");
    const index = join(dir, ".git", "index");
    // A file whose content is committed but whose mtime moved: git must re-hash it, and
    // `git diff` writes the refreshed stat data back into the index it read.
    const stale = () => utimesSync(join(dir, "a.md"), new Date(2001, 0, 1), new Date(2001, 0, 1));
    stale();
    const before = readFileSync(index);
    expect(await openGit(dir).worktreeChanges(head)).toEqual([]);
    expect(readFileSync(index).equals(before)).toBe(true);
    // Control: the same diff by plain git, even with GIT_OPTIONAL_LOCKS=0, rewrites the index.
    execFileSync("git", ["diff", "--name-status", head, "--"], {
      cwd: dir,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
    });
    expect(readFileSync(index).equals(before)).toBe(false);
  });
});
