/**
 * Leaving a path out of discovery (issue 35): `--contracts '!GATES.md'` (the
 * action: a `!GATES.md` line in `contracts`) is how a repository whose
 * GATES.md is a release-gate manifest, not an unlazy ledger, stops the note.
 * A negated glob matches nothing by design, so it never warns that it
 * "matches no file"; and it never turns every other path into a contract.
 */
import { describe, expect, it } from "vitest";
import { contractPaths } from "../src/scope/contract-path.js";
import { auditDiscovery } from "../src/scope/discover-audit.js";
import { runCli } from "./helpers/cli.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

/** A release-gate manifest named GATES.md, as beatform's: checklists, no gate lines. */
const MANIFEST = `# GATES.md — the release-gate manifest

Every release passes these gates before it is tagged.

## Build
- [ ] \`npm run build\` is clean
- [ ] bundle under 250 KB
`;

describe("a negated glob leaves a path out", () => {
  it("--contracts '!GATES.md' stops the not-a-ledger note and warns of nothing", async () => {
    const root = tempDir("cg-neg-");
    writeTree(root, { "GATES.md": MANIFEST });
    const before = await runCli(["validate"], root);
    expect(before.stdout).toContain("not-a-ledger");
    const r = await runCli(["validate", "--contracts", "!GATES.md"], root);
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toContain("GATES.md");
    expect(r.code).toBe(0);
  });

  it("positive control: a positive glob that matches nothing still warns", async () => {
    const root = tempDir("cg-neg-");
    writeTree(root, { "GATES.md": MANIFEST });
    const audit = await auditDiscovery({
      root,
      globs: ["GATES.md", "gatez/*.md", "!GATES.md"],
      given: ["gatez/*.md", "!GATES.md"],
      found: [],
    });
    expect(audit.warnings).toEqual([
      expect.stringContaining("the glob 'gatez/*.md' matches no file"),
    ]);
  });

  it("a negated glob never makes another path a contract", () => {
    const paths = contractPaths(["GATES.md", "specs/*/spec.md", "!GATES.md"]);
    expect(paths.isContract("README.md")).toBe(false);
    expect(paths.isContract("GATES.md")).toBe(false);
    expect(paths.isContract("specs/001-x/spec.md")).toBe(true);
  });
});
