/**
 * Line arithmetic shared by the file worker and its tests.
 *
 * These functions are shipped to the worker as source text (`fn.toString()`,
 * see worker-source.ts), so each must stay self-contained: no imports, no
 * references to anything outside its own body, no calls to each other.
 *
 * A line is the text between LF characters, without a trailing CR (so CRLF
 * files read like LF files); a final LF ends the last line rather than
 * starting an empty one, and an empty file has no lines, as with `grep`.
 */

/**
 * The 1-based numbers of the lines `single` matches, at most `max` of them.
 *
 * With `whole` (the same pattern compiled with `gm`) the text is searched in
 * one pass and only lines holding a candidate are tested on their own, which
 * is what makes a grep over a large tree cheap. After each candidate the
 * search resumes at the next line, never at the end of the candidate, so a
 * match that ran across lines cannot hide one starting later. Without
 * lookarounds a line match is always also a match of `whole` at the same
 * place, so the candidates cover every matching line; patterns with
 * lookarounds can see past a line end and must pass `whole` undefined.
 *
 * With `literal` (a string every match of `single` contains, from
 * `requiredLiteral`) candidates are found with `indexOf` instead, which is
 * much faster than a regex whose match can start anywhere, and `whole` is
 * not used; a pattern with lookarounds may pass one too.
 */
export function matchingLines(
  text: string,
  single: RegExp,
  whole: RegExp | undefined,
  max: number,
  literal?: string,
): number[] {
  const found: number[] = [];
  if (text.length === 0 || max <= 0) return found;
  let lineNo = 1;
  let start = 0;
  let next = text.indexOf("\n");
  const lineText = () => {
    const end = next === -1 ? text.length : next;
    return end > start && text.charCodeAt(end - 1) === 13
      ? text.slice(start, end - 1)
      : text.slice(start, end);
  };
  const advance = () => {
    lineNo++;
    start = next + 1;
    next = text.indexOf("\n", start);
  };

  if (literal) {
    // Every matching line holds `literal` (see requiredLiteral), so only the
    // lines where indexOf finds it are tested: a file without it costs one
    // string search, and no regex runs at all.
    let at = text.indexOf(literal);
    while (at !== -1) {
      while (next !== -1 && next < at) advance();
      if (single.test(lineText())) {
        found.push(lineNo);
        if (found.length >= max) return found;
      }
      if (next === -1 || next + 1 >= text.length) return found;
      advance();
      at = text.indexOf(literal, start);
    }
    return found;
  }

  if (whole === undefined) {
    for (;;) {
      if (single.test(lineText())) {
        found.push(lineNo);
        if (found.length >= max) return found;
      }
      if (next === -1 || next + 1 >= text.length) return found;
      advance();
    }
  }

  whole.lastIndex = 0;
  while (found.length < max) {
    const candidate = whole.exec(text);
    if (candidate === null) return found;
    // Walk the cursor to the line holding the candidate; an empty match
    // exactly at an LF belongs to the line that LF ends.
    while (next !== -1 && next < candidate.index) advance();
    // A match at the very end of a text ending in LF is past the last line.
    if (start >= text.length) return found;
    if (single.test(lineText())) found.push(lineNo);
    if (next === -1 || next + 1 >= text.length) return found;
    advance();
    whole.lastIndex = start;
  }
  return found;
}

/** How many lines `text` has, and line `n` (1-based) when it exists. */
export function lineAt(text: string, n: number): { lineCount: number; text?: string } {
  let lineCount = 0;
  let found: string | undefined;
  let start = 0;
  while (start < text.length) {
    const lf = text.indexOf("\n", start);
    const end = lf === -1 ? text.length : lf;
    lineCount++;
    if (lineCount === n) {
      const cr = end > start && text.charCodeAt(end - 1) === 13;
      found = text.slice(start, cr ? end - 1 : end);
    }
    if (lf === -1) break;
    start = lf + 1;
  }
  return found === undefined ? { lineCount } : { lineCount, text: found };
}

/**
 * True when a pattern has a lookahead or lookbehind, which can look past the
 * end of a line and so defeat the whole-text fast path of `matchingLines`.
 * A false positive (say `\(?=` as literal text) only costs speed.
 */
export function hasLookaround(source: string): boolean {
  return /\(\?<?[=!]/.test(source);
}

/**
 * A string that every match of `source` (compiled without flags) contains,
 * when one can be proven: the longest run of plain characters at the top
 * level of the pattern (no top-level `|`), not made optional or repeated by
 * a quantifier. Anything not understood ends a run, and escapes whose length
 * depends on context (`\1`, `\x..`, `\u....`, `\c.`, `\k<..>`) give up on the
 * pattern, so the answer is conservative: `undefined` only costs speed.
 */
export function requiredLiteral(source: string): string | undefined {
  // One entry per atom: its character when it matches exactly that, else null.
  const atoms: (string | null)[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === "\\") {
      const e = source[i + 1];
      if (e === undefined) return undefined;
      if (/[dDwWsSbBnrtfv]/.test(e)) atoms.push(null);
      else if (/[A-Za-z0-9]/.test(e)) return undefined;
      else atoms.push(e);
      i += 2;
    } else if (c === "[") {
      i++;
      while (i < n && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      if (i >= n) return undefined;
      atoms.push(null);
      i++;
    } else if (c === "(") {
      let depth = 0;
      while (i < n) {
        const g = source[i]!;
        if (g === "\\") {
          i += 2;
          continue;
        }
        if (g === "[") {
          i++;
          while (i < n && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
        } else if (g === "(") depth++;
        else if (g === ")" && --depth === 0) break;
        i++;
      }
      if (i >= n) return undefined;
      atoms.push(null);
      i++;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const quantifier = /\{\d+(,\d*)?\}/y;
      quantifier.lastIndex = i;
      const bounds = c === "{" ? quantifier.exec(source) : null;
      if (c === "{" && bounds === null) {
        // Not a quantifier: a literal `{` in this syntax; taken as unknown.
        atoms.push(null);
        i++;
        continue;
      }
      if (atoms.length === 0) return undefined;
      // `+` and `{n,…}` with n ≥ 1 keep one copy of the atom but end the run;
      // `*`, `?` and `{0…}` make it optional.
      const atLeastOnce = c === "+" || (bounds !== null && !/^\{0+[,}]/.test(bounds[0]));
      if (atLeastOnce) atoms.push(null);
      else atoms[atoms.length - 1] = null;
      i += bounds ? bounds[0].length : 1;
      if (source[i] === "?") i++;
    } else if (c === "|" || c === ")") {
      return undefined;
    } else {
      atoms.push(c === "." || c === "^" || c === "$" || c === "]" || c === "}" ? null : c);
      i++;
    }
  }
  let best = "";
  let run = "";
  for (const atom of [...atoms, null]) {
    if (atom !== null && atom !== "\n" && atom !== "\r") {
      run += atom;
      continue;
    }
    if (run.length > best.length) best = run;
    run = "";
  }
  return best.length >= 2 ? best : undefined;
}
