import {
  type Contract,
  type Criterion,
  emptyPlanHeader,
  type PlanHeader,
  type Problem,
} from "../../model/contract.js";
import { sortProblems } from "../../model/problems.js";
import { describeJsonTop, foreignFile } from "../foreign-file.js";
import { uncheckedCounts } from "../json/bounded-list.js";
import { parseJsonDocument } from "../json/document.js";
import { rawParts } from "../json/raw.js";
import { hasOwnShape, KIND_NAMES } from "../kinds/json.js";
import { phaseDigitsFromName } from "../kinds/phase-files.js";
import { decodeContractText } from "../text.js";
import { buildCriteria } from "./criteria.js";
import { buildHeader } from "./header.js";
import { ignoredKeyProblems, withoutIgnoredKeys } from "./ignored-keys.js";
import { type FlaggedChecks, ruleProblems, unsupportedVersion } from "./rules.js";
import { planContractSchemaFor } from "./schema.js";
import { type SchemaResult, schemaProblems } from "./schema-problems.js";

export { formatPath, type JsonPath } from "../json/path.js";
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
  const text = decodeContractText(path, bytes);
  if (typeof text !== "string") return result(path, emptyPlanHeader(path), [], [text]);

  const { document: doc, problems: jsonProblems } = parseJsonDocument(path, text);
  if (doc === undefined) return result(path, emptyPlanHeader(path), [], jsonProblems);

  const phaseDigits = phaseDigitsFromName(path);
  const version = unsupportedVersion(doc);
  if (version) {
    const header = buildHeader(doc, path, rawParts(doc.value));
    return result(path, header, [], [...jsonProblems, version]);
  }
  // Another tool's JSON at a phase contract's path: one error, not one per missing key.
  if (!hasOwnShape("plan-contract", doc.value)) {
    const foreign = foreignFile(path, KIND_NAMES["plan-contract"], describeJsonTop(doc.value));
    return result(path, emptyPlanHeader(path), [], [...jsonProblems, foreign]);
  }

  // Each stage's work is shared: the tasks and checks are listed once (as far
  // as the schema checked them), the criteria reuse the schema's output and
  // ask the rules' `flagged` set rather than run the check rules again.
  // Everything reads the contract without the keys a generator leaves empty
  // on checks of another type (positions are the same); a contract the strict
  // schema accepts has none, so only a refused one is read a second time.
  const schemaOf = planContractSchemaFor(doc.items);
  let schema: SchemaResult = schemaOf.safeParse(doc.value);
  let view: ReturnType<typeof withoutIgnoredKeys> = { value: doc.value, ignored: [] };
  if (!schema.success) {
    view = withoutIgnoredKeys(doc.value);
    if (view.ignored.length > 0) schema = schemaOf.safeParse(view.value);
  }
  const parts = rawParts(
    view.value,
    schema.success ? undefined : uncheckedCounts(schema.error.issues),
  );
  const header = buildHeader(doc, path, parts);
  const flagged: FlaggedChecks = new Set();
  const problems = [
    ...jsonProblems,
    ...ignoredKeyProblems(doc, view.ignored),
    ...schemaProblems(doc, schema),
    ...ruleProblems(doc, phaseDigits, flagged, parts),
  ];
  const criteria = buildCriteria(doc, {
    contract: schema.success ? schema.data : undefined,
    flagged,
    parts,
  });
  return result(path, header, criteria, problems);
}

function result(
  path: string,
  header: PlanHeader,
  criteria: Criterion[],
  problems: Problem[],
): Contract {
  return { kind: "plan-contract", path, header, criteria, problems: sortProblems(problems) };
}
