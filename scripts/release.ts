// The release workflow's logic, kept here so it is tested (test/release.test.ts):
//   tsx scripts/release.ts check TAG   the tag names package.json's version, exit 1 if not
//   tsx scripts/release.ts notes TAG   print the CHANGELOG section of TAG's version
//   tsx scripts/release.ts major TAG   print the major tag to move (v1), or nothing for a prerelease
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const SEMVER_TAG = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?$/;

/** The version a `vX.Y.Z[-pre]` tag names; throws for anything else (`v1`, `v1.2`, `1.2.3`). */
export function versionOf(tag: string): string {
  if (!SEMVER_TAG.test(tag)) throw new Error(`${tag} is not a release tag (vMAJOR.MINOR.PATCH)`);
  return tag.slice(1);
}

/**
 * The floating major tag (`v1`) a release moves, as users of `actions/checkout@v4` expect.
 * A prerelease moves nothing: `@v1` must only ever point at a finished release.
 */
export function majorTag(tag: string): string | undefined {
  const m = SEMVER_TAG.exec(tag);
  if (m === null) throw new Error(`${tag} is not a release tag (vMAJOR.MINOR.PATCH)`);
  return m[4] === undefined ? `v${m[1]}` : undefined;
}

/**
 * The body of `## [VERSION]` in a Keep a Changelog file, up to the next `## ` heading, trimmed.
 * Throws when the section is missing or empty: a release without notes is a mistake.
 */
export function changelogSection(changelog: string, version: string): string {
  const lines = changelog.split(/\r?\n/);
  const heading = new RegExp(`^## \\[${version.replace(/[.+-]/g, "\\$&")}\\](\\s|$)`);
  const start = lines.findIndex((l) => heading.test(l));
  if (start === -1) throw new Error(`CHANGELOG.md has no '## [${version}]' section`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  // Link reference definitions (`[1.0.0]: https://…`) at the end of the file are not notes.
  const body = lines
    .slice(start + 1, end === -1 ? undefined : end)
    .filter((l) => !/^\[[^\]]+\]:\s/.test(l))
    .join("\n")
    .trim();
  if (body === "") throw new Error(`CHANGELOG.md's '## [${version}]' section is empty`);
  return body;
}

function main([command, tag]: string[]): number {
  if (tag === undefined) throw new Error("usage: release.ts check|notes|major TAG");
  const version = versionOf(tag);
  switch (command) {
    case "check": {
      const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
      if (pkg.version !== version) {
        console.error(`tag ${tag} but package.json says ${pkg.version}`);
        return 1;
      }
      changelogSection(readFileSync("CHANGELOG.md", "utf8"), version);
      return 0;
    }
    case "notes":
      console.log(changelogSection(readFileSync("CHANGELOG.md", "utf8"), version));
      return 0;
    case "major":
      console.log(majorTag(tag) ?? "");
      return 0;
    default:
      throw new Error(`unknown command ${command}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`release: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
