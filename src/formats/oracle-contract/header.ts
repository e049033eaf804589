import type { OracleHeader, Section } from "../../model.js";
import { type Doc, type H2Section, h2Sections, headingIs } from "./lines.js";
import { unwrapBackticks } from "./values.js";

type FactKey = "date" | "flow" | "branch" | "status" | "supersedes";
const FACT_KEYS: readonly string[] = ["date", "flow", "branch", "status", "supersedes"];

const TITLE = /^#[ \t]+(.*)$/s;
// `# CONTRACT — <slug>`: the slug is the title. Any dash or a colon separates.
const CONTRACT_PREFIX = /^CONTRACT(?:[ \t]*[—–:-][ \t]*|[ \t]+)(.*)$/is;
const FACT = /^([A-Za-z]+)[ \t]*:(.*)$/s;

/**
 * The header: the facts above the first `## ` heading (title, date, flow,
 * branch, status, supersedes) and the verbatim REQUEST, CLARIFICATIONS and
 * FILE SCOPE sections. Information only: nothing here can invalidate a
 * contract, so a header in an unexpected shape is simply left out.
 */
export function readHeader(doc: Doc): OracleHeader {
  const header: OracleHeader = { kind: "oracle-contract" };
  const sections = h2Sections(doc);
  const preambleEnd = sections[0]?.index ?? doc.lines.length;
  for (let i = 0; i < preambleEnd; i++) {
    if (doc.hidden[i]) continue;
    readPreambleLine(doc.lines[i]!, header);
  }
  const request = findSection(doc, sections, "REQUEST");
  if (request) header.request = request;
  const clarifications = findSection(doc, sections, "CLARIFICATIONS");
  if (clarifications) header.clarifications = clarifications;
  const fileScope = findSection(doc, sections, "FILE SCOPE");
  if (fileScope) header.fileScope = fileScope;
  return header;
}

function readPreambleLine(line: string, header: OracleHeader): void {
  const title = TITLE.exec(line);
  if (title) {
    if (header.title === undefined) header.title = titleText(title[1]!);
    return;
  }
  // `- date: … | flow: … | branch: …`, bullet optional.
  const body = line.replace(/^[ \t]*[-*+][ \t]+/, "");
  for (const part of body.split("|")) {
    const m = FACT.exec(part.trim());
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = unwrapBackticks(m[2]!.trim());
    // First occurrence wins: a header is read top-down like the rest of the file.
    if (FACT_KEYS.includes(key) && value !== "" && header[key as FactKey] === undefined) {
      header[key as FactKey] = value;
    }
  }
}

function titleText(raw: string): string {
  // An ATX heading may end with a closing run of `#`s; it is not part of the text.
  const text = raw.replace(/[ \t]+#+[ \t]*$/, "").trim();
  const m = CONTRACT_PREFIX.exec(text);
  return m && m[1]!.trim() !== "" ? m[1]!.trim() : text;
}

/**
 * The first section whose heading starts with `prefix`, verbatim, without the
 * blank lines around it. An empty section has `endLine = startLine - 1`.
 */
function findSection(doc: Doc, sections: H2Section[], prefix: string): Section | undefined {
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
