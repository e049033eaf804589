/**
 * Every tamper finding code with its severity and hint. Blocking ones block
 * unless an approving review acknowledges them, like the contract-integrity
 * findings (docs/proof.md, "Tampering").
 */
export const TAMPER_CODES = {
  "test-file-deleted": {
    severity: "blocking",
    hint: "Restore the test file, or have a reviewer approve its removal.",
  },
  "test-file-renamed-away": {
    severity: "blocking",
    hint: "Rename it to a path the test-file globs match, or have a reviewer approve the move.",
  },
  "test-removed": {
    severity: "blocking",
    hint: "Restore the test (its line in the base version is given), or have a reviewer approve its removal.",
  },
  "test-marker-added": {
    severity: "blocking",
    hint: "Remove the skip/only/todo marker so the test runs, or have a reviewer approve it.",
  },
  "test-environment-branch": {
    severity: "blocking",
    hint: "Code must not behave differently under a test runner; remove the branch, or have a reviewer approve it.",
  },
  "test-file-unreadable": {
    severity: "blocking",
    hint: "The gate could not read this test file's text (binary, too large or unreadable); it cannot tell what changed.",
  },
  "test-config-changed": {
    severity: "blocking",
    hint: "Undo the configuration change so the tests run and count as before, or have a reviewer approve it.",
  },
  "assertions-fewer": {
    severity: "warning",
    hint: "Check that no assertion was removed or loosened to make a test pass.",
  },
} as const satisfies Record<string, { severity: "blocking" | "warning"; hint: string }>;

export type TamperCode = keyof typeof TAMPER_CODES;

/** One thing the PR's diff does to the tests. `line` is in the base version for a removed test. */
export interface TamperFinding {
  code: TamperCode;
  severity: "blocking" | "warning";
  file: string;
  line: number;
  message: string;
  hint: string;
}

export function tamperFinding(
  code: TamperCode,
  file: string,
  line: number,
  message: string,
): TamperFinding {
  const { severity, hint } = TAMPER_CODES[code];
  return { code, severity, file, line, message, hint };
}
