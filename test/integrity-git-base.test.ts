/** Reading many files at one commit in one batch of git reads, against real repositories. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BaseUnreadableError, readAtCommit } from "../src/integrity/git-base.js";

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

describe("readAtCommit", () => {
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

    const reads = await readAtCommit(dir, sha, [
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
    const reads = await readAtCommit(dir, "HEAD", [
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
    const reads = await readAtCommit(join(dir, "pkg"), "HEAD", [{ path: "c.json", limit: 100 }]);
    const r = reads.get("c.json");
    expect(r?.kind === "file" && Buffer.from(r.bytes).toString()).toBe("inner");
  });

  it("fails closed when the commit or a blob cannot be read", async () => {
    const dir = repo();
    writeFileSync(join(dir, "a.json"), "a");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "one");
    await expect(
      readAtCommit(dir, "0".repeat(40), [{ path: "a.json", limit: 100 }]),
    ).rejects.toThrow(BaseUnreadableError);
    // The tree lists the blob, but its object is gone (as in a partial clone).
    const blob = git(dir, "rev-parse", "HEAD:a.json");
    rmSync(join(dir, ".git/objects", blob.slice(0, 2), blob.slice(2)));
    const read = readAtCommit(dir, "HEAD", [{ path: "a.json", limit: 100 }]);
    await expect(read).rejects.toThrow(BaseUnreadableError);
    await expect(read).rejects.toThrow(/Cannot read a\.json at commit HEAD/);
    // Positive control: the same read of a readable blob succeeds.
    writeFileSync(join(dir, "b.json"), "b");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "two");
    const ok = await readAtCommit(dir, "HEAD", [{ path: "b.json", limit: 100 }]);
    expect(ok.get("b.json")?.kind).toBe("file");
  });
});
