import type { FileChange } from "../sides/diff-files.js";
import { languageOf, lineIndex, type SourceLanguage, sourceViews } from "./source-text.js";
import { type TamperFinding, tamperFinding } from "./tamper-codes.js";
import { configFindings } from "./tamper-config.js";
import {
  ASSERTION_ROWS,
  ENVIRONMENT_ROWS,
  MARKER_ROWS,
  occurrences,
  type PatternRow,
} from "./tamper-tables.js";
import { TREE_READERS, type TreeReader } from "./tamper-tree.js";
import { compareTree, type TestSignals, treeReadings } from "./tamper-tree-compare.js";
import { DEFAULT_TEST_FILE_GLOBS, isTestFile } from "./test-files.js";
import { declaredTests } from "./test-names.js";

export type { FileChange } from "../sides/diff-files.js";
export type { TamperCode, TamperFinding } from "./tamper-codes.js";
export { TAMPER_CODES } from "./tamper-codes.js";
export type { TreeReader } from "./tamper-tree.js";

export interface TamperOptions {
  /** The `test-files` globs; the documented defaults when absent. */
  testFiles?: readonly string[];
  /**
   * The syntax-tree reader per language (tamper-tree.ts); the languages'
   * own when absent. `{}` reads every file by spelling alone (the tests'
   * control: what the spelling tables miss).
   */
  treeReaders?: Partial<Record<SourceLanguage, TreeReader>>;
}

/**
 * What the seed's evaluator calls tampering (004, step D), read from the diff
 * alone, with no test run: deleted or renamed-away test files, removed tests,
 * new skip/only/todo markers, fewer assertions (a warning), and non-test
 * source that newly recognizes a test environment. Files of a language with a
 * syntax-tree reader (tamper-tree.ts) are read from their tree for markers,
 * tests that cannot reach an assertion, and code that patches the harness or
 * reaches the runner's output; a file the reader cannot parse is read by
 * spelling and found as `file-unparsed`. Pure; findings sorted by file, line
 * and code.
 */
export function tamperFindings(
  changes: readonly FileChange[],
  options: TamperOptions = {},
): TamperFinding[] {
  const globs = options.testFiles ?? DEFAULT_TEST_FILE_GLOBS;
  const readers = options.treeReaders ?? TREE_READERS;
  const out: TamperFinding[] = [];
  const moves: Moves = { removed: [], added: new Map() };
  const tests: TestSignals = { base: new Map(), head: [] };
  for (const change of changes) {
    const baseIsTest = change.basePath !== undefined && isTestFile(change.basePath, globs);
    const headIsTest = change.headPath !== undefined && isTestFile(change.headPath, globs);
    if (baseIsTest || headIsTest)
      testFileFindings(change, baseIsTest, headIsTest, out, moves, readers, tests);
    if (change.headPath !== undefined && !headIsTest && change.head !== undefined) {
      // The base side counts only if it was non-test source too: a test file renamed
      // into source keeps no right to sniff (its base occurrences were in a test).
      const base = change.basePath !== undefined && !baseIsTest ? change.base : undefined;
      environmentFindings(change.headPath, base, change.head, out);
      const tree = treeReadings(readers, change.headPath, base, change.head, "source");
      if (tree) out.push(...compareTree(tree, change.headPath, change.head, tests));
    }
    if (change.headPath !== undefined && change.head !== undefined) {
      out.push(
        ...configFindings(
          change.headPath,
          change.basePath !== undefined ? change.base : undefined,
          change.head,
        ),
      );
    }
  }
  // A test gone from one file and new in another changed test file was moved, not
  // removed (splitting a test file is ordinary work); the names are matched as a
  // multiset across the PR, so one copy moved covers one removal.
  for (const r of moves.removed) {
    const n = moves.added.get(r.name) ?? 0;
    if (n > 0) moves.added.set(r.name, n - 1);
    else out.push(r.finding);
  }
  // A test's own signals (no assertion, an early return) are new only if no test of
  // that name had them at base, in any file: a test moved between files keeps its own.
  for (const h of tests.head) {
    const n = tests.base.get(h.key) ?? 0;
    if (n > 0) tests.base.set(h.key, n - 1);
    else out.push(h.finding);
  }
  return out.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      (a.code < b.code ? -1 : 1),
  );
}

/** Removed tests, held back until every file's added tests are known (moves between files). */
interface Moves {
  removed: { name: string; finding: TamperFinding }[];
  added: Map<string, number>;
}

function testFileFindings(
  change: FileChange,
  baseIsTest: boolean,
  headIsTest: boolean,
  out: TamperFinding[],
  moves: Moves,
  readers: Partial<Record<SourceLanguage, TreeReader>>,
  tests: TestSignals,
): void {
  const { basePath, headPath } = change;
  if (baseIsTest && basePath !== undefined && change.base === undefined) {
    out.push(
      tamperFinding(
        "test-file-unreadable",
        basePath,
        1,
        `${basePath}: the base version could not be read`,
      ),
    );
    return;
  }
  if (headIsTest && headPath !== undefined && change.head === undefined) {
    out.push(
      tamperFinding(
        "test-file-unreadable",
        headPath,
        1,
        `${headPath}: the head version could not be read`,
      ),
    );
    return;
  }
  if (baseIsTest && basePath !== undefined && headPath === undefined) {
    const n = declaredTests(
      viewsOf(basePath, change.base ?? "").noComments,
      languageOf(basePath),
    ).length;
    out.push(
      tamperFinding(
        "test-file-deleted",
        basePath,
        1,
        `test file ${basePath} deleted${n > 0 ? ` (${plural(n, "test")})` : ""}`,
      ),
    );
    return;
  }
  if (baseIsTest && basePath !== undefined && headPath !== undefined && !headIsTest) {
    out.push(
      tamperFinding(
        "test-file-renamed-away",
        basePath,
        1,
        `test file ${basePath} renamed to ${headPath}, which the test-file globs do not match: its tests no longer count as tests`,
      ),
    );
    return;
  }
  if (headPath === undefined || change.head === undefined) return;
  const headLang = languageOf(headPath);
  const head = viewsOf(headPath, change.head);
  // An added test file, or one renamed from non-test source, has no base tests to lose.
  const base =
    baseIsTest && basePath !== undefined ? viewsOf(basePath, change.base ?? "") : undefined;
  // An added test file (or one renamed from source) removes nothing, but its tests can
  // be the new home of tests moved out of another file.
  removedTests(
    baseIsTest ? basePath : undefined,
    headPath,
    base ? base.noComments : "",
    basePath === undefined ? headLang : languageOf(basePath),
    head.noComments,
    headLang,
    moves,
  );
  const tree = treeReadings(
    readers,
    headPath,
    base ? change.base : undefined,
    change.head,
    "test",
    base ? basePath : undefined,
  );
  if (tree) out.push(...compareTree(tree, headPath, change.head, tests));
  for (const row of MARKER_ROWS) {
    if (!row.languages.includes(headLang)) continue;
    // The tree's reading of markers replaces the spelling's, where the file parsed
    // and the reader reads markers.
    if (tree?.parsed && !tree.spellMarkers) continue;
    newOccurrences(
      row,
      headPath,
      base?.code ?? "",
      head.code,
      change.head,
      "test-marker-added",
      out,
    );
  }
  if (base && basePath !== undefined) {
    const count = (text: string, lang: SourceLanguage) =>
      ASSERTION_ROWS.filter((r) => r.languages.includes(lang)).reduce(
        (s, r) => s + occurrences(r, text).length,
        0,
      );
    const before = count(base.code, languageOf(basePath));
    const after = count(head.code, headLang);
    if (after < before) {
      out.push(
        tamperFinding(
          "assertions-fewer",
          headPath,
          1,
          `${headPath} has ${plural(after, "assertion")}, ${before} at base: check that none was removed or loosened`,
        ),
      );
    }
  }
}

function removedTests(
  basePath: string | undefined,
  headPath: string,
  base: string,
  baseLang: SourceLanguage,
  head: string,
  headLang: SourceLanguage,
  moves: Moves,
): void {
  // A multiset by name: two tests of one name at base and one at head is one removed.
  const left = new Map<string, number>();
  for (const t of declaredTests(head, headLang)) left.set(t.name, (left.get(t.name) ?? 0) + 1);
  if (basePath !== undefined) {
    for (const t of declaredTests(base, baseLang)) {
      const n = left.get(t.name) ?? 0;
      if (n > 0) {
        left.set(t.name, n - 1);
        continue;
      }
      const where = headPath === basePath ? basePath : `${headPath} (was ${basePath})`;
      const message = `test "${t.name}" (line ${t.line} at base) is gone from ${where}`;
      moves.removed.push({
        name: t.name,
        finding: tamperFinding("test-removed", basePath, t.line, message),
      });
    }
  }
  for (const [name, n] of left) if (n > 0) moves.added.set(name, (moves.added.get(name) ?? 0) + n);
}

function newOccurrences(
  row: PatternRow,
  headPath: string,
  baseView: string,
  headView: string,
  headText: string,
  code: "test-marker-added" | "test-environment-branch",
  out: TamperFinding[],
): void {
  const before = occurrences(row, baseView);
  const after = occurrences(row, headView);
  if (after.length <= before.length) return;
  // Point at the first occurrence whose line text the base does not have (the new one,
  // when only one was added); otherwise at the last.
  const headLines = headText.split("\n");
  const baseLines = new Set(before.map((o) => lineText(baseView, o)));
  const lineOf = lineIndex(headText);
  const fresh =
    after.find((o) => !baseLines.has(lineText(headView, o))) ?? (after.at(-1) as number);
  const line = lineOf(fresh);
  const shown = (headLines[line - 1] ?? "").trim().slice(0, 120);
  const what = code === "test-marker-added" ? "skip/only/todo marker" : "test-environment check";
  out.push(
    tamperFinding(
      code,
      headPath,
      line,
      `new ${what} (${row.id}: ${after.length} at head, ${before.length} at base): ${shown}`,
    ),
  );
}

function environmentFindings(
  headPath: string,
  base: string | undefined,
  head: string,
  out: TamperFinding[],
): void {
  const lang = languageOf(headPath);
  const headView = viewsOf(headPath, head).noComments;
  const baseView = base === undefined ? "" : viewsOf(headPath, base).noComments;
  for (const row of ENVIRONMENT_ROWS) {
    if (!row.languages.includes(lang)) continue;
    newOccurrences(row, headPath, baseView, headView, head, "test-environment-branch", out);
  }
}

function viewsOf(path: string, text: string) {
  return sourceViews(text, languageOf(path));
}

function lineText(view: string, offset: number): string {
  const start = view.lastIndexOf("\n", offset - 1) + 1;
  const end = view.indexOf("\n", offset);
  return view.slice(start, end < 0 ? view.length : end).trim();
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
