import { XMLParser, XMLValidator } from "fast-xml-parser";
import { type CaseOutcome, canonicalName, type ReadResult, type ResultCase } from "./results.js";

/** The runner conventions a JUnit file is read by; `custom` tells them apart per test case. */
export type JunitDialect = "vitest" | "jest" | "pytest" | "node" | "custom";

interface XmlCase {
  name?: string;
  classname?: string;
  file?: string;
  failure?: unknown[];
  error?: unknown[];
  skipped?: unknown[];
}
interface XmlSuite {
  name?: string;
  testcase?: XmlCase[];
  testsuite?: XmlSuite[];
}

const ARRAYS = new Set(["testsuites", "testsuite", "testcase", "failure", "error", "skipped"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  // Names and class names stay strings: `1.10` is a test name, not a number.
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => ARRAYS.has(name),
  // A results file never needs a DOCTYPE's entities; refusing them refuses entity bombs.
  processEntities: true,
  htmlEntities: false,
});

/**
 * Reads one JUnit XML results file: every test case with its outcome, the
 * mapped file it belongs to and its canonical full name, by the dialect's
 * conventions (docs/proof.md, "Reading results"):
 * - vitest: `classname` is the file, `name` the full name (`suite > test`);
 *   a case named after its file is the file failing to load;
 * - jest (jest-junit, with the preset's settings): the `file` attribute,
 *   `classname` the describe blocks joined by ` > `, `name` the title;
 *   `Test suite failed to run` is the file failing to load;
 * - pytest: `classname` the dotted module (plus the class), `name` the
 *   function: `tests/test_a.py` + `TestX::test_y`; an empty `classname`
 *   is a collection error of the module `name` names;
 * - node (`node --test`'s junit reporter): no file at all; nested suites
 *   are the name's levels; a case named by a file's path is that file failing.
 */
export function readJunit(
  xml: string,
  dialect: JunitDialect,
  files: readonly string[],
): ReadResult {
  if (/<!DOCTYPE/i.test(xml))
    return { ok: false, message: "it declares a DOCTYPE, which JUnit results never need" };
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    return {
      ok: false,
      message: `it is not well-formed XML (line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg})`,
    };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, message: `it is not readable XML (${(e as Error).message})` };
  }
  const roots: XmlSuite[] = [];
  const top = doc.testsuites as XmlSuite[] | undefined;
  const lone = doc.testsuite as XmlSuite[] | undefined;
  if (top) roots.push(...top);
  else if (lone) roots.push({ testsuite: lone });
  else
    return { ok: false, message: "it holds no <testsuites> or <testsuite> element: not JUnit XML" };

  const cases: ResultCase[] = [];
  const loadFailed = new Set<string>();
  const reader = new FileMatcher(files);
  const visit = (suite: XmlSuite, levels: string[]) => {
    for (const tc of suite.testcase ?? []) {
      const read = readCase(tc, levels, dialect, reader);
      if (read.loadFailed !== undefined) {
        loadFailed.add(read.loadFailed);
        continue;
      }
      if (read.name === "") continue;
      cases.push({
        ...(read.files && { files: read.files }),
        name: canonicalName(read.name),
        outcome: outcomeOf(tc),
      });
    }
    for (const child of suite.testsuite ?? []) {
      visit(child, [...levels, attr(child.name)]);
    }
  };
  // The root `<testsuites>` name ("vitest tests") is never a level of a test's name.
  for (const root of roots) {
    for (const tc of root.testcase ?? []) visit({ testcase: [tc] }, []);
    for (const s of root.testsuite ?? []) visit(s, [attr(s.name)]);
  }
  return { ok: true, results: { cases, loadFailed } };
}

function outcomeOf(tc: XmlCase): CaseOutcome {
  if (tc.error?.length) return "errored";
  if (tc.failure?.length) return "failed";
  if (tc.skipped?.length) return "skipped";
  return "passed";
}

const attr = (v: unknown): string => (typeof v === "string" ? v : "");

type CaseRead = { files?: readonly string[]; name: string; loadFailed?: string };

function readCase(tc: XmlCase, levels: string[], dialect: JunitDialect, m: FileMatcher): CaseRead {
  const name = attr(tc.name);
  const classname = attr(tc.classname);
  const failed = Boolean(tc.failure?.length || tc.error?.length);
  const fileAttr = attr(tc.file);
  let d = dialect;
  if (d === "custom") {
    // A results file from a template: tell the convention from the case itself.
    if (fileAttr !== "") d = "jest";
    else if (m.file(classname) !== undefined) d = "vitest";
    else if (classname === "" ? m.module(name) : m.module(classname)) d = "pytest";
    else d = "node";
  }
  switch (d) {
    case "vitest": {
      const file = m.file(classname);
      if (failed && file !== undefined && name === classname) return { name: "", loadFailed: file };
      return { ...(file !== undefined && { files: [file] }), name };
    }
    case "jest": {
      const file = m.file(fileAttr);
      if (classname === "Test suite failed to run" && file !== undefined) {
        return { name: "", loadFailed: file };
      }
      const full = classname === "" ? name : `${classname} > ${name}`;
      return { ...(file !== undefined && { files: [file] }), name: full };
    }
    case "pytest": {
      if (classname === "") {
        const mod = m.module(name);
        if (failed && mod !== undefined && mod.rest.length === 0)
          return { name: "", loadFailed: mod.file };
        return { name };
      }
      const mod = m.module(classname);
      if (mod === undefined) return { name: [classname, name].join("::") };
      return { files: [mod.file], name: [...mod.rest, name].join("::") };
    }
    default: {
      const loadFile = m.file(name);
      if (failed && loadFile !== undefined) return { name: "", loadFailed: loadFile };
      // Node's reporter names no file: with one mapped file per run, every case is that file's.
      const only = m.files.length === 1 ? m.files : undefined;
      return { ...(only && { files: only }), name: [...levels, name].join(" > ") };
    }
  }
}

/** Finds which mapped file a runner's path or dotted module names. */
class FileMatcher {
  constructor(readonly files: readonly string[]) {}

  /**
   * The mapped file `p` names: the same repository path, an absolute path
   * ending in it, or a path relative to a runner root below the
   * repository's (`tests/a.test.ts` for `pkg/tests/a.test.ts`); `undefined`
   * when none or several do.
   */
  file(p: string): string | undefined {
    const path = p.replace(/\\/g, "/").replace(/^\.\//, "");
    if (path === "") return undefined;
    if (this.files.includes(path)) return path;
    const hits = this.files.filter((f) =>
      path.startsWith("/") ? path.endsWith(`/${f}`) : f.endsWith(`/${path}`),
    );
    return hits.length === 1 ? hits[0] : undefined;
  }

  /** The mapped Python file a dotted name starts with, and the levels after the module. */
  module(dotted: string): { file: string; rest: string[] } | undefined {
    if (dotted === "") return undefined;
    const parts = dotted.split(".");
    for (let i = parts.length; i > 0; i--) {
      const prefix = parts.slice(0, i).join(".");
      const hits = this.files.filter((f) => {
        if (!f.endsWith(".py")) return false;
        const mod = f.slice(0, -3).replace(/\//g, ".");
        return mod === prefix || mod.endsWith(`.${prefix}`);
      });
      if (hits.length === 1) return { file: hits[0]!, rest: parts.slice(i) };
      if (hits.length > 1) return undefined;
    }
    return undefined;
  }
}
