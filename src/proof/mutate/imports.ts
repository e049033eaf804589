import { parse } from "@babel/parser";
import { isPython } from "./operators.js";

/**
 * The files a set of test files loads, by the static import graph, pure
 * (the caller reads the files): relative `import`/`export … from`,
 * `require("…")` and `import("…")` with a literal for JavaScript/TypeScript
 * (read by `@babel/parser`, as mutants are); `import a.b` and
 * `from .a import b` for Python, resolved against the checkout's own `.py`
 * files. Only the order of mutants depends on it (docs/proof.md, "Mutation
 * adequacy": mutants of a file the tests do not load come last), so a
 * specifier it cannot resolve (a package, a path alias, a computed name)
 * costs a later place, never a grade.
 */
export function loadedFiles(
  tests: readonly string[],
  read: (path: string) => string | undefined,
  limit = 5000,
): Set<string> {
  const seen = new Set<string>();
  const queue = [...tests];
  while (queue.length > 0 && seen.size < limit) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = read(file);
    if (text === undefined) continue;
    const has = (p: string) => read(p) !== undefined;
    const next = isPython(file)
      ? pythonImports(file, text, has)
      : jsImports(text).flatMap((s) => resolveJs(file, s, has));
    for (const n of next) if (!seen.has(n)) queue.push(n);
  }
  return seen;
}

const JS_EXT = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** A relative specifier's file: as written, its `.js` spelled as the TypeScript source, an extension added, an index. */
function resolveJs(from: string, spec: string, has: (p: string) => boolean): string[] {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return [];
  const target = join(dir(from), spec);
  const stem = target.replace(/\.[cm]?[jt]sx?$/, "");
  const candidates = [
    target,
    ...JS_EXT.map((e) => stem + e),
    ...JS_EXT.map((e) => `${target}${e}`),
    ...JS_EXT.map((e) => `${target}/index${e}`),
  ];
  const hit = candidates.find(has);
  return hit === undefined ? [] : [hit];
}

/** Every literal module specifier a JavaScript/TypeScript file names; none when it does not parse. */
export function jsImports(text: string): string[] {
  let ast: unknown;
  try {
    ast = parse(text, {
      sourceType: "unambiguous",
      plugins: ["typescript", "jsx"],
      errorRecovery: true,
    });
  } catch {
    try {
      ast = parse(text, {
        sourceType: "unambiguous",
        plugins: ["typescript"],
        errorRecovery: true,
      });
    } catch {
      return [];
    }
  }
  const out: string[] = [];
  const visit = (n: unknown) => {
    if (Array.isArray(n)) {
      for (const c of n) visit(c);
      return;
    }
    if (typeof n !== "object" || n === null) return;
    const node = n as { type?: string; [k: string]: unknown };
    if (typeof node.type !== "string") return;
    const literal = (v: unknown) => {
      const s = v as { type?: string; value?: unknown } | null;
      if (s?.type === "StringLiteral" && typeof s.value === "string") out.push(s.value);
    };
    if (
      node.type === "ImportDeclaration" ||
      node.type === "ExportAllDeclaration" ||
      node.type === "ExportNamedDeclaration"
    )
      literal(node.source);
    if (node.type === "CallExpression") {
      const callee = node.callee as { type?: string; name?: string };
      const first = (node.arguments as unknown[])[0];
      if (callee.type === "Import" || (callee.type === "Identifier" && callee.name === "require"))
        literal(first);
    }
    if (node.type === "ImportExpression") literal(node.source);
    for (const [k, v] of Object.entries(node)) {
      if (k === "loc" || k === "start" || k === "end" || k === "extra") continue;
      if (typeof v === "object" && v !== null) visit(v);
    }
  };
  visit((ast as { program: unknown }).program);
  return out;
}

// A Python import statement, at a line's start (after indentation): `import a.b as c, d` or `from .a import (b, c)`.
const PY_IMPORT =
  /^[ \t]*import[ \t]+([\w. \t,]+)|^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w. \t,]+))/gm;

/**
 * The checkout's `.py` files a Python file imports. An absolute module
 * `a.b` is `a/b.py` or `a/b/__init__.py` under the importing file's
 * directory or one above it (the directories pytest's rootdir insertion
 * puts on the path), or under `src/`; a relative one resolves from the
 * importing file's package. `from m import n` also tries `m.n` (a module).
 */
function pythonImports(file: string, text: string, has: (p: string) => boolean): string[] {
  const modules: { name: string; level: number }[] = [];
  for (const m of text.matchAll(PY_IMPORT)) {
    if (m[1] !== undefined) {
      for (const part of m[1].split(",")) {
        const name = part.trim().split(/[ \t]+/)[0];
        if (name) modules.push({ name, level: 0 });
      }
    } else if (m[2] !== undefined) {
      const level = /^\.*/.exec(m[2])?.[0].length ?? 0;
      const base = m[2].slice(level);
      modules.push({ name: base, level });
      for (const part of (m[3] ?? m[4] ?? "").replace(/\s+/g, " ").split(",")) {
        const name = part.trim().split(/[ \t]+/)[0];
        if (name && name !== "*") modules.push({ name: base ? `${base}.${name}` : name, level });
      }
    }
  }
  const roots = ["src"];
  for (let d = dir(file); ; d = dir(d)) {
    roots.push(d);
    if (d === "") break;
  }
  const out = new Set<string>();
  for (const { name, level } of modules) {
    const rel = name.split(".").filter(Boolean).join("/");
    if (level > 0) {
      let d = dir(file);
      for (let i = 1; i < level; i++) d = dir(d);
      const stem = rel ? join(d, rel) : d;
      for (const c of [`${stem}.py`, `${stem}/__init__.py`]) if (has(c)) out.add(c);
    } else if (rel) {
      for (const r of roots) {
        const stem = join(r, rel);
        for (const c of [`${stem}.py`, `${stem}/__init__.py`]) if (has(c)) out.add(c);
      }
    }
  }
  return [...out];
}

/** A path's directory (`""` at the top), `/`-separated as the checkout's paths are. */
function dir(p: string): string {
  const k = p.lastIndexOf("/");
  return k < 0 ? "" : p.slice(0, k);
}

/** `a/b` joined with `../c` → `a/c`, `/`-separated, never above the top. */
function join(base: string, rel: string): string {
  const parts = base === "" ? [] : base.split("/");
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return parts.join("/");
}
