import { inSourceOrder, type Mutant, type MutationOperator } from "../mutate/operators.js";
import { children, offsetsOf, type PyNode } from "./tree.js";

/**
 * Mutants of the lines a pull request added or changed in a Python file,
 * read from its syntax tree (src/proof/python/tree.ts), pure. The operators
 * of the JavaScript ones (docs/proof.md, "Mutation adequacy") in Python's
 * spelling: `not (…)` around a condition, a flipped comparison (`<` → `>=`,
 * `in` → `not in`, `is` → `is not`), off-by-one on a bound, `and`/`or`
 * swapped, a returned value replaced by its type's empty value (`None`,
 * `""`, `0`, `[]`, `{}`, `()`), a call statement replaced by `pass`, a
 * literal changed. Never in comments (the tree has none), docstrings or any
 * string statement, dict keys, string subscripts (`d["key"]`), f-strings,
 * imports, annotations, type aliases or `match` patterns.
 */
export function pythonMutantsOf(
  file: string,
  text: string,
  tree: PyNode | undefined,
  lines: ReadonlySet<number>,
): Mutant[] {
  if (tree === undefined || lines.size === 0) return [];
  const at = offsetsOf(text);
  const span = (n: PyNode) => {
    const [l, c, el, ec] = n.p as [number, number, number, number];
    return { start: at(l, c), end: at(el, ec), line: l };
  };
  const out: Mutant[] = [];
  const add = (
    line: number,
    operator: MutationOperator,
    start: number,
    end: number,
    after: string,
  ) => {
    // The same text (`return ""` emptied) is a mutant no test can kill: none.
    if (!lines.has(line) || end <= start || text.slice(start, end) === after) return;
    out.push({ file, line, operator, before: oneLine(text.slice(start, end)), after, start, end });
  };
  // The operator between two operands: searched in the text between them, comments blanked.
  const between = (left: PyNode, right: PyNode, re: RegExp) => {
    const from = span(left).end;
    const gap = text
      .slice(from, span(right).start)
      .replace(/#[^\n]*/g, (c) => " ".repeat(c.length));
    const m = re.exec(gap);
    return m ? { start: from + m.index, end: from + m.index + m[0].length } : undefined;
  };
  const negate = (owner: PyNode, test: PyNode) => {
    if (!test.p || !owner.p) return;
    const s = span(test);
    add(owner.p[0], "negate-condition", s.start, s.end, `not (${text.slice(s.start, s.end)})`);
  };
  const emptyReturn = (line: number, value: PyNode) => {
    if (!value.p) return;
    const after = emptyOf(value);
    if (after === undefined) return;
    const s = span(value);
    add(line, "empty-return", s.start, s.end, after);
  };

  const visit = (n: PyNode) => {
    switch (n._) {
      case "Import":
      case "ImportFrom":
      case "TypeAlias":
      case "JoinedStr":
        return;
      case "Expr": {
        const v = n.value as PyNode;
        // A string statement (a docstring or a comment written as a string): never a value.
        if (v._ === "Constant" && (v.k === "str" || v.k === "bytes")) return;
        const call = v._ === "Await" ? (v.value as PyNode) : v;
        if (call._ === "Call" && n.p) {
          const s = span(n);
          add(n.p[0], "remove-call", s.start, s.end, "pass");
        }
        break;
      }
      case "If":
      case "While":
      case "IfExp":
        negate(n, n.test as PyNode);
        break;
      case "comprehension":
        for (const c of (n.ifs as PyNode[] | undefined) ?? []) negate(c, c);
        break;
      case "Compare": {
        const operands = [n.left as PyNode, ...((n.comparators as PyNode[]) ?? [])];
        const ops = (n.ops as PyNode[]) ?? [];
        ops.forEach((op, k) => {
          const left = operands[k];
          const right = operands[k + 1];
          const spelling = COMPARE[op._];
          if (!left?.p || !right?.p || !spelling || !n.p) return;
          const found = between(left, right, spelling.re);
          if (!found) return;
          add(n.p[0], "flip-comparison", found.start, found.end, spelling.flip);
          if (spelling.bound) add(n.p[0], "off-by-one", found.start, found.end, spelling.bound);
        });
        break;
      }
      case "BoolOp": {
        const values = (n.values as PyNode[]) ?? [];
        const to = (n.op as PyNode)._ === "And" ? "or" : "and";
        for (let k = 0; k + 1 < values.length; k++) {
          const left = values[k];
          const right = values[k + 1];
          if (!left?.p || !right?.p || !n.p) continue;
          const found = between(left, right, /\b(?:and|or)\b/);
          if (found) add(n.p[0], "swap-logical", found.start, found.end, to);
        }
        break;
      }
      case "Return":
        if (n.value && n.p) emptyReturn(n.p[0], n.value as PyNode);
        break;
      case "Lambda": {
        const body = n.body as PyNode;
        if (body.p) emptyReturn(body.p[0], body);
        break;
      }
      case "Constant": {
        if (!n.p) break;
        const s = span(n);
        const after = changedLiteral(n);
        if (after !== undefined) add(n.p[0], "change-literal", s.start, s.end, after);
        break;
      }
    }
    for (const [key, child] of children(n)) {
      if (SKIPPED_FIELDS.has(key)) continue;
      // Keys are names, not values: a dict's keys and a string subscript (`d["key"]`).
      if (n._ === "Dict" && key === "keys") continue;
      if (n._ === "Subscript" && key === "slice" && child._ === "Constant" && child.k === "str")
        continue;
      visit(child);
    }
  };
  visit(tree);
  return inSourceOrder(out);
}

/** Type-only or pattern fields: annotations, return types, type parameters, `case` patterns. */
const SKIPPED_FIELDS = new Set(["annotation", "returns", "type_params", "pattern", "type_comment"]);

const COMPARE: Record<string, { re: RegExp; flip: string; bound?: string }> = {
  Lt: { re: /<(?!=)/, flip: ">=", bound: "<=" },
  LtE: { re: /<=/, flip: ">", bound: "<" },
  Gt: { re: />(?!=)/, flip: "<=", bound: ">=" },
  GtE: { re: />=/, flip: "<", bound: ">" },
  Eq: { re: /==/, flip: "!=" },
  NotEq: { re: /!=/, flip: "==" },
  In: { re: /\bin\b/, flip: "not in" },
  NotIn: { re: /\bnot\s+in\b/, flip: "in" },
  Is: { re: /\bis\b(?!\s+not\b)/, flip: "is not" },
  IsNot: { re: /\bis\s+not\b/, flip: "is" },
};

function emptyOf(value: PyNode): string | undefined {
  switch (value._) {
    case "Constant":
      if (value.k === "NoneType") return undefined; // already empty
      if (value.k === "str") return '""';
      if (value.k === "bytes") return 'b""';
      if (value.k === "bool") return value.t ? "False" : "True";
      if (value.k === "int" || value.k === "float") return value.t ? "0" : "1";
      return "None";
    case "JoinedStr":
      return '""';
    case "List":
    case "ListComp":
      return "[]";
    case "Dict":
    case "DictComp":
      return "{}";
    case "Tuple":
      return "()";
    case "Set":
    case "SetComp":
      return "set()";
    default:
      return "None";
  }
}

function changedLiteral(n: PyNode): string | undefined {
  switch (n.k) {
    case "bool":
      return n.t ? "False" : "True";
    case "int":
    case "float":
      return n.t ? "0" : "1";
    case "str":
      return n.t ? '""' : undefined;
    case "bytes":
      return n.t ? 'b""' : undefined;
    default:
      return undefined;
  }
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
