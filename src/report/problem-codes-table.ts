import { CREDENTIAL_ENV_RULES } from "../model/credential-env.js";
import { PROBLEM_CODES } from "../model/problem-codes.js";

/** docs/contracts.md's problem-code table, generated so the docs cannot fall behind the code. */
export function problemCodesTable(): string {
  const rows = Object.entries(PROBLEM_CODES).map(
    ([code, { severity, kinds, doc }]) => `| \`${code}\` | ${severity} | ${kinds} | ${doc} |`,
  );
  return ["| code | severity | kind | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

/** docs/security.md's table of environment variables removed before any command runs. */
export function credentialRulesTable(): string {
  const rows = CREDENTIAL_ENV_RULES.map((r) => `| ${r.match} | \`${r.pattern}\` | ${r.why} |`);
  return ["| match | name | why |", "|---|---|---|", ...rows].join("\n");
}
