// The CLI as users get it from npm: `npm pack`, installed offline into an empty project
// (the bundle carries every dependency, so no registry is needed), then run from there.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeTree } from "./helpers/tmp.js";

const MAX_TARBALL_BYTES = 500 * 1024;
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  version: string;
  dependencies?: Record<string, string>;
  private?: boolean;
};

const CONTRACT = `# CONTRACT — greeting
- date: 2026-11-29 | flow: feat | branch: feat/greeting
- status: active

## REQUEST (verbatim — IMMUTABLE)
Say hello.

## ACCEPTANCE CRITERIA
1. The greeter says hello
   CHECK: node greet.js
   EXPECT: Hello, Ada!
   EVIDENCE: pending

## FILE SCOPE
greet.js
`;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

function npm(args: string[], cwd: string, cache: string): string {
  // A private, empty cache: nothing from the developer's cache stands in for the tarball.
  return execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: "false" },
  });
}

/** The oldest Node an `engines.node` range admits, as [major, minor] (alternatives: the lowest). */
function oldestNode(range: string): [number, number] {
  const lows = range.split("||").map((alt) => {
    const m = /(?:>=|\^|~)?\s*(\d+)(?:\.(\d+))?/.exec(alt.trim());
    return [Number(m?.[1] ?? 0), Number(m?.[2] ?? 0)] as [number, number];
  });
  return lows.sort((a, b) => a[0] - b[0] || a[1] - b[1])[0]!;
}

describe("npm package", () => {
  it("is publishable with no runtime dependencies", () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it("every locked dependency runs on the oldest Node in engines (npm ci: no EBADENGINE)", () => {
    const ours = oldestNode(
      (JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines
        .node,
    );
    expect(ours).toEqual([20, 19]);
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const tooNew = Object.entries(lock.packages)
      .filter(([, p]) => typeof p.engines?.node === "string")
      .filter(([, p]) => {
        const [major, minor] = oldestNode(p.engines!.node!);
        return major > ours[0] || (major === ours[0] && minor > ours[1]);
      })
      .map(([name, p]) => `${name} ${p.engines!.node}`);
    expect(tooNew).toEqual([]);
    // The control: content-type 3 (via @octokit/request) wants Node 22; overrides pin 2.1.0.
    expect(oldestNode(">=22")).toEqual([22, 0]);
    expect(oldestNode("^20.19.0 || >=22.12.0")).toEqual([20, 19]);
  });

  it("packs the CLI alone, installs offline and runs --version, validate and run", () => {
    const out = tempDir("cg-pack-");
    const cache = tempDir("cg-npm-cache-");
    const [packed] = JSON.parse(
      npm(["pack", "--json", "--pack-destination", out], process.cwd(), cache),
    ) as PackResult[];
    const files = packed!.files.map((f) => f.path).sort();
    console.log(
      `bench: npm tarball ${(packed!.size / 1024).toFixed(1)} kB (target ≤ ${MAX_TARBALL_BYTES / 1024} kB), ` +
        `${(packed!.unpackedSize / 1024).toFixed(1)} kB unpacked, ${files.length} files`,
    );
    expect(packed!.size).toBeLessThanOrEqual(MAX_TARBALL_BYTES);
    expect(statSync(join(out, packed!.filename)).size).toBe(packed!.size);
    for (const needed of [
      "bin/contract-gate.js",
      "dist/cli/index.js",
      "LICENSE",
      "README.md",
      "package.json",
    ])
      expect(files).toContain(needed);
    expect(files.some((f) => f.startsWith("schema/"))).toBe(true);
    // Not the action's bundle, the sources, tests or fixtures.
    expect(
      files.filter(
        (f) => !/^(bin|dist\/cli|schema)\/|^[A-Z]+\.md$|^LICENSE$|^package\.json$/.test(f),
      ),
    ).toEqual([]);

    const project = tempDir("cg-install-");
    writeTree(project, {
      "package.json": '{ "name": "user-project", "private": true }\n',
      "greet.js": 'console.log("Hello, Ada!");\n',
      ".claude/tasks/contracts/2026-11-29-greeting-1200.md": CONTRACT,
    });
    npm(
      ["install", "--offline", "--no-audit", "--no-fund", join(out, packed!.filename)],
      project,
      cache,
    );

    const bin = join(project, "node_modules", ".bin", "contract-gate");
    const cli = (...args: string[]) =>
      spawnSync(bin, args, {
        cwd: project,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
    const version = cli("--version");
    expect(version.stdout).toBe(`contract-gate ${pkg.version}\n`);
    expect(version.status).toBe(0);

    const validate = cli("validate");
    expect(validate.stdout).toContain("1 contract checked: 1 valid");
    expect(validate.status).toBe(0);

    const run = cli("run", "--no-write", "--sandbox", "off");
    expect(run.stdout).toContain("PASS");
    expect(run.status).toBe(0);

    // A failing check fails there too: the installed CLI really runs it.
    writeTree(project, { "greet.js": 'console.log("Bye");\n' });
    const failed = cli("run", "--no-write", "--sandbox", "off");
    expect(failed.stdout).toContain("FAIL");
    expect(failed.status).toBe(1);
  });
});
