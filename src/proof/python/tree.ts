import { tmpdir } from "node:os";
import { runProcess } from "../../process/run-process.js";

/**
 * Python syntax trees, read by Python's own `ast` module: the grammar of the
 * very interpreter that runs the pull request's pytest tests, and nothing to
 * bundle (a WebAssembly parser would ship its `.wasm` beside the bundle and
 * lag the language). The parser only parses: `ast.parse` executes nothing,
 * and `-I` (isolated: no PYTHON* variables, no user site, no script or
 * working directory on the path) with `-S` (no `site`) keeps the checkout's
 * files from being imported, so none of the pull request's code runs outside
 * its sandbox. The trees come back as JSON, read by pure code
 * (src/proof/python/mutants.ts, src/proof/python/tamper.ts).
 */

/** One node: its class name, `[line, col, endLine, endCol]` (cols in UTF-8 bytes, as `ast` gives them), its fields. */
export interface PyNode {
  _: string;
  p?: [number, number, number, number];
  /** A `Constant`'s kind: `int`, `float`, `str`, `bytes`, `bool`, `NoneType`, … */
  k?: string;
  /** A `Constant`'s truth (`bool(value)`): a zero or an empty string is false. */
  t?: boolean;
  /** A string `Constant`'s value, up to 300 characters (the tamper reading's paths and names). */
  v?: string;
  [field: string]: unknown;
}

// Kept on one line per statement so it reads as Python inside a template string.
const SCRIPT = `
import ast, json, sys
def conv(n):
    if isinstance(n, ast.AST):
        d = {"_": type(n).__name__}
        if hasattr(n, "lineno") and getattr(n, "end_lineno", None) is not None:
            d["p"] = [n.lineno, n.col_offset, n.end_lineno, n.end_col_offset]
        if isinstance(n, ast.Constant):
            d["k"] = type(n.value).__name__
            d["t"] = bool(n.value) if not isinstance(n.value, (complex,)) else True
            if isinstance(n.value, str) and len(n.value) <= 300:
                d["v"] = n.value
        for f in n._fields:
            v = getattr(n, f, None)
            if isinstance(v, (ast.AST, list)):
                d[f] = conv(v)
            elif isinstance(v, str) and f in ("id", "attr", "name", "asname", "arg", "module"):
                d[f] = v
        return d
    if isinstance(n, list):
        return [conv(x) for x in n]
    return None
out = {}
err = {}
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as fh:
            src = fh.read().decode("utf-8")
        out[path] = conv(ast.parse(src, path))
    except SyntaxError as e:
        out[path] = None
        err[path] = [e.lineno or 1, str(e.msg)]
    except Exception as e:
        out[path] = None
        err[path] = [1, type(e).__name__]
sys.stdout.write(json.dumps({"trees": out, "errors": err}))
`;

/** One file as python3 read it: its tree, or where and why it did not parse. */
export type PyParse = { tree: PyNode } | { line: number; error: string };

/**
 * The trees of `paths` (absolute), in one `python3` run found on `env`'s
 * PATH (the interpreter the tests run with). A file that is not UTF-8 or
 * does not parse maps to `undefined`; no python3 at all, every one does.
 */
export async function readPythonTrees(
  paths: readonly string[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<Map<string, PyNode | undefined>> {
  const parsed = await parsePython(paths, env, signal);
  return new Map(
    paths.map((p) => {
      const r = parsed.get(p);
      return [p, r !== undefined && "tree" in r ? r.tree : undefined];
    }),
  );
}

/**
 * Like `readPythonTrees`, with the syntax error's line and message for a file
 * that does not parse (the tamper reading says where); `undefined` only when
 * python3 could not read the file at all (none on the PATH, a crash).
 */
export async function parsePython(
  paths: readonly string[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<Map<string, PyParse | undefined>> {
  const out = new Map<string, PyParse | undefined>(paths.map((p) => [p, undefined]));
  if (paths.length === 0) return out;
  const run = await runProcess({
    file: "python3",
    args: ["-I", "-S", "-c", SCRIPT, ...paths],
    cwd: tmpdir(),
    env: { PATH: env.PATH ?? process.env.PATH ?? "/usr/bin:/bin" },
    timeoutMs: 120_000,
    stdoutLimitBytes: 512 * 1024 * 1024,
    ...(signal !== undefined && { signal }),
  });
  if (run.kind !== "exited" || run.exitCode !== 0 || run.stdoutExceeded) return out;
  try {
    const read = JSON.parse(run.stdout) as {
      trees: Record<string, PyNode | null>;
      errors: Record<string, [number, string]>;
    };
    for (const p of paths) {
      const tree = read.trees[p];
      const error = read.errors[p];
      if (tree) out.set(p, { tree });
      else if (error) out.set(p, { line: error[0], error: error[1] });
    }
  } catch {
    // Unreadable output: no trees, so no mutants — the grade stays as fail-to-pass gave it.
  }
  return out;
}

/**
 * A converter from `ast`'s positions (line, UTF-8 byte column) to offsets
 * in the JavaScript string of the same text.
 */
export function offsetsOf(text: string): (line: number, byteCol: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (line, byteCol) => {
    const start = starts[line - 1] ?? text.length;
    let bytes = 0;
    let i = start;
    while (i < text.length && bytes < byteCol) {
      const c = text.codePointAt(i) as number;
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      i += c >= 0x10000 ? 2 : 1;
    }
    return i;
  };
}

/** Every child node of `n`, with the field it sits in. */
export function children(n: PyNode): [string, PyNode][] {
  const out: [string, PyNode][] = [];
  for (const [key, value] of Object.entries(n)) {
    if (key === "_" || key === "p") continue;
    if (Array.isArray(value)) {
      for (const v of value) if (isNode(v)) out.push([key, v]);
    } else if (isNode(value)) out.push([key, value]);
  }
  return out;
}

export const isNode = (v: unknown): v is PyNode =>
  typeof v === "object" && v !== null && typeof (v as PyNode)._ === "string";
