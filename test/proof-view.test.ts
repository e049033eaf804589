import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import { buildViews, listTree, planBase } from "../src/proof/run/view.js";
import { isTestFile } from "../src/proof/test-files.js";
import { git } from "./helpers/git.js";
import { proofRepo, snapshot } from "./helpers/proof-run-repo.js";
import { tempDir } from "./helpers/tmp.js";

const TSX = join(import.meta.dirname, "../node_modules/tsx/dist/esm/index.mjs");
const CHILD = join(import.meta.dirname, "fixtures/proof/prove-child.ts");

describe("the base view's plan", () => {
  it("restores changed and deleted source, leaves added source out, keeps every test file at head", () => {
    const plan = planBase(
      [
        { path: "src/a.ts", status: "modified" },
        { path: "src/new.ts", status: "added" },
        { path: "src/gone.ts", status: "removed" },
        { path: "src/to.ts", status: "renamed", previousPath: "src/from.ts" },
        { path: "src/copy.ts", status: "copied", previousPath: "src/a.ts" },
        { path: "tests/a.test.ts", status: "modified" },
        { path: "tests/new.test.ts", status: "added" },
        { path: "tests/gone.test.ts", status: "removed" },
        { path: "tests/moved.test.ts", status: "renamed", previousPath: "src/was-source.ts" },
      ],
      (p) => isTestFile(p),
    );
    expect(plan).toEqual({
      restore: ["src/a.ts", "src/from.ts", "src/gone.ts", "src/was-source.ts"],
      hide: ["src/copy.ts", "src/new.ts", "src/to.ts"],
    });
  });
});

describe("the two trees", () => {
  it("head as checked out, base with the merge-base source; ignored entries linked, the checkout untouched", async () => {
    const { root, base } = proofRepo(
      {
        "src/a.ts": "a at base\n",
        "src/gone.ts": "gone\n",
        "src/from.ts": "from\n",
        "tests/a.test.ts": "test at base\n",
        "bin/run.sh": "#!/bin/sh\n",
      },
      {
        "src/a.ts": "a at head\n",
        "src/new.ts": "new\n",
        "tests/a.test.ts": "test at head\n",
        "vendor/keep/x.txt": "tracked in an ignored dir\n",
      },
      ["src/gone.ts"],
    );
    git(root, "mv", "src/from.ts", "src/to.ts");
    git(root, "commit", "-qm", "rename");
    // An ignored directory that also holds a tracked file, and untracked work.
    writeFileSync(join(root, ".gitignore"), "node_modules\nvendor/\n");
    mkdirSync(join(root, "vendor/lib"), { recursive: true });
    writeFileSync(join(root, "vendor/lib/dep.js"), "dep\n");
    git(root, "add", "-f", ".gitignore");
    git(root, "commit", "-qm", "ignore vendor");
    const before = snapshot(root);
    const g = openGit(root);
    const plan = planBase(await g.changedBetween(base, "HEAD"), (p) => isTestFile(p));
    const views = await buildViews({
      checkout: root,
      git: openGit(root),
      listing: await listTree(openGit(root)),
      base: { commit: base, plan },
      parent: tempDir(),
    });
    try {
      const read = (tree: string, p: string) =>
        existsSync(join(tree, p)) ? readFileSync(join(tree, p), "utf8") : undefined;
      expect([read(views.head, "src/a.ts"), read(views.base!, "src/a.ts")]).toEqual([
        "a at head\n",
        "a at base\n",
      ]);
      expect([read(views.head, "src/new.ts"), read(views.base!, "src/new.ts")]).toEqual([
        "new\n",
        undefined,
      ]);
      expect([read(views.head, "src/gone.ts"), read(views.base!, "src/gone.ts")]).toEqual([
        undefined,
        "gone\n",
      ]);
      expect([
        read(views.head, "src/to.ts"),
        read(views.base!, "src/to.ts"),
        read(views.base!, "src/from.ts"),
      ]).toEqual(["from\n", undefined, "from\n"]);
      expect(read(views.base!, "tests/a.test.ts")).toBe("test at head\n");
      // A tracked file inside an ignored directory is a file like any other (added here: hidden at base).
      expect([
        read(views.head, "vendor/keep/x.txt"),
        read(views.base!, "vendor/keep/x.txt"),
      ]).toEqual(["tracked in an ignored dir\n", undefined]);
      for (const tree of [views.head, views.base!]) {
        expect(readlinkSync(join(tree, "node_modules"))).toBe(
          realpathSync(join(root, "node_modules")),
        );
        expect(readlinkSync(join(tree, "vendor/lib"))).toBe(realpathSync(join(root, "vendor/lib")));
        expect(lstatSync(join(tree, "bin/run.sh")).mode & 0o111).toBe(
          lstatSync(join(root, "bin/run.sh")).mode & 0o111,
        );
        expect(existsSync(join(tree, ".git"))).toBe(false);
      }
      expect(views.reads.sort()).toEqual(
        [realpathSync(join(root, "node_modules")), realpathSync(join(root, "vendor/lib"))].sort(),
      );
      // Writing in a tree writes a copy, never the checkout.
      writeFileSync(join(views.base!, "src/a.ts"), "changed by a test\n");
      expect(snapshot(root)).toEqual(before);
    } finally {
      views.close();
    }
    expect(existsSync(views.dir)).toBe(false);
  });

  it("a path to restore that the merge base does not hold is left out of the base tree, not copied from head", async () => {
    const { root, base } = proofRepo(
      { "src/a.ts": "a at base\n" },
      { "src/new.ts": "new at head\n" },
    );
    const views = await buildViews({
      checkout: root,
      git: openGit(root),
      listing: await listTree(openGit(root)),
      // As a diff that calls an added file modified would have it.
      base: { commit: base, plan: { restore: ["src/a.ts", "src/new.ts"], hide: [] } },
    });
    try {
      expect(readFileSync(join(views.head, "src/new.ts"), "utf8")).toBe("new at head\n");
      expect(existsSync(join(views.base!, "src/new.ts"))).toBe(false);
      expect(readFileSync(join(views.base!, "src/a.ts"), "utf8")).toBe("a at base\n");
    } finally {
      views.close();
    }
  });

  it("a base version that is not a file (a symlink at base) stops the base view with the path named", async () => {
    const { root, base } = proofRepo({ "src/link.ts": "x\n" }, {});
    git(root, "rm", "-q", "src/link.ts");
    git(root, "commit", "-qm", "drop");
    await expect(
      buildViews({
        checkout: root,
        git: openGit(root),
        listing: await listTree(openGit(root)),
        base: {
          commit: base,
          plan: { restore: ["src/link.ts", "src/never.ts"], hide: [] },
        },
      }).then((v) => v.close()),
    ).resolves.toBeUndefined();
    const linkBase = proofRepo({ "real.ts": "r\n" }, {});
    await import("node:fs").then((fs) =>
      fs.symlinkSync("real.ts", join(linkBase.root, "src-link.ts")),
    );
    git(linkBase.root, "add", "src-link.ts");
    git(linkBase.root, "commit", "-qm", "link");
    const sha = git(linkBase.root, "rev-parse", "HEAD").trim();
    await expect(
      buildViews({
        checkout: linkBase.root,
        git: openGit(linkBase.root),
        listing: await listTree(openGit(linkBase.root)),
        base: {
          commit: sha,
          plan: { restore: ["src-link.ts"], hide: [] },
        },
      }),
    ).rejects.toThrow(/src-link\.ts is not a regular file at the base \(mode 120000\)/);
  });
});

const BASE_SLEEPS = `case "$PWD" in */base) : > "$MARK"; sleep 60;; esac; npx --no vitest run --reporter=junit --outputFile.junit={junit} {files}`;

function child(root: string, base: string, temp: string, mark: string) {
  const command = BASE_SLEEPS.replace("$MARK", mark);
  const p = spawn(process.execPath, ["--import", TSX, CHILD, root, base, temp, command], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  p.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    p.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { p, done, out: () => out };
}

async function untilExists(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 50));
}

describe("a signal during the base run", () => {
  const repo = () =>
    proofRepo(
      {
        "package.json": JSON.stringify({ type: "module", devDependencies: { vitest: "4" } }),
        "src/trim.ts": "export const trim = (s: string) => s;\n",
        "tests/trim.test.ts": `import { describe, expect, it } from "vitest";\nimport { trim } from "../src/trim.js";\ndescribe("trim", () => { it("trims surrounding spaces", () => expect(trim(" a ")).toBe("a")); });\n`,
      },
      {
        "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
        "src/extra.ts": "export {};\n",
      },
    );

  it("SIGTERM: the run is cancelled (an execution error), the copies are removed, the checkout and index are byte-identical", async () => {
    const { root, base } = repo();
    const before = snapshot(root);
    const temp = tempDir();
    const mark = join(tempDir(), "in-base-run");
    const c = child(root, base, temp, mark);
    await untilExists(mark);
    expect(readdirSync(temp)).toHaveLength(1);
    c.p.kill("SIGTERM");
    const end = await c.done;
    expect(end.code).toBe(0);
    const proof = JSON.parse(c.out());
    expect(proof.tests[0]).toMatchObject({
      verdict: "execution-error",
      reason: "execution error at base: the base run was cancelled",
    });
    expect(readdirSync(temp)).toEqual([]);
    expect(snapshot(root)).toEqual(before);
  });

  it("SIGKILL: nothing cleans up, and still the checkout and index are byte-identical (the runs never touched them)", async () => {
    const { root, base } = repo();
    const before = snapshot(root);
    const temp = tempDir();
    const mark = join(tempDir(), "in-base-run");
    const c = child(root, base, temp, mark);
    await untilExists(mark);
    c.p.kill("SIGKILL");
    expect((await c.done).signal).toBe("SIGKILL");
    expect(snapshot(root)).toEqual(before);
    // The positive control: the base tree did differ from the checkout while it ran.
    const [dir] = readdirSync(temp);
    expect(readFileSync(join(temp, dir!, "base/src/trim.ts"), "utf8")).toBe(
      "export const trim = (s: string) => s;\n",
    );
    expect(existsSync(join(temp, dir!, "base/src/extra.ts"))).toBe(false);
  });
});
