// `npm run docs`: regenerate the generated parts of README.md in place.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { findingCodesTable } from "../src/integrity/finding-codes.js";
import { credentialRulesTable, problemCodesTable } from "../src/report/problem-codes-table.js";
import { runReportJsonSchema } from "../src/report/run-json.js";
import { demoteHeadings, exampleReport } from "./example-report.js";

/** Replace the text between `<!-- name:start -->` and `<!-- name:end -->`. */
function fill(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const [head, rest] = text.split(start);
  const tail = rest?.split(end)[1];
  if (head === undefined || tail === undefined)
    throw new Error(`README.md lacks ${start} … ${end}`);
  return `${head}${start}\n${content}\n${end}${tail}`;
}

let readme = readFileSync("README.md", "utf8");
readme = fill(readme, "problem-codes", problemCodesTable());
readme = fill(readme, "credential-rules", credentialRulesTable());
readme = fill(readme, "integrity-findings", findingCodesTable());
const example = await exampleReport();
mkdirSync("docs", { recursive: true });
writeFileSync("docs/example-report.md", example);
readme = fill(readme, "example-report", demoteHeadings(example).trimEnd());
writeFileSync("README.md", readme);
mkdirSync("schema", { recursive: true });
writeFileSync(
  "schema/run-report.schema.json",
  `${JSON.stringify(runReportJsonSchema(), null, 2)}\n`,
);
// The contract format reference and the JSON Schemas editors use (docs/contracts.md),
// imported here so this block stands apart from the README generation above.
const { contractsReference } = await import("./contracts-reference.js");
const {
  phaseContractJsonSchema,
  phaseEvidenceJsonSchema,
  CONTRACT_SCHEMA_FILE,
  EVIDENCE_SCHEMA_FILE,
} = await import("./contract-schemas.js");
writeFileSync("docs/contracts.md", contractsReference());
writeFileSync(
  `schema/${CONTRACT_SCHEMA_FILE}`,
  `${JSON.stringify(phaseContractJsonSchema(), null, 2)}\n`,
);
writeFileSync(
  `schema/${EVIDENCE_SCHEMA_FILE}`,
  `${JSON.stringify(phaseEvidenceJsonSchema(), null, 2)}\n`,
);
