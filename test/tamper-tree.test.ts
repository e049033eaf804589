/**
 * The tamper reading from the syntax tree (JavaScript/TypeScript): each attack
 * is found at file:line and blocks; its control reads the same change with
 * the spelling tables alone (`treeReaders: {}`, the reading before the tree)
 * and shows what they found, usually nothing; its honest twin finds nothing.
 */
import { describe, expect, it } from "vitest";
import { type FileChange, TAMPER_CODES, tamperFindings } from "../src/proof/tamper.js";
import { readJsTree } from "../src/proof/tamper-js-tree.js";

const TEST = "test/cart.test.ts";
const SOURCE = "src/total.ts";
const TEST_BASE =
  'import { expect, it } from "vitest";\nimport { add } from "../src/add.js";\n\nit("sums", () => {\n  expect(add(1, 2)).toBe(3);\n});\n';
const SOURCE_BASE = "export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n";

/** `code:line` of what the PR (`base` → `base` + `added`) is found doing. */
function found(path: string, added: string, spellingOnly = false, base?: string): string[] {
  const before = base ?? (path === SOURCE ? SOURCE_BASE : TEST_BASE);
  const change: FileChange = {
    basePath: path,
    base: before,
    headPath: path,
    head: `${before}${added}`,
  };
  return tamperFindings([change], spellingOnly ? { treeReaders: {} } : {}).map(
    (f) => `${f.code}:${f.line}`,
  );
}

// Lines of the head: the test base has 6, the source base 1; what is added starts after.
const T = (n: number) => 6 + n;
const S = (n: number) => 1 + n;

describe("markers however they are spelled", () => {
  it.each([
    [
      "computed member",
      'it["skip"]("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    [
      "member through a constant",
      'const s = "skip";\nit[s]("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(2)}`],
      [],
    ],
    [
      "computed option key (the issue's example)",
      'it({ ["skip"]: true }, () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    [
      "member through a name assigned again",
      'let s = "each";\ns = "skip";\nit[s]("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(3)}`],
      [],
    ],
    [
      "option key through a constant",
      'const k = "only";\nit("adds", { [k]: 1 }, () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(2)}`],
      [],
    ],
    [
      "options declared before the call",
      'const opts = { ["todo"]: "later" };\nit("adds", opts, () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    [
      "destructured from the runner",
      'const { skip } = it;\nskip("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    [
      "aliased xit",
      'const later = xit;\nlater("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    [
      "renamed import",
      'import { it as check } from "vitest";\ncheck.skip("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(2)}`],
      [],
    ],
    [
      "namespace import",
      'import * as v from "vitest";\nv.it.only("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(2)}`],
      [],
    ],
    [
      "computed member the gate cannot resolve",
      'it[String.fromCharCode(115, 107, 105, 112)]("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    [
      "the test context's skip, destructured",
      'it("adds", ({ skip }) => {\n  skip();\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [],
    ],
    // Spelled plainly, the spelling tables found these too: the tree keeps them.
    [
      "aliased it.skip",
      'const later = it.skip;\nlater("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [`test-marker-added:${T(1)}`],
    ],
    [
      "describe.skipIf",
      'describe.skipIf(true)("more", () => {\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
      [`test-marker-added:${T(1)}`],
      [`test-marker-added:${T(1)}`],
    ],
    [
      "describe.runIf",
      'describe.runIf(false)("more", () => {\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
      [`test-marker-added:${T(1)}`],
      [`test-marker-added:${T(1)}`],
    ],
    [
      "test.concurrent.skip",
      'it.concurrent.skip("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [`test-marker-added:${T(1)}`],
    ],
    [
      "test.concurrent.skip, spelled with test",
      'test.concurrent.skip("adds", async () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-marker-added:${T(1)}`],
      [`test-marker-added:${T(1)}`],
    ],
    [
      "xdescribe",
      'xdescribe("more", () => {\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
      [`test-marker-added:${T(1)}`],
      [`test-marker-added:${T(1)}`],
    ],
  ] as const)("%s", (_name, added, tree, spelling) => {
    expect(found(TEST, added)).toEqual(tree);
    expect(found(TEST, added, true), "control: the spelling tables alone").toEqual(spelling);
  });

  it.each([
    [
      "a plain it.skip removed",
      'it.skip("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
      'it("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
    ],
    [
      "a marker's name in a test's title",
      "",
      "it(\"reads it['skip'] keys\", () => {\n  expect(read({ skip: false })).toBe(1);\n});\n",
    ],
    [
      "a computed member through a constant that is no marker",
      "",
      'const m = "each";\nit[m]([1])("adds %i", (n) => {\n  expect(add(n, 1)).toBe(n + 1);\n});\n',
    ],
    [
      "an alias of it, not of it.skip",
      "",
      'const check = it;\ncheck("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
    ],
    [
      "test.concurrent without a marker",
      "",
      'test.concurrent("adds", async () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
    ],
    [
      "a describe.skipIf already at base, its test edited",
      'describe.skipIf(process.platform === "win32")("more", () => {\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
      'describe.skipIf(process.platform === "win32")("more", () => {\n  it("adds", () => {\n    expect(add(1, 2)).toBe(3);\n  });\n});\n',
    ],
    [
      "a describe.runIf removed",
      'describe.runIf(false)("more", () => {\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
      'describe("more", () => {\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
    ],
    [
      "a local named fit",
      "",
      'it("fits", () => {\n  const fit = measure();\n  expect(fit).toBe(1);\n});\n',
    ],
    [
      "an option that does not skip",
      "",
      'it("adds", { ["skip"]: false, only: undefined }, () => {\n  expect(add(1, 1)).toBe(2);\n});\n',
    ],
  ] as const)("honest twin: %s", (_name, before, after) => {
    // The PR replaces `before` with `after` (not appends: a removed marker is gone at head).
    const change = { basePath: TEST, base: `${TEST_BASE}${before}`, headPath: TEST };
    expect(tamperFindings([{ ...change, head: `${TEST_BASE}${after}` }])).toEqual([]);
  });
});

describe("tests that cannot fail", () => {
  it.each([
    [
      "an early return",
      'it("adds", () => {\n  return;\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-assertion-unreachable:${T(2)}`],
    ],
    [
      "a conditional return before the assertion",
      'it("adds", () => {\n  if (!process.env.DB) return;\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-assertion-unreachable:${T(2)}`],
    ],
    [
      "an early throw",
      'it("adds", () => {\n  throw new Error("later");\n  expect(add(1, 1)).toBe(2);\n});\n',
      [`test-assertion-unreachable:${T(2)}`],
    ],
    [
      "no assertion",
      'it("adds", () => {\n  add(1, 1);\n});\n',
      [`test-assertion-unreachable:${T(1)}`],
    ],
    [
      "expect.assertions(0)",
      'it("adds", async () => {\n  expect.assertions(0);\n  await add(1, 1).then((n) => expect(n).toBe(2));\n});\n',
      [`test-assertion-unreachable:${T(2)}`],
    ],
    [
      "an assertion under a constant false condition",
      'it("adds", () => {\n  if (false) expect(add(1, 1)).toBe(2);\n});\n',
      [`test-assertion-unreachable:${T(1)}`],
    ],
    [
      "an assertion behind a constant false &&",
      'it("adds", () => {\n  0 && expect(add(1, 1)).toBe(2);\n});\n',
      [`test-assertion-unreachable:${T(1)}`],
    ],
    [
      "an assertion whose failure a catch swallows",
      'it("adds", () => {\n  try {\n    expect(add(1, 1)).toBe(3);\n  } catch {}\n});\n',
      [`test-assertion-unreachable:${T(1)}`],
    ],
    [
      "expect.assertions of a constant zero",
      'it("adds", async () => {\n  expect.assertions(1 - 1);\n  await add(1, 1).then((n) => expect(n).toBe(2));\n});\n',
      [`test-assertion-unreachable:${T(2)}`],
    ],
    [
      "a suite that returns before its tests",
      'describe("more", () => {\n  return;\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n',
      [`test-assertion-unreachable:${T(2)}`],
    ],
  ] as const)("%s", (_name, added, tree) => {
    expect(found(TEST, added)).toEqual(tree);
    expect(found(TEST, added, true), "control: the spelling tables alone").toEqual([]);
  });

  it.each([
    [
      "a return after its assertion",
      'it("adds", () => {\n  expect(add(1, 1)).toBe(2);\n  return;\n});\n',
    ],
    [
      "a returned assertion",
      'it("adds", () => {\n  return expect(Promise.resolve(add(1, 1))).resolves.toBe(2);\n});\n',
    ],
    [
      "a conditional throw is a failure, not a skip",
      'it("adds", () => {\n  const n = add(1, 1);\n  if (n === undefined) throw new Error("no sum");\n  expect(n).toBe(2);\n});\n',
    ],
    [
      "a helper of the file that asserts",
      'function same(a: number, b: number) {\n  expect(a).toBe(b);\n}\nit("adds", () => {\n  same(add(1, 1), 2);\n});\n',
    ],
    [
      "Node's assert and the test context",
      'it("adds", (t) => {\n  t.assert.strictEqual(add(1, 1), 2);\n});\n',
    ],
    [
      "an assertion under a condition read at run time",
      'it("adds", () => {\n  if (process.platform !== "win32") expect(add(1, 1)).toBe(2);\n});\n',
    ],
    [
      "an assertion behind a constant true &&, or in the else of a false if",
      'it("adds", () => {\n  true && expect(add(1, 1)).toBe(2);\n  if (0) add(1, 1);\n  else expect(add(2, 2)).toBe(4);\n});\n',
    ],
    [
      "a try whose catch rethrows",
      'it("adds", () => {\n  try {\n    expect(add(1, 1)).toBe(2);\n  } catch (e) {\n    throw new Error(`sum: ${e}`);\n  }\n});\n',
    ],
    [
      "a try whose catch asserts",
      'it("adds", async () => {\n  try {\n    await add(1, 1);\n  } catch (e) {\n    expect(e).toBeUndefined();\n  }\n});\n',
    ],
    [
      "a try with only a finally",
      'it("adds", () => {\n  try {\n    expect(add(2, 2)).toBe(4);\n  } finally {\n    add(0, 0);\n  }\n});\n',
    ],
    [
      "expect.assertions of a constant one",
      'it("adds", async () => {\n  expect.assertions(2 - 1);\n  await add(1, 1).then((n) => expect(n).toBe(2));\n});\n',
    ],
    [
      "expect.assertions(1)",
      'it("adds", async () => {\n  expect.assertions(1);\n  await add(1, 1).then((n) => expect(n).toBe(2));\n});\n',
    ],
  ] as const)("honest twin: %s", (_name, added) => {
    expect(found(TEST, added)).toEqual([]);
  });

  it("a test that asserted nothing at base is no news when moved to another file", () => {
    const empty = 'it("adds", () => {\n  add(1, 1);\n});\n';
    const changes: FileChange[] = [
      { basePath: TEST, base: `${TEST_BASE}${empty}`, headPath: TEST, head: TEST_BASE },
      { headPath: "test/more.test.ts", head: empty },
    ];
    expect(tamperFindings(changes)).toEqual([]);
    expect(tamperFindings(changes.slice(1)).map((f) => f.code)).toEqual([
      "test-assertion-unreachable",
    ]);
  });
});

describe("the harness: assertion and runner modules, the runner's output, the process", () => {
  it.each([
    [
      "assert.x = … in source (the issue's attack)",
      SOURCE,
      'import assert from "node:assert";\nassert.equal = () => {};\n',
      [`assertion-library-patched:${S(2)}`],
    ],
    [
      "Object.assign(assert, …)",
      SOURCE,
      'import * as assert from "node:assert/strict";\nObject.assign(assert, { deepEqual() {} });\n',
      [`assertion-library-patched:${S(2)}`],
    ],
    [
      "an alias of require('assert'), computed",
      SOURCE,
      'const a = require("assert");\na["strictEqual"] = () => {};\n',
      [`assertion-library-patched:${S(2)}`],
    ],
    [
      "chai's prototype",
      SOURCE,
      'import chai from "chai";\nObject.defineProperty(chai.Assertion.prototype, "equal", { value() {} });\n',
      [`assertion-library-patched:${S(2)}`],
    ],
    [
      "chai's overwriteMethod",
      TEST,
      'chai.use((_c, utils) => {\n  utils.overwriteMethod(_c.Assertion.prototype, "equal", () => () => {});\n});\n',
      [`assertion-library-patched:${T(2)}`],
    ],
    [
      "expect.extend replacing toBe",
      TEST,
      "expect.extend({ toBe: () => ({ pass: true, message: () => '' }) });\n",
      [`assertion-library-patched:${T(1)}`],
    ],
    [
      "vi.mock of node:assert",
      TEST,
      'vi.mock("node:assert");\n',
      [`assertion-library-patched:${T(1)}`],
    ],
    [
      "globalThis.expect replaced",
      SOURCE,
      "(globalThis as any).expect = () => ({ toBe() {} });\n",
      [`assertion-library-patched:${S(1)}`],
    ],
    [
      "globalThis.expect replaced (plain)",
      SOURCE,
      "globalThis.expect = () => ({ toBe() {} });\n",
      [`assertion-library-patched:${S(1)}`],
    ],
    [
      "a runner global replaced through the global object",
      SOURCE,
      "(globalThis as any).it = (globalThis as any).it.skip;\n",
      [`assertion-library-patched:${S(1)}`],
    ],
    [
      "a runner global replaced by Object.assign on the global object",
      SOURCE,
      "Object.assign(globalThis, { test: () => {} });\n",
      [`assertion-library-patched:${S(1)}`],
    ],
    [
      "expect.setState",
      TEST,
      "expect.setState({ assertionCalls: 1 });\n",
      [`assertion-library-patched:${T(1)}`],
    ],
    [
      "reading the parent's command line (the issue's attack)",
      SOURCE,
      `import { readFileSync } from "node:fs";\nconst argv = readFileSync(\`/proc/\${process.ppid}/cmdline\`, "utf8");\n`,
      [`runner-output-reached:${S(2)}`, `runner-output-reached:${S(2)}`],
    ],
    [
      "reading the parent's environment, by concatenation",
      SOURCE,
      'import { readFileSync } from "node:fs";\nexport const env = () => readFileSync("/proc/" + process.ppid + "/environ", "utf8");\n',
      [`runner-output-reached:${S(2)}`, `runner-output-reached:${S(2)}`],
    ],
    [
      "reading the parent's environment from a test file",
      TEST,
      'import { readFileSync } from "node:fs";\nconst env = readFileSync(`/proc/${process.ppid}/environ`, "utf8");\n',
      [`runner-output-reached:${T(2)}`, `runner-output-reached:${T(2)}`],
    ],
    [
      "assert.* replaced in a test file",
      TEST,
      'import assert from "node:assert";\nassert.deepStrictEqual = () => {};\n',
      [`assertion-library-patched:${T(2)}`],
    ],
    [
      "vi.spyOn on assert, made a no-op",
      TEST,
      'import assert from "node:assert";\nimport { vi } from "vitest";\nvi.spyOn(assert, "strictEqual").mockImplementation(() => {});\n',
      [`assertion-library-patched:${T(3)}`],
    ],
    [
      "Object.assign(expect, …) in a test file",
      TEST,
      'import { expect } from "vitest";\nObject.assign(expect, { assertions() {} });\n',
      [`assertion-library-patched:${T(2)}`],
    ],
    [
      "expect.extend replacing toEqual from source",
      SOURCE,
      'import { expect } from "vitest";\nexpect.extend({ toEqual: () => ({ pass: true, message: () => "" }) });\n',
      [`assertion-library-patched:${S(2)}`],
    ],
    [
      "chai's prototype written in source",
      SOURCE,
      'import chai from "chai";\nchai.Assertion.prototype.equal = function () {\n  return this;\n};\n',
      [`assertion-library-patched:${S(2)}`],
    ],
    [
      "a test writing over the report path its argv names",
      TEST,
      'import { writeFileSync } from "node:fs";\nit("adds", () => {\n  expect(add(1, 1)).toBe(2);\n  writeFileSync(process.argv.at(-1) ?? "", "<testsuites/>");\n});\n',
      [`runner-output-reached:${T(4)}`],
    ],
    [
      "a shell moving a forged report over the runner's path",
      SOURCE,
      'import { execSync } from "node:child_process";\nconst out = process.argv.at(-1);\nexecSync(`mv forged.xml ${out}`);\n',
      [`runner-output-reached:${S(3)}`],
    ],
    [
      "cp spawned over the runner's path",
      SOURCE,
      'import { spawnSync } from "node:child_process";\nspawnSync("cp", ["forged.xml", process.argv.at(-1) ?? ""]);\n',
      [`runner-output-reached:${S(2)}`],
    ],
    [
      "renaming a forged report over the runner's path",
      SOURCE,
      'import { renameSync } from "node:fs";\nconst out = process.argv.find((a) => a.startsWith("--outputFile"));\nrenameSync("forged", out);\n',
      [`runner-output-reached:${S(3)}`],
    ],
    [
      "the report's path from the runner's environment, through an alias",
      SOURCE,
      'import { writeFileSync } from "node:fs";\nconst e = process.env;\nwriteFileSync(e.JUNIT_PATH, "<testsuites/>");\n',
      [`runner-output-reached:${S(3)}`],
    ],
    [
      "the report's path from an environment key the gate cannot resolve",
      SOURCE,
      'import { writeFileSync } from "node:fs";\nexport const save = (k: string) => writeFileSync(process.env[k] ?? "", "<testsuites/>");\n',
      [`runner-output-reached:${S(2)}`],
    ],
    [
      "a forged report written under the runner's name",
      SOURCE,
      'import { writeFileSync } from "node:fs";\nwriteFileSync("test-results/junit.xml", "<testsuites/>");\n',
      [`runner-output-reached:${S(2)}`],
    ],
    [
      "process.exit in a test",
      TEST,
      'it("adds", () => {\n  expect(add(1, 1)).toBe(2);\n  process.exit(0);\n});\n',
      [`test-process-exit:${T(3)}`],
    ],
    [
      "process.exit taken out of process",
      TEST,
      "const { exit } = process;\nexit(0);\n",
      [`test-process-exit:${T(1)}`],
    ],
    [
      "process.exitCode set in a test",
      TEST,
      "process.exitCode = 0;\n",
      [`test-process-exit:${T(1)}`],
    ],
  ] as const)("%s", (_name, path, added, tree) => {
    expect(found(path, added)).toEqual(tree);
    expect(found(path, added, true), "control: the spelling tables alone").toEqual([]);
  });

  it.each([
    [
      "a module of the repository's own named assert",
      SOURCE,
      "export function assert(c: unknown): void {\n  if (!c) throw new Error();\n}\nassert.soft = false;\n",
    ],
    [
      "an assert imported from a helper",
      TEST,
      'import { assert } from "./helpers/assert.js";\nassert.label = "cart";\n',
    ],
    [
      "a new matcher by a new name",
      TEST,
      "expect.extend({ toBeWithinRange: (n: number) => ({ pass: n > 0, message: () => '' }) });\n",
    ],
    [
      "chai's display settings",
      TEST,
      'import chai from "chai";\nchai.config.truncateThreshold = 0;\n',
    ],
    [
      "/proc/meminfo",
      SOURCE,
      'import { readFileSync } from "node:fs";\nexport const mem = () => readFileSync("/proc/meminfo", "utf8");\n',
    ],
    [
      "a cache file written",
      SOURCE,
      `import { writeFileSync } from "node:fs";\nexport const save = (dir: string) => writeFileSync(\`\${dir}/cache.json\`, "{}");\n`,
    ],
    ["process.exit in a CLI's source", SOURCE, "export const main = () => process.exit(1);\n"],
    [
      "a CLI re-running itself with its own arguments",
      SOURCE,
      'import { spawnSync } from "node:child_process";\nexport const again = () => spawnSync(process.execPath, process.argv.slice(1));\n',
    ],
    [
      "a shell command that writes a path of the app's own",
      SOURCE,
      'import { execSync } from "node:child_process";\nexport const pack = (dir: string) => execSync(`cp -r dist ${dir}`);\n',
    ],
    [
      "process.exitCode in a CLI's source",
      SOURCE,
      "export const fail = () => {\n  process.exitCode = 1;\n};\n",
    ],
    [
      "the process's own /proc/self/status",
      SOURCE,
      'import { readFileSync } from "node:fs";\nexport const status = () => readFileSync("/proc/self/status", "utf8");\n',
    ],
    [
      "vi.spyOn on the project's own module",
      TEST,
      'import { vi } from "vitest";\nimport { clock } from "../src/clock.js";\nvi.spyOn(clock, "now").mockReturnValue(0);\n',
    ],
    // Names the runners use for other things: a handler's `context`, a site's
    // `.xml`, the app's own results, a path under the home directory.
    [
      "a handler's context written",
      SOURCE,
      'export function handle(context: { user?: string }) {\n  context.user = "ann";\n}\n',
    ],
    [
      "a polyfill on the global object",
      SOURCE,
      'import { polyfills } from "./polyfills.js";\nglobalThis.fetch = polyfills.fetch;\nObject.assign(globalThis, { crypto: polyfills.crypto }, polyfills);\n',
    ],
    [
      "a sitemap written",
      SOURCE,
      'import { writeFileSync } from "node:fs";\nexport const site = (xml: string) => writeFileSync("public/sitemap.xml", xml);\n',
    ],
    [
      "the app's own results.json written",
      SOURCE,
      'import { writeFileSync } from "node:fs";\nexport const keep = (r: string) => writeFileSync("out/results.json", r);\n',
    ],
    [
      "a cache under the home directory",
      SOURCE,
      `import { writeFileSync } from "node:fs";\nexport const save = () => writeFileSync(\`\${process.env.HOME}/.cache/total.json\`, "{}");\n`,
    ],
    [
      "an output directory the app is given",
      SOURCE,
      `import { writeFileSync } from "node:fs";\nexport const save = () => writeFileSync(\`\${process.env.OUTPUT_DIR}/total.json\`, "{}");\n`,
    ],
    ["vi.mock of the project's own module", TEST, 'vi.mock("../src/add.js");\n'],
  ] as const)("honest twin: %s", (_name, path, added) => {
    expect(found(path, added)).toEqual([]);
  });
});

describe("files the parser cannot read, and the hook for other languages", () => {
  it("a test file that does not parse is said at file:line, and still read by spelling", () => {
    const broken = 'it.skip("adds", () => {\n  expect(add(1, 1)).toBe(2);\n});\nconst = ;\n';
    expect(found(TEST, broken)).toEqual([`test-marker-added:${T(1)}`, `file-unparsed:${T(4)}`]);
    const f = tamperFindings([
      { basePath: TEST, base: TEST_BASE, headPath: TEST, head: `${TEST_BASE}${broken}` },
    ]);
    expect(f.find((x) => x.code === "file-unparsed")?.severity).toBe("blocking");
  });

  it("a source file that does not parse says so too (its tampering was not read)", () => {
    expect(found(SOURCE, "export const = 1;\n")).toEqual([`file-unparsed:${S(1)}`]);
  });

  it("a file too deep to walk is unparsed at file:line, not a crash of the reading", () => {
    const chain = (depth: number) =>
      `import assert from "node:assert";\nassert.ok = () => {};\nexport const x = y${".a".repeat(depth)};\n`;
    // Control: the same file, shallow, is read and its patch found.
    expect(found(SOURCE, chain(100))).toEqual([`assertion-library-patched:${S(2)}`]);
    // Deep, the walk runs out of stack: the file (line 1) is said unparsed, blocking, never read as clean.
    expect(found(SOURCE, chain(20000))).toEqual(["file-unparsed:1"]);
  });

  it("the Vue and Svelte script blocks are read, lines kept", () => {
    const vue =
      '<template><p>{{ n }}</p></template>\n<script setup lang="ts">\nimport assert from "node:assert";\nassert.ok = () => {};\n</script>\n';
    expect(
      tamperFindings([{ headPath: "src/Cart.vue", head: vue }]).map((f) => `${f.code}:${f.line}`),
    ).toEqual(["assertion-library-patched:4"]);
  });

  it("a language's reader plugs in by one entry, and replaces its spelling markers where it parses", () => {
    const path = "tests/test_cart.py";
    const head =
      "import pytest\n\n@pytest.mark.skip\ndef test_sums():\n    assert add(1, 2) == 3\n";
    const spelled = tamperFindings([{ headPath: path, head }]).map((f) => `${f.code}:${f.line}`);
    expect(spelled).toEqual(["test-marker-added:3"]);
    const python = () => ({
      parsed: true as const,
      signals: [
        {
          code: "test-marker-added" as const,
          id: "pytest-mark",
          line: 3,
          what: "pytest.mark.skip",
        },
      ],
    });
    const read = tamperFindings([{ headPath: path, head }], {
      treeReaders: { js: readJsTree, python },
    });
    expect(read.map((f) => `${f.code}:${f.line}`)).toEqual(["test-marker-added:3"]);
    expect(read[0]?.message).toContain("(pytest.mark.skip)");
  });

  it("every new code blocks and carries a hint", () => {
    for (const code of [
      "test-assertion-unreachable",
      "assertion-library-patched",
      "runner-output-reached",
      "test-process-exit",
      "file-unparsed",
    ] as const)
      expect(TAMPER_CODES[code].severity).toBe("blocking");
  });

  it("the reader is pure: the same text reads the same", () => {
    const text = `${TEST_BASE}it["skip"]("adds", () => {});\n`;
    expect(readJsTree(TEST, text, "test")).toEqual(readJsTree(TEST, text, "test"));
    expect(readJsTree("README.md", text, "test")).toBeUndefined();
  });
});
