import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** Packages in the lock file with install scripts that package.json's allowScripts does not decide. */
function undecided(lock: unknown, allow: Record<string, boolean>): string[] {
  const packages = (lock as { packages: Record<string, { hasInstallScript?: boolean }> }).packages;
  return Object.entries(packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length))
    .filter((name) => !(name in allow));
}

describe("npm ci is quiet", () => {
  it("every dependency with an install script is approved or denied in allowScripts", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
    expect(undecided(lock, pkg.allowScripts ?? {})).toEqual([]);
    // Control: without the entry, esbuild is the one npm would warn about.
    expect(undecided(lock, {})).toContain("esbuild");
  });
});
