// `contract-gate --version` is package.json's version, bundled at build time:
// a release bump cannot leave the printed number behind.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { tempDir } from "./helpers/tmp.js";

const ROOT = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("contract-gate --version", () => {
  it("prints package.json's version, from the source and from bin/contract-gate.js (run `npm run bundle` first)", async () => {
    for (const flag of ["--version", "-V"]) {
      const r = await runCli([flag], tempDir());
      expect(r).toEqual({ code: 0, stdout: `contract-gate ${pkg.version}\n`, stderr: "" });
    }
    const bin = spawnSync(process.execPath, [join(ROOT, "bin", "contract-gate.js"), "--version"], {
      cwd: tempDir(),
      encoding: "utf8",
    });
    expect(bin.stdout, bin.stderr).toBe(`contract-gate ${pkg.version}\n`);
    expect(bin.status).toBe(0);
  });

  it("follows a version bump through the bundler, and the bundle reads no package.json when it runs", () => {
    // A copy of the sources with another version, bundled as `npm run bundle` does.
    const dir = tempDir("cg-version-");
    cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
    cpSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    const bumped = "9.8.7-rc.1";
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, version: bumped }));
    execFileSync(
      join(dir, "node_modules", ".bin", "ncc"),
      ["build", "src/cli.ts", "-o", "out", "-t", "-q", "--no-source-map-register"],
      { cwd: dir, stdio: "pipe" },
    );
    rmSync(join(dir, "package.json"));
    const out = execFileSync(process.execPath, [join(dir, "out", "index.js"), "--version"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(out).toBe(`contract-gate ${bumped}\n`);
  });
});
