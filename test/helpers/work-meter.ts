/**
 * A deterministic measure of how much text a synchronous function walks,
 * for the "linear work" tests: no clock, so machine load cannot move it.
 *
 * While `measure` runs, the string, regex, array and JSON primitives the
 * parsers are built from are wrapped, and each call adds what it touched:
 * a regex execution or a search, the characters from where it started to
 * where it stopped (the match's end, or the end of the text); a slice, the
 * characters copied; a split or `JSON.parse`, the whole text; a character
 * read, one. The same input always gives the same count, and a parser that
 * walks the text again for each line, problem or match shows it: the count
 * grows with the square of the size.
 *
 * Blind spots (the time ratio of `npm run bench`, bench/parse.ts, covers
 * them): steps a regex takes inside one execution (backtracking) count as the
 * characters it was given (one step for a sticky regex that fails where it
 * is tried), and plain loops over `text[i]` count nothing.
 */

type Method = (this: unknown, ...args: unknown[]) => unknown;

const stringLength = (s: unknown): number => (typeof s === "string" ? s.length : 0);

/** Where a search of `needle` that started at `from` in a text of `length` stopped. */
function searched(found: number, from: number, length: number, needle: number): number {
  return found === -1 ? Math.max(0, length - from) : Math.max(1, found - from + needle);
}

/**
 * The work `run` does, in characters (and array elements) touched.
 * `byPrimitive`, when given, receives the same count split by primitive
 * (`String.slice`, `RegExp.exec`, …): where to look when a ratio is too high.
 */
export function measure(run: () => void, byPrimitive?: Map<string, number>): number {
  let work = 0;
  const restore: (() => void)[] = [];
  /** Inside a cost: the primitives it calls are the meter's, not the parser's. */
  let metering = false;
  const wrap = (
    owner: object,
    name: string,
    cost: (self: unknown, args: unknown[], result: unknown, before: number) => number,
  ) => {
    const original = (owner as Record<string, Method>)[name]!;
    const label = `${owner === JSON ? "JSON" : (owner as { constructor: { name: string } }).constructor.name}.${name}`;
    const wrapped: Method = function (this: unknown, ...args: unknown[]) {
      if (metering) return original.apply(this, args);
      // A global or sticky regex starts where its lastIndex was before the call.
      const before = this instanceof RegExp ? this.lastIndex : 0;
      const result = original.apply(this, args);
      metering = true;
      try {
        const n = cost(this, args, result, before);
        work += n;
        if (byPrimitive) byPrimitive.set(label, (byPrimitive.get(label) ?? 0) + n);
      } finally {
        metering = false;
      }
      return result;
    };
    Object.defineProperty(owner, name, { value: wrapped, writable: true, configurable: true });
    restore.push(() =>
      Object.defineProperty(owner, name, { value: original, writable: true, configurable: true }),
    );
  };

  const S = String.prototype;
  for (const name of ["charCodeAt", "codePointAt", "charAt", "at"]) wrap(S, name, () => 1);
  for (const name of ["slice", "substring", "substr", "trim", "trimStart", "trimEnd"]) {
    wrap(S, name, (_self, _args, result) => stringLength(result));
  }
  wrap(S, "indexOf", (self, [needle, from], found) =>
    searched(found as number, Number(from ?? 0), stringLength(String(self)), stringLength(needle)),
  );
  wrap(S, "includes", (self, [needle, from]) => {
    const text = String(self);
    const at = text.indexOf(String(needle), Number(from ?? 0));
    return searched(at, Number(from ?? 0), text.length, stringLength(needle));
  });
  for (const name of ["lastIndexOf", "split", "toLowerCase", "toUpperCase", "normalize"]) {
    wrap(S, name, (self) => stringLength(String(self)));
  }
  for (const name of ["startsWith", "endsWith"])
    wrap(S, name, (_self, [needle]) => stringLength(needle));
  // Every regex use (test, match, replace, split, matchAll) goes through `exec`
  // once the prototype is patched: the engine's fast paths check that it is not.
  wrap(RegExp.prototype, "exec", (self, [input], result, before) => {
    const text = String(input);
    const re = self as RegExp;
    const m = result as RegExpExecArray | null;
    // A sticky regex tries one position: what it matched, or one step when it fails there.
    if (re.sticky) return m === null ? 1 : Math.max(1, m[0].length);
    const start = re.global ? Math.min(before, text.length) : 0;
    return m === null
      ? Math.max(1, text.length - start)
      : Math.max(1, m.index + m[0].length - start);
  });
  const A = Array.prototype;
  for (const name of ["indexOf", "includes", "lastIndexOf"]) {
    wrap(A, name, (self) => (self as unknown[]).length);
  }
  wrap(A, "slice", (_self, _args, result) => (result as unknown[]).length);
  wrap(A, "concat", (_self, _args, result) => (result as unknown[]).length);
  wrap(JSON, "parse", (_self, [text]) => stringLength(text));
  try {
    run();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return work;
}
