import type { SourceLanguage } from "./source-text.js";
import { readJsTree } from "./tamper-js-tree.js";

/**
 * The hook each language's syntax-tree tamper reader plugs into. A reader is
 * pure: a file's path, text and role in, what the tree shows out. The
 * comparison of base and head (what is new) is the caller's (tamper.ts), so a
 * reader only says what one version holds. A file a reader does not parse
 * falls back to the spelling tables, and the caller says so at file:line.
 */
export type TreeSignalCode =
  | "test-marker-added"
  | "test-assertion-unreachable"
  | "assertion-library-patched"
  | "runner-output-reached"
  | "test-process-exit";

export interface TreeSignal {
  code: TreeSignalCode;
  /** The marker table's row id for markers; the rule's id otherwise. */
  id: string;
  line: number;
  /** What was found, one line, for the finding's message. */
  what: string;
  /**
   * The test's (or suite's) name when the signal belongs to one test: such
   * signals are compared across the whole PR by name, so a test moved to another
   * file keeps what it had at base. File signals are compared per file by `id`.
   */
  test?: string;
}

export type TreeReading =
  | {
      parsed: true;
      signals: TreeSignal[];
      /**
       * The reader does not read skip/only markers (Python's: the spelling
       * tables' rows already name pytest's and unittest's markers), so the
       * spelling tables still read them; otherwise the tree's reading replaces theirs.
       */
      spellMarkers?: boolean;
    }
  | { parsed: false; line: number; error: string };

/** `test`: the file matches the test-file globs; `source`: any other changed file. */
export type TreeRole = "test" | "source";

/** Undefined when the reader does not read files like this one (its extension). */
export type TreeReader = (path: string, text: string, role: TreeRole) => TreeReading | undefined;

/**
 * One reader per language with one; languages without a reader keep the
 * spelling tables alone. Python's reader needs python3's own parser, a
 * process, so it is not here: the caller parses the PR's Python files first
 * and adds it (src/proof/python/tamper-reader.ts, `pythonTreeReader`).
 */
export const TREE_READERS: Partial<Record<SourceLanguage, TreeReader>> = {
  js: readJsTree,
};
