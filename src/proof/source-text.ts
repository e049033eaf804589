/**
 * A cheap, line-preserving reading of source code for the tamper checks: comments
 * blanked (a test commented out is a test removed; a marker in a comment is no
 * marker), and optionally string contents blanked (`"it.skip"` inside a test name
 * is no marker). Blanked characters become spaces, newlines stay, so every offset
 * keeps its line. No full parser per language: a regex literal or a nested
 * template expression can confuse it, which is why the seed's "read the test-file
 * diff" checks built on it err towards a finding (a person can approve it), never
 * towards silence about a removed test.
 */
export type SourceLanguage = "js" | "python" | "go" | "rust" | "jvm" | "other";

const EXTENSIONS: Record<string, SourceLanguage> = {
  js: "js",
  jsx: "js",
  mjs: "js",
  cjs: "js",
  ts: "js",
  tsx: "js",
  mts: "js",
  cts: "js",
  vue: "js",
  svelte: "js",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  java: "jvm",
  kt: "jvm",
  kts: "jvm",
  scala: "jvm",
  groovy: "jvm",
};

export function languageOf(path: string): SourceLanguage {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  return EXTENSIONS[ext] ?? "other";
}

export interface SourceViews {
  /** Comments blanked, strings kept: test names, environment reads by name. */
  noComments: string;
  /** Comments and string contents blanked (quotes kept): markers, assertions. */
  code: string;
}

function blank(ch: string): string {
  return ch === "\n" ? "\n" : " ";
}

/** Both views of `text` in one linear pass. `other` languages are read as they are. */
export function sourceViews(text: string, language: SourceLanguage): SourceViews {
  if (language === "other") return { noComments: text, code: text };
  const lineComment = language === "python" ? "#" : "//";
  const blockComments = language !== "python";
  // Rust's `'` starts lifetimes as often as chars; Go's and Rust's backticks differ
  // from JS's. Only the delimiters that are cheap to read right are strings here.
  const quotes = language === "rust" ? ['"'] : language === "python" ? ['"', "'"] : ['"', "'", "`"];
  let noComments = "";
  let code = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    if (text.startsWith(lineComment, i)) {
      while (i < n && text[i] !== "\n") {
        noComments += " ";
        code += " ";
        i++;
      }
      continue;
    }
    if (blockComments && text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      for (; i < stop; i++) {
        const b = blank(text[i] as string);
        noComments += b;
        code += b;
      }
      continue;
    }
    if (quotes.includes(ch)) {
      const triple = language === "python" && text.startsWith(ch.repeat(3), i);
      const delim = triple ? ch.repeat(3) : ch;
      // A Go or JS backtick string, and a Python triple-quoted one, may span lines.
      const multiline = triple || ch === "`";
      noComments += delim;
      code += delim;
      i += delim.length;
      while (i < n) {
        const c = text[i] as string;
        // Go's raw (backtick) strings have no escapes.
        if (c === "\\" && !(language === "go" && ch === "`")) {
          const next = text[i + 1] ?? "";
          noComments += c + next;
          code += next ? ` ${blank(next)}` : " ";
          i += next ? 2 : 1;
          continue;
        }
        if (text.startsWith(delim, i)) break;
        if (c === "\n" && !multiline) break;
        noComments += c;
        code += blank(c);
        i++;
      }
      if (text.startsWith(delim, i)) {
        noComments += delim;
        code += delim;
        i += delim.length;
      }
      continue;
    }
    noComments += ch;
    code += ch;
    i++;
  }
  return { noComments, code };
}

/** 1-based line of each offset, by a table of line starts. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
