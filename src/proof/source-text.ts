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

function blank(segment: string): string {
  return segment.replace(/[^\n]/g, " ");
}

// The characters that can start a comment or a string, per language.
const OPENERS: Record<Exclude<SourceLanguage, "other">, RegExp> = {
  js: /\/\/|\/\*|["'`]/g,
  go: /\/\/|\/\*|["'`]/g,
  jvm: /\/\/|\/\*|["'`]/g,
  // Rust's `'` starts lifetimes as often as chars: only `"` strings are read.
  rust: /\/\/|\/\*|"/g,
  python: /#|"""|'''|["']/g,
};

/**
 * Both views of `text` in one linear pass (whole runs of code are copied, not
 * characters). `other` languages are read as they are.
 */
export function sourceViews(text: string, language: SourceLanguage): SourceViews {
  if (language === "other") return { noComments: text, code: text };
  const openers = new RegExp(OPENERS[language].source, "g");
  const noComments: string[] = [];
  const code: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    openers.lastIndex = i;
    const m = openers.exec(text);
    if (!m) break;
    const run = text.slice(i, m.index);
    noComments.push(run);
    code.push(run);
    const token = m[0];
    i = m.index;
    if (token === "//" || token === "#") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      const b = blank(text.slice(i, stop));
      noComments.push(b);
      code.push(b);
      i = stop;
      continue;
    }
    if (token === "/*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      const b = blank(text.slice(i, stop));
      noComments.push(b);
      code.push(b);
      i = stop;
      continue;
    }
    // A string: a Go or JS backtick string and a Python triple-quoted one may span lines;
    // Go's raw (backtick) strings have no escapes.
    const multiline = token.length === 3 || token === "`";
    const escapes = !(language === "go" && token === "`");
    let j = i + token.length;
    while (j < n) {
      const c = text[j];
      if (escapes && c === "\\") {
        j += 2;
        continue;
      }
      if (text.startsWith(token, j)) break;
      if (c === "\n" && !multiline) break;
      j++;
    }
    const close = j < n && text.startsWith(token, j) ? token.length : 0;
    const stop = Math.min(n, j + close);
    const inner = text.slice(i + token.length, Math.min(n, j));
    noComments.push(text.slice(i, stop));
    code.push(token + blank(inner) + text.slice(Math.min(n, j), stop));
    i = stop;
  }
  if (i < n) {
    noComments.push(text.slice(i));
    code.push(text.slice(i));
  }
  return { noComments: noComments.join(""), code: code.join("") };
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
