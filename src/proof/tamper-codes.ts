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
  "test-assertion-unreachable": {
    severity: "blocking",
    hint: "Let the test reach an assertion that can fail: remove the early return, add the assertion, or drop expect.assertions(0); or have a reviewer approve it.",
  },
  "assertion-library-patched": {
    severity: "blocking",
    hint: "Do not write to, replace or mock the assertion library or the test runner (add new matchers under new names); remove the change, or have a reviewer approve it.",
  },
  "runner-output-reached": {
    severity: "blocking",
    hint: "Code must not read another process's command line or environment, nor write where the runner reports; remove it, or have a reviewer approve it.",
  },
  "test-process-exit": {
    severity: "blocking",
    hint: "Test code must not end the process (the runner's exit status is the verdict); fail with an assertion instead, or have a reviewer approve it.",
  },
  "file-unparsed": {
    severity: "blocking",
    hint: "The gate reads tests and changed source from the syntax tree; this file did not parse, so only the spelling tables were read. Fix the syntax error at the line given, or have a reviewer approve it.",
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
