import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { git } from "./git.js";
import { tempDir, writeTree } from "./tmp.js";

/** A spec with every guardrail form the requirement proof reads, and the repository it gates. */
export const SPEC_PATH = "specs/001-trim/spec.md";

export const SPEC = `# Specification: trim

Trim surrounding spaces from names.

## Requirements

- FR-001 [ADDED]: WHEN a name is saved, the system SHALL remove surrounding spaces.
- FR-002: WHEN a name is shown, the system SHALL keep inner spaces.

## Behavior Scenarios

- Scenario: trims a padded name (FR-001)

## Acceptance Criteria

- [ ] AC-1 (FR-001): padded names are stored trimmed
- [ ] AC-2 (FR-002): inner spaces survive

## Guardrails

- No new dependencies.
- Protected surfaces:
  - \`src/api/**\`
- Keep the public names stable.

## Verification

- \`node -e "process.exit(0)"\` — proves AC-2

## Requirement Map

- FR-001 → tests/trim.test.ts > trims surrounding spaces
- FR-002 → tests/trim.test.ts > keeps inner spaces

SPEC STATUS: READY
`;

export const TEST = `import { it, expect } from "vitest";
import { trim } from "../src/trim.js";
it("trims surrounding spaces", () => { expect(trim("  a  ")).toBe("a"); });
it("keeps inner spaces", () => { expect(trim("a b")).toBe("a b"); });
`;

export const BASE_FILES: Record<string, string> = {
  ".gitignore": "node_modules\n",
  "package.json": `${JSON.stringify({ name: "x", devDependencies: { vitest: "^4.0.0" } }, null, 2)}\n`,
  "src/trim.ts": "export const trim = (s: string) => s;\n",
  "src/api/index.ts": "export const api = 1;\n",
  "tests/trim.test.ts": TEST,
  [SPEC_PATH]: SPEC,
};

/** A repository with `base` on main and `head` (null deletes) committed on `pr`. */
export function repo(head: Record<string, string | null>, base = BASE_FILES): string {
  const root = tempDir("cg-proof-");
  git(root, "init", "-q", "-b", "main");
  writeTree(root, base);
  linkNodeModules(root);
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  git(root, "checkout", "-q", "-b", "pr");
  for (const [p, text] of Object.entries(head)) {
    if (text === null) git(root, "rm", "-q", p);
    else writeTree(root, { [p]: text });
  }
  git(root, "add", "-A");
  git(root, "commit", "-q", "--allow-empty", "-m", "head");
  return root;
}

/**
 * This repository's node_modules, linked into a test repository (ignored
 * there, as an install is): the requirement proof really runs vitest.
 */
export function linkNodeModules(root: string): void {
  symlinkSync(join(import.meta.dirname, "../../node_modules"), join(root, "node_modules"));
}
