import type { Contract, OracleHeader, Problem } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { describeMarkdown, foreignFile } from "../foreign-file.js";
import { isLedger } from "../kinds/index.js";
import { hasIdentifyingHeading } from "../markdown/identify.js";
import { isBlank, locate } from "../markdown/lines.js";
import { openDoc } from "../markdown/open-doc.js";
import { attachAbandons } from "../oracle-grammar/abandons.js";
import { readCriteria } from "../oracle-grammar/criteria.js";
import { buildOracle } from "../oracle-grammar/oracles.js";
import { checkPlacement, SECTION_NAMES } from "../oracle-grammar/placement.js";
import { decodeContract, isProblem } from "../text.js";
import { readHeader } from "./header.js";

/** A markdown contract's sections, and its `# CONTRACT — <slug>` title. */
const IDENTIFYING = [...SECTION_NAMES, "CONTRACT"];

/**
 * Parse an oracle contract (the markdown `.claude/tasks/contracts/*.md`
 * ledger). Pure and total: never reads the file system, never throws, and
 * collects every problem so one pass shows everything to fix. Any error makes
 * the whole contract invalid (nothing of it may run), but the criteria that
 * could be read are still returned for status display.
 */
export function parseOracleContract(path: string, bytes: Uint8Array): Contract {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return contract(path, { kind: "oracle-contract" }, [], [decoded]);

  // A blank file is a contract not yet written: "no criteria" says what to add.
  const blank = decoded.lines.every(isBlank);
  if (!blank && !hasIdentifyingHeading(decoded.lines, IDENTIFYING)) {
    // An unlazy ledger named where a contract is expected: say what it is.
    const looks = isLedger(decoded.lines)
      ? "it is an unlazy gate ledger: name it GATES.md or put it under gates/ to read it as one"
      : describeMarkdown(decoded.lines);
    const foreign = foreignFile(path, "a markdown contract", looks);
    return contract(path, { kind: "oracle-contract" }, [], [foreign]);
  }

  const { doc, rendered, problems } = openDoc(path, decoded.lines);

  const header = readHeader(doc, problems);
  checkPlacement(doc, rendered.parts, problems);
  const block = readCriteria(doc, problems);
  for (const draft of block.drafts) buildOracle(doc, draft, problems);
  attachAbandons(doc, block.abandons, block.drafts, problems);

  if (block.drafts.length === 0) {
    const section = block.sections[0];
    problems.push(
      section
        ? problem(
            "no-criteria",
            locate(doc, section.index),
            "the ACCEPTANCE CRITERIA section has no criteria",
            {
              hint: "add criteria as `1. <text>` or `- [ ] ID: <text>` lines at column 0",
            },
          )
        : decoded.lines.every((l) => l.trim() === "")
          ? problem("no-criteria", locate(doc, 0), "the file is empty", {
              hint: "write the contract (header, ## REQUEST, ## ACCEPTANCE CRITERIA: see docs/contracts.md), or delete the file",
            })
          : problem("no-criteria", locate(doc, 0), "there is no ## ACCEPTANCE CRITERIA section", {
              hint: "add a `## ACCEPTANCE CRITERIA` heading followed by numbered criteria",
            }),
    );
  }

  const criteria = block.drafts.map((d) => d.criterion);
  return contract(path, header, criteria, problems.list());
}

function contract(
  path: string,
  header: OracleHeader,
  criteria: Contract["criteria"],
  problems: Problem[],
): Contract {
  return { kind: "oracle-contract", path, header, criteria, problems: sortProblems(problems) };
}
