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
const JS_DECL =
  /(?<![\w$.])(?:(?:t|test|it|describe|suite|context|ctx)\.)?(?:it|test|describe|suite|context|bench|xit|xdescribe|xtest|fit|fdescribe)(?:\.\w+(?:\s*\((?:[^()]|\([^()]*\))*\))?)*\s*\(\s*(["'`])((?:\\.|(?!\1)[^\\])*?)\1/g;

const GO_FUNC = /^func\s+((?:Test|Benchmark|Fuzz|Example)\w*)\s*\(/gm;
const GO_RUN = /\.Run\(\s*"((?:\\.|[^"\\])*)"/g;
const RUST_TEST =
  /#\[\s*(?:[\w:]+::)?test\b[^\]]*\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)/g;
const JUNIT_TEST =
  /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b(?:\s*\([^)]*\))?(?:\s*@\w+(?:\.\w+)*(?:\s*\([^)]*\))?)*[^({;@]*?(?:`([^`]+)`|\b(\w+))\s*\(/g;

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
      for (const m of text.matchAll(GO_RUN))
        add(`${enclosingGoTest(text, m.index)}/${m[1]}`, m.index);
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

function enclosingGoTest(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const all = [...before.matchAll(/^func\s+(\w+)/gm)];
  return all.at(-1)?.[1] ?? "?";
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
