/**
 * A private tree (docs/security.md, "A private tree"): the sandbox shows the
 * checkout itself, with a layer on top, and whatever a check writes stays in
 * its own upper layer. Each defence runs its attack, beside a control that
 * shows the attack lands where the defence is absent.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ProcessOutcome } from "../src/process/run-process.js";
import { openSandbox, privateTreeFits } from "../src/sandbox/index.js";
import { decodeLayer, encodeLayer } from "../src/sandbox/tree-layer.js";
import { snapshot } from "./helpers/proof-run-repo.js";
import { bash, boundaryMissing, sandboxOptions } from "./helpers/sandbox.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const CANARY = `cgcanary${randomBytes(6).toString("hex")}`;
/**
 * Why this machine gives no boundary, found as the gate finds one (root, then
 * `sudo -n`: a GitHub-hosted runner's user has it); `undefined` when it does.
 */
const noBoundary = await boundaryMissing();
if (noBoundary !== undefined)
  console.warn(`sandbox-private-tree: SKIPPING the private tree's attack tests: ${noBoundary}`);

function checkout(): string {
  const root = tempDir("cg-private-tree-");
  writeTree(root, {
    "src/a.txt": "head\n",
    "src/keep.txt": "keep\n",
    "src/new.txt": "added by the PR\n",
    "src/other.txt": "other\n",
  });
  execFileSync("git", ["init", "-q", root]);
  execFileSync("git", [
    "-C",
    root,
    "config",
    "http.https://github.com/.extraheader",
    `AUTHORIZATION: basic ${CANARY}`,
  ]);
  return root;
}

function layerFile(layer: Parameters<typeof encodeLayer>[0]): string {
  const at = join(tempDir("cg-layer-"), "x.layer");
  writeFileSync(at, encodeLayer(layer));
  return at;
}

/** One script in a private tree over `root` with `layer` on top (a boundary is required): its exit code and output. */
async function inPrivateTree(root: string, layer: string, script: string): Promise<string> {
  const sandbox = await openSandbox(sandboxOptions(root, { privateTree: { layer } }));
  try {
    expect(sandbox.info.mechanism).not.toBe("none");
    return out(await sandbox.run(bash(root, script)));
  } finally {
    sandbox.close();
  }
}

const out = (o: ProcessOutcome) =>
  o.kind === "exited" ? `${o.exitCode} ${o.stdout.trim()}` : `${o.kind}`;

describe("tree layers", () => {
  it("round-trip files, modes, hidden paths and links", () => {
    const layer = {
      files: [
        { path: "a/b.txt", mode: 0o644, bytes: Buffer.from("one") },
        { path: "run.sh", mode: 0o755, bytes: Buffer.from("") },
      ],
      hide: ["gone.ts"],
      links: [{ path: "node_modules", target: "/opt/deps/node_modules" }],
    };
    const back = decodeLayer(encodeLayer(layer));
    expect(back.files.map((f) => [f.path, f.mode, Buffer.from(f.bytes).toString()])).toEqual([
      ["a/b.txt", 0o644, "one"],
      ["run.sh", 0o755, ""],
    ]);
    expect(back.hide).toEqual(["gone.ts"]);
    expect(back.links).toEqual(layer.links);
  });

  it("refuse a path that leaves the tree or touches git, a size past the bytes, trailing bytes", () => {
    const one = (path: string) =>
      encodeLayer({ files: [{ path, mode: 0o644, bytes: Buffer.from("x") }], hide: [] });
    for (const bad of [
      "../x",
      "/etc/passwd",
      "a/../../x",
      ".git/config",
      "a/.git/hooks/x",
      "a//b",
      "",
    ])
      expect(() => decodeLayer(one(bad)), bad).toThrow(/may not write/);
    expect(() => decodeLayer(encodeLayer({ files: [], hide: ["../up"] }))).toThrow(/may not touch/);
    const cut = one("a");
    expect(() => decodeLayer(cut.subarray(0, cut.length - 1))).toThrow(/does not fit/);
    expect(() => decodeLayer(Buffer.concat([cut, Buffer.from("!")]))).toThrow(/past its last file/);
    expect(privateTreeFits("/home/runner/work/a/a")).toBe(true);
    expect(privateTreeFits("/tmp/a,b")).toBe(false);
    expect(privateTreeFits("/tmp/a:b")).toBe(false);
    expect(privateTreeFits('/tmp/a"b')).toBe(false);
  });
});

describe.skipIf(noBoundary !== undefined)("a private tree inside the sandbox", () => {
  it("shows the layer over the checkout, keeps every write private, and holds no git metadata (as a copy holds none)", async () => {
    const root = checkout();
    const before = snapshot(root);
    const layer = layerFile({
      files: [{ path: "src/a.txt", mode: 0o755, bytes: Buffer.from("base\n") }],
      hide: ["src/new.txt"],
    });
    const sandbox = await openSandbox(sandboxOptions(root, { privateTree: { layer } }));
    try {
      expect(sandbox.info.mechanism).not.toBe("none");
      const run = (s: string) => sandbox.run(bash(root, s)).then(out);
      expect(await run("cat src/a.txt; test -x src/a.txt && echo exec")).toBe("0 base\nexec");
      expect(await run("test -e src/new.txt && echo there || echo gone")).toBe("0 gone");
      // The attack: change the checkout from inside.
      expect(
        await run("echo x > src/keep.txt && echo y > planted && rm src/other.txt && echo wrote"),
      ).toBe("0 wrote");
      expect(await run("cat src/keep.txt planted")).toBe("0 x\ny");
      expect(await run(`grep -rqs ${CANARY} .git && echo PWNED || echo clean`)).toBe("0 clean");
      expect(await run(": > .git/planted 2>/dev/null && echo PWNED || echo refused")).toBe(
        "0 refused",
      );
      // The checkout's index is the head's: at base it would list the pull request's files.
      expect(
        await run("ls -A .git | wc -l; git ls-files >/dev/null 2>&1 && echo repo || echo none"),
      ).toBe("0 0\nnone");
    } finally {
      sandbox.close();
    }
    expect(snapshot(root)).toEqual(before);

    // Controls: the same tree without a private tree takes the writes, and the token is on disk.
    const plain = await openSandbox(sandboxOptions(root));
    try {
      expect(out(await plain.run(bash(root, "git ls-files >/dev/null && echo repo")))).toBe(
        "0 repo",
      );
      expect(out(await plain.run(bash(root, "echo x > src/keep.txt && echo y > planted")))).toBe(
        "0 ",
      );
    } finally {
      plain.close();
    }
    expect(readFileSync(join(root, "src/keep.txt"), "utf8")).toBe("x\n");
    expect(existsSync(join(root, "planted"))).toBe(true);
    expect(readFileSync(join(root, ".git/config"), "utf8")).toContain(CANARY);
  });

  it("a left-out path the layer writes below (a directory the PR made a link) keeps the layer's files", async () => {
    const root = checkout();
    mkdirSync(join(root, "impl"));
    writeFileSync(join(root, "impl/foo.txt"), "head\n");
    symlinkSync("impl", join(root, "lib"));
    const layer = layerFile({
      files: [{ path: "lib/foo.txt", mode: 0o644, bytes: Buffer.from("base\n") }],
      hide: ["lib", "impl/foo.txt"],
    });
    expect(await inPrivateTree(root, layer, "ls lib; cat lib/foo.txt; ls impl | wc -l")).toBe(
      "0 foo.txt\nbase\n0",
    );
  });

  it("a left-out path below a restored file (a file the PR made a directory) is gone with the directory", async () => {
    const root = checkout();
    writeTree(root, { "conf/a.ts": "head a\n", "conf/b.ts": "head b\n" });
    const layer = layerFile({
      files: [{ path: "conf", mode: 0o644, bytes: Buffer.from("base conf\n") }],
      hide: ["conf/a.ts", "conf/b.ts"],
    });
    expect(await inPrivateTree(root, layer, "test -f conf && cat conf")).toBe("0 base conf");
  });

  it("leaves out thousands of paths (more than one command line holds)", async () => {
    const root = checkout();
    const hide: string[] = [];
    for (let i = 0; i < 1500; i++)
      hide.push(`many/a-long-directory-name-for-the-limit/file-${i}.ts`);
    writeTree(root, Object.fromEntries(hide.map((p) => [p, "x"])));
    writeFileSync(join(root, "many/kept.ts"), "kept");
    const layer = layerFile({ files: [], hide });
    expect(
      await inPrivateTree(
        root,
        layer,
        "ls many/a-long-directory-name-for-the-limit | wc -l; cat many/kept.ts",
      ),
    ).toBe("0 0\nkept");
  });

  it("a link in the checkout where the layer writes or hides cannot steer the host outside the tree", async () => {
    const root = checkout();
    const victim = tempDir("cg-victim-");
    writeFileSync(join(victim, "x"), "keep me\n");
    symlinkSync(victim, join(root, "sub"));
    symlinkSync(victim, join(root, "only-hidden"));
    mkdirSync(join(root, "real"));
    symlinkSync(victim, join(root, "real/deeper"));
    const layer = layerFile({
      files: [
        { path: "sub/y", mode: 0o644, bytes: Buffer.from("planted\n") },
        { path: "real/deeper/z", mode: 0o644, bytes: Buffer.from("planted\n") },
      ],
      hide: ["sub/x", "real/deeper/x", "only-hidden/x"],
    });
    expect(await inPrivateTree(root, layer, "cat sub/y real/deeper/z; ls sub")).toBe(
      "0 planted\nplanted\ny",
    );
    expect(readFileSync(join(victim, "x"), "utf8")).toBe("keep me\n");
    expect(existsSync(join(victim, "y"))).toBe(false);
    expect(existsSync(join(victim, "z"))).toBe(false);
    // Control: the tree's own spelling of the path leads into the victim.
    execFileSync("rm", ["-f", join(root, "sub/x")]);
    expect(existsSync(join(victim, "x"))).toBe(false);
  });
});
