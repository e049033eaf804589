import type { SpecReference, Task, TaskList } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { atxText } from "../markdown/lines.js";
import { REMOVES, scanPaths } from "../markdown/named-paths.js";
import { asRead, isAscii, locate, nearMiss, type SpecDoc } from "./read.js";

export { pathsIn } from "../markdown/named-paths.js";

/**
 * spec-kit's `tasks.md` (templates/tasks-template.md): under each `## Phase …`
 * heading, task lines `- [ ] T001 [P] [US1] Description with file path`.
 * Real files bold the id (`**T001**`), strike deleted tasks through
 * (`~~T012~~ **Deleted**`: not a task), wrap a description onto indented
 * lines, and keep checklists without ids (checkpoints): only a checkbox line
 * whose text starts with a task id is a task, and it must follow the grammar.
 */
const CHECKBOX = /^[-*+][ \t]+\[([ xX])\][ \t]+/;
const STARTS_WITH_ID = /^(?:\*\*)?T\d/;
/** A task's body from `lastIndex` (sticky): the id, its tags, its description. */
const TASK =
  /(?:\*\*)?(T\d{3,}[a-z]?(?:-[A-Za-z0-9]+)*)(?:\*\*)?(?=[ \t:]|$):?((?:[ \t]+\[(?:P|US\d+|Story[ \t]*\d+)\])*)[ \t]*(.*)$/isy;
/** A phase heading, in English or as spec-kit writes it in Chinese (`## 第一阶段：…`, `## 階段 2`). */
const PHASE = /^(?:phase\b|第?[一二三四五六七八九十\d]*[ \t]*[阶階]段)/i;
const HEADING_LEVEL = /^(#{1,6})(?:[ \t]|$)/;
/** `T001`, `T012a`, `T031-MIN` (real task lists suffix ids when they split one). */
const TASK_ID = /^T\d{3,}[a-z]?(?:-[A-Za-z0-9]+)*$/;
/** A wrapped description line: indented and not blank. */
const WRAPPED = /^[ \t]+\S/;
const NEXT_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[[ xX]\]/;

/**
 * `CHECKBOX` read by hand, since it runs on every line of a phase: the index
 * of the `[` of `- [ ] ` (any bullet, any mark of ` xX`, spaces or tabs), or -1.
 */
function checkboxAt(line: string): number {
  const c = line[0];
  if (c !== "-" && c !== "*" && c !== "+") return -1;
  let p = 1;
  while (line[p] === " " || line[p] === "\t") p++;
  if (p === 1 || line[p] !== "[") return -1;
  const mark = line[p + 1];
  if ((mark !== " " && mark !== "x" && mark !== "X") || line[p + 2] !== "]") return -1;
  const after = line[p + 3];
  return after === " " || after === "\t" ? p : -1;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** spec-kit's tag for a phase or task of a feature that spans repositories: `[REPO: api-server]`. */
const REPO_TAG = /\[REPO:[ \t]*([^\]\n]+?)[ \t]*\]/i;

export function readTasks(sd: SpecDoc): TaskList {
  const { doc, problems } = sd;
  const tasks: Task[] = [];
  let inPhase = false;
  let phaseRepo: string | undefined;
  const seen = new Map<string, number>();
  for (let i = 0; i < doc.lines.length; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!;
    if (line.startsWith("#")) {
      const level = HEADING_LEVEL.exec(line)?.[1]?.length;
      if (level === 2) {
        inPhase = PHASE.test(atxText(line));
        phaseRepo = REPO_TAG.exec(line)?.[1];
      }
      continue;
    }
    if (!inPhase) continue;
    const bracket = checkboxAt(line);
    if (bracket === -1) {
      if (
        !isAscii(line) &&
        CHECKBOX.test(asRead(line)) &&
        STARTS_WITH_ID.test(asRead(line).replace(CHECKBOX, ""))
      ) {
        nearMiss(sd, i, "a task line", "write the checkbox and task id in plain ASCII");
      }
      continue;
    }
    let start = bracket + 3;
    while (line[start] === " " || line[start] === "\t") start++;
    if (line.startsWith("~~", start)) continue; // struck through: a deleted task
    const idAt = line.startsWith("**", start) ? start + 2 : start;
    if (line[idAt] !== "T" || !isDigit(line.charCodeAt(idAt + 1))) continue;
    // The body is matched in place (sticky), not sliced out of the line.
    TASK.lastIndex = start;
    const m = TASK.exec(line);
    const at = locate(doc, i, start + 1);
    if (!m || !TASK_ID.test(m[1]!)) {
      if (!problems.full("task-syntax", at)) {
        problems.push(
          problem(
            "task-syntax",
            at,
            `this task line does not follow the task grammar: ${line.slice(start, start + 60)}`,
            {
              hint: "write tasks as `- [ ] T001 [P] [US1] <description with file path>` (T and three digits, an optional letter)",
            },
          ),
        );
      }
      continue;
    }
    const id = m[1]!;
    let parallel = false;
    let story: number | undefined;
    // TASK has matched the tags as ` [P]`, ` [US1]`, ` [Story 1]` (any case), so
    // each bracket is read by hand: `[P]`, or a story whose number ends it.
    const tags = m[2]!;
    for (let p = tags.indexOf("["); p !== -1; p = tags.indexOf("[", p + 1)) {
      const close = tags.indexOf("]", p);
      if (close === p + 2 && (tags[p + 1] === "P" || tags[p + 1] === "p")) parallel = true;
      else {
        let digits = p + 1;
        while (!isDigit(tags.charCodeAt(digits))) digits++;
        story = Number(tags.slice(digits, close));
      }
    }
    // Wrapped lines: indented, non-blank, not a new list item.
    let text = m[3]!.trim();
    // Each path once, at its first mention: a phantom is the task's, not each word's.
    const paths: SpecReference[] = [];
    // A task names a few paths: a Set only once it names many.
    let named: Set<string> | undefined;
    let index = i;
    const name = (path: string, column: number) => {
      if (named === undefined) {
        for (const p of paths) if (p.id === path) return;
        if (paths.length >= 8) named = new Set(paths.map((p) => p.id));
      } else if (named.has(path)) return;
      named?.add(path);
      paths.push({ id: path, location: locate(doc, index, column) });
    };
    // Paths are read from the description on: the checkbox, id and tags
    // before it hold none, and a non-token character always ends them.
    scanPaths(line, name, line.length - m[3]!.length);
    let k = i + 1;
    while (
      k < doc.lines.length &&
      !doc.hidden[k] &&
      WRAPPED.test(doc.visible[k]!) &&
      !NEXT_ITEM.test(doc.visible[k]!)
    ) {
      text += ` ${doc.visible[k]!.trim()}`;
      index = k;
      scanPaths(doc.visible[k]!, name);
      k++;
    }
    const first = seen.get(id);
    // Past the cap the problem is only counted, never built (a file of one repeated id).
    if (first !== undefined && !problems.full("duplicate-id", at)) {
      problems.push(
        problem("duplicate-id", at, `task ${id} is already defined on line ${first + 1}`, {
          hint: "give every task its own id; tasks reference each other by id",
        }),
      );
    } else if (first === undefined) seen.set(id, i);
    const done = line[bracket + 1] !== " ";
    const removes = REMOVES.test(text);
    // The list the scan pushed to has room for sixteen more paths: the task
    // keeps an exact copy, since every slot it keeps is copied by each
    // garbage collection it lives through (a 1 MiB list holds 10^4 tasks).
    const kept = paths.length === 0 ? paths : paths.slice();
    const task: Task =
      story === undefined
        ? { id, done, parallel, text, paths: kept, removes, location: at }
        : { id, done, parallel, story, text, paths: kept, removes, location: at };
    const elsewhere = REPO_TAG.exec(text)?.[1] ?? phaseRepo;
    if (elsewhere !== undefined) task.elsewhere = elsewhere;
    tasks.push(task);
  }
  return { path: doc.path, tasks };
}
