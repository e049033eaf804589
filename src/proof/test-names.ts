import { lineIndex, type SourceLanguage } from "./source-text.js";

/** One test (or suite) a file declares: its name as the runner shows it, and its line. */
export interface DeclaredTest {
  name: string;
  line: number;
}

// Calls that declare a test or suite in vitest, jest, mocha and Node's test runner
// (`t.test(` is a Node subtest, `test.describe(` Playwright's), with any modifier
// chain (`.skip`, `.each([...])`) before the name. Only named receivers, so that
// `/re/.test("abc")` is not a test.
// Every repetition is bounded: the author of the PR chooses these files, and an
// unbounded lazy scan per call start would make one file of `it("` quadratic.
const JS_DECL =
  /(?<![\w$.])(?:(?:t|test|it|describe|suite|context|ctx)\.)?(?:it|test|describe|suite|context|bench|xit|xdescribe|xtest|fit|fdescribe)(?:\.\w{1,40}(?:\s*\((?:[^()]|\([^()]{0,200}\)){0,400}\))?){0,6}\s*\(\s*(["'`])((?:\\.|(?!\1)[^\\\n]){0,1000}?)\1/g;

const GO_FUNC = /^func\s+((?:Test|Benchmark|Fuzz|Example)\w*)\s*\(/gm;
const GO_RUN = /\.Run\(\s*"((?:\\.|[^"\\\n]){0,1000})"/g;
const RUST_TEST =
  /#\[\s*(?:\w+::){0,5}test\b[^\]\n]{0,300}\]\s*(?:#\[[^\]]{0,300}\]\s*){0,10}(?:pub(?:\([^)]{0,40}\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)/g;
const JUNIT_TEST =
  /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b(?:\s*\([^)]{0,500}\))?(?:\s*@\w+(?:\.\w+){0,5}(?:\s*\([^)]{0,500}\))?){0,10}[^({;@]{0,300}?(?:`([^`\n]{1,300})`|\b(\w+))\s*\(/g;

/**
 * The tests `text` declares, read from its comment-free view (strings kept).
 * Names are what a reviewer recognises: the call's first string for JS runners,
 * `Class::test_x` for pytest and unittest, `TestX` and `TestX/sub` for Go, the
 * function name for Rust and JUnit. A removed describe is found by its own name.
 */
export function declaredTests(text: string, language: SourceLanguage): DeclaredTest[] {
  const lineOf = lineIndex(text);
  const out: DeclaredTest[] = [];
  const add = (name: string | undefined, offset: number) => {
    if (name !== undefined && name !== "") out.push({ name, line: lineOf(offset) });
  };
  switch (language) {
    case "js":
      for (const m of text.matchAll(JS_DECL)) add(m[2], m.index);
      break;
    case "python":
      return pythonTests(text);
    case "go":
      for (const m of text.matchAll(GO_FUNC)) add(m[1], m.index);
      {
        const funcs = [...text.matchAll(/^func\s+(\w+)/gm)].map((f) => ({
          at: f.index,
          name: f[1] as string,
        }));
        for (const m of text.matchAll(GO_RUN))
          add(`${enclosingGoTest(funcs, m.index)}/${m[1]}`, m.index);
      }
      break;
    case "rust":
      for (const m of text.matchAll(RUST_TEST)) add(m[1], nameOffset(m));
      break;
    case "jvm":
      for (const m of text.matchAll(JUNIT_TEST)) add(m[1] ?? m[2], nameOffset(m));
      break;
    case "other":
      break;
  }
  return out;
}

// Rust and JUnit tests are pointed at by their name, not the attribute above it.
function nameOffset(m: RegExpExecArray | RegExpMatchArray): number {
  const name = m[2] ?? m[1] ?? "";
  return (m.index ?? 0) + m[0].lastIndexOf(name);
}

function enclosingGoTest(funcs: readonly { at: number; name: string }[], offset: number): string {
  let lo = 0;
  let hi = funcs.length - 1;
  let found = "?";
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = funcs[mid] as { at: number; name: string };
    if (f.at < offset) {
      found = f.name;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

// Python: `def test_*` (and `async def`), inside `class` blocks tracked by indentation,
// and `class Test*` themselves; a method of any class counts (unittest's classes need
// not start with `Test`).
function pythonTests(text: string): DeclaredTest[] {
  const out: DeclaredTest[] = [];
  const classes: { indent: number; name: string }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = /^([ \t]*)(?:(?:async\s+)?def\s+(test\w*)|class\s+(\w+))/.exec(line);
    if (!m) continue;
    const indent = (m[1] as string).length;
    while (classes.length > 0 && (classes.at(-1) as { indent: number }).indent >= indent)
      classes.pop();
    const prefix = classes.map((c) => `${c.name}::`).join("");
    if (m[3] !== undefined) {
      if (m[3].startsWith("Test")) out.push({ name: `${prefix}${m[3]}`, line: i + 1 });
      classes.push({ indent, name: m[3] });
    } else if (m[2] !== undefined) {
      out.push({ name: `${prefix}${m[2]}`, line: i + 1 });
    }
  }
  return out;
}
