import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { changelogSection, majorTag, versionOf } from "../scripts/release.js";

const CHANGELOG = `# Changelog

## [Unreleased]

### Added
- something new

## [1.2.0] - 2026-12-01

### Added
- the 1.2 feature

### Fixed
- the 1.2 fix

## [1.1.0] - 2026-11-01
- older

[1.2.0]: https://github.com/contract-gate/contract-gate/releases/tag/v1.2.0
`;

describe("release logic", () => {
  it("takes one version's section, without the next one or link references", () => {
    expect(changelogSection(CHANGELOG, "1.2.0")).toBe(
      "### Added\n- the 1.2 feature\n\n### Fixed\n- the 1.2 fix",
    );
    expect(changelogSection(CHANGELOG, "1.1.0")).toBe("- older");
    expect(changelogSection(CHANGELOG, "Unreleased")).toBe("### Added\n- something new");
  });

  it("refuses a missing or empty section, and does not match a version by prefix", () => {
    expect(() => changelogSection(CHANGELOG, "1.3.0")).toThrow("no '## [1.3.0]' section");
    expect(() => changelogSection(CHANGELOG, "1.2")).toThrow("no '## [1.2]' section");
    expect(() => changelogSection("## [2.0.0]\n\n## [1.0.0]\n- x\n", "2.0.0")).toThrow("empty");
    // '.' is literal: 1x2x0 is not 1.2.0.
    expect(() => changelogSection("## [1x2x0]\n- x\n", "1.2.0")).toThrow("no '## [1.2.0]'");
  });

  it("moves the major tag for a release, never for a prerelease", () => {
    expect(majorTag("v1.0.0")).toBe("v1");
    expect(majorTag("v12.3.4")).toBe("v12");
    expect(majorTag("v0.1.0")).toBe("v0");
    expect(majorTag("v2.0.0-rc.1")).toBeUndefined();
  });

  it("accepts only vMAJOR.MINOR.PATCH tags", () => {
    expect(versionOf("v1.2.3")).toBe("1.2.3");
    for (const bad of ["v1", "v1.2", "1.2.3", "v01.2.3", "v1.2.3.4", "release-1"]) {
      expect(() => versionOf(bad), bad).toThrow("not a release tag");
      expect(() => majorTag(bad), bad).toThrow("not a release tag");
    }
  });

  it("the repository's CHANGELOG has the section of package.json's version, ready to release", () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    const changelog = readFileSync("CHANGELOG.md", "utf8");
    expect(changelogSection(changelog, version)).toContain("### Added");
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
  });

  it("runs as the workflow calls it: major prints the tag, check refuses another version", () => {
    const out = execFileSync("npx", ["tsx", "scripts/release.ts", "major", "v3.4.5"], {
      encoding: "utf8",
    });
    expect(out).toBe("v3\n");
    expect(() =>
      execFileSync("npx", ["tsx", "scripts/release.ts", "check", "v999.0.0"], { stdio: "pipe" }),
    ).toThrow();
  });
});
