import type { KiroCriterion, KiroRequirement } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { atxText } from "../markdown/lines.js";
import { headingLevel, type KiroDoc, locate } from "./read.js";

/**
 * `### Requirement 1: Title`, `### Requirement 1`, `### Requirement 1 — Title`,
 * Japanese `### 要件1: タイトル` (RULES §2.1): the number is the id.
 */
const NUMBERED_HEADING = /^(?:Requirement|要件)[ \t]*(\d+)[ \t]*(?:[:.\-—–：][ \t]*(.*))?$/i;
/** Hand-written ids: `### 3.1 REQ-RC-001: Title`. */
const NAMED_HEADING = /^(?:\d+(?:\.\d+)*[ \t]+)?([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)[ \t]*:[ \t]*(.*)$/;
/** `#### Acceptance Criteria`, `#### 受入基準`. */
const CRITERIA_HEADING = /^(?:Acceptance Criteria|受入基準)(?![A-Za-z])/i;
/** `**Acceptance Criteria:**` as a bold line (hand-written specs). */
const CRITERIA_LINE = /^\*\*(?:Acceptance Criteria|受入基準)[ \t]*:?[ \t]*\*\*[ \t]*:?[ \t]*$/i;
const NUMBERED_ITEM = /^ {0,3}(\d+)\.[ \t]+(.*)$/s;
const BULLET_ITEM = /^[-*+][ \t]+(.*)$/s;

/**
 * The requirements of a `requirements.md`: each requirement heading, and under
 * its acceptance-criteria heading the numbered EARS lines, each with the
 * lines wrapped under it joined (2,083 of crawlins' 2,967 criteria wrap, the
 * SHALL often on the second line). Other headings and prose are not read.
 */
export function readRequirements(kd: KiroDoc): KiroRequirement[] {
  const { doc, problems } = kd;
  const out: KiroRequirement[] = [];
  const seen = new Map<string, number>();
  let current: { req: KiroRequirement; level: number; numbered: Set<number> } | undefined;
  let inCriteria = false;
  /** The level of the acceptance-criteria heading (7: a bold line, no heading). */
  let criteriaLevel = 7;
  let item: { c: KiroCriterion; index: number } | undefined;
  const close = () => {
    if (item) finishItem(kd, item.c);
    item = undefined;
  };
  const closeRequirement = () => {
    close();
    if (current && current.req.criteria.length === 0) {
      problems.push(
        problem(
          "kiro-structure",
          current.req.location,
          `Requirement ${current.req.id} has no numbered acceptance criterion, so nothing of it can be gated`,
          {
            hint: "add `#### Acceptance Criteria` under the requirement with numbered EARS lines: `1. WHEN … THEN the System SHALL …`",
          },
        ),
      );
    }
    current = undefined;
    inCriteria = false;
  };
  for (let i = 0; i < doc.lines.length; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!;
    const level = headingLevel(line);
    if (level > 0) {
      const text = atxText(line);
      const heading = level >= 2 && level <= 4 ? requirementHeading(text) : undefined;
      if (heading) {
        closeRequirement();
        const location = locate(doc, i);
        const first = seen.get(heading.id);
        if (first !== undefined) {
          problems.push(
            problem(
              "kiro-structure",
              location,
              `Requirement ${heading.id} is already defined on line ${first + 1}: tasks and properties cite criteria by number`,
              { hint: "number each requirement once, in order" },
            ),
          );
        } else seen.set(heading.id, i);
        const req: KiroRequirement = { ...heading, location, criteria: [] };
        out.push(req);
        current = { req, level, numbered: new Set() };
        continue;
      }
      if (current && level > current.level) {
        close();
        // A heading below the criteria heading groups criteria (crawlins: `##### Unit tests`).
        if (inCriteria && level > criteriaLevel) continue;
        inCriteria = CRITERIA_HEADING.test(text);
        criteriaLevel = inCriteria ? level : 7;
        continue;
      }
      closeRequirement();
      continue;
    }
    if (!current) continue;
    if (CRITERIA_LINE.test(line.trim())) {
      close();
      inCriteria = true;
      criteriaLevel = 7;
      continue;
    }
    if (!inCriteria) continue;
    if (line.trim() === "") {
      close();
      continue;
    }
    // An indented number under an open item is a nested list: part of the item.
    const nested = item !== undefined && (line[0] === " " || line[0] === "\t");
    const numbered = nested ? null : NUMBERED_ITEM.exec(line);
    const bullet = numbered || nested ? undefined : BULLET_ITEM.exec(line);
    if (numbered || (bullet && current.numbered.size === 0 && item === undefined)) {
      close();
      const n = numbered ? Number(numbered[1]) : current.req.criteria.length + 1;
      const location = locate(doc, i);
      if (bullet) {
        problems.push(
          problem(
            "kiro-structure",
            location,
            `a bulleted acceptance criterion is read by its position, as ${current.req.id}.${n}`,
            {
              hint: "number acceptance criteria as Kiro writes them (`1. WHEN … SHALL …`), so tasks cite them by a number that does not move",
              severity: "warning",
            },
          ),
        );
      }
      if (current.numbered.has(n)) {
        problems.push(
          problem(
            "kiro-structure",
            location,
            `acceptance criterion ${current.req.id}.${n} is numbered twice`,
            { hint: "number the criteria of a requirement 1, 2, 3 … once each" },
          ),
        );
        continue;
      }
      if (numbered) current.numbered.add(n);
      const c: KiroCriterion = {
        id: `${current.req.id}.${n}`,
        text: (numbered ? numbered[2]! : bullet![1]!).trim(),
        location,
      };
      current.req.criteria.push(c);
      item = { c, index: i };
      continue;
    }
    // A wrapped line, or a nested bullet under the item: part of it.
    if (item) item.c.text += ` ${line.trim()}`;
  }
  closeRequirement();
  return out;
}

function requirementHeading(text: string): { id: string; title: string } | undefined {
  const n = NUMBERED_HEADING.exec(text);
  if (n) return { id: String(Number(n[1])), title: (n[2] ?? "").trim() };
  const named = NAMED_HEADING.exec(text);
  if (named) return { id: named[1]!, title: named[2]!.trim() };
  return undefined;
}

const NON_ASCII_LETTER = /[^\t\n\r -~]/;

/**
 * A criterion's wording: EARS says SHALL (SHALL NOT is still normative). A
 * lowercase `shall` (cc-sdd) or none at all warns; Japanese Kiro output writes
 * `WHEN … THEN …` with no SHALL (mashharuki: 87 of 87), read as normative.
 */
function finishItem(kd: KiroDoc, c: KiroCriterion): void {
  if (/\bSHALL\b/.test(c.text) || /\bMUST\b/.test(c.text)) return;
  if (NON_ASCII_LETTER.test(c.text) && /\bTHEN\b/.test(c.text)) return;
  if (kd.problems.full("kiro-criterion-wording", c.location)) return;
  kd.problems.push(
    problem(
      "kiro-criterion-wording",
      c.location,
      /\bshall\b/i.test(c.text)
        ? `acceptance criterion ${c.id} writes "shall" in lowercase: EARS's keyword is SHALL, and a softened criterion is only noticed by its SHALL`
        : `acceptance criterion ${c.id} has no SHALL: it does not say what the system must do`,
      {
        hint: "write the criterion as an EARS line: `WHEN <trigger> THEN the <System> SHALL <response>`",
      },
    ),
  );
}
