import { harnessSignals } from "./tamper-js-harness.js";
import {
  F_FUNCTIONS,
  FUNCTION_TYPES,
  keyOf,
  type Node,
  parseProgram,
  readable,
  type Scope,
  SUITE_FUNCTIONS,
  scopeOf,
  TEST_FUNCTIONS,
  walk,
  X_FUNCTIONS,
} from "./tamper-js-scope.js";
import type { TreeReading, TreeRole, TreeSignal } from "./tamper-tree.js";

/**
 * The JavaScript/TypeScript tamper reader: what one version of a file holds,
 * read from its syntax tree, so a marker is found however it is spelled
 * (`it["skip"]`, `it[s]`, `{ ["skip"]: true }`, `const t = it.skip`,
 * `test.concurrent.skip`) and a test is read for what it asserts (an early
 * `return` before its first assertion, no assertion at all,
 * `expect.assertions(0)`). The harness rules (patching assertion and runner
 * modules, reaching the runner's output) are in tamper-js-harness.ts. Pure.
 */
export function readJsTree(path: string, text: string, role: TreeRole): TreeReading | undefined {
  if (!readable(path)) return undefined;
  const parsed = parseProgram(path, text);
  if (!("program" in parsed)) return { parsed: false, ...parsed };
  try {
    return { parsed: true, signals: signalsOf(parsed.program, role) };
  } catch (e) {
    // A tree too deep to walk (the stack) is a file the gate could not read: said, not passed.
    return { parsed: false, line: 1, error: `could not be read: ${String(e).slice(0, 80)}` };
  }
}

function signalsOf(program: Node, role: TreeRole): TreeSignal[] {
  const scope = scopeOf(program);
  const signals: TreeSignal[] = [];
  if (role === "test") {
    const tests = runnerCalls(program, scope);
    markerSignals(program, scope, tests, signals);
    for (const call of tests) testSignals(call, scope, signals);
  }
  harnessSignals(program, scope, role, signals);
  return signals;
}

/** Marker keys of a runner path, by the marker table's row. */
const MARKER_ROW: Record<string, string> = {
  skip: "js-skip",
  skipIf: "js-skip",
  runIf: "js-skip",
  only: "js-only",
  todo: "js-todo",
  "?": "js-skip",
};

const MARKER_ROOTS = new Set([
  ...TEST_FUNCTIONS,
  ...SUITE_FUNCTIONS,
  ...X_FUNCTIONS,
  ...F_FUNCTIONS,
  "bench",
]);

interface RunnerCall {
  call: Node;
  path: string[];
  name: string;
  fn: Node | undefined;
  /** The test callback's first parameter's name: the test context (`t`, `ctx`). */
  context: string | undefined;
}

/** `it(…)`, `test.each(…)(…)`, `describe.skipIf(c)(…)`: the calls that declare tests or suites. */
function runnerCalls(program: Node, scope: Scope): RunnerCall[] {
  const out: RunnerCall[] = [];
  walk(program, (n) => {
    if (n.type !== "CallExpression") return;
    let callee = n.callee as Node;
    while (callee.type === "CallExpression") callee = callee.callee as Node;
    const path = scope.pathOf(callee);
    if (!path || !MARKER_ROOTS.has(path[0] ?? "") || path[0] === "bench") return;
    // `expect`-like members (`it.each`) are the call; `test.extend(…)` declares nothing.
    if (path.some((k) => k === "extend" || k === "setTimeout")) return;
    const args = n.arguments as Node[];
    const name = scope.stringOf(args[0]) ?? "<computed name>";
    let fn: Node | undefined = [...args].reverse().find((a) => FUNCTION_TYPES.has(a.type));
    if (!fn) {
      const last = args.at(-1);
      if (last?.type === "Identifier") fn = scope.functions.get(last.name as string);
    }
    const first = (fn?.params as Node[] | undefined)?.[0];
    const context = first?.type === "Identifier" ? (first.name as string) : undefined;
    out.push({ call: n, path, name, fn, context });
  });
  return out;
}

const FALSY = (v: Node): boolean =>
  (v.type === "BooleanLiteral" && v.value === false) ||
  v.type === "NullLiteral" ||
  (v.type === "Identifier" && v.name === "undefined") ||
  (v.type === "NumericLiteral" && v.value === 0) ||
  (v.type === "StringLiteral" && v.value === "") ||
  (v.type === "UnaryExpression" && v.operator === "void");

/**
 * What a constant expression is worth, or undefined when it is not constant:
 * `false`, `0`, `1 - 1`, `!1`, `void 0`. Enough to read `if (false) expect(…)`
 * and `expect.assertions(1 - 1)` as what they are.
 */
function constantOf(n: Node | undefined): number | boolean | string | null | undefined {
  if (!n) return undefined;
  switch (n.type) {
    case "BooleanLiteral":
    case "NumericLiteral":
    case "StringLiteral":
      return n.value as boolean | number | string;
    case "NullLiteral":
      return null;
    case "ParenthesizedExpression":
    case "TSAsExpression":
      return constantOf(n.expression as Node);
    case "UnaryExpression": {
      if (n.operator === "void") return undefined;
      const v = constantOf(n.argument as Node);
      if (v === undefined) return undefined;
      if (n.operator === "!") return !v;
      if (n.operator === "-") return -Number(v);
      if (n.operator === "+") return Number(v);
      return undefined;
    }
    case "BinaryExpression": {
      const l = constantOf(n.left as Node);
      const r = constantOf(n.right as Node);
      if (typeof l !== "number" || typeof r !== "number") return undefined;
      if (n.operator === "+") return l + r;
      if (n.operator === "-") return l - r;
      if (n.operator === "*") return l * r;
      return undefined;
    }
    case "LogicalExpression": {
      const l = constantOf(n.left as Node);
      if (l === undefined) return undefined;
      if (n.operator === "&&") return l ? constantOf(n.right as Node) : l;
      if (n.operator === "||") return l ? l : constantOf(n.right as Node);
      return undefined;
    }
    default:
      return FALSY(n) ? false : undefined;
  }
}

/** Whether `n`, under `parents`, sits in a branch that a constant condition never takes. */
function deadBranch(n: Node, parents: readonly Node[]): boolean {
  const path = [...parents, n];
  for (let i = 0; i < path.length - 1; i++) {
    const p = path[i] as Node;
    const child = path[i + 1];
    if (p.type === "IfStatement" || p.type === "ConditionalExpression") {
      const c = constantOf(p.test as Node);
      if (c === undefined) continue;
      if ((child === p.consequent && !c) || (child === p.alternate && c)) return true;
    } else if (p.type === "LogicalExpression" && child === p.right) {
      const c = constantOf(p.left as Node);
      if (c === undefined) continue;
      if ((p.operator === "&&" && !c) || (p.operator === "||" && c)) return true;
    }
  }
  return false;
}

const REFERENCE_PARENTS = new Set([
  "CallExpression",
  "NewExpression",
  "VariableDeclarator",
  "MemberExpression",
  "AssignmentExpression",
  "ObjectProperty",
  "ArrayExpression",
  "ReturnStatement",
  "ConditionalExpression",
  "LogicalExpression",
  "SequenceExpression",
  "ExportDefaultDeclaration",
  "SpreadElement",
]);

function markerSignals(
  program: Node,
  scope: Scope,
  tests: readonly RunnerCall[],
  out: TreeSignal[],
): void {
  const contexts = new Set(tests.flatMap((t) => (t.context ? [t.context] : [])));
  const runnerArgs = new Set(tests.flatMap((t) => t.call.arguments as Node[]));
  const add = (id: string, n: Node, what: string) =>
    out.push({ code: "test-marker-added", id, line: n.loc.start.line, what });
  for (const t of tests) {
    // `it("x", ({ skip }) => { skip() })`: the context's skip, destructured.
    const first = (t.fn?.params as Node[] | undefined)?.[0];
    if (first?.type === "ObjectPattern")
      for (const p of first.properties as Node[]) {
        const key = p.type === "ObjectProperty" ? keyOf(p, scope) : undefined;
        if (key === "skip" || key === "todo") add("context-skip", p, `the test context's ${key}`);
      }
  }
  walk(program, (n, parents) => {
    const parent = parents.at(-1);
    switch (n.type) {
      case "MemberExpression":
      case "OptionalMemberExpression": {
        const key = keyOf(n, scope);
        const obj = n.object as Node;
        if (
          (key === "skip" || key === "todo") &&
          obj.type === "Identifier" &&
          (contexts.has(obj.name as string) || /^(?:t|ctx|context)$/.test(obj.name as string))
        ) {
          add("context-skip", n, `the test context's ${key}`);
          return;
        }
        const path = scope.pathOf(n);
        if (!path || !MARKER_ROOTS.has(path[0] ?? "") || key === undefined) return;
        const row = MARKER_ROW[key];
        if (row)
          add(
            row,
            n,
            key === "?"
              ? "a computed member of the runner the gate cannot resolve"
              : `${path.join(".")}`,
          );
        return;
      }
      case "Identifier": {
        const name = n.name as string;
        if (!X_FUNCTIONS.has(name) && !F_FUNCTIONS.has(name)) return;
        if (!parent || !REFERENCE_PARENTS.has(parent.type)) return;
        if (parent.type === "MemberExpression" && parent.object !== n) return;
        if (parent.type === "VariableDeclarator" && parent.init !== n) return;
        if (parent.type === "ObjectProperty" && parent.value !== n) return;
        if (scope.pathOf(n)?.[0] === name) add("js-x-f", n, name);
        return;
      }
      case "VariableDeclarator": {
        // `const { skip } = it`: a marker taken out of the runner.
        const id = n.id as Node;
        const base = scope.pathOf(n.init);
        if (id.type !== "ObjectPattern" || !base || !MARKER_ROOTS.has(base[0] ?? "")) return;
        for (const p of id.properties as Node[]) {
          const key = p.type === "ObjectProperty" ? keyOf(p, scope) : undefined;
          const row = key === undefined ? undefined : MARKER_ROW[key];
          if (row) add(row, p, `${base.join(".")}.${key}, destructured`);
        }
        return;
      }
      case "ObjectProperty":
      case "ObjectMethod": {
        // Node's options (`{ skip: true }`, `{ ["skip"]: 1 }`), anywhere in a test file:
        // an options object can be declared before the call that takes it.
        if (parent?.type === "ObjectPattern") return;
        const key = keyOf(n, scope);
        const value = n.value as Node | undefined;
        const inRunnerCall = parent !== undefined && runnerArgs.has(parent);
        if (key === "skip" || key === "only" || key === "todo") {
          if (n.type === "ObjectProperty" && value && FALSY(value)) return;
          add("node-options", n, `the option ${key}`);
        } else if (key === "?" && inRunnerCall) {
          add("node-options", n, "a computed option the gate cannot resolve");
        }
        return;
      }
      case "SpreadElement": {
        if (parent?.type !== "ObjectExpression" || !runnerArgs.has(parent)) return;
        const arg = n.argument as Node;
        if (arg.type === "Identifier" && scope.objects.has(arg.name as string)) return;
        add("node-options", n, "options spread from an object the gate cannot read");
        return;
      }
    }
  });
}

const ASSERT_NAME =
  /^(?:assert|expect|should|verify|check|ensure|must|fail)|^(?:getBy|getAllBy|findBy|findAllBy)/i;
const ASSERT_SEGMENT = new Set(["should", "assert", "expect", "rejects", "resolves"]);

/** The root identifier and member keys of a call chain (`expect(x).not.toBe(1)` → expect; not, toBe). */
function chainOf(n: Node, scope: Scope): { root: string | undefined; keys: string[] } {
  const keys: string[] = [];
  let c: Node | undefined = n;
  while (c) {
    if (c.type === "CallExpression" || c.type === "OptionalCallExpression") c = c.callee as Node;
    else if (c.type === "MemberExpression" || c.type === "OptionalMemberExpression") {
      keys.unshift(keyOf(c, scope) ?? "?");
      c = c.object as Node;
    } else if (c.type === "AwaitExpression" || c.type === "TSNonNullExpression") {
      c = (c.argument ?? c.expression) as Node;
    } else break;
  }
  return { root: c?.type === "Identifier" ? (c.name as string) : undefined, keys };
}

/**
 * Whether `n`, under `parents`, sits in a `try` block whose `catch` neither
 * throws nor asserts: an assertion there cannot fail the test (its error is
 * swallowed). A `finally` alone, a rethrow or an assertion in the handler keep it.
 */
function swallowed(
  n: Node,
  parents: readonly Node[],
  scope: Scope,
  context: string | undefined,
  known: Map<Node, boolean>,
): boolean {
  const path = [...parents, n];
  for (let i = 0; i < path.length - 1; i++) {
    const p = path[i] as Node;
    if (p.type !== "TryStatement" || path[i + 1] !== p.block || !p.handler) continue;
    const seen = known.get(p);
    if (seen !== undefined) {
      if (seen) return true;
      continue;
    }
    let fails = false;
    walk(p.handler as Node, (c) => {
      if (fails || c.type === "ThrowStatement") {
        fails = true;
        return;
      }
      if (c.type !== "CallExpression" && c.type !== "OptionalCallExpression") return;
      const { root } = chainOf(c, scope);
      if (root !== undefined && (ASSERT_NAME.test(root) || root === context)) fails = true;
    });
    known.set(p, !fails);
    if (!fails) return true;
  }
  return false;
}

/** Offsets of the assertions in `fn` (nested callbacks included: they run as the test runs). */
function assertionsIn(
  fn: Node,
  scope: Scope,
  context: string | undefined,
  seen: Set<Node> = new Set(),
): number[] {
  const out: number[] = [];
  if (seen.has(fn)) return out;
  seen.add(fn);
  // Each try's verdict once: a handler is walked for each try, not for each node under it.
  const swallowing = new Map<Node, boolean>();
  walk(fn, (n, parents) => {
    if (n.type !== "MemberExpression" && !n.type.endsWith("CallExpression")) return;
    // `if (false) expect(…)` is no assertion: it never runs; nor is one whose failure a catch swallows.
    if (deadBranch(n, parents) || swallowed(n, parents, scope, context, swallowing)) return;
    if (n.type === "MemberExpression" && keyOf(n, scope) === "should") {
      out.push(n.start);
      return;
    }
    if (n.type !== "CallExpression" && n.type !== "OptionalCallExpression") return;
    const { root, keys } = chainOf(n, scope);
    if (root === undefined) return;
    if (root === "expect" && keys[0] === "assertions") {
      if (constantOf((n.arguments as Node[])[0]) === 0) return;
    }
    if (
      ASSERT_NAME.test(root) ||
      keys.some((k) => ASSERT_SEGMENT.has(k)) ||
      (root === context && !keys.some((k) => k === "skip" || k === "todo"))
    ) {
      out.push(n.start);
      return;
    }
    // A helper of this file that asserts is an assertion where it is called.
    const helper = keys.length === 0 ? scope.functions.get(root) : undefined;
    if (helper && assertionsIn(helper, scope, undefined, seen).length > 0) out.push(n.start);
  });
  return out;
}

/** `return`/`throw` statements of `fn` itself (not of functions inside it), with whether each is at its top level. */
function exitsOf(fn: Node): { node: Node; top: boolean }[] {
  const body = fn.body as Node;
  const out: { node: Node; top: boolean }[] = [];
  if (body.type !== "BlockStatement") return out;
  walk(body, (n, parents) => {
    if (n.type !== "ReturnStatement" && n.type !== "ThrowStatement") return;
    if (parents.some((p) => FUNCTION_TYPES.has(p.type) || p.type === "ClassBody")) return;
    out.push({ node: n, top: parents.at(-1) === body });
  });
  return out;
}

function testSignals(t: RunnerCall, scope: Scope, out: TreeSignal[]): void {
  const { path, fn, call, name } = t;
  // Skipped tests are read too: unskipping a test that asserts nothing is then no news
  // only if it asserted nothing at base as well (its signal is compared by name).
  if (!fn) return;
  const root = (path[0] ?? "").replace(/^x(?=it|test|specify|describe|context)/, "");
  const line = call.loc.start.line;
  if (SUITE_FUNCTIONS.has(root)) {
    // A suite that returns or throws before declaring its tests declares none of those after.
    const declared = (fn.body as Node).type === "BlockStatement" ? lastRunnerCall(fn, scope) : -1;
    const exit = exitsOf(fn).find((e) => e.node.end <= declared);
    if (exit)
      out.push({
        code: "test-assertion-unreachable",
        id: "suite-early-exit",
        line: exit.node.loc.start.line,
        what: `suite "${name}" ${verb(exit.node)} before declaring its tests`,
        test: name,
      });
    return;
  }
  if (!TEST_FUNCTIONS.has(root)) return;
  walk(fn, (n) => {
    if (n.type !== "CallExpression") return;
    const { root: r, keys } = chainOf(n, scope);
    const zero = constantOf((n.arguments as Node[])[0]) === 0;
    if (
      zero &&
      ((r === "expect" && keys.join(".") === "assertions") ||
        (r === t.context && keys.at(-1) === "plan"))
    )
      out.push({
        code: "test-assertion-unreachable",
        id: "assertions-zero",
        line: n.loc.start.line,
        what: `test "${name}" declares that it expects no assertion`,
        test: name,
      });
  });
  const first = Math.min(...assertionsIn(fn, scope, t.context));
  const early = exitsOf(fn).find(
    (e) => e.node.end <= first && (e.node.type === "ReturnStatement" || e.top),
  );
  if (early) {
    out.push({
      code: "test-assertion-unreachable",
      id: "early-exit",
      line: early.node.loc.start.line,
      what: `test "${name}" ${verb(early.node)} before its first assertion${first === Infinity ? " (it has none)" : ""}`,
      test: name,
    });
  } else if (first === Infinity) {
    out.push({
      code: "test-assertion-unreachable",
      id: "no-assertion",
      line,
      what: `test "${name}" has no assertion (none of expect, assert, should, the test context or a helper of this file that asserts)`,
      test: name,
    });
  }
}

function verb(exit: Node): string {
  return exit.type === "ReturnStatement" ? "returns" : "throws";
}

/** The end offset of the last test or suite declared directly in a suite's callback. */
function lastRunnerCall(fn: Node, scope: Scope): number {
  let last = -1;
  walk(fn.body as Node, (n) => {
    if (n.type !== "CallExpression") return;
    let callee = n.callee as Node;
    while (callee.type === "CallExpression") callee = callee.callee as Node;
    const p = scope.pathOf(callee);
    if (p && MARKER_ROOTS.has(p[0] ?? "")) last = Math.max(last, n.start);
  });
  return last;
}
