import { normalizeRepoPath, unsafePathReason } from "./paths.js";
import { regexError } from "./regex.js";

/** Strings longer than this are not remembered: memory stays bounded by `MAX_ENTRIES` small keys. */
const MAX_KEY_LENGTH = 256;
const MAX_ENTRIES = 4096;
const NONE: unique symbol = Symbol("none");

/**
 * Remember a pure function of a string. Contracts repeat the same paths and
 * patterns (`src/index.ts`, `src/**\/*.ts`) task after task and file after
 * file, so most answers are a map lookup. The cache is dropped whole when full.
 */
export function memoize<R>(fn: (s: string) => R): (s: string) => R {
  // `undefined` answers (the common "nothing wrong") are stored as NONE, so one lookup decides.
  const cache = new Map<string, R | typeof NONE>();
  return (s) => {
    if (s.length > MAX_KEY_LENGTH) return fn(s);
    const hit = cache.get(s);
    if (hit !== undefined) return hit === NONE ? (undefined as R) : hit;
    if (cache.size >= MAX_ENTRIES) cache.clear();
    const value = fn(s);
    cache.set(s, value === undefined ? NONE : value);
    return value;
  };
}

/** `unsafePathReason`, remembered. */
export const pathReason = memoize(unsafePathReason);

/** `regexError` without flags, remembered. */
export const regexReason = memoize((source: string) => regexError(source));

/** How rule 7 compares files: normalised when safe, else as written. */
export const fileKey = memoize((p: string) => (unsafePathReason(p) ? p : normalizeRepoPath(p)));
