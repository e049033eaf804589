import { TAMPER_CODES } from "./tamper-codes.js";
import { ASSERTION_ROWS, ENVIRONMENT_ROWS, MARKER_ROWS, type PatternRow } from "./tamper-tables.js";
import { DEFAULT_TEST_FILE_GLOBS } from "./test-files.js";

// docs/proof.md's tables, drawn from the tables the code matches with, so the
// documentation cannot drift from what is found (`npx tsx scripts/docs.ts`).

function rows(table: readonly PatternRow[]): string {
  const lines = ["| row | finds | in |", "|---|---|---|"];
  for (const r of table) lines.push(`| \`${r.id}\` | ${r.forms} | ${r.languages.join(", ")} |`);
  return lines.join("\n");
}

export function markerTable(): string {
  return rows(MARKER_ROWS);
}

export function environmentTable(): string {
  return rows(ENVIRONMENT_ROWS);
}

export function assertionTable(): string {
  return rows(ASSERTION_ROWS);
}

export function tamperCodesTable(): string {
  const lines = ["| code | severity | what to do |", "|---|---|---|"];
  for (const [code, row] of Object.entries(TAMPER_CODES))
    lines.push(`| \`${code}\` | ${row.severity} | ${row.hint} |`);
  return lines.join("\n");
}

export function testFileGlobsList(): string {
  return DEFAULT_TEST_FILE_GLOBS.map((g) => `- \`${g}\``).join("\n");
}

/** Every generated block of docs/proof.md, by its marker name. */
export const PROOF_DOC_BLOCKS: Record<string, () => string> = {
  "test-file-globs": testFileGlobsList,
  "tamper-codes": tamperCodesTable,
  "tamper-markers": markerTable,
  "tamper-environment": environmentTable,
  "tamper-assertions": assertionTable,
};
