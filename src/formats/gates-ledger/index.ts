import type { Contract, Criterion, GatesLedgerHeader, Problem } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { describeMarkdown, foreignFile } from "../foreign-file.js";
import { isLedger } from "../kinds/index.js";
import { type Doc, isBlank, locate } from "../markdown/lines.js";
import { openDoc } from "../markdown/open-doc.js";
import { attachAbandons } from "../oracle-grammar/abandons.js";
import { readCriteria } from "../oracle-grammar/criteria.js";
import { LEDGER_DIALECT } from "../oracle-grammar/dialect.js";
import { buildOracle } from "../oracle-grammar/oracles.js";
import { checkPlacement } from "../oracle-grammar/placement.js";
import { decodeContract, isProblem } from "../text.js";
import { readLedgerHeader } from "./header.js";

/**
 * Parse one of unlazy's gate ledgers (`GATES.md`, `gates/**\/*.md`; its
 * `references/gates.md`) with the markdown contract's reader in its ledger
 * dialect: the page as GitHub renders it (fences and comments are not
 * grammar), `- [ ] G1: <outcome>` gates with indented `CHECK:` / `EXPECT:` /
 * `CWD:` / `EVIDENCE:`, `ABANDON: <id> <reason>` at column 0. Each file is
 * its own contract: gate ids are unique within a file, as unlazy qualifies
 * them (`leaf-1.2:G3`), and naming one file never reads the tree around it.
 * Pure and total, like every format.
 */
export function parseGatesLedger(path: string, bytes: Uint8Array): Contract {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return ledger(path, { kind: "gates-ledger" }, [], [decoded]);
  const named = path === "GATES.md" || path.endsWith("/GATES.md");
  if (named && !decoded.lines.every(isBlank) && !isLedger(decoded.lines)) {
    return ledger(path, { kind: "gates-ledger" }, [], [notALedger(path)]);
  }
  if (!decoded.lines.every(isBlank) && !isLedger(decoded.lines)) {
    const foreign = foreignFile(path, "an unlazy gate ledger", describeMarkdown(decoded.lines));
    return ledger(path, { kind: "gates-ledger" }, [], [foreign]);
  }

  const { doc, rendered, problems } = openDoc(path, decoded.lines);
  checkPlacement(doc, rendered.parts, problems, LEDGER_DIALECT);
  const block = readCriteria(doc, problems, LEDGER_DIALECT);
  for (const draft of block.drafts) buildOracle(doc, draft, problems, LEDGER_DIALECT);
  attachAbandons(doc, block.abandons, block.drafts, problems);
  const header = readLedgerHeader(doc, block.drafts[0]?.index ?? doc.lines.length);
  // A file that merely has the name (a release-gate manifest, a table of quantum gates):
  // no gate, no CHECK line and no ledger title is no contract, said once and never blocking.
  if (
    named &&
    block.drafts.length === 0 &&
    !decoded.lines.some((l) => /^[ \t]+CHECK[ \t]*:/.test(l)) &&
    !/^#[ \t]+Gates[ \t]*:/i.test(decoded.lines.find((l) => l.startsWith("#")) ?? "")
  ) {
    return ledger(path, { kind: "gates-ledger" }, [], [notALedger(path)]);
  }
  if (block.drafts.length === 0) {
    problems.push(
      problem("no-criteria", locate(doc, 0), "the ledger has no gates", {
        hint: "add gates as `- [ ] G1: <outcome>` lines at column 0, with an indented CHECK: and EXPECT: under each",
      }),
    );
  }
  parityWithUnlazy(doc, block.drafts, problems);
  const criteria = block.drafts.map((d) => d.criterion);
  return ledger(path, header, criteria, problems.list());
}

const OWNS_LINE = /^(?:OWNS|Owns)[ \t]*:/;

/**
 * What unlazy's runner refuses, refused here too, so a ledger the gate
 * passes is one unlazy runs: a gate with no outcome (`- [ ] G1:` and nothing
 * after it; there is nothing to have met), and `OWNS:` after the first gate
 * (unlazy reads it only above the gates: below, it would silently own nothing).
 */
function parityWithUnlazy(
  doc: Doc,
  drafts: readonly { criterion: Criterion; index: number }[],
  problems: { push(p: Problem): void },
): void {
  for (const { criterion, index } of drafts) {
    if (criterion.title.trim() !== "") continue;
    problems.push(
      problem(
        "blank-outcome",
        locate(doc, index),
        `gate ${criterion.id} has no outcome: nothing after \`${criterion.id}:\``,
        { hint: `write what the gate proves after the id: \`- [ ] ${criterion.id}: <outcome>\`` },
      ),
    );
  }
  const first = drafts[0]?.index;
  if (first === undefined) return;
  for (let i = first + 1; i < doc.lines.length; i++) {
    if (doc.hidden[i] || !OWNS_LINE.test(doc.visible[i]!.trim())) continue;
    problems.push(
      problem(
        "misplaced-owns",
        locate(doc, i),
        `OWNS: after the first gate (line ${first + 1}); unlazy reads OWNS: only above the gates, so this one owns nothing`,
      ),
    );
  }
}

function notALedger(path: string): Problem {
  return problem(
    "not-a-ledger",
    { path, line: 1, column: 1 },
    `${path} is not an unlazy ledger: no gate lines (\`- [ ] G1: <outcome>\`); it is not gated`,
  );
}

function ledger(
  path: string,
  header: GatesLedgerHeader,
  criteria: Contract["criteria"],
  problems: Problem[],
): Contract {
  return { kind: "gates-ledger", path, header, criteria, problems: sortProblems(problems) };
}
