import type { Contract, Problem, RequirementModel, SpecHeader } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { atxText } from "../markdown/lines.js";
import { specCriteria } from "./criteria.js";
import { READS_AS_STATUS, STATUS_LINE } from "./grammar.js";
import { asRead, locate, readSpecDoc, type SpecDoc } from "./read.js";
import { checkModel } from "./rules.js";
import { isSection, readModel, SECTIONS } from "./sections.js";
import { readTasks } from "./tasks.js";

export { linkSpecFiles, type SpecFiles, specCompanions, specDir } from "./link.js";

const STATUS_WORD = /status/i;
/** A spec-kit task line anywhere in a file: `- [ ] T001 …` (the id may be bold). */
const HAS_TASK_LINE = /^[-*+][ \t]+\[[ xX]\][ \t]+(?:\*\*)?T\d{3,}/m;

/** The title's colon, ASCII or full-width, in a heading written in another language. */
const TITLE_COLON = /[:：]/;
/** spec-kit's title in Chinese (`功能规格说明`, `功能規格說明書`): its template's, translated. */
const SPECKIT_TITLE = /^(?:功能规格|功能規格|功能需求规格|功能需求規格)/;
/** spec-kit's structure anywhere in a file: a bold `**FR-…**`/`**SC-…**` item or an `| FR-… |` row. */
const SPECKIT_LINE = /^(?:[-*+][ \t]+\*\*(?:FR|SC)-\d|\|[ \t]*(?:\*\*)?FR-\d)/m;

/**
 * Whether a spec whose first heading is neither layout's is spec-kit's all
 * the same: spec-kit's agent writes the template in the user's language
 * (`# 功能规格说明：…`, `## 需求`), and spec-kit itself reads no heading. The
 * translated title, or spec-kit's requirement or success lines, say so.
 */
function speckitByStructure(heading: string, sd: SpecDoc): boolean {
  if (SPECKIT_TITLE.test(heading.trim())) return true;
  const { visible, hidden } = sd.doc;
  for (let i = 0; i < visible.length; i++) {
    if (!hidden[i] && SPECKIT_LINE.test(visible[i]!)) return true;
  }
  return false;
}

/** The two layouts by their first heading. */
const LAYOUTS: readonly { prefix: string; layout: RequirementModel["layout"]; what: string }[] = [
  {
    prefix: "Specification:",
    layout: "spec",
    what: "`# Specification: <name>` (the request-to-spec workflow's layout)",
  },
  {
    prefix: "Feature Specification:",
    layout: "speckit-spec",
    what: "`# Feature Specification: <name>` (spec-kit's)",
  },
];

/**
 * Parse a `specs/<NNN>-<slug>/spec.md`. Pure and total: the layout follows
 * from the first heading; a file headed as neither is `foreign-file`.
 * Files beside it (tasks.md, plan.md, checklists, the map's test files) are
 * read by the loader (`linkSpecFiles`).
 */
export function parseSpec(path: string, bytes: Uint8Array): Contract {
  const read = readSpecDoc(path, bytes);
  if (!("doc" in read)) return contract("spec", path, { kind: "spec" }, [], [read]);
  const heading = read.doc.visible[read.first] ?? "";
  const text = /^#[ \t]/.test(heading) ? atxText(heading) : undefined;
  let layout = text === undefined ? undefined : LAYOUTS.find((l) => text.startsWith(l.prefix));
  let title = layout === undefined ? "" : text!.slice(layout.prefix.length).trim();
  if (layout === undefined && text !== undefined && speckitByStructure(text, read)) {
    // Headed in the user's language (`# 功能规格说明：…`): spec-kit's by its requirement lines.
    layout = LAYOUTS[1]!;
    const colon = text.search(TITLE_COLON);
    title = colon === -1 ? text.trim() : text.slice(colon + 1).trim();
  }
  if (layout === undefined) {
    const looks = asRead(heading);
    const near = /^#[ \t]/.test(looks)
      ? LAYOUTS.find((l) => atxText(looks).startsWith(l.prefix))
      : undefined;
    return contract(
      "spec",
      path,
      { kind: "spec" },
      [],
      [foreign(path, read, heading, near !== undefined)],
    );
  }
  const model = readModel(read, layout.layout);
  const top = locate(read.doc, read.first);
  let needsClarification = model.openQuestions.length > 0;
  if (layout.layout === "spec") {
    const status = readStatus(read, model);
    needsClarification = status === "NEEDS CLARIFICATION";
    if (status === "READY") {
      for (const q of model.openQuestions) {
        read.problems.push(
          problem(
            "spec-status",
            q.location,
            `the spec says SPEC STATUS: READY, but this question is still open: ${q.text.slice(0, 120)}`,
            {
              hint: "answer the question (record the answer under ## Clarifications) and remove it, or set SPEC STATUS: NEEDS CLARIFICATION",
            },
          ),
        );
      }
    }
    if (!model.verification.some((v) => v.kind === "command")) {
      const section = read.doc.sections.find((s) => s.upper.startsWith(SECTIONS.verification));
      read.problems.push(
        problem(
          "no-verification",
          section ? locate(read.doc, section.index) : top,
          section
            ? "the ## Verification section has no command line"
            : "there is no ## Verification section: nothing says which command proves the spec",
          {
            hint: "add a `## Verification` section with the command that proves the spec: `` - `npm test` — proves AC-1 ``",
          },
        ),
      );
    }
  } else {
    checkSections(read);
  }
  checkModel(model, read.problems, top);
  if (model.requirements.length === 0) {
    read.problems.push(
      problem("no-criteria", top, "the spec defines no requirement: there is nothing to gate", {
        hint:
          layout.layout === "spec"
            ? "list requirements under ## Requirements as `- FR-001: <statement>`"
            : "list requirements under ## Requirements as `- **FR-001**: System MUST …`",
      }),
    );
  }
  const header: SpecHeader = { kind: layout.layout, title, model };
  return contract(
    layout.layout,
    path,
    header,
    specCriteria(model, needsClarification),
    read.problems.list(),
  );
}

/** A `tasks.md` with no `spec.md` beside it: task rules and phantom completions only. */
export function parseSpeckitTasks(path: string, bytes: Uint8Array): Contract {
  const read = readSpecDoc(path, bytes);
  if (!("doc" in read))
    return contract("speckit-tasks", path, { kind: "speckit-tasks" }, [], [read]);
  const heading = read.doc.visible[read.first] ?? "";
  // spec-kit writes `# Tasks: <feature>`; real files also say `# Implementation Tasks: …`,
  // or the heading in the user's language (`# 任务清单：…`): a task line says it is one.
  if (!/^#[ \t].*\bTasks\b/i.test(heading) && !HAS_TASK_LINE.test(read.doc.visible.join("\n"))) {
    return contract(
      "speckit-tasks",
      path,
      { kind: "speckit-tasks" },
      [],
      [
        problem(
          "foreign-file",
          { path, line: 1, column: 1 },
          `${path} is read as a spec-kit task list (its name and place say so), but ${heading.trim() === "" ? "it has no heading" : `its first heading is ${JSON.stringify(heading.trim().slice(0, 60))}`}, not \`# Tasks: <feature>\``,
          {
            hint: "start the file with `# Tasks: <feature>` as spec-kit writes it, or move it out of the specs/ globs",
          },
        ),
      ],
    );
  }
  const tasks = readTasks(read);
  return contract(
    "speckit-tasks",
    path,
    { kind: "speckit-tasks", tasks },
    [],
    read.problems.list(),
  );
}

/** The tasks of a `tasks.md` beside a spec, with its problems (path: the tasks file). */
export function readTasksFile(
  path: string,
  bytes: Uint8Array,
): { tasks?: SpecHeader["tasks"]; problems: Problem[] } {
  const c = parseSpeckitTasks(path, bytes);
  const header = c.header as SpecHeader;
  return { ...(header.tasks && { tasks: header.tasks }), problems: c.problems };
}

function foreign(path: string, sd: SpecDoc, heading: string, near: boolean): Problem {
  const at = { path, line: 1, column: 1 };
  const shown =
    heading.trim() === ""
      ? "it has no heading"
      : `its first heading is ${JSON.stringify(heading.trim().slice(0, 60))}`;
  if (near) {
    return problem(
      "keyword-near-miss",
      locate(sd.doc, sd.first),
      `${path}: the first heading reads as a spec heading but is not written in plain ASCII`,
      {
        hint: "write `# Specification:` or `# Feature Specification:` in plain ASCII",
      },
    );
  }
  return problem(
    "foreign-file",
    at,
    `${path} is read as a requirement spec (its name and place say so), but ${shown}, which is neither layout's`,
    {
      hint: `start the file with ${LAYOUTS.map((l) => l.what).join(" or ")}, or move it out of the specs/ globs`,
    },
  );
}

/**
 * The status line (seed 004: "Anything other than an explicit READY falls
 * through to blocked"): exactly one `SPEC STATUS: READY` or `SPEC STATUS:
 * NEEDS CLARIFICATION`, the file's last non-empty line. Anything else is an
 * error, so the gate never guesses what a spec meant.
 */
function readStatus(
  sd: SpecDoc,
  model: RequirementModel,
): "READY" | "NEEDS CLARIFICATION" | undefined {
  const { doc, problems } = sd;
  let last = doc.lines.length - 1;
  while (last >= 0 && doc.lines[last]!.trim() === "") last--;
  const found: number[] = [];
  for (let i = 0; i < doc.lines.length; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!;
    if (line.indexOf("STATUS") === -1 && line.indexOf("tatus") === -1 && line.charCodeAt(0) < 128) {
      // Cheap skip: an ASCII line without the word cannot read as a status line.
      if (!STATUS_WORD.test(line)) continue;
    }
    if (READS_AS_STATUS.test(asRead(line))) found.push(i);
  }
  const fix =
    "end the spec with exactly `SPEC STATUS: READY` or `SPEC STATUS: NEEDS CLARIFICATION` on its last line";
  if (found.length === 0) {
    problems.push(
      problem("spec-status", locate(doc, Math.max(0, last)), "the spec has no SPEC STATUS line", {
        hint: fix,
      }),
    );
    return undefined;
  }
  for (const i of found.slice(1)) {
    problems.push(
      problem(
        "spec-status",
        locate(doc, i),
        `a second SPEC STATUS line (the first is on line ${found[0]! + 1})`,
        {
          hint: "keep one status line, the last line of the spec",
        },
      ),
    );
  }
  const i = found[0]!;
  const m = STATUS_LINE.exec(doc.lines[i]!);
  if (!m) {
    problems.push(
      problem(
        "spec-status",
        locate(doc, i),
        `${JSON.stringify(doc.lines[i]!.trim().slice(0, 60))} is not one of the two status lines`,
        { hint: fix },
      ),
    );
    return undefined;
  }
  if (i !== last) {
    problems.push(
      problem(
        "spec-status",
        locate(doc, i),
        `the SPEC STATUS line must be the spec's last non-empty line (line ${last + 1} follows it)`,
        { hint: fix },
      ),
    );
    return undefined;
  }
  if (found.length > 1) return undefined;
  const value = m[1] as "READY" | "NEEDS CLARIFICATION";
  model.status = { value, location: locate(doc, i) };
  return value;
}

/**
 * spec-kit's mandatory sections, by the template generation the file
 * follows: specs written from the first template (2025-08, "Execution Flow
 * (main)", "Review & Acceptance Checklist") have no Success Criteria; the
 * current one (templates/spec-template.md) marks User Scenarios & Testing,
 * Requirements and Success Criteria *(mandatory)*. A missing one warns.
 */
function checkSections(sd: SpecDoc): void {
  const has = (prefix: string) => sd.doc.sections.some((s) => s.upper.startsWith(prefix));
  const older = has("REVIEW & ACCEPTANCE CHECKLIST") || has("EXECUTION FLOW");
  const all = [
    ["User Scenarios & Testing", "userScenarios"],
    ["Requirements", "requirements"],
    ["Success Criteria", "success"],
  ] as const;
  const mandatory = older ? all.slice(0, 2) : all;
  for (const [name, key] of mandatory) {
    // In any language the spec is written in, as spec-kit's agent translates the template.
    if (sd.doc.sections.some((s) => isSection(s.upper, key, "speckit-spec"))) continue;
    sd.problems.push(
      problem(
        "missing-section",
        locate(sd.doc, sd.first),
        `spec-kit's ${older ? "first" : "current"} spec template marks "## ${name}" mandatory, and this spec has none`,
        { hint: `add the "## ${name}" section the template defines` },
      ),
    );
  }
}

function contract(
  kind: Contract["kind"],
  path: string,
  header: Contract["header"],
  criteria: Contract["criteria"],
  problems: Problem[],
): Contract {
  return { kind, path, header, criteria, problems: sortProblems(problems) };
}
