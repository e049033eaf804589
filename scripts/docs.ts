// `npm run docs`: regenerate the generated parts of the documentation in place.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { findingCodesTable } from "../src/integrity/finding-codes.js";
import { credentialRulesTable } from "../src/report/problem-codes-table.js";
import { runReportJsonSchema } from "../src/report/run-json.js";
import { exampleReport } from "./example-report.js";

/** Replace, in `file`, the text between `<!-- name:start -->` and `<!-- name:end -->`. */
function fill(file: string, name: string, content: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const [head, rest] = readFileSync(file, "utf8").split(start);
  const tail = rest?.split(end)[1];
  if (head === undefined || tail === undefined) throw new Error(`${file} lacks ${start} … ${end}`);
  writeFileSync(file, `${head}${start}\n${content}\n${end}${tail}`);
}

fill("docs/security.md", "credential-rules", credentialRulesTable());
fill("docs/integrity.md", "integrity-findings", findingCodesTable());
writeFileSync("docs/example-report.md", await exampleReport());
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
