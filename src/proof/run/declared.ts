import { languageOf, sourceViews } from "../source-text.js";
import { declaredTests } from "../test-names.js";
import type { ResultCase } from "./results.js";

/**
 * The first case a run's results name that no file of the run declares: a
 * results file written by something other than the runner (the PR's code
 * renaming a forged file over it), so the run decides nothing. Pure; each
 * file's text comes from `read`.
 *
 * Only what the gate can read for certain is checked: JavaScript, Python and
 * Go files whose every test-declaring call names its test with a literal.
 * A file that names a test from a variable (`it(name, …)`, a table of Go
 * subtests) has names the gate cannot list, so its cases are taken as they
 * come — the exit-status rule still holds for them. Parametrised names
 * (`%s`, `$x`, `${x}`, pytest's `[…]`, Go's `TestX/…`) match any text there.
 */
export function undeclaredCase(
  cases: readonly ResultCase[],
  files: readonly string[],
  read: (file: string) => string | undefined,
): ResultCase | undefined {
  const known = new Map<string, Matcher | undefined>();
  const matcherOf = (file: string): Matcher | undefined => {
    if (!known.has(file)) known.set(file, matcherFor(file, read(file)));
    return known.get(file);
  };
  for (const c of cases) {
    const owners = c.files ?? files;
    const matchers = owners.map(matcherOf);
    // Any file the gate cannot list, among the case's candidates: nothing to compare with.
    if (matchers.length === 0 || matchers.some((m) => m === undefined)) continue;
    if (!matchers.some((m) => m!(c.name))) return c;
  }
  return undefined;
}

type Matcher = (name: string) => boolean;

// A test-declaring call whose first argument is not a string literal: names the gate cannot
// list. Modifier calls (`.each([...])`, `.skipIf(x)`) are cut out first, so their own
// arguments are not taken for the name.
const JS_MODIFIER_CALL = /\.(\w{1,40})\s*\((?:[^()]|\([^()]{0,200}\)){0,400}\)(?=\s*\()/g;
const JS_OPEN =
  /(?<![\w$.])(?:(?:t|test|it|describe|suite|context)\.)?(?:it|test|describe|suite|context|bench)(?:\.\w{1,40}){0,6}\s*\(\s*(?!["'`)])/;

function matcherFor(file: string, text: string | undefined): Matcher | undefined {
  if (text === undefined) return undefined;
  const language = languageOf(file);
  if (language !== "js" && language !== "python" && language !== "go") return undefined;
  const { code, noComments } = sourceViews(text, language);
  if (language === "js" && JS_OPEN.test(code.replace(JS_MODIFIER_CALL, ".$1"))) return undefined;
  if (language === "go" && /\.Run\(\s*[^"\s]/.test(code)) return undefined;
  if (language === "python" && /@pytest\.mark\.parametrize|load_tests|\bsetattr\(/.test(code))
    return undefined;
  const names = declaredTests(noComments, language).map((d) => d.name);
  const patterns = names.map(patternOf);
  return (name) => {
    const leaf = leafOf(name, language);
    return patterns.some((p) => p.test(leaf));
  };
}

/** The level of a reported name a declaration names: the last level (for Go, the function before `/`). */
function leafOf(name: string, language: string): string {
  const levels = name.split(" > ");
  const last = levels.at(-1) ?? "";
  if (language === "python") return last.replace(/\[.*\]$/, "");
  if (language === "go") return last.split("/")[0] ?? last;
  return last;
}

function patternOf(declared: string): RegExp {
  const last = declared.split("::").at(-1) ?? declared;
  const source = last
    .split(/(%[sdifjoOpc#%]|\$\{[^}]*\}|\$[\w.]+)/)
    .map((part, k) => (k % 2 === 1 ? "[\\s\\S]*" : part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source.replace(/\s+/g, "\\s+")}$`);
}
