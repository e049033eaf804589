import type {
  Contract,
  Problem,
  SpecHeader,
  SpecReference as SpecRef,
  Task,
  TaskList,
} from "../../model/contract.js";
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
  /** How many paths at head end in `/<path>` (up to 2): a unique one is the file a task means. */
  endingWith?: (path: string) => number;
  /**
   * The change being judged: the task list at the base (`tasks` absent when
   * there was no tasks.md there). Without it nothing says which tasks the
   * change marked done, so no completion blocks (see `phantoms`).
   */
  base?: { tasks?: TaskList; history?: boolean };
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
    // A tasks.md that is no task list at all is said on that file, never a cascade that
    // invalidates the spec beside it (its requirements are read whatever tasks.md holds).
    for (const p of files.tasks.problems)
      problems.push(p.code === "foreign-file" ? { ...p, severity: "warning" } : p);
    list = files.tasks.list;
  }
  if (list) problems.push(...phantoms(list, files));
  if (list && model?.map === undefined) suggestMap(problems, list);
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
 *
 * A change rule: only a task the change marks done (absent or open at the
 * base, done at head) blocks. A task done at the base was judged when it was
 * checked off; a later commit that moved its file is no phantom of this
 * change (said as a warning only under `scope: all`). With no base at all
 * (plain `validate`) nothing says the change did it: a warning.
 */
function phantoms(list: TaskList, files: SpecFiles): Problem[] {
  const out: Problem[] = [];
  const dir = specDir(list.path);
  const base = files.base;
  const doneAtBase = new Set(base?.tasks?.tasks.filter((t) => t.done).map((t) => t.id) ?? []);
  for (const t of list.tasks) {
    if (!t.done || t.removes) continue;
    const earlier = doneAtBase.has(t.id);
    if (earlier && !base?.history) continue;
    // Another repository's task: nothing here says whether it was done.
    if (t.elsewhere !== undefined) continue;
    for (const p of t.paths) {
      if (present(p.id, t, dir, files)) continue;
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
      out.push(phantom(t.id, p, base === undefined ? "no-base" : earlier ? "earlier" : "change"));
    }
  }
  return out;
}

/** What separates two alternatives: `` `x` (or `y`) ``, `x or y`, `x / or y`. */
const ALTERNATIVE = /^[`'"\s(]*(?:\/\s*)?or[\s`'"]*$/i;

/**
 * Whether a path a done task names is there, read as people write paths:
 * from the root or the spec's directory; as an alternative (`x (or y)`) of a
 * path that is; as shorthand beside another path of the task (`a/b/x.ts and
 * y.ts`, `lib/x/… + data/y.dart`); as the unique committed path it ends (a
 * task written from a sub-project: `src/utils/cn.ts`).
 */
function present(path: string, t: Task, dir: string, files: SpecFiles): boolean {
  const { exists } = files;
  if (exists(path) || (dir !== "" && exists(dir + path))) return true;
  const others = t.paths.filter((o) => o.id !== path).map((o) => o.id);
  const at = t.text.indexOf(path);
  for (const o of others) {
    const io = t.text.indexOf(o);
    if (at === -1 || io === -1 || !(exists(o) || (dir !== "" && exists(dir + o)))) continue;
    const between = io < at ? t.text.slice(io + o.length, at) : t.text.slice(at + path.length, io);
    if (ALTERNATIVE.test(between)) return true;
  }
  for (const o of others) {
    for (let cut = o.lastIndexOf("/"); cut > 0; cut = o.lastIndexOf("/", cut - 1)) {
      if (exists(`${o.slice(0, cut)}/${path}`)) return true;
    }
  }
  return files.endingWith?.(path) === 1;
}

/** One phantom completion, weighed by who checked the task off (`phantoms`). */
function phantom(id: string, p: SpecRef, by: "change" | "earlier" | "no-base"): Problem {
  const fix = `create ${p.id}, correct the path in the task, or uncheck the task until it is done`;
  if (by === "change") {
    return problem(
      "phantom-completion",
      p.location,
      `task ${id} is marked done by this change, but ${p.id}, named in its description, does not exist at this commit`,
      { hint: fix },
    );
  }
  return problem(
    "phantom-completion",
    p.location,
    by === "earlier"
      ? `task ${id} was already done at the base, and ${p.id}, named in its description, does not exist at this commit (a later commit moved or deleted it; not this change's to answer for)`
      : `task ${id} is marked done, but ${p.id}, named in its description, does not exist at this commit; with no base to compare with nothing says this change marked it done, so it does not block`,
    {
      severity: "warning",
      hint:
        by === "earlier"
          ? `correct the path in the task if the file moved (${p.id}), or leave it: it does not block`
          : `compare with a base to judge only what the change marks done (CLI: --base <rev>; the action does on pull requests); ${fix}`,
    },
  );
}

/** A test file a task names: a `test`/`spec` segment or name (`tests/x.py`, `a.test.ts`, `x_spec.rb`). */
const TEST_PATH =
  /(?:^|\/)(?:tests?|specs?|__tests__|e2e)\/|[._-](?:test|spec)s?\.[a-z]+$|(?:^|\/)test_[^/]+$/i;

/**
 * A spec without a map: its `no-requirement-map` hint offers lines to paste,
 * from the test files tasks.md's tasks name and the stories they serve
 * (spec-kit writes a test task per story: `T010 [P] [US1] Contract test … in
 * tests/contract/test_x.py`). Which requirement each proves is the author's call.
 */
function suggestMap(problems: Problem[], list: TaskList): void {
  const at = problems.findIndex((p) => p.code === "no-requirement-map");
  if (at === -1) return;
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const t of list.tasks) {
    for (const p of t.paths) {
      if (!TEST_PATH.test(p.id) || seen.has(p.id)) continue;
      seen.add(p.id);
      lines.push(
        `- FR-??? → ${p.id} > <test name>${t.story === undefined ? "" : ` (US${t.story}, ${t.id})`}`,
      );
    }
    if (lines.length >= 5) break;
  }
  if (lines.length === 0) return;
  const was = problems[at]!;
  problems[at] = {
    ...was,
    hint: `${was.hint ?? ""}; tasks.md's test tasks suggest lines to paste (each FR to the test that proves it): ${lines.join("; ")}`,
  };
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
