import { type ParserPlugin, parse } from "@babel/parser";

/**
 * Mutants of the lines a pull request added or changed, read from the
 * syntax tree (`@babel/parser`: JavaScript, TypeScript, JSX), pure. The
 * usual small set of operators (docs/proof.md, "Mutation adequacy"):
 * negate a condition, flip a comparison, off-by-one on a bound, swap `&&`
 * and `||`, replace a returned value with an empty one, remove a call
 * statement, change a literal. Never in comments (the tree has none), keys,
 * imports, exports' sources, directives or type-only code.
 */

export type MutationOperator =
  | "negate-condition"
  | "flip-comparison"
  | "off-by-one"
  | "swap-logical"
  | "empty-return"
  | "remove-call"
  | "change-literal";

export interface Mutant {
  file: string;
  line: number;
  operator: MutationOperator;
  /** The source text replaced, and what replaces it (one line each, for the reports). */
  before: string;
  after: string;
  /** Offsets in the file's text. */
  start: number;
  end: number;
}

/** The mutated text of a mutant's file. */
export function applyMutant(text: string, m: Mutant): string {
  return text.slice(0, m.start) + m.after + text.slice(m.end);
}

const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;

/** Whether the gate can mutate this file: JavaScript/TypeScript (not declarations) or Python (not stubs). */
export function mutable(path: string): boolean {
  return (JS_FILE.test(path) && !/\.d\.[cm]?ts$/.test(path)) || isPython(path);
}

/** Python source, mutated through Python's own parser (src/proof/python/). */
export function isPython(path: string): boolean {
  return path.endsWith(".py");
}

const FLIP: Record<string, string> = {
  "<": ">=",
  "<=": ">",
  ">": "<=",
  ">=": "<",
  "===": "!==",
  "!==": "===",
  "==": "!=",
  "!=": "==",
};
const BOUND: Record<string, string> = { "<": "<=", "<=": "<", ">": ">=", ">=": ">" };

// Keys whose subtree is type-only: never mutated.
const TYPE_KEYS = new Set([
  "typeAnnotation",
  "typeParameters",
  "typeArguments",
  "returnType",
  "superTypeParameters",
  "implements",
  "predicate",
]);

interface Node {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number } };
  [key: string]: unknown;
}

const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).type === "string";

/**
 * Every mutant of `text` whose node starts on one of `lines` (1-based), in
 * source order. A file that does not parse has none.
 */
export function mutantsOf(file: string, text: string, lines: ReadonlySet<number>): Mutant[] {
  if (!JS_FILE.test(file) || !mutable(file) || lines.size === 0) return [];
  const plugins: ParserPlugin[] = /\.[cm]?tsx?$/.test(file) ? ["typescript"] : [];
  if (/x$/.test(file) || !/\.[cm]?ts$/.test(file)) plugins.push("jsx");
  let ast: unknown;
  try {
    ast = parse(text, { sourceType: "unambiguous", plugins, errorRecovery: false });
  } catch {
    return [];
  }
  const out: Mutant[] = [];
  const src = (n: { start: number; end: number }) => text.slice(n.start, n.end);
  const add = (n: Node, operator: MutationOperator, start: number, end: number, after: string) => {
    // Outside the change, or the same text (`return ""` emptied): no mutant, or one no test can kill.
    if (!lines.has(n.loc.start.line) || text.slice(start, end) === after) return;
    out.push({
      file,
      line: n.loc.start.line,
      operator,
      before: oneLine(text.slice(start, end)),
      after,
      start,
      end,
    });
  };
  const visit = (n: Node) => {
    if (n.type.startsWith("TS") && n.type !== "TSAsExpression" && n.type !== "TSNonNullExpression")
      if (!["TSSatisfiesExpression", "TSTypeAssertion"].includes(n.type)) return;
    switch (n.type) {
      case "ImportDeclaration":
      case "ExportAllDeclaration":
      case "Directive":
        return;
      case "IfStatement":
      case "ConditionalExpression":
      case "WhileStatement":
      case "DoWhileStatement": {
        const test = n.test as Node;
        add(n, "negate-condition", test.start, test.end, `!(${src(test)})`);
        break;
      }
      case "BinaryExpression": {
        const op = n.operator as string;
        const left = n.left as Node;
        const right = n.right as Node;
        const opAt = text.indexOf(op, left.end);
        if (opAt >= 0 && opAt < right.start) {
          const flip = FLIP[op];
          if (flip) add(n, "flip-comparison", opAt, opAt + op.length, flip);
          const bound = BOUND[op];
          if (bound) add(n, "off-by-one", opAt, opAt + op.length, bound);
        }
        break;
      }
      case "LogicalExpression": {
        const op = n.operator as string;
        const left = n.left as Node;
        const right = n.right as Node;
        const opAt = text.indexOf(op, left.end);
        if ((op === "&&" || op === "||") && opAt >= 0 && opAt < right.start)
          add(n, "swap-logical", opAt, opAt + 2, op === "&&" ? "||" : "&&");
        break;
      }
      case "ReturnStatement": {
        const arg = n.argument as Node | null;
        if (arg) add(n, "empty-return", arg.start, arg.end, emptyOf(arg));
        break;
      }
      case "ArrowFunctionExpression": {
        const body = n.body as Node;
        if (body.type !== "BlockStatement")
          add(body, "empty-return", body.start, body.end, emptyOf(body));
        break;
      }
      case "ExpressionStatement": {
        const e = n.expression as Node;
        const call = e.type === "AwaitExpression" ? (e.argument as Node) : e;
        if (call.type === "CallExpression" || call.type === "OptionalCallExpression")
          add(n, "remove-call", n.start, n.end, ";");
        break;
      }
      case "NumericLiteral": {
        const v = n.value as number;
        add(n, "change-literal", n.start, n.end, v === 0 ? "1" : "0");
        break;
      }
      case "BooleanLiteral":
        add(n, "change-literal", n.start, n.end, n.value ? "false" : "true");
        break;
      case "StringLiteral":
        if ((n.value as string) !== "") add(n, "change-literal", n.start, n.end, '""');
        break;
    }
    for (const [key, value] of Object.entries(n)) {
      if (TYPE_KEYS.has(key) || key === "loc" || key === "leadingComments") continue;
      // Keys: an object's property names and a class's member names are not values.
      if (key === "key" && !n.computed) continue;
      if (
        key === "property" &&
        n.type.endsWith("MemberExpression") &&
        (!n.computed || (value as Node).type === "StringLiteral")
      )
        continue;
      if (key === "source" && n.type.startsWith("Export")) continue;
      if (Array.isArray(value)) {
        for (const v of value) if (isNode(v)) visit(v);
      } else if (isNode(value)) visit(value);
    }
  };
  const program = (ast as { program: Node }).program;
  visit(program);
  // Keys used as strings: `obj["key"]` and `{ "key": v }` are covered by the key rules above;
  // a string compared as a tag (`kind === "x"`) is a value and may change.
  return inSourceOrder(out);
}

/**
 * Mutants in source order, each edit once: two rules reaching the same span
 * with the same replacement are one mutant (the sampler must not weigh it
 * twice). Shared by every language's mutant maker.
 */
export function inSourceOrder(out: readonly Mutant[]): Mutant[] {
  const seen = new Set<string>();
  return [...out]
    .sort((a, b) => a.start - b.start || a.operator.localeCompare(b.operator))
    .filter((m) => {
      const k = `${m.start}:${m.end}:${m.after}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

function emptyOf(arg: Node): string {
  switch (arg.type) {
    case "StringLiteral":
    case "TemplateLiteral":
      return '""';
    case "NumericLiteral":
      // A returned 0 is already empty: 1 keeps the mutant a change.
      return arg.value === 0 ? "1" : "0";
    case "BooleanLiteral":
      return arg.value ? "false" : "true";
    case "ArrayExpression":
      return "[]";
    case "ObjectExpression":
      return "({})";
    default:
      return "undefined";
  }
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
