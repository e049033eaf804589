import type { SpecReference, Task, TaskList } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { atxText } from "../markdown/lines.js";
import { asRead, isAscii, locate, nearMiss, type SpecDoc } from "./read.js";

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

/** Words that say a task takes a path away: the path may rightly be gone at head. */
const REMOVES =
  /\b(?:delete[sd]?|remove[sd]?|rename[sd]?|move[sd]?|drop(?:s|ped)?|deprecate[sd]?|retire[sd]?)\b/i;

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

/** Extensions a token may end with to be read as a file path without a `/`. */
const EXTENSIONS = new Set(
  "ts tsx js jsx mjs cjs mts cts py pyi rs go java kt kts swift rb php cs fs c h cc cpp hpp m mm md mdx json jsonc yaml yml toml ini cfg conf sql sh bash zsh ps1 css scss sass less html htm vue svelte astro lock txt xml gradle dart ex exs erl proto graphql gql env csv tf hcl ipynb r jl lua pl scala clj vim nix dockerfile makefile".split(
    " ",
  ),
);
/** The characters of a path token, `[A-Za-z0-9_./@~+-]`, by char code. */
const TOKEN_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./@~+-")
  TOKEN_CHAR[c.charCodeAt(0)] = 1;
const isTokenChar = (code: number) => code < 128 && TOKEN_CHAR[code] === 1;
const DOT = 46;
const SLASH = 47;

/**
 * Repository paths a description names: tokens with a `/` ending in a known
 * extension. A bare file name (`package.json`, `Node.js`) does not say where
 * it is, a directory (`unit/`) is often relative to the one named before it,
 * and `./x.css` is relative to another file: none is read as a path. Not a path: URLs, npm scopes (`@dnd-kit/core`),
 * placeholders (`[name]`, `{id}`, `<x>`), globs, `and/or`-style words, dotted
 * identifiers (`URL.revokeObjectURL`), version numbers.
 */
export function pathsIn(text: string): { path: string; column: number }[] {
  const out: { path: string; column: number }[] = [];
  scanPaths(text, (path, column) => out.push({ path, column }));
  return out;
}

/**
 * `pathsIn` as a visit of each path and its 1-based column, so a task list
 * keeps only the paths it has not named yet: a 1 MiB line naming one path
 * over and over builds one reference, not a list of every mention.
 */
function scanPaths(
  text: string,
  visit: (path: string, column: number) => void,
  /** Where to start: a token never spans it (the character before is no token character). */
  from = 0,
): void {
  if (text.indexOf("/", from) === -1 && text.indexOf(".", from) === -1) return;
  // One scan over maximal runs of token characters; a task list the PR author
  // writes may hold a 1 MiB line of them, so no regex or copy per token but one.
  const n = text.length;
  let i = from;
  while (i < n) {
    if (!isTokenChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const at = i;
    let slash = false;
    for (;;) {
      for (let c = text.charCodeAt(i); i < n && isTokenChar(c); c = text.charCodeAt(++i)) {
        if (c === SLASH) slash = true;
      }
      // A whole segment in brackets continues the path: a Next.js route group
      // `src/app/(auth)/login/page.tsx`, a dynamic segment `projects/[id]/page.tsx`.
      const past = i > at && text.charCodeAt(i - 1) === SLASH ? segmentEnd(text, i) : -1;
      if (past === -1) break;
      i = past;
    }
    // A path has a `/` after any leading one, so a run with none is no path: not even sliced.
    if (!slash) continue;
    const before = text[at - 1];
    const after = text[i];
    // Part of a URL, a placeholder, a glob or a variable (`$HOME/x`, `${ROOT}/x`): not a path of this repository.
    if (
      before === ":" ||
      before === "[" ||
      before === "{" ||
      before === "<" ||
      before === "*" ||
      before === "$" ||
      before === "}"
    )
      continue;
    if (after === ":" && text[i + 1] === "/") continue;
    if (after === "[" || after === "{" || after === "*" || after === "<") continue;
    // A sentence's full stop is no part of the path (`,;:` end a token already).
    let end = i;
    while (end > at && text.charCodeAt(end - 1) === DOT) end--;
    // Read by index: only a token found to be a path is sliced out.
    let start = at;
    const c0 = text[start];
    if (c0 === "@" || c0 === "~" || text.startsWith("//", start)) continue;
    // `./styles/a.css` is relative to some other file (an import specifier), not the root.
    if (text.startsWith("./", start)) continue;
    if (c0 === "/") {
      // `/specs/002-x/` is written from the root; `/app/entrypoint.sh` (a container),
      // `/home/runner/work/…` (a CI runner) are another machine's absolute paths.
      if (systemRoot(text, start + 1, end)) continue;
      start++;
    }
    if (start === end || hasDotDot(text, start, end)) continue;
    // A bare file name (`package.json`, `Node.js`) does not say where it is, and a
    // directory is often listed relative to the one before it (`tests/` with
    // `unit/, fixtures/`): neither is checked.
    let slashAt = end - 1;
    while (slashAt >= start && text.charCodeAt(slashAt) !== SLASH) slashAt--;
    if (slashAt < start || slashAt === end - 1) continue;
    const name = slashAt + 1;
    let dot = end - 1;
    while (dot > name && text.charCodeAt(dot) !== DOT) dot--;
    const known =
      dot > name
        ? EXTENSIONS.has(text.slice(dot + 1, end).toLowerCase())
        : isName(text, name, end, "Dockerfile") || isName(text, name, end, "Makefile");
    if (known) visit(text.slice(start, end), at + 1);
  }
}

/** Whether `text[start, end)` has a `..` segment (`[...slug]` and `a..b` are names, not a way up). */
function hasDotDot(text: string, start: number, end: number): boolean {
  for (let p = start + 1; p < end; p++) {
    if (text.charCodeAt(p) !== DOT || text.charCodeAt(p - 1) !== DOT) continue;
    const head = p - 1 === start || text.charCodeAt(p - 2) === SLASH;
    const tail = p + 1 === end || text.charCodeAt(p + 1) === SLASH;
    if (head && tail) return true;
  }
  return false;
}

const CLOSE: Record<string, string> = { "(": ")", "[": "]" };

/**
 * At `i` (just after a `/`), a bracketed segment followed by `/`: `(auth)/`,
 * `[id]/`, `[...slug]/`. Returns the index after the close, or -1 when `i`
 * opens no such segment (a placeholder `test_[name].py` is never one).
 */
function segmentEnd(text: string, i: number): number {
  const close = CLOSE[text[i] ?? ""];
  if (close === undefined) return -1;
  let p = i + 1;
  while (p < text.length && p - i <= 64 && isTokenChar(text.charCodeAt(p)) && text[p] !== "/") p++;
  return p > i + 1 && text[p] === close && text[p + 1] === "/" ? p + 1 : -1;
}

/** First segments of absolute paths that belong to another machine: a container, a CI runner, a home. */
const SYSTEM_ROOTS = new Set(
  "app home root usr var etc opt tmp srv mnt workspace workspaces Users github runner __w".split(
    " ",
  ),
);

/** Whether `text[start, end)` begins with a system root's segment. */
function systemRoot(text: string, start: number, end: number): boolean {
  const slash = text.indexOf("/", start);
  const first = text.slice(start, slash === -1 || slash > end ? end : slash);
  return SYSTEM_ROOTS.has(first);
}

/** Whether `text[start, end)` is `name`. */
function isName(text: string, start: number, end: number, name: string): boolean {
  return end - start === name.length && text.startsWith(name, start);
}
