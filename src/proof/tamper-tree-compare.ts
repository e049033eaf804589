import type { SourceLanguage } from "./source-text.js";
import { languageOf } from "./source-text.js";
import { type TamperFinding, tamperFinding } from "./tamper-codes.js";
import type { TreeReader, TreeRole, TreeSignal } from "./tamper-tree.js";

/**
 * Base against head for what the syntax-tree readers find: a file signal is
 * new when the head has more of its kind (code and id) than the base in that
 * file, as the spelling tables count (moving a skip within a file is nothing
 * new); a test's own signal is new when no test of that name had it at base
 * in any file of the PR (the caller settles those once every file is read).
 */

export type TreeComparison =
  | {
      parsed: true;
      base: TreeSignal[];
      head: TreeSignal[];
      baseText: string;
      /** The spelling tables still read this file's markers (tamper-tree.ts). */
      spellMarkers: boolean;
    }
  | { parsed: false; findings: TamperFinding[] };

/** Test signals across the PR: the base's by key, the head's with the finding each would be. */
export interface TestSignals {
  base: Map<string, number>;
  head: { key: string; finding: TamperFinding }[];
}

/**
 * Both versions of a file read by its language's reader, or undefined when no
 * reader reads it. When either version does not parse, the finding says where,
 * and the caller reads the file by spelling instead.
 */
export function treeReadings(
  readers: Partial<Record<SourceLanguage, TreeReader>>,
  headPath: string,
  baseText: string | undefined,
  headText: string,
  role: TreeRole,
  basePath: string = headPath,
): TreeComparison | undefined {
  const reader = readers[languageOf(headPath)];
  if (!reader) return undefined;
  const head = reader(headPath, headText, role);
  if (!head) return undefined;
  const baseReader = readers[languageOf(basePath)];
  const base =
    baseText === undefined || !baseReader
      ? { parsed: true as const, signals: [] }
      : (baseReader(basePath, baseText, role) ?? { parsed: true as const, signals: [] });
  if (!head.parsed)
    return {
      parsed: false,
      findings: [
        tamperFinding(
          "file-unparsed",
          headPath,
          head.line,
          `${headPath}:${head.line} does not parse (${head.error}): read by spelling alone, so markers and tampering only the syntax tree shows were not looked for`,
        ),
      ],
    };
  if (!base.parsed)
    return {
      parsed: false,
      findings: [
        tamperFinding(
          "file-unparsed",
          headPath,
          1,
          `the base version of ${basePath} does not parse (line ${base.line}: ${base.error}): ${headPath} was read by spelling alone`,
        ),
      ],
    };
  return {
    parsed: true,
    base: base.signals,
    head: head.signals,
    baseText: baseText ?? "",
    spellMarkers: head.spellMarkers === true,
  };
}

const kind = (s: TreeSignal) => `${s.code}\u0000${s.id}`;
const testKey = (s: TreeSignal) => `${kind(s)}\u0000${s.test}`;

/** The file's findings; a test's own signals go to `tests` for the caller to settle. */
export function compareTree(
  tree: TreeComparison,
  headPath: string,
  headText: string,
  tests: TestSignals,
): TamperFinding[] {
  if (!tree.parsed) return tree.findings;
  const lines = headText.split("\n");
  const baseLines = tree.baseText.split("\n");
  const shown = (line: number) => (lines[line - 1] ?? "").trim().slice(0, 120);
  const out: TamperFinding[] = [];
  for (const s of tree.base)
    if (s.test !== undefined) tests.base.set(testKey(s), (tests.base.get(testKey(s)) ?? 0) + 1);
  const before = new Map<string, TreeSignal[]>();
  const after = new Map<string, TreeSignal[]>();
  for (const s of tree.base) if (s.test === undefined) push(before, kind(s), s);
  for (const s of tree.head) {
    if (s.test === undefined) push(after, kind(s), s);
    else
      tests.head.push({
        key: testKey(s),
        finding: tamperFinding(s.code, headPath, s.line, `${s.what}: ${shown(s.line)}`),
      });
  }
  for (const [k, head] of after) {
    const base = before.get(k) ?? [];
    if (head.length <= base.length) continue;
    // The first one whose line the base does not have (the new one, when one was added).
    const seen = new Set(base.map((s) => lineOf(baseLines, s.line)));
    const fresh = head.find((s) => !seen.has(lineOf(lines, s.line))) ?? (head.at(-1) as TreeSignal);
    const counts = `${head.length} at head, ${base.length} at base`;
    const message =
      fresh.code === "test-marker-added"
        ? `new skip/only/todo marker (${fresh.id}: ${counts}): ${shown(fresh.line)} (${fresh.what})`
        : `${fresh.what} (${counts}): ${shown(fresh.line)}`;
    out.push(tamperFinding(fresh.code, headPath, fresh.line, message));
  }
  return out;
}

function lineOf(lines: readonly string[], line: number): string {
  return (lines[line - 1] ?? "").trim();
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
