import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonTamper } from "../src/proof/python/tamper.js";
import { pythonTreeReader } from "../src/proof/python/tamper-reader.js";
import { readPythonTrees } from "../src/proof/python/tree.js";
import { type FileChange, tamperFindings } from "../src/proof/tamper.js";
import { TREE_READERS } from "../src/proof/tamper-tree.js";

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

/**
 * Through the tamper reading's entry point (`tamperFindings`) with the Python
 * reader in the hook: each attack is found at file:line under the JavaScript
 * reading's code; its control reads the same change with the spelling tables
 * alone (`treeReaders: {}`, the reading before the hook) and misses it; its
 * honest twin finds nothing.
 */
const hasPython = spawnSync("python3", ["-c", "import ast"]).status === 0;
const TEST_PY = "tests/test_cart.py";
const SOURCE_PY = "app/cart.py";
const BASE_TEST =
  "import unittest\nfrom app.cart import total\n\ndef test_total():\n    assert total([1, 2]) == 3\n";
const BASE_SOURCE = "def total(xs):\n    return sum(xs)\n";

async function findings(path: string, added: string, spellingOnly = false) {
  const base = path === TEST_PY ? BASE_TEST : BASE_SOURCE;
  const change: FileChange = { basePath: path, base, headPath: path, head: `${base}${added}` };
  const treeReaders = spellingOnly
    ? {}
    : { ...TREE_READERS, python: await pythonTreeReader([change], process.env) };
  return tamperFindings([change], { treeReaders }).map((f) => `${f.code}:${f.file}:${f.line}`);
}

// Lines of the head: the test base has 5, the source base 2; what is added starts after.
const T = (n: number) => `${TEST_PY}:${5 + n}`;
const S = (n: number) => `${SOURCE_PY}:${2 + n}`;

describe.skipIf(!hasPython)(
  `Python tampering through the tamper hook${hasPython ? "" : " (skipped: no python3 on the PATH)"}`,
  () => {
    it.each([
      [
        "os._exit in a test",
        TEST_PY,
        "import os\ndef test_more():\n    os._exit(0)\n",
        [`test-process-exit:${T(3)}`],
        "import os\ndef test_more():\n    assert os.getcwd()\n",
      ],
      [
        "sys.exit through an alias in a test",
        TEST_PY,
        "from sys import exit as leave\ndef test_more():\n    leave(0)\n",
        [`test-process-exit:${T(3)}`],
        "import sys\ndef test_more():\n    assert sys.argv\n",
      ],
      [
        "raise SystemExit in a test",
        TEST_PY,
        "def test_more():\n    raise SystemExit(0)\n",
        [`test-process-exit:${T(2)}`],
        "def test_more():\n    raise ValueError('bad input')\n",
      ],
      [
        "unittest.TestCase's assertion replaced in source",
        SOURCE_PY,
        "import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n",
        [`assertion-library-patched:${S(2)}`],
        "import unittest\nclass Case(unittest.TestCase):\n    pass\n",
      ],
      [
        "pytest.fail replaced through setattr",
        SOURCE_PY,
        "import pytest as p\nsetattr(p, 'fail', print)\n",
        [`assertion-library-patched:${S(2)}`],
        "import os\nsetattr(os, 'sep', '/')\n",
      ],
      [
        "a pytest hook rewriting the exit status",
        SOURCE_PY,
        "def pytest_sessionfinish(session, exitstatus):\n    session.exitstatus = 0\n",
        [`assertion-library-patched:${S(1)}`],
        "def session_finish(session, exitstatus):\n    return exitstatus\n",
      ],
      [
        "monkeypatching a TestCase assertion in a test",
        TEST_PY,
        "def test_more(monkeypatch):\n    monkeypatch.setattr('unittest.TestCase.assertTrue', print)\n",
        [`assertion-library-patched:${T(2)}`],
        "def test_more(monkeypatch):\n    monkeypatch.setattr('os.getcwd', lambda: '/')\n",
      ],
      [
        "the runner's command line read from /proc",
        SOURCE_PY,
        "import os\nARGS = open(os.path.join('/proc', str(os.getppid()), 'cmdline')).read()\n",
        [`runner-output-reached:${S(2)}`],
        "CPUS = open('/proc/cpuinfo').read()\n",
      ],
      [
        "the runner's environment read from /proc/<pid>/environ",
        SOURCE_PY,
        "import os\nENV = open(f'/proc/{os.getppid()}/environ').read()\n",
        [`runner-output-reached:${S(2)}`],
        "import os\nENV = dict(os.environ)\n",
      ],
    ])("%s", async (_what, path, attack, found, twin) => {
      expect(await findings(path, attack)).toEqual(found);
      // Control: the spelling tables alone do not see it.
      expect(await findings(path, attack, true)).toEqual([]);
      // Twin: the honest change beside it.
      expect(await findings(path, twin)).toEqual([]);
      // Only what the head adds: the same attack already at base is nothing new.
      const head = `${path === TEST_PY ? BASE_TEST : BASE_SOURCE}${attack}`;
      const kept: FileChange = { basePath: path, base: head, headPath: path, head: `${head}\n` };
      const reader = await pythonTreeReader([kept], process.env);
      expect(tamperFindings([kept], { treeReaders: { python: reader } })).toEqual([]);
    });

    it("exiting is a test's tampering, not a CLI's", async () => {
      expect(
        await findings(SOURCE_PY, "import sys\ndef main():\n    sys.exit(main_status())\n"),
      ).toEqual([]);
    });

    it("pytest's and unittest's markers are still read by spelling beside the tree", async () => {
      const skip = "import pytest\n@pytest.mark.skip\ndef test_more():\n    assert True\n";
      expect(await findings(TEST_PY, skip)).toEqual([`test-marker-added:${T(2)}`]);
    });

    it("a Python file that does not parse is file-unparsed at its line", async () => {
      expect(await findings(TEST_PY, "def test_more(:\n    pass\n")).toEqual([
        `file-unparsed:${T(1)}`,
      ]);
      // Control: read by spelling, the syntax error passes unnoticed.
      expect(await findings(TEST_PY, "def test_more(:\n    pass\n", true)).toEqual([]);
    });
  },
);
