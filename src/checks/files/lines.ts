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
 * With `literals` (strings one of which every match of `single` contains,
 * from `requiredLiterals`) candidates are found with `indexOf` instead,
 * which is much faster than a regex whose match can start anywhere, and
 * `whole` is not used; a pattern with lookarounds may pass them too. Each
 * literal is searched for by the (up to) six characters from its `keyAt`
 * (at most its length - 2), then checked whole: string search is fastest
 * when the first character it looks for is rare in the text, so the caller
 * starts each key at the literal's rarest character.
 */
export function matchingLines(
  text: string,
  single: RegExp,
  whole: RegExp | undefined,
  max: number,
  literals?: readonly string[],
  keyAt: readonly number[] = [],
): number[] {
  const found: number[] = [];
  if (text.length === 0 || max <= 0) return found;
  let lineNo = 1;
  let start = 0;
  let lf = text.indexOf("\n");
  const lineText = () => {
    const end = lf === -1 ? text.length : lf;
    return end > start && text.charCodeAt(end - 1) === 13
      ? text.slice(start, end - 1)
      : text.slice(start, end);
  };
  const advance = () => {
    lineNo++;
    start = lf + 1;
    lf = text.indexOf("\n", start);
  };

  if (literals !== undefined && literals.length > 0) {
    // Every matching line holds one of `literals` (see requiredLiterals), so
    // only lines where one is found are tested: a file without any costs a
    // string search per literal, and no regex runs at all. A literal holds
    // no LF, so each occurrence lies within one line.
    const keys = literals.map((l, i) => l.slice(keyAt[i] ?? 0, (keyAt[i] ?? 0) + 6));
    /** Where the next occurrence of literal `i` at or after `from` starts, or -1. */
    const find = (i: number, from: number): number => {
      const literal = literals[i]!;
      const key = keys[i]!;
      const k = keyAt[i] ?? 0;
      let at = text.indexOf(key, from + k);
      if (key.length === literal.length) return at;
      while (at !== -1 && !text.startsWith(literal, at - k)) at = text.indexOf(key, at + 1);
      return at === -1 ? -1 : at - k;
    };
    const next = literals.map((_, i) => find(i, 0));
    for (;;) {
      let at = -1;
      for (const n of next) if (n !== -1 && (at === -1 || n < at)) at = n;
      if (at === -1) return found;
      while (lf !== -1 && lf < at) advance();
      if (single.test(lineText())) {
        found.push(lineNo);
        if (found.length >= max) return found;
      }
      if (lf === -1 || lf + 1 >= text.length) return found;
      advance();
      for (let i = 0; i < next.length; i++) {
        if (next[i] !== -1 && next[i]! < start) next[i] = find(i, start);
      }
    }
  }

  if (whole === undefined) {
    for (;;) {
      if (single.test(lineText())) {
        found.push(lineNo);
        if (found.length >= max) return found;
      }
      if (lf === -1 || lf + 1 >= text.length) return found;
      advance();
    }
  }

  whole.lastIndex = 0;
  while (found.length < max) {
    const candidate = whole.exec(text);
    if (candidate === null) return found;
    // Walk the cursor to the line holding the candidate; an empty match
    // exactly at an LF belongs to the line that LF ends.
    while (lf !== -1 && lf < candidate.index) advance();
    // A match at the very end of a text ending in LF is past the last line.
    if (start >= text.length) return found;
    if (single.test(lineText())) found.push(lineNo);
    if (lf === -1 || lf + 1 >= text.length) return found;
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
 * Strings of which every match of `source` (compiled without flags) contains
 * at least one, when that can be proven: `["fetch("]` for `fetch\\(`,
 * `["password", "secret"]` for `(password|secret)=`. From a sequence, the
 * best of its runs of plain characters (not made optional by a quantifier)
 * and of its groups whose every alternative has such strings; from an
 * alternation, one set per alternative, joined. Anything not understood
 * ends a run, and escapes whose length depends on context (`\\1`, `\\x..`,
 * `\\u....`, `\\c.`, `\\k<..>`) give up on the sequence holding them, so the
 * answer is conservative: `undefined` only costs speed.
 */
export function requiredLiterals(source: string): string[] | undefined {
  const MAX_ALTERNATIVES = 16;

  /** Index just past the `]` closing the class at `i`, or -1. */
  const classEnd = (text: string, i: number): number => {
    let j = i + 1;
    while (j < text.length && text[j] !== "]") j += text[j] === "\\" ? 2 : 1;
    return j < text.length ? j + 1 : -1;
  };

  /** Index of the `)` closing the group at `i`, or -1. */
  const groupEnd = (text: string, i: number): number => {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const c = text[j];
      if (c === "\\") j += 2;
      else if (c === "[") {
        j = classEnd(text, j);
        if (j === -1) return -1;
      } else {
        if (c === "(") depth++;
        else if (c === ")" && --depth === 0) return j;
        j++;
      }
    }
    return -1;
  };

  /** The strings `body` (a sequence or an alternation) requires one of. */
  const alternation = (body: string, depth: number): string[] | undefined => {
    if (depth > 8) return undefined;
    const branches: string[] = [];
    let from = 0;
    let i = 0;
    while (i < body.length) {
      const c = body[i];
      if (c === "\\") i += 2;
      else if (c === "[" || c === "(") {
        const end = c === "[" ? classEnd(body, i) : groupEnd(body, i) + 1;
        if (end <= 0) return undefined;
        i = end;
      } else {
        if (c === "|") {
          branches.push(body.slice(from, i));
          from = i + 1;
        }
        i++;
      }
    }
    branches.push(body.slice(from));
    const all: string[] = [];
    for (const branch of branches) {
      const set = sequence(branch, depth);
      if (set === undefined) return undefined;
      all.push(...set);
    }
    return all.length <= MAX_ALTERNATIVES ? all : undefined;
  };

  /** The best set of strings one of which every match of `seq` (no top-level `|`) contains. */
  const sequence = (seq: string, depth: number): string[] | undefined => {
    // One entry per atom: a character it matches exactly, a set of strings
    // (a group) it contains one of, or null.
    const atoms: (string | string[] | null)[] = [];
    let i = 0;
    while (i < seq.length) {
      const c = seq[i]!;
      if (c === "\\") {
        const e = seq[i + 1];
        if (e === undefined) return undefined;
        if (/[dDwWsSbBnrtfv]/.test(e)) atoms.push(null);
        else if (/[A-Za-z0-9]/.test(e)) return undefined;
        else atoms.push(e);
        i += 2;
      } else if (c === "[") {
        i = classEnd(seq, i);
        if (i === -1) return undefined;
        atoms.push(null);
      } else if (c === "(") {
        const end = groupEnd(seq, i);
        if (end === -1) return undefined;
        const inner = seq.slice(i + 1, end);
        // Capturing, non-capturing and named groups only: not lookarounds or
        // modifiers such as `(?i:…)`.
        const body = !inner.startsWith("?")
          ? inner
          : inner.startsWith("?:")
            ? inner.slice(2)
            : /^\?<[A-Za-z_$]/.test(inner)
              ? inner.slice(inner.indexOf(">") + 1)
              : undefined;
        atoms.push(body === undefined ? null : (alternation(body, depth + 1) ?? null));
        i = end + 1;
      } else if (c === "*" || c === "+" || c === "?" || c === "{") {
        const quantifier = /\{\d+(,\d*)?\}/y;
        quantifier.lastIndex = i;
        const bounds = c === "{" ? quantifier.exec(seq) : null;
        if (c === "{" && bounds === null) {
          // Not a quantifier: a literal `{` in this syntax; taken as unknown.
          atoms.push(null);
          i++;
          continue;
        }
        if (atoms.length === 0) return undefined;
        // `+` and `{n,…}` with n ≥ 1 keep one copy of the atom but end the
        // run; `*`, `?` and `{0…}` make it optional.
        const atLeastOnce = c === "+" || (bounds !== null && !/^\{0+[,}]/.test(bounds[0]));
        if (atLeastOnce) atoms.push(null);
        else atoms[atoms.length - 1] = null;
        i += bounds ? bounds[0].length : 1;
        if (seq[i] === "?") i++;
      } else if (c === ")" || c === "|") {
        return undefined;
      } else {
        atoms.push(c === "." || c === "^" || c === "$" || c === "]" || c === "}" ? null : c);
        i++;
      }
    }
    // Runs of characters, and groups, are candidates; the best has the
    // longest shortest string, then the fewest strings.
    let best: string[] | undefined;
    const consider = (set: string[]) => {
      const shortest = Math.min(...set.map((x) => x.length));
      if (shortest < 2) return;
      const bestShortest = best === undefined ? 0 : Math.min(...best.map((x) => x.length));
      if (
        best === undefined ||
        shortest > bestShortest ||
        (shortest === bestShortest && set.length < best.length)
      ) {
        best = set;
      }
    };
    let run = "";
    for (const atom of [...atoms, null]) {
      if (typeof atom === "string" && atom !== "\n" && atom !== "\r") {
        run += atom;
        continue;
      }
      if (run.length > 0) consider([run]);
      run = "";
      if (Array.isArray(atom)) consider(atom);
    }
    return best;
  };

  const set = alternation(source, 0);
  return set?.every((x) => x.length >= 2 && !/[\n\r]/.test(x)) ? set : undefined;
}
