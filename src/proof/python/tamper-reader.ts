import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileChange } from "../../sides/diff-files.js";
import { languageOf } from "../source-text.js";
import type { TreeReader } from "../tamper-tree.js";
import { pythonTreeSignals } from "./tamper.js";
import { type PyParse, parsePython } from "./tree.js";

/**
 * The tamper hook's Python reader (src/proof/tamper-tree.ts) for one pull
 * request. The hook's readers are pure and synchronous, python3's parser is
 * a process: so every Python text of the diff (both sides) is parsed here
 * first, in one python3 run, and the reader looks each text up. The texts
 * are written to a private temporary directory only to be parsed (`ast.parse`
 * runs nothing) and removed after. With no python3 on the PATH the reader
 * reads nothing and Python files keep the spelling tables alone, as before
 * there was a reader: the mapped pytest tests could not run there either.
 */
export async function pythonTreeReader(
  changes: readonly FileChange[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<TreeReader> {
  const texts = new Set<string>();
  for (const c of changes) {
    if (c.basePath !== undefined && c.base !== undefined && isPython(c.basePath)) texts.add(c.base);
    if (c.headPath !== undefined && c.head !== undefined && isPython(c.headPath)) texts.add(c.head);
  }
  const parsed = new Map<string, PyParse | undefined>();
  if (texts.size > 0) {
    const dir = mkdtempSync(join(tmpdir(), "cg-py-tamper-"));
    try {
      const files = [...texts].map((text, k) => {
        const path = join(dir, `f${k}.py`);
        writeFileSync(path, text);
        return { path, text };
      });
      const read = await parsePython(
        files.map((f) => f.path),
        env,
        signal,
      );
      for (const f of files) parsed.set(f.text, read.get(f.path));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return (path, text, role) => {
    if (!isPython(path)) return undefined;
    const r = parsed.get(text);
    if (r === undefined) return undefined;
    if ("tree" in r)
      return { parsed: true, signals: pythonTreeSignals(r.tree, role), spellMarkers: true };
    return { parsed: false, line: r.line, error: r.error };
  };
}

const isPython = (path: string) => languageOf(path) === "python";
