import type { OracleHeader, Section } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { atxText, type Doc, type H2Section, headingIs, locate } from "../markdown/lines.js";
import { asRead } from "../markdown/normalize.js";
import type { ProblemSink } from "../markdown/problem-sink.js";
import { unwrapBackticks } from "../markdown/values.js";

type FactKey = "date" | "flow" | "branch" | "status" | "supersedes";
export const FACT_KEYS: readonly string[] = ["date", "flow", "branch", "status", "supersedes"];

const TITLE = /^#[ \t]/;
// `# CONTRACT — <slug>`: the slug is the title. Any dash or a colon separates.
const CONTRACT_PREFIX = /^CONTRACT(?:[ \t]*[—–:-][ \t]*|[ \t]+)(.*)$/is;
const FACT = /^([A-Za-z]+)[ \t]*:(.*)$/s;

/**
 * The header: the facts above the first `## ` heading (title, date, flow,
 * branch, status, supersedes) and the verbatim REQUEST, CLARIFICATIONS and
 * FILE SCOPE sections. Information only, except `status:`, which decides
 * whether the contract runs: a second status line is an error, since a reader
 * and the gate could each believe a different one. Anything else in an
 * unexpected shape is simply left out.
 */
export function readHeader(doc: Doc, problems: ProblemSink): OracleHeader {
  const header: OracleHeader = { kind: "oracle-contract" };
  const sections = doc.sections;
  const preambleEnd = sections[0]?.index ?? doc.lines.length;
  let statusAt: number | undefined;
  for (let i = 0; i < preambleEnd; i++) {
    if (doc.hidden[i]) continue;
    const statuses = readPreambleLine(doc.lines[i]!, doc.visible[i]!, header);
    for (let k = 0; k < statuses; k++) {
      if (statusAt === undefined) {
        statusAt = i;
        continue;
      }
      problems.push(
        problem(
          "duplicate-status",
          locate(doc, i),
          `a second status: line (the first is on line ${statusAt + 1}); the contract's status is ambiguous`,
          { hint: "keep exactly one `- status: <active|aborted>` line in the header" },
        ),
      );
    }
  }
  const request = findSection(doc, sections, "REQUEST");
  if (request) header.request = request;
  const clarifications = findSection(doc, sections, "CLARIFICATIONS");
  if (clarifications) header.clarifications = clarifications;
  const fileScope = findSection(doc, sections, "FILE SCOPE");
  if (fileScope) header.fileScope = fileScope;
  return header;
}

/** Read one shown preamble line into the header; returns how many `status:` facts it holds. */
function readPreambleLine(line: string, visible: string, header: OracleHeader): number {
  if (TITLE.test(line)) {
    if (header.title === undefined) header.title = titleText(atxText(visible));
    return 0;
  }
  // `- date: … | flow: … | branch: …`, bullet optional.
  const body = visible.replace(/^[ \t]*[-*+][ \t]+/, "");
  let statuses = 0;
  for (const part of body.split("|")) {
    const m = FACT.exec(part.trim());
    if (!m) {
      // A `status:` spelled with invisible or look-alike characters still
      // reads as one to a reviewer: it counts towards the one-status rule.
      if (/^[-*+]?[ \t]*status[ \t]*:/i.test(asRead(part).trim())) statuses++;
      continue;
    }
    const key = m[1]!.toLowerCase();
    if (key === "status") statuses++;
    const value = unwrapBackticks(m[2]!.trim());
    // First occurrence wins: a header is read top-down like the rest of the file.
    if (FACT_KEYS.includes(key) && value !== "" && header[key as FactKey] === undefined) {
      header[key as FactKey] = value;
    }
  }
  return statuses;
}

function titleText(text: string): string {
  const m = CONTRACT_PREFIX.exec(text);
  return m && m[1]!.trim() !== "" ? m[1]!.trim() : text;
}

/**
 * The first section whose heading starts with `prefix`, verbatim, without the
 * blank lines around it. An empty section has `endLine = startLine - 1`.
 */
function findSection(
  doc: Doc,
  sections: readonly H2Section[],
  prefix: string,
): Section | undefined {
  const s = sections.find((x) => headingIs(x, prefix));
  if (!s) return undefined;
  let first = s.index + 1;
  let last = s.end - 1;
  while (first <= last && doc.lines[first]!.trim() === "") first++;
  while (last >= first && doc.lines[last]!.trim() === "") last--;
  return {
    heading: s.heading,
    text: doc.lines.slice(first, last + 1).join("\n"),
    startLine: first + 1,
    endLine: last + 1,
  };
}
