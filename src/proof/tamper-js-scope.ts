import { type ParserPlugin, parse } from "@babel/parser";

/**
 * The syntax tree of a JavaScript/TypeScript file for the tamper reading
 * (`@babel/parser`, as the mutation step), and what its names stand for: a
 * runner or assertion object (`it`, `expect`, `assert`, `process`, reached by
 * import, `require`, alias or destructuring), a constant string (so `it[s]`
 * with `const s = "skip"` reads as `it.skip`), or a local thing of its own.
 * Scopes are flattened to the file: a name bound twice keeps its runner
 * meaning if either binding has one, which errs towards a finding.
 */

export interface Node {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number } };
  [key: string]: unknown;
}

export const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).type === "string";

/** Every node under `root` (itself included), parents first, with its parent chain. */
export function walk(root: Node, visit: (n: Node, parents: readonly Node[]) => void): void {
  const parents: Node[] = [];
  const go = (n: Node) => {
    visit(n, parents);
    parents.push(n);
    for (const [key, v] of Object.entries(n)) {
      if (key === "loc" || key === "leadingComments" || key === "trailingComments") continue;
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) go(c);
      } else if (isNode(v)) go(v);
    }
    parents.pop();
  };
  go(root);
}

export const FUNCTION_TYPES = new Set([
  "FunctionExpression",
  "ArrowFunctionExpression",
  "FunctionDeclaration",
  "ObjectMethod",
  "ClassMethod",
  "ClassPrivateMethod",
]);

const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?)$/;
const SFC_FILE = /\.(?:vue|svelte)$/;

/** Whether the reader reads this file: script files, and the `<script>` blocks of Vue/Svelte files. */
export function readable(path: string): boolean {
  return SCRIPT_FILE.test(path) || SFC_FILE.test(path);
}

/**
 * The file's program, or where it failed to parse. A Vue or Svelte file is
 * read as its `<script>` blocks with every other character blanked (newlines
 * kept, so lines stay true).
 */
export function parseProgram(
  path: string,
  text: string,
): { program: Node } | { line: number; error: string } {
  let code = text;
  let ts = /\.[cm]?tsx?$/.test(path);
  if (SFC_FILE.test(path)) {
    const kept = new Array<boolean>(text.length).fill(false);
    for (const m of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/\blang\s*=\s*["']ts["']/.test(m[1] ?? "")) ts = true;
      const from = m.index + m[0].indexOf(">") + 1;
      for (let i = from; i < from + (m[2] ?? "").length; i++) kept[i] = true;
    }
    code = [...text].map((c, i) => (kept[i] || c === "\n" ? c : " ")).join("");
  }
  const jsx = !ts || /x$/.test(path);
  const attempts: ParserPlugin[][] = ts
    ? [
        ["typescript", "decorators-legacy", ...(jsx ? (["jsx"] as const) : [])],
        ["typescript", "decorators", ...(jsx ? (["jsx"] as const) : [])],
      ]
    : [["jsx"], ["jsx", "flow"], ["jsx", "decorators-legacy"]];
  let first: { line: number; error: string } | undefined;
  for (const plugins of attempts) {
    try {
      const file = parse(code, { sourceType: "unambiguous", plugins, errorRecovery: true });
      return { program: file.program as unknown as Node };
    } catch (e) {
      const err = e as { loc?: { line?: number }; message?: string };
      first ??= { line: err.loc?.line ?? 1, error: String(err.message ?? e).split("\n")[0] ?? "" };
    }
  }
  return first ?? { line: 1, error: "did not parse" };
}

/** Modules whose exports are a test runner or an assertion library. */
export const RUNNER_MODULE =
  /^(?:vitest|@vitest\/[\w-]+|jest|@jest\/globals|@jest\/expect|expect|node:test|mocha|chai|chai\/[\w/-]+|(?:node:)?assert(?:\/strict)?|should|power-assert|uvu(?:\/assert)?|tap|ava|@playwright\/test|bun:test|jasmine)$/;

/** The object a runner module's namespace stands for: assertion modules are `assert`, `chai`... */
function moduleRoot(source: string): string[] {
  if (/^(?:node:)?assert(?:\/strict)?$|^power-assert$|^uvu\/assert$/.test(source))
    return ["assert"];
  if (/^chai/.test(source)) return ["chai"];
  if (source === "should") return ["should"];
  if (source === "expect" || source === "@jest/expect") return ["expect"];
  // Test modules export `it`, `test`, `expect`, `vi`... by name: the namespace adds nothing.
  return [];
}

function defaultExport(source: string): string[] {
  const root = moduleRoot(source);
  if (root.length > 0) return root;
  if (source === "node:test" || source === "tap" || source === "ava") return ["test"];
  return [source.replace(/\W/g, "_")];
}

/** Names that stand for a runner or assertion object when the file binds them to nothing else. */
export const RUNNER_GLOBALS = new Set([
  "it",
  "test",
  "describe",
  "suite",
  "context",
  "specify",
  "bench",
  "xit",
  "xtest",
  "xdescribe",
  "xcontext",
  "xspecify",
  "fit",
  "ftest",
  "fdescribe",
  "expect",
  "assert",
  "chai",
  "should",
  "vi",
  "jest",
  "process",
]);

/** The runner's test functions (`describe` and the like hold tests; these are tests). */
export const TEST_FUNCTIONS = new Set(["it", "test", "specify", "fit", "ftest"]);
export const SUITE_FUNCTIONS = new Set(["describe", "suite", "context", "fdescribe"]);
/** Runner names that skip what they declare. */
export const X_FUNCTIONS = new Set(["xit", "xtest", "xdescribe", "xcontext", "xspecify"]);
/** Runner names that focus (run only) what they declare. */
export const F_FUNCTIONS = new Set(["fit", "ftest", "fdescribe"]);

type Binding =
  | { kind: "runner"; path: string[] }
  | { kind: "string"; value: string }
  | { kind: "local" };

export interface Scope {
  /** The runner path an expression stands for (`["it", "skip"]`), or undefined. */
  pathOf(n: unknown): string[] | undefined;
  /** The string a key or expression is known to hold, or undefined. */
  stringOf(n: unknown): string | undefined;
  /** Whether `name` is bound in the file to something that is not a runner object. */
  isLocal(name: string): boolean;
  /** Function declarations and `const f = () => …` by name (for helpers called by tests). */
  functions: Map<string, Node>;
  /** `const x = { … }` by name. */
  objects: Map<string, Node>;
  /** Names bound by an import from a module that is not a runner. */
  importedElsewhere: Set<string>;
}

/** The file's bindings, read in source order (an alias of an alias resolves). */
export function scopeOf(program: Node): Scope {
  const bindings = new Map<string, Binding[]>();
  const functions = new Map<string, Node>();
  const objects = new Map<string, Node>();
  const importedElsewhere = new Set<string>();
  const reassigned = new Set<string>();
  const bind = (name: string, b: Binding) => {
    const list = bindings.get(name) ?? [];
    list.push(b);
    bindings.set(name, list);
  };
  const requireOf = (n: unknown): string | undefined => {
    if (!isNode(n)) return undefined;
    if (n.type === "AwaitExpression") return requireOf(n.argument);
    if (n.type !== "CallExpression" && n.type !== "ImportExpression") return undefined;
    const callee = n.callee as Node | undefined;
    const isRequire =
      n.type === "ImportExpression" ||
      (callee?.type === "Identifier" && callee.name === "require") ||
      callee?.type === "Import";
    const arg = n.type === "ImportExpression" ? n.source : (n.arguments as unknown[])[0];
    return isRequire ? scope.stringOf(arg) : undefined;
  };
  const scope: Scope = {
    functions,
    objects,
    importedElsewhere,
    isLocal(name) {
      const list = bindings.get(name);
      return list?.every((b) => b.kind !== "runner") ?? false;
    },
    stringOf(n) {
      if (!isNode(n)) return undefined;
      switch (n.type) {
        case "StringLiteral":
          return n.value as string;
        case "NumericLiteral":
          return String(n.value);
        case "TemplateLiteral": {
          const quasis = n.quasis as Node[];
          const exprs = n.expressions as Node[];
          let s = "";
          for (let i = 0; i < quasis.length; i++) {
            s += ((quasis[i]?.value ?? {}) as { cooked?: string }).cooked ?? "";
            if (i < exprs.length) {
              const part = scope.stringOf(exprs[i]);
              if (part === undefined) return undefined;
              s += part;
            }
          }
          return s;
        }
        case "BinaryExpression": {
          if (n.operator !== "+") return undefined;
          const l = scope.stringOf(n.left);
          const r = scope.stringOf(n.right);
          return l === undefined || r === undefined ? undefined : l + r;
        }
        case "Identifier": {
          // A string only if every binding of the name holds that one string and nothing
          // assigns it again (`let s = "each"; s = "skip"` is not "each").
          const name = n.name as string;
          const list = bindings.get(name);
          const first = list?.[0];
          if (first?.kind !== "string" || reassigned.has(name)) return undefined;
          return list?.every((b) => b.kind === "string" && b.value === first.value)
            ? first.value
            : undefined;
        }
        case "TSAsExpression":
        case "TSSatisfiesExpression":
        case "TSNonNullExpression":
        case "ParenthesizedExpression":
          return scope.stringOf(n.expression);
        default:
          return undefined;
      }
    },
    pathOf(n) {
      if (!isNode(n)) return undefined;
      switch (n.type) {
        case "Identifier": {
          const name = n.name as string;
          const list = bindings.get(name);
          const runner = list?.find((b) => b.kind === "runner");
          if (runner?.kind === "runner") return runner.path;
          if (list === undefined && RUNNER_GLOBALS.has(name)) return [name];
          return undefined;
        }
        case "MemberExpression":
        case "OptionalMemberExpression": {
          const obj = unwrap(n.object as Node);
          // `globalThis.expect`, `global.assert`: the global itself.
          if (
            obj.type === "Identifier" &&
            /^(?:globalThis|global|window|self)$/.test(obj.name as string)
          ) {
            const key = keyOf(n, scope);
            return key !== undefined && RUNNER_GLOBALS.has(key) ? [key] : undefined;
          }
          const base = scope.pathOf(obj) ?? requirePath(obj);
          if (base === undefined) return undefined;
          const key = keyOf(n, scope);
          return [...base, key ?? "?"];
        }
        case "CallExpression":
          return requirePath(n);
        case "TSAsExpression":
        case "TSSatisfiesExpression":
        case "TSNonNullExpression":
        case "ParenthesizedExpression":
        case "AwaitExpression":
          return scope.pathOf(n.expression ?? n.argument);
        default:
          return undefined;
      }
    },
  };
  const requirePath = (n: Node): string[] | undefined => {
    const source = requireOf(n);
    if (source === undefined || !RUNNER_MODULE.test(source)) return undefined;
    return moduleRoot(source);
  };
  const bindPattern = (id: Node, base: string[] | undefined) => {
    if (id.type === "Identifier") {
      bind(id.name as string, base ? { kind: "runner", path: base } : { kind: "local" });
    } else if (id.type === "ObjectPattern") {
      for (const p of id.properties as Node[]) {
        if (p.type === "RestElement") bindPattern(p.argument as Node, base);
        else {
          const key = p.computed ? scope.stringOf(p.key) : keyName(p.key as Node);
          bindPattern(p.value as Node, base ? [...base, key ?? "?"] : undefined);
        }
      }
    } else if (id.type === "ArrayPattern") {
      for (const e of id.elements as (Node | null)[]) if (e) bindPattern(e, undefined);
    } else if (id.type === "AssignmentPattern") {
      bindPattern(id.left as Node, base);
    }
  };
  walk(program, (n) => {
    if (n.type === "ImportDeclaration") {
      const source = (n.source as Node).value as string;
      const runner = RUNNER_MODULE.test(source);
      for (const s of n.specifiers as Node[]) {
        const local = (s.local as Node).name as string;
        if (!runner) {
          bind(local, { kind: "local" });
          importedElsewhere.add(local);
          continue;
        }
        if (s.type === "ImportDefaultSpecifier")
          bind(local, { kind: "runner", path: defaultExport(source) });
        else if (s.type === "ImportNamespaceSpecifier")
          bind(local, { kind: "runner", path: moduleRoot(source) });
        else {
          const imported = keyName(s.imported as Node) ?? local;
          const root = moduleRoot(source);
          bind(local, {
            kind: "runner",
            path: imported === "default" ? defaultExport(source) : [...root, imported],
          });
        }
      }
    } else if (n.type === "VariableDeclarator") {
      const id = n.id as Node;
      const init = n.init as Node | null;
      if (!init) {
        bindPattern(id, undefined);
        return;
      }
      if (id.type === "Identifier") {
        const s = scope.stringOf(init);
        if (s !== undefined) {
          bind(id.name as string, { kind: "string", value: s });
          return;
        }
        if (FUNCTION_TYPES.has(init.type)) functions.set(id.name as string, init);
        if (init.type === "ObjectExpression") objects.set(id.name as string, init);
      }
      bindPattern(id, scope.pathOf(init));
    } else if (n.type === "AssignmentExpression" || n.type === "UpdateExpression") {
      const target = (n.left ?? n.argument) as Node;
      if (target.type === "Identifier") reassigned.add(target.name as string);
    } else if (n.type === "FunctionDeclaration" || n.type === "ClassDeclaration") {
      const id = n.id as Node | null;
      if (id) {
        bind(id.name as string, { kind: "local" });
        if (n.type === "FunctionDeclaration") functions.set(id.name as string, n);
      }
    }
  });
  return scope;
}

/** The expression under TypeScript's casts and parentheses: `(globalThis as any)` is globalThis. */
function unwrap(n: Node): Node {
  let c = n;
  while (
    /^(?:TSAsExpression|TSSatisfiesExpression|TSNonNullExpression|TSTypeAssertion|ParenthesizedExpression)$/.test(
      c.type,
    )
  )
    c = c.expression as Node;
  return c;
}

function keyName(k: Node): string | undefined {
  if (k.type === "Identifier" || k.type === "PrivateName")
    return (k.name ?? (k.id as Node)?.name) as string;
  if (k.type === "StringLiteral" || k.type === "NumericLiteral") return String(k.value);
  return undefined;
}

/** A member's or property's key: `a.b`, `a["b"]`, `a[s]` with s a known string; `?` when computed and unknown. */
export function keyOf(n: Node, scope: Scope): string | undefined {
  const key = (n.property ?? n.key) as Node;
  if (n.computed) return scope.stringOf(key) ?? "?";
  return keyName(key);
}

/** The line's text, trimmed and cut for a message. */
export function lineText(text: string, line: number): string {
  return (text.split("\n")[line - 1] ?? "").trim().slice(0, 120);
}
