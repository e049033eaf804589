import type { Contract, Problem, SpecHeader, TaskList } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { bareMarker } from "./markers.js";
import { readSpecDoc } from "./read.js";

/** What the loader read beside a spec (or a task list read alone). */
export interface SpecFiles {
  /** `tasks.md` beside the spec, parsed (its problems carry its own path). */
  tasks?: { list?: TaskList; problems: Problem[] };
  plan?: { path: string; bytes: Uint8Array };
  checklists: { path: string; bytes: Uint8Array }[];
  /** Whether a repo-relative path exists at head (a file, directory or link). */
  exists: (path: string) => boolean;
}

/** The directory holding a spec or task list, with a trailing `/` ("" at the root). */
export function specDir(path: string): string {
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** The files whose change puts a spec in scope: itself and what is read beside it. */
export function specCompanions(path: string): string[] {
  const dir = specDir(path);
  return [path, `${dir}tasks.md`, `${dir}plan.md`];
}

const LIMIT = 100;

/**
 * A spec (or task list) with what lies beside it checked: the map's test
 * files exist at head, each task's `[USn]` names a story of the spec, no
 * task marked done names a path that does not exist (a phantom completion:
 * spec-kit issue #1865), a bare NEEDS CLARIFICATION in plan.md's Technical
 * Context warns, and each unchecked checklist item warns. Pure: `exists` is
 * the loader's.
 */
export function linkSpecFiles(contract: Contract, files: SpecFiles): Contract {
  const header = contract.header as SpecHeader;
  const problems = [...contract.problems];
  const model = header.model;
  for (const e of model?.map?.entries ?? []) {
    if (e.target.kind !== "test" || files.exists(e.target.file)) continue;
    problems.push(
      problem(
        "missing-test-file",
        e.location,
        `${e.requirement.id} is mapped to ${e.target.file}, which does not exist at this commit`,
        {
          hint: "commit the test file, or map the requirement to the test file that proves it",
        },
      ),
    );
  }
  let list = header.tasks;
  if (files.tasks) {
    problems.push(...files.tasks.problems);
    list = files.tasks.list;
  }
  if (list) problems.push(...phantoms(list, files));
  if (list && model && model.layout === "speckit-spec") {
    const stories = new Set(model.stories.map((s) => s.n));
    for (const t of list.tasks) {
      if (t.story === undefined || stories.has(t.story)) continue;
      problems.push(
        problem(
          "unresolved-reference",
          t.location,
          `task ${t.id} is tagged [US${t.story}], but ${contract.path} has no "User Story ${t.story}"`,
          {
            hint: "tag the task with the story it implements, or add the story to the spec",
          },
        ),
      );
    }
  }
  if (files.plan) problems.push(...planClarifications(files.plan.path, files.plan.bytes));
  for (const c of files.checklists) problems.push(...uncheckedItems(c.path, c.bytes));
  const linked: Contract = { ...contract, problems: sortProblems(problems) };
  if (list && list !== header.tasks) linked.header = { ...header, tasks: list };
  return linked;
}

/**
 * Done tasks whose description names a repository path that does not exist
 * at head, neither from the root nor from the spec's directory (tasks cite
 * `contracts/api.md` beside the spec). A task that says it deletes, moves or
 * renames is not checked: its path may rightly be gone.
 */
function phantoms(list: TaskList, files: SpecFiles): Problem[] {
  const out: Problem[] = [];
  const dir = specDir(list.path);
  for (const t of list.tasks) {
    if (!t.done || t.removes) continue;
    for (const p of t.paths) {
      if (files.exists(p.id) || (dir !== "" && files.exists(dir + p.id))) continue;
      if (out.length >= LIMIT) {
        out.push(
          problem(
            "phantom-completion",
            p.location,
            `more phantom completions from here on are not listed (only the first ${LIMIT} are)`,
            {
              hint: "create the files the done tasks name, or uncheck the tasks",
            },
          ),
        );
        return out;
      }
      out.push(
        problem(
          "phantom-completion",
          p.location,
          `task ${t.id} is marked done, but ${p.id}, named in its description, does not exist at this commit`,
          {
            hint: `create ${p.id}, correct the path in the task, or uncheck the task until it is done`,
          },
        ),
      );
    }
  }
  return out;
}

/** plan.md's `## Technical Context`: a bare NEEDS CLARIFICATION left unresolved warns. */
function planClarifications(path: string, bytes: Uint8Array): Problem[] {
  const read = readSpecDoc(path, bytes);
  if (!("doc" in read)) return [];
  const out: Problem[] = [];
  const { doc } = read;
  for (const s of doc.sections) {
    if (!s.upper.startsWith("TECHNICAL CONTEXT")) continue;
    for (let i = s.index + 1; i < s.end && out.length < LIMIT; i++) {
      if (doc.hidden[i]) continue;
      const at = bareMarker(doc.visible[i]!);
      if (at === -1) continue;
      out.push(
        problem(
          "plan-clarification",
          { path, line: i + 1, column: at + 1 },
          "the plan's Technical Context still says NEEDS CLARIFICATION",
          {
            hint: "resolve it in the plan's research and write the decision in its place",
          },
        ),
      );
    }
  }
  return out;
}

/** Each unchecked item of a `checklists/*.md` beside the spec warns. */
function uncheckedItems(path: string, bytes: Uint8Array): Problem[] {
  const read = readSpecDoc(path, bytes);
  if (!("doc" in read)) return [read];
  const out: Problem[] = [];
  const { doc } = read;
  for (let i = 0; i < doc.lines.length && out.length < LIMIT; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!;
    const m = /^[ \t]*[-*+][ \t]+\[ \][ \t]+(.*)$/.exec(line);
    if (!m) continue;
    out.push(
      problem(
        "unchecked-checklist",
        { path, line: i + 1, column: 1 },
        `unchecked checklist item: ${m[1]!.trim().slice(0, 120)}`,
        {
          hint: "check the item once it holds, or remove it if it does not apply",
        },
      ),
    );
  }
  return out;
}
