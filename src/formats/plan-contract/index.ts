import type { Contract, Criterion, PlanHeader, Problem } from "../../model.js";
import { sortProblems } from "../../problems.js";
import { decodeContract, isProblem } from "../text.js";
import { buildCriteria } from "./criteria.js";
import { phaseDigitsFromName } from "./file-name.js";
import { buildHeader, emptyHeader } from "./header.js";
import { parseJsonDocument } from "./json-document.js";
import { ruleProblems, unsupportedVersion } from "./rules.js";
import { schemaProblems } from "./schema-problems.js";

export { formatPath, type JsonPath } from "./json-path.js";
export { CHECK_TYPES, DEFAULT_TIMEOUT_MS, PERSONAS, PlanContractSchema } from "./schema.js";

/**
 * Parse and validate a `phase-N-contract.json` (plan-contract schema v1).
 *
 * Pure and total: no file system, never throws. Every problem found is
 * collected, so one run shows the author everything to fix:
 * input hygiene → JSON syntax (stops here) → duplicate keys → version
 * (stops here when unsupported) → schema → the format's 11 rules, which run
 * on the raw JSON even where the schema failed → file-name/phase agreement.
 */
export function parsePlanContract(path: string, bytes: Uint8Array): Contract {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return result(path, emptyHeader(path), [], [decoded]);

  const parsed = parseJsonDocument(path, decoded.text);
  const doc = parsed.document;
  if (doc === undefined) return result(path, emptyHeader(path), [], parsed.problems);

  const phaseDigits = phaseDigitsFromName(path);
  const header = buildHeader(doc, path, phaseDigits);
  const version = unsupportedVersion(doc);
  if (version) return result(path, header, [], [...parsed.problems, version]);

  const problems = [...parsed.problems, ...schemaProblems(doc), ...ruleProblems(doc, phaseDigits)];
  return result(path, header, buildCriteria(doc), problems);
}

function result(
  path: string,
  header: PlanHeader,
  criteria: Criterion[],
  problems: Problem[],
): Contract {
  return { kind: "plan-contract", path, header, criteria, problems: sortProblems(problems) };
}
