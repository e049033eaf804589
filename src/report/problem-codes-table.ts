import { PROBLEM_CODES } from "../problem-codes.js";

/** The README's problem-code table, generated so the docs cannot fall behind the code. */
export function problemCodesTable(): string {
  const rows = Object.entries(PROBLEM_CODES).map(
    ([code, { severity, kinds, doc }]) => `| \`${code}\` | ${severity} | ${kinds} | ${doc} |`,
  );
  return ["| code | severity | kind | meaning |", "|---|---|---|---|", ...rows].join("\n");
}
