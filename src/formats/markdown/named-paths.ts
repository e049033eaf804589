/**
 * Repository paths named in prose (task descriptions): the one scanner every
 * markdown kind with task lists uses to find phantom completions.
 */

/** Words that say a task takes a path away: the path may rightly be gone at head. */
export const REMOVES =
  /\b(?:delete[sd]?|remove[sd]?|rename[sd]?|move[sd]?|drop(?:s|ped)?|deprecate[sd]?|retire[sd]?)\b/i;

/** Extensions a token may end with to be read as a file path without a `/`. */
const EXTENSIONS = new Set(
  "ts tsx js jsx mjs cjs mts cts py pyi rs go java kt kts swift rb php cs fs c h cc cpp hpp m mm md mdx json jsonc yaml yml toml ini cfg conf sql sh bash zsh ps1 css scss sass less html htm vue svelte astro lock txt xml gradle dart ex exs erl proto graphql gql env csv tf hcl ipynb r jl lua pl scala clj vim nix dockerfile makefile".split(
    " ",
  ),
);
/** The characters of a path token, `[A-Za-z0-9_./@~+-]`, by char code. */
const TOKEN_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./@~+-")
  TOKEN_CHAR[c.charCodeAt(0)] = 1;
const isTokenChar = (code: number) => code < 128 && TOKEN_CHAR[code] === 1;
const DOT = 46;
const SLASH = 47;

/**
 * Repository paths a description names: tokens with a `/` ending in a known
 * extension. A bare file name (`package.json`, `Node.js`) does not say where
 * it is, a directory (`unit/`) is often relative to the one named before it,
 * and `./x.css` is relative to another file: none is read as a path. Not a path: URLs, npm scopes (`@dnd-kit/core`),
 * placeholders (`[name]`, `{id}`, `<x>`), globs, `and/or`-style words, dotted
 * identifiers (`URL.revokeObjectURL`), version numbers.
 */
export function pathsIn(text: string): { path: string; column: number }[] {
  const out: { path: string; column: number }[] = [];
  scanPaths(text, (path, column) => out.push({ path, column }));
  return out;
}

/**
 * `pathsIn` as a visit of each path and its 1-based column, so a task list
 * keeps only the paths it has not named yet: a 1 MiB line naming one path
 * over and over builds one reference, not a list of every mention.
 */
export function scanPaths(
  text: string,
  visit: (path: string, column: number) => void,
  /** Where to start: a token never spans it (the character before is no token character). */
  from = 0,
): void {
  if (text.indexOf("/", from) === -1 && text.indexOf(".", from) === -1) return;
  // One scan over maximal runs of token characters; a task list the PR author
  // writes may hold a 1 MiB line of them, so no regex or copy per token but one.
  const n = text.length;
  let i = from;
  while (i < n) {
    if (!isTokenChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const at = i;
    let slash = false;
    for (;;) {
      for (let c = text.charCodeAt(i); i < n && isTokenChar(c); c = text.charCodeAt(++i)) {
        if (c === SLASH) slash = true;
      }
      // A whole segment in brackets continues the path: a Next.js route group
      // `src/app/(auth)/login/page.tsx`, a dynamic segment `projects/[id]/page.tsx`.
      const past = i > at && text.charCodeAt(i - 1) === SLASH ? segmentEnd(text, i) : -1;
      if (past === -1) break;
      i = past;
    }
    // A path has a `/` after any leading one, so a run with none is no path: not even sliced.
    if (!slash) continue;
    const before = text[at - 1];
    const after = text[i];
    // Part of a URL, a placeholder, a glob or a variable (`$HOME/x`, `${ROOT}/x`): not a path of this repository.
    if (
      before === ":" ||
      before === "[" ||
      before === "{" ||
      before === "<" ||
      before === "*" ||
      before === "$" ||
      before === "}"
    )
      continue;
    if (after === ":" && text[i + 1] === "/") continue;
    if (after === "[" || after === "{" || after === "*" || after === "<") continue;
    // A sentence's full stop is no part of the path (`,;:` end a token already).
    let end = i;
    while (end > at && text.charCodeAt(end - 1) === DOT) end--;
    // Read by index: only a token found to be a path is sliced out.
    let start = at;
    const c0 = text[start];
    if (c0 === "@" || c0 === "~" || text.startsWith("//", start)) continue;
    // `./styles/a.css` is relative to some other file (an import specifier), not the root.
    if (text.startsWith("./", start)) continue;
    if (c0 === "/") {
      // `/specs/002-x/` is written from the root; `/app/entrypoint.sh` (a container),
      // `/home/runner/work/…` (a CI runner) are another machine's absolute paths.
      if (systemRoot(text, start + 1, end)) continue;
      start++;
    }
    if (start === end || hasDotDot(text, start, end)) continue;
    // A bare file name (`package.json`, `Node.js`) does not say where it is, and a
    // directory is often listed relative to the one before it (`tests/` with
    // `unit/, fixtures/`): neither is checked.
    let slashAt = end - 1;
    while (slashAt >= start && text.charCodeAt(slashAt) !== SLASH) slashAt--;
    if (slashAt < start || slashAt === end - 1) continue;
    const name = slashAt + 1;
    let dot = end - 1;
    while (dot > name && text.charCodeAt(dot) !== DOT) dot--;
    const known =
      dot > name
        ? EXTENSIONS.has(text.slice(dot + 1, end).toLowerCase())
        : isName(text, name, end, "Dockerfile") || isName(text, name, end, "Makefile");
    if (known) visit(text.slice(start, end), at + 1);
  }
}

/** Whether `text[start, end)` has a `..` segment (`[...slug]` and `a..b` are names, not a way up). */
function hasDotDot(text: string, start: number, end: number): boolean {
  for (let p = start + 1; p < end; p++) {
    if (text.charCodeAt(p) !== DOT || text.charCodeAt(p - 1) !== DOT) continue;
    const head = p - 1 === start || text.charCodeAt(p - 2) === SLASH;
    const tail = p + 1 === end || text.charCodeAt(p + 1) === SLASH;
    if (head && tail) return true;
  }
  return false;
}

const CLOSE: Record<string, string> = { "(": ")", "[": "]" };

/**
 * At `i` (just after a `/`), a bracketed segment followed by `/`: `(auth)/`,
 * `[id]/`, `[...slug]/`. Returns the index after the close, or -1 when `i`
 * opens no such segment (a placeholder `test_[name].py` is never one).
 */
function segmentEnd(text: string, i: number): number {
  const close = CLOSE[text[i] ?? ""];
  if (close === undefined) return -1;
  let p = i + 1;
  while (p < text.length && p - i <= 64 && isTokenChar(text.charCodeAt(p)) && text[p] !== "/") p++;
  return p > i + 1 && text[p] === close && text[p + 1] === "/" ? p + 1 : -1;
}

/** First segments of absolute paths that belong to another machine: a container, a CI runner, a home. */
const SYSTEM_ROOTS = new Set(
  "app home root usr var etc opt tmp srv mnt workspace workspaces Users github runner __w".split(
    " ",
  ),
);

/** Whether `text[start, end)` begins with a system root's segment. */
function systemRoot(text: string, start: number, end: number): boolean {
  const slash = text.indexOf("/", start);
  const first = text.slice(start, slash === -1 || slash > end ? end : slash);
  return SYSTEM_ROOTS.has(first);
}

/** Whether `text[start, end)` is `name`. */
function isName(text: string, start: number, end: number, name: string): boolean {
  return end - start === name.length && text.startsWith(name, start);
}
