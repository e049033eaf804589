import type {
  MapEntry,
  Requirement,
  RequirementModel,
  SpecItem,
  SpecLine,
  SpecReference,
  VerificationLine,
} from "../../model/contract.js";
import type { ProblemCode } from "../../model/problem-codes.js";
import { problem } from "../../model/problems.js";
import type { H2Section } from "../markdown/lines.js";
import { atxText, isBlank } from "../markdown/lines.js";
import { normalizeRepoPath, unsafePathReason } from "../paths.js";
import {
  acceptanceLine,
  bulletText,
  FR_ID,
  idList,
  mapLine,
  type Parsed,
  requirementLine,
  requirementRow,
  scenarioLine,
  storyHeading,
  successLine,
  verificationLine,
} from "./grammar.js";
import { openMarkers } from "./markers.js";
import { asRead, isAscii, locate, nearMiss, type SpecDoc } from "./read.js";

// Module constants: a regex literal in a function body is a new RegExp object per call.
const WRAPPED = /^[ \t]+\S/;
const PROVES_ID = /^(?:AC-\d+|FR-\d{2,}[A-Za-z]?)$/;
const INDENT = /^[ \t]+/;
const NUMBERED = /^\d+[.)][ \t]+(.*)$/;
const NONE_OPEN = /^\(?(?:none|n\/a)\b/i;
const TICKED = /^\[[xX]\]/;
/** Which `##` sections a layout reads, by upper-case heading prefix. */
export const SECTIONS = {
  requirements: "REQUIREMENTS",
  scenarios: "BEHAVIO",
  acceptance: "ACCEPTANCE CRITERIA",
  guardrails: "GUARDRAILS",
  verification: "VERIFICATION",
  clarifications: "CLARIFICATIONS",
  openQuestions: "OPEN QUESTIONS",
  map: "REQUIREMENT MAP",
  success: "SUCCESS CRITERIA",
  userScenarios: "USER SCENARIOS",
} as const;

/**
 * Other names a spec-kit spec gives a section the gate reads: the template's
 * headings as an agent writes them in the user's language (simplified and
 * traditional Chinese: `## 需求 *(必填)*`), and `## Functional Requirements`
 * at the top level. spec-kit reads none of its headings, so none is required
 * in English; the seed layout keeps its own English headings.
 */
const SPECKIT_ALIASES: Partial<Record<keyof typeof SECTIONS, readonly string[]>> = {
  requirements: ["FUNCTIONAL REQUIREMENTS", "需求", "功能需求", "功能性需求"],
  success: ["成功标准", "成功標準", "成功准则", "成功準則", "成功指标", "成功指標"],
  userScenarios: ["用户场景", "用戶場景", "使用者場景", "使用者情境", "用户故事", "用戶故事"],
};
/** A bilingual heading's halves: `用户场景与测试 / User Scenarios & Testing`. */
const HALVES = /[ \t]*[/|][ \t]*/;

/** Whether an upper-cased `##` heading names the section `key` in the layout. */
export function isSection(
  upper: string,
  key: keyof typeof SECTIONS,
  layout: RequirementModel["layout"],
): boolean {
  const prefix = SECTIONS[key];
  if (upper.startsWith(prefix)) return true;
  if (layout !== "speckit-spec") return false;
  const aliases = SPECKIT_ALIASES[key] ?? [];
  for (const half of upper.split(HALVES)) {
    if (half.startsWith(prefix) || aliases.some((a) => half.startsWith(a))) return true;
  }
  return false;
}

const HASH = 35;
/** A `###` or `####` heading, where spec-kit writes its user stories. */
const STORY_LEVEL = /^#{3,4}[ \t]/;

/** Read the sections of a spec (either layout) into the requirement model. */
export function readModel(sd: SpecDoc, layout: RequirementModel["layout"]): RequirementModel {
  const model: RequirementModel = {
    layout,
    requirements: [],
    scenarios: [],
    acceptance: [],
    guardrails: [],
    verification: [],
    openQuestions: [],
    stories: [],
    successCriteria: [],
  };
  const r = new Reader(sd, layout);
  for (const section of sd.doc.sections) {
    const u = section.upper;
    if (u.startsWith(SECTIONS.map)) r.map(section, model);
    else if (isSection(u, "requirements", layout)) r.requirements(section, model);
    else if (layout === "spec" && u.startsWith(SECTIONS.scenarios)) r.scenarios(section, model);
    else if (layout === "spec" && u.startsWith(SECTIONS.acceptance)) r.acceptance(section, model);
    else if (u.startsWith(SECTIONS.guardrails)) r.bullets(section, model.guardrails);
    else if (u.startsWith(SECTIONS.verification)) r.verification(section, model);
    else if (layout === "spec" && u.startsWith(SECTIONS.openQuestions)) r.questions(section, model);
    else if (layout === "speckit-spec" && isSection(u, "success", layout))
      r.success(section, model);
  }
  if (layout === "speckit-spec") r.stories(model);
  r.markers(model);
  return model;
}

class Reader {
  constructor(
    private readonly sd: SpecDoc,
    private readonly layout: RequirementModel["layout"],
  ) {}

  /**
   * Each requirement id as its requirement line spelled it, so a scenario's
   * reference and a map line keep that one string instead of a copy of their
   * own (the model outlives the parse: every string it keeps is copied by the
   * garbage collector, and a 1 MiB spec names tens of thousands of ids).
   */
  private readonly ids = new Map<string, string>();

  private id(id: string): string {
    return this.ids.get(id) ?? id;
  }

  /**
   * Whether line `i` is shown and not blank: the section readers loop over
   * line numbers with it rather than over a list of them, since a 1 MiB spec
   * holds tens of thousands of lines and every object per line counts.
   */
  private shown(i: number): boolean {
    const { hidden, visible } = this.sd.doc;
    return !hidden[i] && !isBlank(visible[i]!);
  }

  private syntax(i: number, why: string, column = 1, code: ProblemCode = "spec-syntax"): void {
    const at = locate(this.sd.doc, i, column);
    if (this.sd.problems.full(code, at)) return;
    this.sd.problems.push(
      problem(code, at, `${why} (${JSON.stringify(this.sd.doc.visible[i]!.trim().slice(0, 60))})`, {
        hint: "write the line in the grammar docs/contracts.md gives for requirement specs, or take it out of the list",
      }),
    );
  }

  /**
   * An indented line that would be grammar at column 0: on the page it is a
   * nested list item, so the gate must not silently read it as prose (or as
   * the statement above it). An error, never a second place to write grammar.
   */
  private indented(i: number, parse: (l: string) => Parsed<unknown>, what: string): boolean {
    const line = this.sd.doc.visible[i]!;
    if (line[0] !== " " && line[0] !== "\t") return false;
    const read = parse(line.trimStart());
    if (read === undefined || !read.ok) return false;
    this.syntax(i, `this ${what} is indented, so it reads as part of the item above it`, 1);
    return true;
  }

  /** A line that only reads as grammar once look-alike characters are folded. */
  private nearMissOf(i: number, parse: (l: string) => Parsed<unknown>, what: string): boolean {
    const line = this.sd.doc.visible[i]!;
    if (isAscii(line)) return false;
    const read = parse(asRead(line));
    if (read === undefined || !read.ok) return false;
    nearMiss(this.sd, i, what, `write the ${what} in plain ASCII`);
    return true;
  }

  private refs(i: number, text: string, column: number, valid: RegExp): SpecReference[] {
    let first: SpecReference | undefined;
    let more: SpecReference[] | undefined;
    const { doc } = this.sd;
    const bad = idList(text, valid, (id, offset) => {
      const ref = { id: this.id(id), location: locate(doc, i, column + offset) };
      if (first === undefined) first = ref;
      else if (more === undefined) more = [first, ref];
      else more.push(ref);
    });
    if (bad !== undefined) {
      this.syntax(i, `${JSON.stringify(bad)} is not an id here`, column);
    }
    // Most lists name one id: a literal of one has room for one, where a
    // push onto [] reserves room for sixteen more, kept as long as the model.
    return more ?? (first === undefined ? [] : [first]);
  }

  requirements(section: H2Section, model: RequirementModel): void {
    const { visible } = this.sd.doc;
    let last: Requirement | undefined;
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = visible[i]!;
      // spec-kit specs also tabulate requirements (`| FR-01 | The system shall … |`).
      const read =
        requirementLine(line) ??
        (this.layout === "speckit-spec" ? requirementRow(line) : undefined);
      if (read === undefined || !read.ok) {
        if (this.nearMissOf(i, requirementLine, "requirement")) {
          last = undefined;
          continue;
        }
      }
      if (read === undefined && this.indented(i, requirementLine, "requirement")) {
        last = undefined;
        continue;
      }
      if (read === undefined) {
        // A wrapped statement continues its requirement; a new bullet or heading ends it.
        if (last && WRAPPED.test(line) && bulletText(line.trimStart()) === undefined) {
          last.text += ` ${line.trim()}`;
        } else last = undefined;
        continue;
      }
      if (!read.ok) {
        this.syntax(i, read.why);
        last = undefined;
        continue;
      }
      const { id, tag, text, column } = read.value;
      if (!this.ids.has(id)) this.ids.set(id, id);
      const location = locate(this.sd.doc, i, column);
      last = tag === undefined ? { id, text, location } : { id, text, tag, location };
      model.requirements.push(last);
    }
  }

  scenarios(section: H2Section, model: RequirementModel): void {
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = this.sd.doc.visible[i]!;
      const read = scenarioLine(line);
      if (read === undefined) {
        this.nearMissOf(i, scenarioLine, "scenario");
        continue;
      }
      if (!read.ok) {
        this.syntax(i, read.why);
        continue;
      }
      const item: SpecItem = {
        id: read.value.name,
        text: read.value.name,
        refs: this.refs(i, read.value.refs, read.value.refsAt, FR_ID),
        location: locate(this.sd.doc, i),
      };
      model.scenarios.push(item);
    }
  }

  acceptance(section: H2Section, model: RequirementModel): void {
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = this.sd.doc.visible[i]!;
      const read = acceptanceLine(line);
      if (read === undefined) {
        if (this.indented(i, acceptanceLine, "acceptance criterion")) continue;
        this.nearMissOf(i, acceptanceLine, "acceptance criterion");
        continue;
      }
      if (!read.ok) {
        this.syntax(i, read.why);
        continue;
      }
      const v = read.value;
      model.acceptance.push({
        id: v.id,
        text: v.text,
        refs: v.refs === undefined ? [] : this.refs(i, v.refs, v.refsAt, FR_ID),
        ticked: v.ticked,
        location: locate(this.sd.doc, i),
      });
    }
  }

  verification(section: H2Section, model: RequirementModel): void {
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = this.sd.doc.visible[i]!;
      const read = verificationLine(line);
      if (read === undefined) {
        this.indented(i, verificationLine, "Verification line");
        continue;
      }
      if (!read.ok) {
        if (!this.nearMissOf(i, verificationLine, "Verification line")) this.syntax(i, read.why);
        continue;
      }
      const at = locate(this.sd.doc, i);
      const v = read.value;
      const entry: VerificationLine =
        v.kind === "manual"
          ? {
              kind: "manual",
              requirement: { id: v.id, location: locate(this.sd.doc, i, line.indexOf(v.id) + 1) },
              why: v.why,
              location: at,
            }
          : {
              kind: "command",
              command: v.command,
              proves: v.proves === undefined ? [] : this.refs(i, v.proves, v.provesAt, PROVES_ID),
              location: at,
            };
      model.verification.push(entry);
    }
  }

  map(section: H2Section, model: RequirementModel): void {
    const entries: MapEntry[] = [];
    model.map = { location: locate(this.sd.doc, section.index), entries };
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = this.sd.doc.visible[i]!;
      const read = mapLine(line);
      if (read === undefined) {
        this.indented(i, mapLine, "map line");
        continue;
      }
      if (!read.ok) {
        if (!this.nearMissOf(i, mapLine, "map line")) this.syntax(i, read.why);
        continue;
      }
      const { target } = read.value;
      const id = this.id(read.value.id);
      if (target.kind === "test") {
        const reason = unsafePathReason(target.file);
        if (reason !== undefined) {
          this.sd.problems.push(
            problem(
              "unsafe-path",
              locate(this.sd.doc, i),
              `${id}: the test file ${JSON.stringify(target.file)} ${reason}`,
              {
                hint: "name the test file relative to the repository root, like tests/trim.test.ts",
              },
            ),
          );
          continue;
        }
        target.file = normalizeRepoPath(target.file);
      }
      entries.push({
        requirement: { id, location: locate(this.sd.doc, i, line.indexOf(id) + 1) },
        target,
        location: locate(this.sd.doc, i),
      });
    }
  }

  /**
   * Top-level bullets, and the bullets nested under them with their parent's
   * text (`- Protected surfaces:` over `` - `src/api/**` ``): a guardrail
   * written as a nested list is as much a guardrail as a flat one.
   */
  bullets(section: H2Section, out: SpecLine[]): void {
    let parent: string | undefined;
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = this.sd.doc.visible[i]!;
      const top = bulletText(line);
      if (top !== undefined) {
        parent = top.trim();
        out.push({ text: parent, location: locate(this.sd.doc, i) });
        continue;
      }
      const nested = INDENT.exec(line);
      const text = nested ? bulletText(line.slice(nested[0].length)) : undefined;
      if (text !== undefined && parent !== undefined) {
        out.push({
          text: text.trim(),
          location: locate(this.sd.doc, i, nested![0].length + 1),
          under: parent,
        });
      }
    }
  }

  questions(section: H2Section, model: RequirementModel): void {
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const line = this.sd.doc.visible[i]!;
      const text = bulletText(line) ?? NUMBERED.exec(line)?.[1];
      if (text === undefined) continue;
      const t = text.trim();
      // "None", "(none)", "- [x] answered" are not open.
      if (NONE_OPEN.test(t) || TICKED.test(t)) continue;
      model.openQuestions.push({ text: t, location: locate(this.sd.doc, i) });
    }
  }

  success(section: H2Section, model: RequirementModel): void {
    for (let i = section.index + 1; i < section.end; i++) {
      if (!this.shown(i)) continue;
      const sc = successLine(this.sd.doc.visible[i]!);
      if (sc) model.successCriteria.push({ ...sc, location: locate(this.sd.doc, i) });
    }
  }

  /** spec-kit user stories: `### User Story N - Title (Priority: Pn)` anywhere. */
  stories(model: RequirementModel): void {
    const { lines, hidden, visible } = this.sd.doc;
    for (let i = 0; i < lines.length; i++) {
      // Most lines are no heading: one character says so before any regex runs.
      if (hidden[i] || visible[i]!.charCodeAt(0) !== HASH || !STORY_LEVEL.test(visible[i]!))
        continue;
      const story = storyHeading(atxText(visible[i]!));
      if (story) model.stories.push({ ...story, location: locate(this.sd.doc, i) });
    }
  }

  /** Open `[NEEDS CLARIFICATION: …]` markers on shown lines, in order. */
  markers(model: RequirementModel): void {
    const { lines, hidden, visible } = this.sd.doc;
    for (let i = 0; i < lines.length; i++) {
      if (hidden[i]) continue;
      for (const m of openMarkers(visible[i]!)) {
        model.openQuestions.push({ text: m.question, location: locate(this.sd.doc, i, m.column) });
      }
    }
  }
}
