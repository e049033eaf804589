import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonTamper } from "../src/proof/python/tamper.js";
import { readPythonTrees } from "../src/proof/python/tree.js";

/** The trees python3's own ast gives for each text, in order. */
async function trees(...texts: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "cg-py-tamper-"));
  const paths = texts.map((t, k) => {
    const p = join(dir, `f${k}.py`);
    writeFileSync(p, t);
    return p;
  });
  const out = await readPythonTrees(paths, process.env);
  return paths.map((p) => out.get(p));
}

async function read(head: string, isTest: boolean, base?: string) {
  const [h, b] = await trees(head, base ?? "");
  return pythonTamper(h, base === undefined ? undefined : b, isTest).map(
    (t) => `${t.line} ${t.rule} ${t.what}`,
  );
}

describe("Python tampering, read from python3's ast", () => {
  it("exit in a test file: sys.exit, os._exit, an alias, raise SystemExit", async () => {
    const test =
      "import sys, os\nfrom sys import exit as leave\ndef test_a():\n    sys.exit(0)\ndef test_b():\n    os._exit(0)\n    leave(0)\n    raise SystemExit(0)\n";
    expect(await read(test, true)).toEqual([
      "4 exit-in-test sys.exit",
      "6 exit-in-test os._exit",
      "7 exit-in-test sys.exit",
      "8 exit-in-test raise SystemExit",
    ]);
    // Twins: a CLI's source may exit; an exit the base already had is not new; an honest test has none.
    expect(await read(test, false)).toEqual([]);
    expect(await read(test, true, test)).toEqual([]);
    expect(await read("def test_a():\n    assert 1 + 1 == 2\n", true)).toEqual([]);
    // Not by spelling: in a string or a comment it is not a call.
    expect(await read('# sys.exit(0)\ns = "sys.exit(0)"\n', true)).toEqual([]);
  });

  it("patching unittest, pytest or AssertionError, aliases followed, and result-rewriting pytest hooks", async () => {
    const src = [
      "import unittest, pytest as p, builtins",
      "from unittest import TestCase as T",
      "unittest.TestCase.assertEqual = lambda *a, **k: None",
      "T.assertTrue = lambda *a, **k: None",
      "p.fail = print",
      "setattr(unittest.TestCase, 'assertIn', print)",
      "builtins.AssertionError = Warning",
      "def pytest_sessionfinish(session, exitstatus):",
      "    session.exitstatus = 0",
      "def test_x(monkeypatch):",
      "    monkeypatch.setattr('unittest.TestCase.assertFalse', print)",
      "",
    ].join("\n");
    expect(await read(src, false)).toEqual([
      "3 runner-patched unittest.TestCase.assertEqual",
      "4 runner-patched unittest.TestCase.assertTrue",
      "5 runner-patched pytest.fail",
      "6 runner-patched unittest.TestCase",
      "7 runner-patched builtins.AssertionError",
      "8 runner-patched pytest_sessionfinish hook",
      "11 runner-patched unittest.TestCase.assertFalse",
    ]);
    // Twin: using the assertions and patching one's own code is ordinary work.
    const honest =
      "import os, unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\ndef test_b(monkeypatch):\n    monkeypatch.setattr(os, 'getcwd', lambda: '/')\n    monkeypatch.setattr('os.getcwd', lambda: '/')\n";
    expect(await read(honest, true)).toEqual([]);
  });

  it("reading the runner's command line or environment from /proc", async () => {
    const src = [
      "import os, psutil",
      "a = open(f'/proc/{os.getppid()}/cmdline').read()",
      "b = open(os.path.join('/proc', str(os.getppid()), 'environ')).read()",
      "c = open('/proc/self/cmdline').read()",
      "d = psutil.Process(os.getppid()).cmdline()",
      "",
    ].join("\n");
    expect(await read(src, false)).toEqual([
      "2 proc-read /proc/<pid>/cmdline",
      "3 proc-read /proc/<pid>/environ",
      "4 proc-read /proc/<pid>/cmdline",
      "5 proc-read psutil cmdline()",
    ]);
    // Twin: /proc for something else, and "cmdline" with no /proc in the file.
    expect(await read("open('/proc/cpuinfo').read()\nx = {'cmdline': 1}\n", false)).toEqual([]);
    expect(await read("x = 'cmdline'\n", false)).toEqual([]);
  });
});
