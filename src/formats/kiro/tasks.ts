import type { KiroTask, Location, SpecReference } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { headingLevel, type KiroDoc, locate } from "./read.js";
import { type RefList, readRefList, requirementsList, validatesList } from "./refs.js";

/**
 * A task line (RULES §2.3): any bullet, a checkbox of ` xX-~`, Kiro's optional
 * marker `*` right after it (escaped `\*` too), an optional number (`1.` at
 * the top, `1.1` below), the title.
 */
const TASK =
  /^([ \t]*)[-*+][ \t]*\[([ xX~-])\](\\?\*)?[ \t]*(?:(\d+(?:\.\d+)*[a-z]?)\.?(?=[ \t]|$)[ \t]*)?(.*)$/s;
/** `_Requirements: 1.1_` written on the task line itself. */
const INLINE_REFS = /_Requirements?[ \t]*:[ \t]*([^_]*)_/i;
const CODE_SPAN = /`([^`\s]+)`/g;
/** A task that takes a path away: its path may rightly be gone. */
const REMOVES =
  /\b(?:delete[sd]?|remove[sd]?|rename[sd]?|move[sd]?|drop(?:s|ped)?|deprecate[sd]?|retire[sd]?)\b/i;
const MAX_PATHS = 32;
const PATH_END = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;

/** The tasks of a `tasks.md`, each with what its child bullets cite. */
export function readTasks(kd: KiroDoc, refs: RefList): KiroTask[] {
  const { doc, problems } = kd;
  const out: KiroTask[] = [];
  const indents: number[] = [];
  const seen = new Map<string, number>();
  let current: KiroTask | undefined;
  let unnumbered = 0;
  for (let i = 0; i < doc.lines.length; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!;
    if (headingLevel(line) > 0) {
      current = undefined;
      continue;
    }
    const m = TASK.exec(line);
    if (m) {
      const indent = m[1]!.replace(/\t/g, "    ").length;
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      const depth = indents.length;
      indents.push(indent);
      const location = locate(doc, i, m[1]!.length + 1);
      const id = m[4] ?? `#${++unnumbered}`;
      const first = seen.get(id);
      if (first !== undefined && m[4] !== undefined) {
        problems.push(
          problem(
            "kiro-structure",
            location,
            `task ${id} is already numbered on line ${first + 1}`,
            {
              hint: "give every task its own number",
              severity: "warning",
            },
          ),
        );
      } else seen.set(id, i);
      const title = m[5]!.trim();
      current = {
        id,
        title,
        done: m[2] === "x" || m[2] === "X",
        optional: m[3] !== undefined,
        depth,
        refs: [],
        paths: [],
        location,
      };
      out.push(current);
      const inline = INLINE_REFS.exec(line);
      if (inline) cite(current, inline[1]!, i, line.indexOf(inline[1]!) + 1, kd, refs);
      pathsOf(current, line, i, kd);
      continue;
    }
    if (!current) continue;
    const list = requirementsList(line) ?? validatesList(line);
    if (list) {
      cite(current, list.text, i, list.column, kd, refs);
      continue;
    }
    pathsOf(current, line, i, kd);
  }
  return out;
}

function cite(
  task: KiroTask,
  list: string,
  index: number,
  column: number,
  kd: KiroDoc,
  refs: RefList,
): void {
  const own: RefList = { refs: task.refs, unparsed: refs.unparsed, wide: refs.wide };
  readRefList(list, kd.doc.path, index + 1, column, own);
}

/**
 * Repository paths a task names in code spans (`src/export/csv.ts`): a `/`,
 * a file extension, nothing that leaves the repository. Bare words are not
 * read (Kiro's titles name components, not files).
 */
function pathsOf(task: KiroTask, line: string, index: number, kd: KiroDoc): void {
  if (line.indexOf("`") === -1) return;
  if (REMOVES.test(line) || REMOVES.test(task.title)) return;
  for (const m of line.matchAll(CODE_SPAN)) {
    const p = m[1]!.replace(/^\.\//, "");
    if (!p.includes("/") || !PATH_END.test(p)) continue;
    if (p.startsWith("/") || p.startsWith("~") || p.includes("..") || p.includes("://")) continue;
    if (/[*{}<>[\]$]/.test(p)) continue;
    // A few paths say whether a task is a phantom; a line of 10^5 spans is not read on.
    if (task.paths.length >= MAX_PATHS) return;
    if (task.paths.some((x) => x.id === p)) continue;
    const location: Location = locate(kd.doc, index, (m.index ?? 0) + 2);
    task.paths.push({ id: p, location } satisfies SpecReference);
  }
}
