/**
 * Checks never run as root (issue 31, item 3): on this root machine a
 * sandboxed check is the dedicated check user (65532), the working tree
 * shown as its own through an idmapped mount, every other root file not its
 * own. Each attack beside its control (the sandbox off reads what the check
 * cannot) and an honest twin (the tree stays readable and writable).
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CHECK_GID,
  CHECK_UID,
  checkUser,
  fallbackCheckUser,
  hostCheckUser,
} from "../src/sandbox/check-user.js";
import { describeView } from "../src/sandbox/describe.js";
import { openSandbox } from "../src/sandbox/index.js";
import { encodeLayer } from "../src/sandbox/tree-layer.js";
import { bash, sandboxOptions as options } from "./helpers/sandbox.js";
import { tempDir } from "./helpers/tmp.js";

const asRoot = process.getuid?.() === 0;

/**
 * A 0600 root file in the view's system directories (`/etc`), where a key
 * would sit: only its owner guards it. (A `sandbox-read` grant is shown as the
 * check's own: granted is granted.)
 */
function rootSecret(): { dir: string; file: string } {
  const dir = mkdtempSync("/etc/cg-root-secret-");
  planted.push(dir);
  chmodSync(dir, 0o755);
  const file = join(dir, "key");
  writeFileSync(file, "ROOT-ONLY-CANARY\n", { mode: 0o600 });
  return { dir, file };
}
const planted: string[] = [];
afterAll(() => {
  for (const d of planted) rmSync(d, { recursive: true, force: true });
});

function tree(): string {
  const root = tempDir();
  writeFileSync(join(root, "tracked.txt"), "one\n");
  writeFileSync(join(root, "own-secret"), "tree-file\n", { mode: 0o600 });
  return root;
}

const PROBE = (secret: string) =>
  `id -u; id -g; cat ${secret} 2>/dev/null && echo READ-ROOT-FILE; cat /etc/shadow >/dev/null 2>&1 && echo READ-SHADOW; cat own-secret; echo two >> tracked.txt && echo modified; echo new > made.txt && echo created; mkdir -p sub/deeper && echo dir-made`;

describe.skipIf(!asRoot)("as root, checks run as the dedicated check user", () => {
  for (const executor of ["lane", "per-check"] as const) {
    it(`cannot read a 0600 root file or /etc/shadow; id -u is not 0; the tree is its own (${executor}; the sandbox off reads both)`, async () => {
      const root = tree();
      const secret = rootSecret();
      const off = await openSandbox(options(root, { mode: "off" }));
      const control = await off.run(
        bash(root, `cat ${secret.file}; cat /etc/shadow >/dev/null && echo READ-SHADOW`),
      );
      expect(control.stdout).toContain("ROOT-ONLY-CANARY");
      expect(control.stdout).toContain("READ-SHADOW");

      const sandbox = await openSandbox(options(root, { mode: "required", executor }));
      try {
        expect(sandbox.info.view?.uid).toBe(CHECK_UID);
        expect(sandbox.info.warning ?? "").not.toMatch(/uid/);
        const run = await sandbox.run(bash(root, PROBE(secret.file)));
        expect(run).toMatchObject({ kind: "exited", exitCode: 0 });
        const lines = run.stdout.trim().split("\n");
        expect(lines.slice(0, 2)).toEqual([String(CHECK_UID), String(CHECK_GID)]);
        expect(run.stdout).not.toContain("ROOT-ONLY-CANARY");
        expect(run.stdout).not.toContain("READ-ROOT-FILE");
        expect(run.stdout).not.toContain("READ-SHADOW");
        // The honest twin: the tree, even its own 0600 file, is the check's to read and write.
        expect(lines.slice(2)).toEqual(["tree-file", "modified", "created", "dir-made"]);
      } finally {
        sandbox.close();
      }
      // On disk, what the check wrote is the tree owner's (root's), as a gate's own write would be.
      expect(readFileSync(join(root, "tracked.txt"), "utf8")).toBe("one\ntwo\n");
      expect(statSync(join(root, "made.txt")).uid).toBe(0);
      expect(statSync(join(root, "sub/deeper")).uid).toBe(0);
    });
  }

  it("a private tree: the check writes its own layer as the check user, the tree on disk unchanged", async () => {
    const root = tree();
    const layerFile = join(tempDir("cg-layer-"), "layer");
    writeFileSync(
      layerFile,
      encodeLayer({
        files: [{ path: "lib/base.txt", mode: 0o644, bytes: Buffer.from("from the layer\n") }],
        hide: ["own-secret"],
      }),
    );
    const secret = rootSecret();
    const sandbox = await openSandbox(
      options(root, {
        mode: "required",
        privateTree: { layer: layerFile },
        extraReads: [secret.dir],
      }),
    );
    try {
      const run = await sandbox.run(
        bash(
          root,
          `id -u; cat ${secret.file} 2>/dev/null && echo READ-ROOT-FILE; cat lib/base.txt; echo x >> lib/base.txt && echo layer-written; test -e own-secret || echo hidden; echo two >> tracked.txt && echo modified; echo n > made.txt && echo created; stat -c %u tracked.txt made.txt`,
        ),
      );
      expect(run).toMatchObject({ kind: "exited", exitCode: 0 });
      expect(run.stdout.trim().split("\n")).toEqual([
        String(CHECK_UID),
        "from the layer",
        "layer-written",
        "hidden",
        "modified",
        "created",
        String(CHECK_UID),
        String(CHECK_UID),
      ]);
    } finally {
      sandbox.close();
    }
    expect(readFileSync(join(root, "tracked.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(root, "made.txt"))).toBe(false);
  });

  it("a 0600 root file in the tool cache stays root's; one under a sandbox-read grant (a tool cache's too) is the check's (the sandbox off reads them)", async () => {
    const root = tree();
    const plant = (prefix: string, canary: string) => {
      const dir = tempDir(prefix);
      chmodSync(dir, 0o755);
      writeFileSync(join(dir, "key"), `${canary}\n`, { mode: 0o600 });
      writeFileSync(join(dir, "open"), "world-readable\n", { mode: 0o644 });
      return dir;
    };
    const cache = plant("cg-tool-cache-", "CACHE-ROOT-CANARY");
    const granted = plant("cg-granted-", "GRANTED-CANARY");
    // A root-only tool cache the maintainer also grants by name: granted.
    const rootCache = plant("cg-root-cache-", "ROOT-CACHE-GRANTED");
    chmodSync(rootCache, 0o700);
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: tempDir("cg-home-"),
      RUNNER_TOOL_CACHE: cache,
      AGENT_TOOLSDIRECTORY: rootCache,
    };
    const script = `id -u; cat ${cache}/key ${cache}/open ${granted}/key ${rootCache}/key 2>/dev/null; true`;
    const off = await openSandbox(options(root, { mode: "off", env }));
    const control = await off.run(bash(root, script));
    expect(control.stdout).toContain("CACHE-ROOT-CANARY");
    expect(control.stdout).toContain("GRANTED-CANARY");
    const sandbox = await openSandbox(
      options(root, { mode: "required", env, extraReads: [granted, rootCache] }),
    );
    try {
      const run = await sandbox.run(bash(root, script));
      expect(run).toMatchObject({ kind: "exited", exitCode: 0 });
      expect(run.stdout.split("\n")[0]).toBe(String(CHECK_UID));
      // The ambient tool cache: its root-only file is not the check's, its open files are.
      expect(run.stdout).not.toContain("CACHE-ROOT-CANARY");
      expect(run.stdout).toContain("world-readable");
      // What the maintainer granted by name is readable as the check's own.
      expect(run.stdout).toContain("GRANTED-CANARY");
      expect(run.stdout).toContain("ROOT-CACHE-GRANTED");
    } finally {
      sandbox.close();
    }
  });

  it("a proof's writable directory outside the tree stays writable to the check", async () => {
    const root = tree();
    const results = tempDir("cg-results-");
    const sandbox = await openSandbox(
      options(root, { mode: "required", privateTree: {}, writable: [results] }),
    );
    try {
      const run = await sandbox.run(bash(root, `echo r > ${results}/out.json && echo wrote`));
      expect(run).toMatchObject({ kind: "exited", exitCode: 0, stdout: "wrote\n" });
    } finally {
      sandbox.close();
    }
    expect(statSync(join(results, "out.json")).uid).toBe(0);
  });

  it("the host started through sudo never hands a check uid 0: it drops to SUDO_UID (root without sudo: 0, the control)", async () => {
    const root = tree();
    chmodSync(root, 0o777);
    const home = tempDir("cg-home-");
    chownSync(home, 65534, 65534);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
    const asked = { user: { uid: 0, gid: 0 }, env };
    const control = await openSandbox(options(root, { ...asked, mode: "required" }));
    try {
      expect((await control.run(bash(root, "id -u"))).stdout).toBe("0\n");
    } finally {
      control.close();
    }
    const bin = tempDir("cg-fake-sudo-");
    const sudo = join(bin, "sudo");
    // What sudo does for a runner whose uid is 65534: the target's environment names the caller.
    writeFileSync(
      sudo,
      `#!/bin/sh\n[ "$1" = -n ] && [ "$2" = -- ] || exit 1\nshift 2\nSUDO_UID=65534 SUDO_GID=65534 exec "$@"\n`,
    );
    chmodSync(sudo, 0o755);
    const sandbox = await openSandbox(options(root, { ...asked, sudo, mode: "required" }));
    try {
      expect(sandbox.info.mechanism).toBe("namespaces (sudo -n)");
      expect(sandbox.info.view?.uid).toBe(65534);
      expect((await sandbox.run(bash(root, "id -u"))).stdout).toBe("65534\n");
    } finally {
      sandbox.close();
    }
  });
});

describe("who a check runs as (pure)", () => {
  it("a root gate asks for the dedicated user and an idmapped tree; any other gate for itself; an explicit user wins", () => {
    expect(checkUser({ uid: 0, gid: 0 })).toEqual({ uid: CHECK_UID, gid: CHECK_GID, idmap: true });
    expect(checkUser({ uid: 1001, gid: 118 })).toEqual({ uid: 1001, gid: 118, idmap: false });
    expect(checkUser({ uid: 0, gid: 0 }, { uid: 7, gid: 8 })).toEqual({
      uid: 7,
      gid: 8,
      idmap: false,
    });
  });

  it("under sudo the host replaces uid 0 by SUDO_UID, or by the dedicated user when the caller was root", () => {
    const zero = { uid: 0, gid: 0, idmap: false };
    expect(hostCheckUser(zero, { SUDO_UID: "1001", SUDO_GID: "118" })).toEqual({
      uid: 1001,
      gid: 118,
      idmap: false,
    });
    for (const env of [
      { SUDO_UID: "0", SUDO_GID: "0" },
      { SUDO_UID: "x", SUDO_GID: "1" },
      { SUDO_UID: "5" },
    ])
      expect(hostCheckUser(zero, env)).toEqual({ uid: CHECK_UID, gid: CHECK_GID, idmap: true });
    // Not under sudo (the gate is root and asked for 0 itself): its word stands.
    expect(hostCheckUser(zero, {})).toEqual(zero);
    const own = { uid: 1001, gid: 118, idmap: false };
    expect(hostCheckUser(own, { SUDO_UID: "1001", SUDO_GID: "118" })).toEqual(own);
  });

  it("without an idmapped tree, checks run as its owner; the report says which uid", () => {
    expect(fallbackCheckUser({ uid: 1001, gid: 118 })).toEqual({
      uid: 1001,
      gid: 118,
      idmap: false,
    });
    const view = {
      tree: "/w",
      system: ["/usr"],
      toolchains: [],
      extraReads: [],
      gitDirs: 1,
      hiddenCredentials: 0,
      network: "none" as const,
    };
    expect(describeView({ ...view, uid: CHECK_UID })).toContain(
      "Checks ran as uid 65532 (the dedicated check user; the working tree shown as its own).",
    );
    expect(describeView({ ...view, uid: 0 })).toContain(
      "Checks ran as uid 0 (root without capabilities",
    );
  });
});
