/**
 * The line grammar of requirement specs: the seed's layout (004: `FR-001`
 * requirements, `Scenario:` lines, `AC-n` criteria, Verification commands,
 * the `FR-001 → <test>` map) and spec-kit's (`**FR-001**:`, `**SC-001**:`,
 * `### User Story N - Title (Priority: Pn)`). Every pattern is anchored and
 * has no nested quantifier, so a 1 MiB line is read in linear time.
 */

/**
 * `FR-001`, `FR-002a` (spec-kit inserts lettered requirements between numbered
 * ones), `FR-009-A`, `FR-024-NEW` (real specs suffix ids when they split one),
 * `FR-01` (spec-kit's template counts to three digits, real specs to two, and
 * spec-kit rejects neither).
 */
export const FR_ID = /^FR-\d{2,}[A-Za-z]?(?:-[A-Za-z0-9]+)*$/;
/**
 * A requirement's id, label, tag and statement from `lastIndex` (sticky:
 * matched in place): `**FR-001 (Google SSO)**:`, `**FR-030** [OUT OF SCOPE - MVP]:`,
 * and a full-width colon (`**FR-001**：`) as specs written in Chinese have it.
 */
const ID_HEAD =
  /(?:\*\*)?(FR-\d{2,}[A-Za-z]?(?:-[A-Za-z0-9]+)*)(?:[ \t]+\([^()\n]{1,80}\))?(?:\*\*)?(?:[ \t]+\[([^\]\n]{1,60})\])?(?:\*\*)?[:：](?:\*\*)?[ \t]*(.*)$/sy;
/** A label that takes a requirement out of what is gated: `[OUT OF SCOPE - MVP]`, `[DEFERRED]`. */
const OUT_OF_SCOPE =
  /^(?:out[ \t]+of[ \t]+scope|not[ \t]+in[ \t]+scope|deferred|future|won'?t|later)\b/i;
/** A bullet whose text starts like a requirement id, bold or not. */
const LOOKS_LIKE_REQUIREMENT = /^[-*+][ \t]+(?:\*\*)?FR-/i;

// The line patterns are module constants: a regex literal in a function body
// is a new RegExp object on every call, and these run once per line.
const SCENARIO_HEAD =
  /(?:[-*+][ \t]+|#{3,6}[ \t]+|\d+\.[ \t]+)?(?:\*\*)?Scenario(?:\*\*)?:(?:\*\*)?[ \t]*/y;
const ACCEPTANCE_BOX = /^[-*+][ \t]+\[([ xX])\][ \t]+/;
const ACCEPTANCE_BODY = /^(AC-\d+)[ \t]*(?:\(([^()]*)\))?[ \t]*:[ \t]*(.*)$/s;
const MANUAL_WORD = /^manual\b/i;
const MANUAL_ENTRY =
  /^manual:[ \t]*(FR-\d{2,}[A-Za-z]?(?:-[A-Za-z0-9]+)*)(?:[ \t]+(?:—|–|--|-)[ \t]+(.*))?$/s;
const BACKTICKS = /^`+/;
const PROVES = /^proves[ \t]+/;
/** A map line's id and target from `lastIndex` (sticky: matched in place). */
const MAP_HEAD =
  /(?:\*\*)?(FR-\d{2,}[A-Za-z]?(?:-[A-Za-z0-9]+)*)(?:\*\*)?:?[ \t]*(?:→|->)[ \t]*(.*)$/sy;
const MANUAL_TARGET = /^manual:[ \t]*(.*)$/s;
/**
 * A story heading's number: spec-kit's `User Story 2`, the same in the user's
 * language (`用户故事 2`, `用戶故事 2`, `使用者故事 2`), and the short forms real
 * specs use (`US2`, `Story 2`, `S2:`) that their tasks still tag `[US2]`.
 */
const STORY =
  /^(?:User[ \t]+Story|Story|US|S|用户故事|用戶故事|使用者故事)[ \t]*-?(\d+)(?![\dA-Za-z])[ \t]*(?:[-—–:：][ \t]*)?(.*)$/i;
const PIPE = 124;
/** A table cell that starts like a requirement or success id (`FR-…`, `**SC-…`). */
const ID_LIKE = /^(?:\*\*)?((?:FR|SC)-)/;
const TABLE_FR = /^(?:\*\*)?(FR-\d{2,}[A-Za-z]?(?:-[A-Za-z0-9]+)*)(?:\*\*)?$/;
const TABLE_SC = /^(?:\*\*)?(SC-\d+[A-Za-z]?(?:-[A-Za-z0-9]+)*)(?:\*\*)?$/;
const SUCCESS = /^(?:\*\*)?(SC-\d+[A-Za-z]?(?:-[A-Za-z0-9]+)*)(?:\*\*)?[:：](?:\*\*)?[ \t]*(.*)$/s;
export const TAGS = ["ADDED", "MODIFIED", "REMOVED"] as const;
export type Tag = (typeof TAGS)[number];

export type Parsed<T> = { ok: true; value: T } | { ok: false; why: string } | undefined;

/** A bullet after its marker, or undefined when the line is no bullet. */
export function bulletText(line: string): string | undefined {
  const end = bulletEnd(line);
  return end === -1 ? undefined : line.slice(end);
}

/** Where a bullet's text starts (`BULLET` read by hand, as it runs on every line), or -1. */
function bulletEnd(line: string): number {
  const c = line[0];
  if (c !== "-" && c !== "*" && c !== "+") return -1;
  let p = 1;
  while (line[p] === " " || line[p] === "\t") p++;
  return p === 1 ? -1 : p;
}

/** `- FR-001 [ADDED]: statement` / `- **FR-001**: statement`; undefined when the line is no requirement. */
export function requirementLine(
  line: string,
): Parsed<{ id: string; tag?: Tag; text: string; column: number }> {
  if (!LOOKS_LIKE_REQUIREMENT.test(line)) return undefined;
  const start = bulletEnd(line);
  ID_HEAD.lastIndex = start;
  const m = ID_HEAD.exec(line);
  if (!m) {
    return {
      ok: false,
      why: "a requirement is written `- FR-001: <statement>` (an optional [ADDED|MODIFIED|REMOVED] tag before the colon; spec-kit bolds the id: `- **FR-001**: …`)",
    };
  }
  let tag = m[2];
  // A label spec-kit users write is no tag: out of scope is no criterion, any other is prose.
  if (tag !== undefined && !(TAGS as readonly string[]).includes(tag)) {
    if (OUT_OF_SCOPE.test(tag)) tag = "REMOVED";
    else if (/^[A-Za-z]+$/.test(tag) && tag === tag.toUpperCase() && tag.length <= 10)
      return { ok: false, why: `the tag [${tag}] is not one of [ADDED], [MODIFIED], [REMOVED]` };
    else tag = undefined;
  }
  const text = m[3]!.trim();
  if (text === "") return { ok: false, why: `${m[1]} has no statement after the colon` };
  const column = start + 1;
  return {
    ok: true,
    value:
      tag === undefined
        ? { id: m[1]!, text, column }
        : { id: m[1]!, tag: tag as Tag, text, column },
  };
}

/** White space as `\s` reads it, for the code units past ASCII. */
const WHITE = /\s/;

/** Whether a code unit ends an id-list token: a comma or white space (`[,\s]`). */
function isSeparator(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  if (c < 128) return c === 44 || c === 32 || (c >= 9 && c <= 13);
  return WHITE.test(text[p]!);
}

/**
 * A comma- or space-separated id list (`FR-001, FR-002`), each checked by
 * `valid`: each id (a run of anything but commas and white space) is handed
 * to `visit` with its offset as it is read (no list is built), and the first
 * token that is no id is returned.
 */
export function idList(
  text: string,
  valid: RegExp,
  visit: (id: string, offset: number) => void,
): string | undefined {
  const n = text.length;
  let p = 0;
  while (p < n) {
    if (isSeparator(text, p)) {
      p++;
      continue;
    }
    const at = p;
    while (p < n && !isSeparator(text, p)) p++;
    const token = text.slice(at, p);
    if (token === "and") continue;
    if (!valid.test(token)) return token;
    visit(token, at);
  }
  return undefined;
}

/** `Scenario: <name> (FR-001, FR-002)`, a bullet or a subheading or neither. */
export function scenarioLine(line: string): Parsed<{ name: string; refs: string; refsAt: number }> {
  // A sticky test leaves the head's length in lastIndex: no match array is made.
  SCENARIO_HEAD.lastIndex = 0;
  if (!SCENARIO_HEAD.test(line)) return undefined;
  const head = SCENARIO_HEAD.lastIndex;
  const rest = line.slice(head).trimEnd();
  const open = rest.lastIndexOf("(");
  if (!rest.endsWith(")") || open <= 0) {
    return {
      ok: false,
      why: "a scenario is written `Scenario: <name> (FR-001)`, naming the requirements it exercises in parentheses at the end",
    };
  }
  const name = rest.slice(0, open).trim();
  if (name === "") return { ok: false, why: "the scenario has no name before its (FR-…) list" };
  return {
    ok: true,
    value: { name, refs: rest.slice(open + 1, -1), refsAt: head + open + 2 },
  };
}

/** `- [ ] AC-1 (FR-001): text`. */
export function acceptanceLine(
  line: string,
): Parsed<{ id: string; ticked: boolean; refs?: string; refsAt: number; text: string }> {
  const head = ACCEPTANCE_BOX.exec(line);
  if (!head) return undefined;
  const body = line.slice(head[0].length);
  const m = ACCEPTANCE_BODY.exec(body);
  if (!m) {
    return {
      ok: false,
      why: "an acceptance criterion is written `- [ ] AC-1 (FR-001): <what is checked>`",
    };
  }
  return {
    ok: true,
    value: {
      id: m[1]!,
      ticked: head[1] !== " ",
      ...(m[2] !== undefined && { refs: m[2] }),
      refsAt: head[0].length + m[1]!.length + body.slice(m[1]!.length).indexOf("(") + 2,
      text: m[3]!.trim(),
    },
  };
}

const DASH = /^[ \t]+(?:—|–|--|-)[ \t]+/;

/** `` - `<command>` — proves AC-1, AC-3 `` or `- manual: FR-002 — <why>`. */
export function verificationLine(
  line: string,
):
  | { ok: true; value: { kind: "command"; command: string; proves?: string; provesAt: number } }
  | { ok: true; value: { kind: "manual"; id: string; why: string } }
  | { ok: false; why: string }
  | undefined {
  const body = bulletText(line);
  if (body === undefined) return undefined;
  const column = line.length - body.length;
  if (MANUAL_WORD.test(body)) {
    const m = MANUAL_ENTRY.exec(body);
    if (!m || (m[2] ?? "").trim() === "") {
      return {
        ok: false,
        why: "a manual entry is written `- manual: FR-002 — <why no command can prove it>`",
      };
    }
    return { ok: true, value: { kind: "manual", id: m[1]!, why: m[2]!.trim() } };
  }
  const run = BACKTICKS.exec(body)?.[0];
  if (run === undefined) {
    return {
      ok: false,
      why: "a Verification line is a command in a code span (`` - `npm test` — proves AC-1 ``) or `- manual: FR-002 — <why>`; prose belongs outside the list",
    };
  }
  const close = closingRun(body, run, run.length);
  if (close === -1) return { ok: false, why: "the command's code span is never closed" };
  const raw = body.slice(run.length, close);
  // CommonMark strips one space on each side of a code span that has both.
  const command =
    raw.length > 2 && raw.startsWith(" ") && raw.endsWith(" ") ? raw.slice(1, -1) : raw;
  if (command.trim() === "") return { ok: false, why: "the command is empty" };
  const rest = body.slice(close + run.length);
  if (rest.trim() === "") {
    return { ok: true, value: { kind: "command", command, provesAt: 0 } };
  }
  const dash = DASH.exec(rest);
  const proves = dash && PROVES.exec(rest.slice(dash[0].length));
  if (!dash || !proves) {
    return {
      ok: false,
      why: "after the command comes ` — proves AC-1, AC-3` or nothing",
    };
  }
  const at = close + run.length + dash[0].length + proves[0].length;
  return {
    ok: true,
    value: { kind: "command", command, proves: body.slice(at), provesAt: column + at + 1 },
  };
}

/** Index of the backtick run equal to `run` (exactly as long) at or after `from`, or -1. */
function closingRun(text: string, run: string, from: number): number {
  for (let p = text.indexOf(run, from); p !== -1; p = text.indexOf(run, p + 1)) {
    let end = p + run.length;
    if (text[end] !== "`") {
      if (text[p - 1] !== "`") return p;
      continue;
    }
    while (text[end] === "`") end++;
    p = end - 1;
  }
  return -1;
}

/** `- FR-001 → tests/trim.test.ts > trims` / `->` / `::` / `→ manual: <how>`. */
export function mapLine(line: string):
  | {
      ok: true;
      value: {
        id: string;
        target: { kind: "test"; file: string; name: string } | { kind: "manual"; text: string };
      };
    }
  | { ok: false; why: string }
  | undefined {
  const start = bulletEnd(line);
  if (start === -1) return undefined;
  MAP_HEAD.lastIndex = start;
  const m = MAP_HEAD.exec(line);
  if (!m) {
    return {
      ok: false,
      why: "a map line is written `- FR-001 → <file> > <test name>` or `- FR-002 → manual: <how a person checks it>`",
    };
  }
  const target = m[2]!.trim();
  // Most map lines name a test: one look at the first letter spares the regex.
  const manual = target.startsWith("manual:") ? MANUAL_TARGET.exec(target) : null;
  if (manual) {
    if (manual[1]!.trim() === "")
      return { ok: false, why: "the manual entry does not say how a person checks it" };
    return { ok: true, value: { id: m[1]!, target: { kind: "manual", text: manual[1]!.trim() } } };
  }
  const angle = target.indexOf(" > ");
  const split = angle !== -1 ? angle : target.indexOf("::");
  if (split === -1) {
    return {
      ok: false,
      why: "the test is written `<file> > <full test name>` or `<file>::<full test name>`",
    };
  }
  const sep = angle !== -1 ? 3 : 2;
  const file = unwrap(target.slice(0, split).trim());
  const name = target.slice(split + sep).trim();
  if (file === "" || name === "")
    return { ok: false, why: "the test reference needs both a file and a test name" };
  return { ok: true, value: { id: m[1]!, target: { kind: "test", file, name } } };
}

function unwrap(s: string): string {
  return s.length >= 2 && s.startsWith("`") && s.endsWith("`") ? s.slice(1, -1).trim() : s;
}

/** `SPEC STATUS: READY` / `SPEC STATUS: NEEDS CLARIFICATION`, exactly. */
export const STATUS_LINE = /^SPEC STATUS: (READY|NEEDS CLARIFICATION)$/;
/** Any line a reader takes for a status line (case, spacing, emphasis, quotes forgiven). */
export const READS_AS_STATUS = /^[ \t>*_`#-]*SPEC[ \t]*STATUS\b/i;

/** spec-kit: `### User Story 2 - Title (Priority: P2)` (any dash, priority optional). */
export function storyHeading(text: string): { n: number; title: string } | undefined {
  const m = STORY.exec(text);
  return m ? { n: Number(m[1]), title: m[2]!.trim() } : undefined;
}

/** spec-kit: `- **SC-001**: <measurable outcome>`, or a table row `| SC-1 | <outcome> | … |`. */
export function successLine(line: string): { id: string; text: string } | undefined {
  const body = bulletText(line);
  const m = body === undefined ? null : SUCCESS.exec(body);
  if (m) return { id: m[1]!, text: m[2]!.trim() };
  const row = tableRow(line, TABLE_SC, "SC-");
  return row?.ok ? { id: row.value.id, text: row.value.text } : undefined;
}

/**
 * A requirement written as a table row, `| FR-01 | The system shall … | <acceptance> |`
 * (real spec-kit specs tabulate them; spec-kit reads any markdown): the id in
 * the first or second cell, the statement the next non-empty cell.
 */
export function requirementRow(
  line: string,
): Parsed<{ id: string; tag?: Tag; text: string; column: number }> {
  return tableRow(line, TABLE_FR, "FR-");
}

function tableRow(
  line: string,
  id: RegExp,
  prefix: "FR-" | "SC-",
): Parsed<{ id: string; text: string; column: number }> {
  // Read by hand, not by a regex that trims the row's end: that would be quadratic on a long row.
  const row = line.trim();
  if (row.charCodeAt(0) !== PIPE) return undefined;
  const cells = row.slice(1, row.charCodeAt(row.length - 1) === PIPE ? -1 : undefined).split("|");
  for (let k = 0; k < Math.min(2, cells.length); k++) {
    const cell = cells[k]!.trim();
    const found = id.exec(cell);
    if (!found) {
      // A cell that starts like an id but is none is said, never a requirement silently dropped.
      if (ID_LIKE.exec(cell)?.[1] === prefix)
        return { ok: false, why: `${JSON.stringify(cell.slice(0, 40))} is not an id here` };
      continue;
    }
    const text = cells
      .slice(k + 1)
      .map((c) => c.trim())
      .find((c) => c !== "");
    if (text === undefined) return { ok: false, why: `${found[1]} has no statement in its row` };
    return { ok: true, value: { id: found[1]!, text, column: line.indexOf(found[1]!) + 1 } };
  }
  return undefined;
}
