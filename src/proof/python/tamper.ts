import type { TreeRole, TreeSignal, TreeSignalCode } from "../tamper-tree.js";
import { children, type PyNode } from "./tree.js";

/**
 * Tampering in Python read from the syntax tree (src/proof/python/tree.ts),
 * pure: what a pull request adds that lets the measured process decide its
 * own verdict (docs/proof.md, "Tampering").
 *
 * - `exit-in-test`: `sys.exit`, `os._exit`, `exit`/`quit`, `raise
 *   SystemExit` in a test file — the runner's exit status is then the test's.
 * - `runner-patched`: an assignment, `del`, `setattr` or monkeypatch/mock
 *   patch of `unittest`, `unittest.TestCase` (its `assert*` methods),
 *   `pytest`/`_pytest` or `builtins.AssertionError`, aliases followed
 *   (`import pytest as p`, `from unittest import TestCase as T`); and a
 *   pytest hook that rewrites results or the exit status
 *   (`pytest_runtest_makereport`, `pytest_runtest_logreport`,
 *   `pytest_report_teststatus`, `pytest_sessionfinish`,
 *   `pytest_terminal_summary`, `pytest_collection_modifyitems`), in source
 *   or tests.
 * - `proc-read`: a path naming `/proc/…/cmdline` or `/proc/…/environ` (a
 *   string, or `/proc` and `cmdline`/`environ` as parts of one file's
 *   paths), or psutil's `.cmdline()`/`.environ()`: the runner's command line
 *   and environment carry the results path.
 *
 * Only what the head adds counts: each reading's occurrences at head beyond
 * its count at base (the last ones, as the JavaScript reading does).
 */
export type PythonTamperRule = "exit-in-test" | "runner-patched" | "proc-read";

export interface PythonTamper {
  rule: PythonTamperRule;
  line: number;
  /** What was read, for the message: `sys.exit`, `unittest.TestCase.assertEqual`, `/proc/<pid>/cmdline`. */
  what: string;
}

const RUNNER_MODULES = new Set(["unittest", "pytest", "_pytest"]);
const RESULT_HOOKS = new Set([
  "pytest_runtest_makereport",
  "pytest_runtest_logreport",
  "pytest_report_teststatus",
  "pytest_sessionfinish",
  "pytest_terminal_summary",
  "pytest_collection_modifyitems",
]);

/** New tampering in a Python file: at head beyond what its base version already had. */
export function pythonTamper(
  head: PyNode | undefined,
  base: PyNode | undefined,
  isTest: boolean,
): PythonTamper[] {
  const now = readTamper(head, isTest);
  const before = new Map<string, number>();
  for (const t of readTamper(base, isTest)) {
    const k = `${t.rule}\0${t.what}`;
    before.set(k, (before.get(k) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  return now.filter((t) => {
    const k = `${t.rule}\0${t.what}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    // The base's count covers the first occurrences; the rest are new.
    return n > (before.get(k) ?? 0);
  });
}

/** Every tampering one tree shows, in source order. */
export function readTamper(tree: PyNode | undefined, isTest: boolean): PythonTamper[] {
  if (tree === undefined) return [];
  const out: PythonTamper[] = [];
  // Local names bound to a runner module or one of its members: `p` for `import pytest as p`.
  const aliases = new Map<string, string>();
  const strings: { value: string; line: number }[] = [];
  // Set on `import psutil` / `from psutil import …`; imports come first in practice, and a
  // later one still counts for the calls after it.
  let psutil = false;
  const line = (n: PyNode) => n.p?.[0] ?? 0;

  /** The dotted name an expression spells (`unittest.TestCase.assertEqual`), aliases resolved. */
  const dotted = (n: PyNode | undefined): string | undefined => {
    if (n === undefined) return undefined;
    if (n._ === "Name" && typeof n.id === "string") return aliases.get(n.id) ?? n.id;
    if (n._ === "Attribute" && typeof n.attr === "string") {
      const left = dotted(n.value as PyNode);
      return left === undefined ? undefined : `${left}.${n.attr}`;
    }
    return undefined;
  };
  const isRunner = (name: string | undefined) =>
    name !== undefined &&
    (RUNNER_MODULES.has(name.split(".")[0] as string) ||
      name === "builtins.AssertionError" ||
      name === "AssertionError");
  const patched = (target: PyNode, at: PyNode) => {
    const name = dotted(target);
    // Binding the bare module name (`pytest = x`) or an attribute of it both count;
    // a plain local name that is no alias does not.
    if (target._ === "Attribute" && isRunner(name))
      out.push({ rule: "runner-patched", line: line(at), what: name as string });
  };

  const visit = (n: PyNode) => {
    switch (n._) {
      case "Import":
        for (const a of (n.names as PyNode[]) ?? []) {
          const name = a.name as string;
          if (name.split(".")[0] === "psutil") psutil = true;
          if (typeof a.asname === "string") aliases.set(a.asname, name);
        }
        break;
      case "ImportFrom": {
        const mod = n.module as string | undefined;
        if (mod?.split(".")[0] === "psutil") psutil = true;
        for (const a of (n.names as PyNode[]) ?? []) {
          const name = a.name as string;
          if (mod === undefined || name === "*") continue;
          aliases.set((a.asname as string | undefined) ?? name, `${mod}.${name}`);
        }
        break;
      }
      case "Assign":
        for (const t of (n.targets as PyNode[]) ?? []) patched(t, n);
        break;
      case "AugAssign":
      case "AnnAssign":
        patched(n.target as PyNode, n);
        break;
      case "Delete":
        for (const t of (n.targets as PyNode[]) ?? []) patched(t, n);
        break;
      case "FunctionDef":
      case "AsyncFunctionDef":
        if (RESULT_HOOKS.has(n.name as string))
          out.push({ rule: "runner-patched", line: line(n), what: `${n.name} hook` });
        break;
      case "Raise": {
        const exc = n.exc as PyNode | undefined;
        const name = dotted(exc?._ === "Call" ? (exc.func as PyNode) : exc);
        if (isTest && (name === "SystemExit" || name === "builtins.SystemExit"))
          out.push({ rule: "exit-in-test", line: line(n), what: "raise SystemExit" });
        break;
      }
      case "Call": {
        const name = dotted(n.func as PyNode);
        const args = (n.args as PyNode[]) ?? [];
        if (
          isTest &&
          name !== undefined &&
          ["sys.exit", "os._exit", "exit", "quit", "os.abort", "builtins.exit"].includes(name)
        )
          out.push({ rule: "exit-in-test", line: line(n), what: name });
        // setattr(unittest.TestCase, "assertEqual", …), monkeypatch.setattr(pytest, …),
        // monkeypatch.setattr("unittest.TestCase.assertEqual", …), mock.patch("pytest.fail").
        const last = name?.split(".").pop();
        if (last === "setattr" || last === "delattr" || name?.endsWith("patch.object")) {
          const first = args[0];
          const target =
            first?._ === "Constant" && typeof first.v === "string" ? first.v : dotted(first);
          if (isRunner(target))
            out.push({ rule: "runner-patched", line: line(n), what: target as string });
        } else if (last === "patch") {
          const first = args[0];
          if (first?._ === "Constant" && typeof first.v === "string" && isRunner(first.v))
            out.push({ rule: "runner-patched", line: line(n), what: first.v });
        }
        // psutil.Process(pid).cmdline(): the call's receiver is a call, so no dotted name.
        const func = n.func as PyNode;
        const attr = func._ === "Attribute" ? (func.attr as string) : undefined;
        if ((attr === "cmdline" || attr === "environ") && psutil)
          out.push({ rule: "proc-read", line: line(n), what: `psutil ${attr}()` });
        break;
      }
      case "Constant":
        if (typeof n.v === "string") strings.push({ value: n.v, line: line(n) });
        break;
    }
    for (const [, child] of children(n)) visit(child);
  };
  visit(tree);

  // /proc reads: one string naming it, or `/proc` and `cmdline`/`environ` in the same file.
  // A string that is a /proc directory prefix (`/proc`, `/proc/`, `/proc/self/`), not a file in it.
  const proc = strings.some((s) => /^\/proc(?:\/(?:[\w-]+\/)?)?$/.test(s.value));
  for (const s of strings) {
    const m = /^\/proc\/.*\b(cmdline|environ)\b/.exec(s.value);
    if (m) out.push({ rule: "proc-read", line: s.line, what: `/proc/<pid>/${m[1]}` });
    else if (proc) {
      // A part of a joined path or an f-string: `"cmdline"`, `"/cmdline"`.
      const part = s.value.replace(/^\/+|\/+$/g, "");
      if (part === "cmdline" || part === "environ")
        out.push({ rule: "proc-read", line: s.line, what: `/proc/<pid>/${part}` });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/**
 * One tree's tampering as the tamper hook's signals (src/proof/tamper-tree.ts),
 * under the JavaScript reading's codes where the meaning is the same: the
 * hook's caller compares base and head per file, by code and id (the rule
 * and what it names, as `pythonTamper` counts).
 */
export function pythonTreeSignals(tree: PyNode, role: TreeRole): TreeSignal[] {
  return readTamper(tree, role === "test").map((t) => ({
    code: SIGNAL_CODES[t.rule],
    id: `python-${t.rule}:${t.what}`,
    line: t.line,
    what: describe(t),
  }));
}

const SIGNAL_CODES: Record<PythonTamperRule, TreeSignalCode> = {
  "exit-in-test": "test-process-exit",
  "runner-patched": "assertion-library-patched",
  "proc-read": "runner-output-reached",
};

function describe(t: PythonTamper): string {
  switch (t.rule) {
    case "exit-in-test":
      return t.what === "raise SystemExit"
        ? "test code raises SystemExit"
        : `test code calls ${t.what}`;
    case "runner-patched":
      return t.what.endsWith(" hook")
        ? `defines the pytest hook ${t.what.slice(0, -" hook".length)}, which can rewrite results or the exit status`
        : `patches ${t.what}`;
    case "proc-read":
      return `reads another process's command line or environment (${t.what})`;
  }
}
