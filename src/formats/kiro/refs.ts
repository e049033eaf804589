import type { KiroReference, Location } from "../../model/contract.js";

/** What one reference list holds: the ids it cites, and tokens the gate cannot read. */
export interface RefList {
  refs: KiroReference[];
  /** Tokens that name no requirement in a form the gate reads (`Testing Strategy`). */
  unparsed: { text: string; location: Location }[];
  /** Ranges across requirements (`6.1-7.2`): only their ends are cited. */
  wide: { text: string; location: Location }[];
}

/**
 * `_Requirements: 1.1, 1.2_` (tasks) or `**Requirements**: Requirement 3.1`
 * (hand-written templates): the list after the colon. A bullet, italics or
 * bold around the keyword are all Kiro's and people's spellings.
 */
const REQUIREMENTS_LINE =
  /^[ \t]*(?:[-*+][ \t]+)?(?:_|\*\*)?(?:Requirements?|Req\.?)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(.*)$/i;
/** `**Validates: Requirements 1.2, 3.4**`, `- _Validates: Req 2_`, `**Validates:** REQ-1.1`. */
const VALIDATES = /\bValidates\b(?:\*\*|_)?[ \t]*:(?:\*\*|_)?[ \t]*(.*)$/i;

const CRITERION = /^(\d+)\.(\d+)$/;
const RANGE = /^(\d+)\.(\d+)[ \t]*[-–—][ \t]*(\d+)\.(\d+)$/;
const REQUIREMENT = /^(\d+)$/;
const REQUIREMENT_RANGE = /^(\d+)[ \t]*[-–—][ \t]*(\d+)$/;
const NAMED = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)(?:\.(\d+))?$/;
const ALL = /^all\b/i;
/** A leading word a token may carry: `Requirement 3.1`, `Req 2`, `AC 1.2`. */
const LEAD = /^(?:(?:Requirements?|Reqs?|AC)[ \t]+|Req\.[ \t]*)/i;
/** `Validates: Property 3`: a property, not a requirement. */
const PROPERTY = /^Property\b/i;
/** The most criteria a range may span: `1.1-1.99999` is a typo, read as its two ends. */
const RANGE_LIMIT = 50;

/** The list of a `_Requirements:_` line, or `undefined` when the line is none. */
export function requirementsList(line: string): { text: string; column: number } | undefined {
  const m = REQUIREMENTS_LINE.exec(line);
  if (!m) return undefined;
  return { text: m[1]!, column: line.length - m[1]!.length + 1 };
}

/** The list of a `Validates:` line, or `undefined`. */
export function validatesList(line: string): { text: string; column: number } | undefined {
  const m = VALIDATES.exec(line);
  if (!m) return undefined;
  return { text: m[1]!, column: line.length - m[1]!.length + 1 };
}

/**
 * Read a reference list (RULES §2.4): split on `,` and `;`, drop a
 * parenthesised note and a leading `Requirement` word; `N.M` cites a
 * criterion, `N` a whole requirement, `A.B-A.D` (any dash) each criterion
 * between, `All…` every one. Anything else is reported, never guessed.
 */
export function readRefList(
  list: string,
  path: string,
  line: number,
  column: number,
  out: RefList,
): void {
  // The list ends where its emphasis closes: `_…_`, `**…**`.
  let text = list;
  const bold = text.indexOf("**");
  if (bold !== -1) text = text.slice(0, bold);
  text = text.replace(/[_*\s]+$/, "");
  let cursor = 0;
  for (const raw of text.split(/[,;]/)) {
    const at = text.indexOf(raw, cursor);
    cursor = at + raw.length;
    const lead = raw.length - raw.trimStart().length;
    const location = { path, line, column: column + at + lead };
    const plain = raw.trim();
    // Most tokens are a bare `N.M`: read without the clean-up below.
    if (CRITERION.test(plain)) {
      readToken(plain, plain, location, out);
      continue;
    }
    let token = raw
      .replace(/\([^)]*\)?/g, "")
      .trim()
      .replace(/\.$/, "");
    token = token.replace(LEAD, "").trim();
    if (token === "" || PROPERTY.test(token)) continue;
    if (ALL.test(token)) {
      out.refs.push({ id: "*", location });
      continue;
    }
    const pieces = token.includes("/") ? token.split("/").map((p) => p.trim()) : [token];
    for (const piece of pieces) readToken(piece, raw.trim(), location, out);
  }
}

function readToken(token: string, written: string, location: Location, out: RefList): void {
  let m = CRITERION.exec(token);
  if (m) {
    out.refs.push({ id: `${Number(m[1])}.${Number(m[2])}`, location });
    return;
  }
  m = RANGE.exec(token);
  if (m) {
    const [a, b, c, d] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
    if (a === c && b <= d && d - b < RANGE_LIMIT) {
      out.refs.push(
        b === d ? { id: `${a}.${b}`, location } : { id: `${a}.${b}`, through: d, location },
      );
    } else {
      out.refs.push({ id: `${a}.${b}`, location }, { id: `${c}.${d}`, location });
      out.wide.push({ text: written, location });
    }
    return;
  }
  m = REQUIREMENT.exec(token);
  if (m) {
    out.refs.push({ id: String(Number(m[1])), location });
    return;
  }
  m = REQUIREMENT_RANGE.exec(token);
  if (m && Number(m[1]) <= Number(m[2]) && Number(m[2]) - Number(m[1]) < RANGE_LIMIT) {
    for (let k = Number(m[1]); k <= Number(m[2]); k++) out.refs.push({ id: String(k), location });
    return;
  }
  m = NAMED.exec(token);
  if (m) {
    out.refs.push({ id: m[2] === undefined ? m[1]! : `${m[1]}.${Number(m[2])}`, location });
    return;
  }
  out.unparsed.push({ text: written, location });
}

export function emptyRefList(): RefList {
  return { refs: [], unparsed: [], wide: [] };
}
