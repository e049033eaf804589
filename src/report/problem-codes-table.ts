import { CHECK_ENV_TABLE } from "../model/check-env.js";
import { PROBLEM_CODES } from "../model/problem-codes.js";

/** docs/contracts.md's problem-code table, generated so the docs cannot fall behind the code. */
export function problemCodesTable(): string {
  const rows = Object.entries(PROBLEM_CODES).map(
    ([code, { severity, kinds, doc }]) => `| \`${code}\` | ${severity} | ${kinds} | ${doc} |`,
  );
  return ["| code | severity | kind | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

const VALUE_RULE = {
  "as-is": "as the job has it",
  directory: "an absolute path inside the check's view, else withheld",
  "path-list": "the entries that are absolute paths inside the check's view",
} as const;

/** docs/security.md's table of the variables every command gets: generated from CHECK_ENV_TABLE. */
export function checkEnvTable(): string {
  const rows = CHECK_ENV_TABLE.map(
    (e) =>
      `| \`${e.name}${e.prefix ? "*" : ""}\` | ${e.group} | ${VALUE_RULE[e.value]} | ${e.why} |`,
  );
  return ["| name | kind | value | why |", "|---|---|---|---|", ...rows].join("\n");
}
