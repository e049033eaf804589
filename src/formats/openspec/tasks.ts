import type { OpenspecTask, Problem, SpecReference } from "../../model/contract.js";
import { REMOVES, scanPaths } from "../markdown/named-paths.js";
import { push } from "./delta.js";
import { at, readOpenspecDoc, shown } from "./read.js";

/**
 * A change's `tasks.md` (OpenSpec's template: `## 1. <group>` then
 * `- [ ] 1.1 <task>`; `src/utils/task-progress.ts` counts `- [ ]`/`- [x]`
 * lines anywhere). A task numbered for another group, or a number used
 * twice, is an error (OpenSpec 1.10 warns). `[-]` and `[~]` are no tasks to
 * OpenSpec, nor to the gate. Pure.
 */
const CHECKBOX = /^[ \t]*[-*][ \t]*\[([ xX])\][ \t]*(.*)$/s;
const GROUP = /^##[ \t]+(\d+)\./;
const H2 = /^##[ \t]/;
const ID = /^(?:\*\*)?(\d+(?:\.\d+)+)[A-Za-z]*\b/;
const WRAPPED = /^[ \t]+\S/;
const NEXT_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]/;

export function parseTasks(
  path: string,
  bytes: Uint8Array,
): { tasks: OpenspecTask[]; problems: Problem[] } {
  const read = readOpenspecDoc(path, bytes);
  if (!("doc" in read)) return { tasks: [], problems: [read] };
  const { doc } = read;
  const tasks: OpenspecTask[] = [];
  const seen = new Map<string, number>();
  let group: string | undefined;
  for (let i = 0; i < doc.lines.length; i++) {
    const line = shown(doc, i);
    if (line === undefined) continue;
    if (H2.test(line)) {
      group = GROUP.exec(line)?.[1];
      continue;
    }
    const m = CHECKBOX.exec(line);
    if (!m) continue;
    let text = m[2]!.trim();
    const id = ID.exec(text)?.[1];
    const location = at(doc, i, line.length - m[2]!.length + 1);
    const paths: SpecReference[] = [];
    let index = i;
    const name = (p: string, column: number) => {
      if (!paths.some((q) => q.id === p)) paths.push({ id: p, location: at(doc, index, column) });
    };
    scanPaths(line, name, line.length - m[2]!.length);
    for (let k = i + 1; k < doc.lines.length; k++) {
      const next = shown(doc, k);
      if (next === undefined || !WRAPPED.test(next) || NEXT_ITEM.test(next)) break;
      text += ` ${next.trim()}`;
      index = k;
      scanPaths(next, name);
    }
    if (id !== undefined) {
      const first = seen.get(id);
      if (first !== undefined) {
        push(
          read,
          "openspec-task",
          location,
          `task ${id} is numbered again (first on line ${first + 1})`,
          "give each task its own number within its group",
        );
      } else seen.set(id, i);
      const lead = id.slice(0, id.indexOf("."));
      if (group !== undefined && lead !== group) {
        push(
          read,
          "openspec-task",
          location,
          `task ${id} is under group ${group}, but its number says group ${lead}`,
          `number it ${group}.<n>, or move it under \`## ${lead}. …\``,
        );
      }
    }
    tasks.push({
      ...(id !== undefined && { id }),
      done: m[1] !== " ",
      text,
      paths,
      removes: REMOVES.test(text),
      location,
    });
  }
  return { tasks, problems: read.problems.list() };
}
