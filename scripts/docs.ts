// `npm run docs` (first part): regenerate the generated parts of the documentation
// and the JSON Schemas in place. Tests fail when any of them is stale.
import { mkdir, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../src/fs/atomic-write.js";
import { findingCodesTable } from "../src/integrity/finding-codes.js";
import { harnessTable } from "../src/integrity/harness-table.js";
import { PROOF_DOC_BLOCKS } from "../src/proof/tamper-docs.js";
import { checkEnvTable } from "../src/report/problem-codes-table.js";
import { runReportJsonSchema } from "../src/report/run-json.js";
import {
  CONTRACT_SCHEMA_FILE,
  EVIDENCE_SCHEMA_FILE,
  phaseContractJsonSchema,
  phaseEvidenceJsonSchema,
} from "./contract-schemas.js";
import { contractsReference } from "./contracts-reference.js";
import { exampleReport } from "./example-report.js";

/** Replace, in `file`, the text between `<!-- name:start -->` and `<!-- name:end -->`. */
async function fill(file: string, name: string, content: string): Promise<void> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const [head, rest] = (await readFile(file, "utf8")).split(start);
  const tail = rest?.split(end)[1];
  if (head === undefined || tail === undefined) throw new Error(`${file} lacks ${start} … ${end}`);
  await writeFileAtomic(file, `${head}${start}\n${content}\n${end}${tail}`);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

await fill("docs/security.md", "check-env", checkEnvTable());
await fill("docs/integrity.md", "integrity-findings", findingCodesTable());
await fill("docs/integrity.md", "harness-resolution", harnessTable());
for (const [name, block] of Object.entries(PROOF_DOC_BLOCKS))
  await fill("docs/proof.md", name, block());
await writeFileAtomic("docs/example-report.md", await exampleReport());
// The contract format reference and the JSON Schemas editors use (see docs/contracts.md).
await writeFileAtomic("docs/contracts.md", contractsReference());
await mkdir("schema", { recursive: true });
await writeFileAtomic("schema/run-report.schema.json", json(runReportJsonSchema()));
await writeFileAtomic(`schema/${CONTRACT_SCHEMA_FILE}`, json(phaseContractJsonSchema()));
await writeFileAtomic(`schema/${EVIDENCE_SCHEMA_FILE}`, json(phaseEvidenceJsonSchema()));
