import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { MAX_LISTED_ISSUES } from "../json/bounded-list.js";
import type { JsonDocument } from "../json/document.js";
import { formatPath, type JsonPath } from "../json/path.js";
import { field, type JsonObject, type Located } from "../json/raw.js";
import { fileKey, pathReason } from "../memo.js";

export const TASK_ID = /^T\d+$/;
export const MAX_ACTION_CHARS = 500;

const FILE_LISTS = ["files_modify", "files_create", "files_delete"] as const;
/** Paths a builder is told to read; no check reads them, so an unsafe one is only a warning. */
const ADVISORY_LISTS = ["context_files"] as const;
const PATH_LISTS = [...FILE_LISTS, ...ADVISORY_LISTS] as const;
const PATH_HINT = "paths are relative to the repository root, with / separators";

/** Rules 1 and 2: ids are unique and look like `T<n>`. */
export function taskIdProblems(
  doc: JsonDocument,
  tasks: readonly Located<JsonObject>[],
): Problem[] {
  const problems: Problem[] = [];
  /** The path of the first task with each id. */
  const firstSeen = new Map<string, JsonPath>();
  for (let t = 0; t < tasks.length; t++) {
    const task = tasks[t]!;
    const id = field(task.value, "id");
    if (typeof id !== "string") continue;
    if (!TASK_ID.test(id)) {
      const path = [...task.path, "id"];
      problems.push(
        problem(
          "invalid-task-id",
          doc.valueAt(path),
          `${formatPath(path)} ${JSON.stringify(id)} is not a task id like "T1"`,
          { hint: "task ids are T followed by digits (^T\\d+$)" },
        ),
      );
    }
    const earlier = firstSeen.get(id);
    if (earlier) {
      const line = doc.valueAt([...earlier, "id"]).line;
      problems.push(
        problem(
          "duplicate-task-id",
          doc.valueAt([...task.path, "id"]),
          `task id ${JSON.stringify(id)} is already used by ${formatPath(earlier)} (line ${line})`,
          { hint: "give every task its own id" },
        ),
      );
    } else firstSeen.set(id, task.path);
  }
  return problems;
}

/** Per-task rules that need no other task: 6, 7, 10, path safety, persona. */
export function taskProblems(doc: JsonDocument, task: Located<JsonObject>): Problem[] {
  const problems: Problem[] = [];

  // Rule 6: a task nothing verifies can never be shown done.
  const verification = field(task.value, "verification");
  if (Array.isArray(verification) && verification.length === 0) {
    problems.push(
      problem(
        "no-verification",
        doc.valueAt([...task.path, "verification"]),
        `${formatPath([...task.path, "verification"])} is empty; every task needs at least one check`,
        { hint: 'add a "file-exists", "grep-match", "command-exit" or "behavioral" check' },
      ),
    );
  }

  for (let l = 0; l < PATH_LISTS.length; l++) {
    const list = PATH_LISTS[l]!;
    const entries = field(task.value, list);
    if (!Array.isArray(entries)) continue;
    const advisory = l >= FILE_LISTS.length;
    let found = 0;
    // Plain loop, paths built only for a problem: most entries are fine.
    for (let i = 0; i < entries.length; i++) {
      const value: unknown = entries[i];
      if (typeof value !== "string") continue;
      const reason = pathReason(value);
      if (!reason) continue;
      const path = [...task.path, list, i];
      if (++found > MAX_LISTED_ISSUES) {
        problems.push(unlisted(doc, path, advisory ? "advisory-path" : "unsafe-path", entries, i));
        break;
      }
      problems.push(
        advisory
          ? problem(
              "advisory-path",
              doc.valueAt(path),
              `${formatPath(path)} ${JSON.stringify(value)} ${reason}; it is advisory (no check reads it), so this is a warning`,
              { hint: PATH_HINT },
            )
          : problem(
              "unsafe-path",
              doc.valueAt(path),
              `${formatPath(path)} ${JSON.stringify(value)} ${reason}`,
              { hint: PATH_HINT },
            ),
      );
    }
  }

  const overlaps = fileListOverlaps(doc, task);
  for (let i = 0; i < overlaps.length; i++) problems.push(overlaps[i]!);

  // Rule 10, counted in code points: what a person would call characters.
  // Code points never outnumber UTF-16 units: short strings need no count.
  const action = field(task.value, "action");
  const length =
    typeof action === "string" && action.length > MAX_ACTION_CHARS ? [...action].length : 0;
  if (length > MAX_ACTION_CHARS) {
    const path = [...task.path, "action"];
    problems.push(
      problem(
        "action-too-long",
        doc.valueAt(path),
        `${formatPath(path)} is ${length} characters; the limit is ${MAX_ACTION_CHARS}`,
        { hint: "action is advisory; keep implementation detail in phase-N-plan.md" },
      ),
    );
  }

  if (field(task.value, "persona") === "data") {
    const path = [...task.path, "persona"];
    problems.push(
      problem(
        "persona-deprecated",
        doc.valueAt(path),
        `${formatPath(path)} "data" is deprecated; v1 folded it into "backend"`,
        { hint: 'use "persona": "backend"' },
      ),
    );
  }
  return problems;
}

/**
 * Rule 7: a file is modified, created or deleted, never two of these. Paths
 * are compared normalised (`./src/a.ts` is `src/a.ts`); the problem sits on
 * the later entry and names the list that already has the file.
 */
function fileListOverlaps(doc: JsonDocument, task: Located<JsonObject>): Problem[] {
  if (!mayOverlap(task.value)) return [];
  const problems: Problem[] = [];
  const earlier: { name: string; files: Set<string> }[] = [];
  for (const name of FILE_LISTS) {
    const entries = field(task.value, name);
    const files = new Set<string>();
    if (Array.isArray(entries)) {
      const reported = new Set<string>();
      for (let i = 0; i < entries.length; i++) {
        const value: unknown = entries[i];
        if (typeof value !== "string") continue;
        const file = fileKey(value);
        files.add(file);
        for (const list of earlier) {
          if (!list.files.has(file)) continue;
          const pair = `${list.name}\u0000${file}`;
          if (reported.has(pair)) continue;
          reported.add(pair);
          if (problems.length === MAX_LISTED_ISSUES) {
            problems.push(unlisted(doc, [...task.path, name, i], "file-list-overlap", entries, i));
            return problems;
          }
          problems.push(
            problem(
              "file-list-overlap",
              doc.valueAt([...task.path, name, i]),
              `${taskName(task)}: ${JSON.stringify(file)} is in both ${list.name} and ${name}`,
              { hint: "a file belongs to at most one of files_modify, files_create, files_delete" },
            ),
          );
        }
      }
    }
    earlier.push({ name, files });
  }
  return problems;
}

/**
 * False when every file of the three lists is distinct, which rules out any
 * overlap; true (look closer) when some file repeats, in one list or across.
 */
function mayOverlap(task: JsonObject): boolean {
  const seen = seenFiles;
  let count = 0;
  let files: Set<string> | undefined;
  for (let l = 0; l < FILE_LISTS.length; l++) {
    const entries = field(task, FILE_LISTS[l]!);
    if (!Array.isArray(entries)) continue;
    for (let i = 0; i < entries.length; i++) {
      const value: unknown = entries[i];
      if (typeof value !== "string") continue;
      const file = fileKey(value);
      // A handful of files is the norm: a linear look beats a set until there are many.
      if (files === undefined && count < 16) {
        for (let k = 0; k < count; k++) if (seen[k] === file) return true;
        seen[count++] = file;
        continue;
      }
      files ??= new Set(seen.slice(0, count));
      if (files.has(file)) return true;
      files.add(file);
    }
  }
  return false;
}

/** Scratch for `mayOverlap`, reused: the rules run synchronously, one task at a time. */
const seenFiles: string[] = [];

/**
 * The one problem that stands for the rest of a list once MAX_LISTED_ISSUES
 * are reported: a 1 MiB list can hold 10^5 of them, and listing them costs
 * time and helps nobody. Placed at entry `from`, where the unlisted ones start.
 */
function unlisted(
  doc: JsonDocument,
  path: JsonPath,
  code: "unsafe-path" | "advisory-path" | "file-list-overlap",
  entries: readonly unknown[],
  from: number,
): Problem {
  const list = path.slice(0, -1);
  return problem(
    code,
    doc.valueAt(path),
    `${formatPath(list)}: after ${MAX_LISTED_ISSUES} problems of this kind, entries ${from} to ${entries.length - 1} were not checked for more`,
    { hint: "fix the problems listed, then validate again" },
  );
}

/** A task as messages name it: its id when it has one, else its path. */
function taskName(task: Located<JsonObject>): string {
  const id = field(task.value, "id");
  return typeof id === "string" ? id : formatPath(task.path);
}
