/**
 * ARCHITECTURE.md: data flows one way and no import runs back up the
 * pipeline. No stage imports an adapter or anything downstream of it; the
 * later stages take what scope/ and load/ produced as data and never call
 * them again; the pure layers (model, formats, integrity, verdict, report)
 * import no I/O; a format's kind imports the shared readers, never another
 * kind. This reads every import in src/ and says which one breaks that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");

/** The adapters and entries: they compose the pipeline, so nothing in it imports them. */
const ADAPTERS = ["action/", "cli/", "cli.ts", "index.ts", "shard/", "write-back/"];

/** The I/O at the bottom, behind small interfaces: what the pure layers never import. */
const IO = [
  "git/",
  "fs/",
  "process/",
  "sandbox/",
  "node:fs",
  "node:fs/promises",
  "node:child_process",
  "@actions/core",
  "@actions/github",
  "@octokit/rest",
];

/**
 * The pipeline's stages, upstream first (ARCHITECTURE.md): event/argv → scope
 * → load → integrity (sides/ reads the two sides it compares) → run (checks/
 * its executors) → proof → verdict → report → surfaces.
 */
const PIPELINE = [
  "scope/",
  "load/",
  "integrity/",
  "sides/",
  "checks/",
  "run/",
  "proof/",
  "verdict.ts",
  "report/",
];

interface Rule {
  layer: string;
  forbidden: string[];
  /** Of the forbidden, those a type-only import may name: the data that flows in. */
  typesMayCome?: string[];
  /** When set, the only places (src-relative prefixes) a relative import may reach. */
  only?: string[];
  /** Pure modules of a forbidden layer this one may import values from, each named exactly. */
  pureMayCome?: string[];
}

/**
 * A stage imports no adapter and nothing downstream of it, not even a type.
 * `upstream`: the stages before it whose code it must not call either (it is
 * handed what they produced; a type of it may still be named): above all the
 * readers, scope/ and load/, so no later stage reads the repository again.
 */
function stage(
  layer: string,
  opts: { upstream?: string[]; pure?: boolean; types?: string[] } = {},
): Rule {
  const downstream = PIPELINE.slice(PIPELINE.indexOf(layer) + 1);
  const upstream = opts.upstream ?? [];
  return {
    layer,
    forbidden: [...ADAPTERS, ...downstream, ...upstream, ...(opts.pure ? [...IO, "github/"] : [])],
    typesMayCome: [...upstream, ...(opts.types ?? [])],
  };
}

const RULES: Rule[] = [
  // The shared language: it names things, it depends on nothing.
  // (and the version package.json declared, inlined at bundle time).
  { layer: "model/", forbidden: [], only: ["model/", "../package.json"] },
  { layer: "formats/", forbidden: [...ADAPTERS, ...IO, ...PIPELINE, "github/"] },
  stage("scope/"),
  stage("load/", { upstream: ["scope/"] }),
  // Pure: versions in, findings out (integrity/pairs matches paths with scope/'s pure globs).
  stage("integrity/", { pure: true, upstream: ["load/"] }),
  // The base comparison's I/O: reads both sides, the pure integrity/ compares them.
  stage("sides/", { upstream: ["scope/", "load/"] }),
  stage("checks/", { upstream: ["scope/", "load/", "integrity/", "sides/"] }),
  stage("run/", { upstream: ["scope/", "load/", "integrity/", "sides/"] }),
  // The proof reads the diff through sides/ and states its findings as integrity/ findings.
  stage("proof/", { upstream: ["scope/", "load/", "checks/", "run/"] }),
  stage("verdict.ts", { pure: true, upstream: ["scope/", "load/", "sides/", "checks/", "run/"] }),
  // The renderers build what the adapter posts, so they may name its types.
  // They size it by the same rules the adapter fits it with: github/limits.ts, pure (its own rule below).
  {
    ...stage("report/", {
      pure: true,
      upstream: ["load/", "sides/", "checks/", "run/"],
      types: ["github/", "sandbox/"],
    }),
    pureMayCome: ["github/limits.ts"],
  },
  // GitHub's size rules: pure, so the renderers may use them; nothing else of github/ comes in.
  { layer: "github/limits.ts", forbidden: [...IO, "github/", "report/"] },
  // An adapter of its own (sharded runs): it may use every stage, no other adapter.
  { layer: "shard/", forbidden: ADAPTERS.filter((a) => a !== "shard/") },
  // The two front ends share shard/ and write-back/, and what both need lives below them
  // (process/signals.ts): neither entry reaches into the other's adapter.
  { layer: "action/", forbidden: ["cli/", "cli.ts"] },
  { layer: "index.ts", forbidden: ["cli/", "cli.ts"] },
  { layer: "cli/", forbidden: ["action/", "index.ts"] },
  { layer: "cli.ts", forbidden: ["action/", "index.ts"] },
];

/**
 * Known arrows against the flow, each too large for a small move; named so a
 * new one still fails the test.
 */
const EXCEPTIONS: readonly string[] = [
  // The engine settles each contract's verdict as its checks end (contractVerdict,
  // summariseRun); moving the contract-level half of verdict.ts into run/ is its own change.
  "run/engine.ts → verdict.ts",
];

/**
 * The kinds' folders under formats/: each a pure (path, bytes) → Contract that
 * imports the shared readers and never another kind. Everything else under
 * formats/ is shared: the readers, `kinds/` (which kind a path is) and the files at its root.
 */
const SHARED_FORMATS = ["json", "markdown", "oracle-grammar", "kinds"];

interface Import {
  spec: string;
  typeOnly: boolean;
}

function importsOf(text: string): Import[] {
  const out: Import[] = [];
  const re =
    /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4];
    if (spec !== undefined) out.push({ spec, typeOnly: m[2] !== undefined });
  }
  return out;
}

/** The import as a src-relative path (`git/index.ts`), or the package name. */
function target(file: string, spec: string): string {
  if (!spec.startsWith(".")) return spec;
  return relative(SRC, normalize(join(dirname(join(SRC, file)), spec))).replace(/\.js$/, ".ts");
}

/** Every import of `file` (src-relative) that its layer forbids, as `file → target`. */
function violations(file: string, text: string): string[] {
  const out: string[] = [];
  for (const { spec, typeOnly } of importsOf(text)) {
    const to = target(file, spec);
    if (EXCEPTIONS.includes(`${file} → ${to}`)) continue;
    if (RULES.some((r) => breaks(r, file, to, spec, typeOnly)) || crossesKinds(file, to)) {
      out.push(`${file} → ${to}`);
    }
  }
  return out;
}

function breaks(rule: Rule, file: string, to: string, spec: string, typeOnly: boolean): boolean {
  if (file !== rule.layer && !file.startsWith(rule.layer)) return false;
  const hits = (p: string) => to === p || to.startsWith(p);
  if (rule.only && spec.startsWith(".") && !rule.only.some(hits)) return true;
  if (!rule.forbidden.some(hits)) return false;
  if (rule.pureMayCome?.includes(to)) return false;
  return !(typeOnly && rule.typesMayCome?.some(hits));
}

/** `formats/<kind>/…` importing `formats/<other kind>/…`. */
function crossesKinds(file: string, to: string): boolean {
  const kindOf = (p: string) => {
    const parts = p.split("/");
    return parts[0] === "formats" && parts.length > 2 && !SHARED_FORMATS.includes(parts[1]!)
      ? parts[1]
      : undefined;
  };
  const from = kindOf(file);
  const into = kindOf(to);
  return from !== undefined && into !== undefined && from !== into;
}

/**
 * Git only through the `Git` interface (git/index.ts), opened by the adapters
 * and passed in: outside them nothing opens one (`openGit`) or runs git itself (git/run.ts).
 */
function gitOutsideAdapters(file: string, text: string): string[] {
  if (file.startsWith("git/") || ADAPTERS.some((a) => file === a || file.startsWith(a))) return [];
  const out: string[] = [];
  for (const { spec } of importsOf(text)) {
    if (target(file, spec) === "git/run.ts") out.push(`${file} → git/run.ts`);
  }
  if (/\bopenGit\b/.test(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""))) {
    out.push(`${file} opens git`);
  }
  return out;
}

function sources(dir: string, base = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = base === "" ? e.name : `${base}/${e.name}`;
    if (e.isDirectory()) return sources(join(dir, e.name), rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

/** What may lie at `src/`'s root (ARCHITECTURE.md, "The house"). */
const ROOT_FILES: readonly string[] = ["cli.ts", "index.ts", "verdict.ts"];

describe("layering", () => {
  it("no layer imports an adapter, anything downstream of it, or (pure layers) I/O", () => {
    const found = sources(SRC).flatMap((f) => violations(f, readFileSync(join(SRC, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("src/ root holds only the two entries and verdict.ts: every other file lives in a room", () => {
    const loose = (names: readonly string[]) =>
      names.filter((n) => n.endsWith(".ts") && !ROOT_FILES.includes(n));
    expect(loose(readdirSync(SRC))).toEqual([]);
    // Control: a file left at the root is named.
    expect(loose(["cli.ts", "load.ts", "verdict.ts"])).toEqual(["load.ts"]);
  });

  it("git is opened by the adapters alone, and run only through the Git interface", () => {
    const found = sources(SRC).flatMap((f) =>
      gitOutsideAdapters(f, readFileSync(join(SRC, f), "utf8")),
    );
    expect(found).toEqual([]);
  });

  it("control: opening git or running it directly outside the adapters is caught", () => {
    expect(
      gitOutsideAdapters(
        "run/x.ts",
        'import { openGit } from "../git/index.js";\nopenGit(root);\n',
      ),
    ).toEqual(["run/x.ts opens git"]);
    expect(
      gitOutsideAdapters("proof/run/x.ts", 'import { runGit } from "../../git/run.js";\n'),
    ).toEqual(["proof/run/x.ts → git/run.ts"]);
    expect(
      gitOutsideAdapters("proof/x.ts", 'import type { Git } from "../git/index.js";\n'),
    ).toEqual([]);
    expect(
      gitOutsideAdapters(
        "cli/x.ts",
        'import { openGit } from "../git/index.js";\nopenGit(root);\n',
      ),
    ).toEqual([]);
  });

  it("every exception is still an import in src/ (a fixed one is struck off the list)", () => {
    const all = sources(SRC).flatMap((f) =>
      importsOf(readFileSync(join(SRC, f), "utf8")).map(({ spec }) => `${f} → ${target(f, spec)}`),
    );
    for (const e of EXCEPTIONS) expect(all).toContain(e);
  });

  it("control: the reading catches each way back up (a value import, a dynamic one, a re-export)", () => {
    expect(violations("integrity/x.ts", 'import { openGit } from "../git/index.js";\n')).toEqual([
      "integrity/x.ts → git/index.ts",
    ]);
    expect(
      violations("integrity/x.ts", 'const m = await import("../report/integrity.js");\n'),
    ).toEqual(["integrity/x.ts → report/integrity.ts"]);
    expect(
      violations("report/x.ts", 'export { findApproval } from "../action/approval.js";\n'),
    ).toEqual(["report/x.ts → action/approval.ts"]);
    expect(violations("verdict.ts", 'import {\n  a,\n} from "./report/order.js";\n')).toEqual([
      "verdict.ts → report/order.ts",
    ]);
    expect(violations("formats/spec/x.ts", 'import { readFileSync } from "node:fs";\n')).toEqual([
      "formats/spec/x.ts → node:fs",
    ]);
    // A type the renderers build for the adapter is no arrow back; a value import is.
    expect(
      violations("report/x.ts", 'import type { Annotation } from "../github/types.js";\n'),
    ).toEqual([]);
    expect(
      violations("report/x.ts", 'import { GitHubApiError } from "../github/types.js";\n'),
    ).toEqual(["report/x.ts → github/types.ts"]);
    // The size rules come in as values; the adapter next to them does not, nor I/O into the rules.
    expect(violations("report/x.ts", 'import { fitBytes } from "../github/limits.js";\n')).toEqual(
      [],
    );
    expect(
      violations("report/x.ts", 'import { createGitHubApi } from "../github/adapter.js";\n'),
    ).toEqual(["report/x.ts → github/adapter.ts"]);
    expect(
      violations("github/limits.ts", 'import { createOctokit } from "./client.js";\n'),
    ).toEqual(["github/limits.ts → github/client.ts"]);
  });

  it("control: each stage's rule catches its arrows, and lets the flow through", () => {
    const caught = (file: string, spec: string, type = false) =>
      violations(file, `import ${type ? "type " : ""}{ x } from "${spec}";\n`);
    const cases: [file: string, spec: string, type: boolean, bad: boolean][] = [
      // model/ imports nothing but model/.
      ["model/x.ts", "../formats/text.js", true, true],
      ["model/x.ts", "./problems.js", false, false],
      // scope/: nothing downstream.
      ["scope/x.ts", "../load/drift.js", false, true],
      ["scope/x.ts", "../formats/kinds/index.js", false, false],
      // load/: handed its paths, it calls no scope code; a type may come.
      ["load/x.ts", "../scope/discover.js", false, true],
      ["load/x.ts", "../scope/scope-reason.js", true, false],
      ["load/x.ts", "../integrity/types.js", true, true],
      // sides/: wraps the pure integrity/, reads nothing downstream.
      ["sides/x.ts", "../integrity/compare.js", false, false],
      ["sides/x.ts", "../proof/tamper.js", true, true],
      ["sides/x.ts", "../load/drift.js", false, true],
      // checks/ and run/: the engine reads nothing from load, calls nothing downstream.
      ["checks/x.ts", "../run/engine.js", false, true],
      ["run/x.ts", "../load/index.js", false, true],
      ["run/x.ts", "../checks/oracle.js", false, false],
      ["run/x.ts", "../proof/index.js", false, true],
      // proof/: the run's type may come, not its code; nothing past the verdict.
      ["proof/x.ts", "../run/engine.js", true, false],
      ["proof/x.ts", "../run/engine.js", false, true],
      ["proof/x.ts", "../scope/discover.js", false, true],
      ["proof/x.ts", "../verdict.js", false, true],
      ["proof/x.ts", "../sides/diff-files.js", false, false],
      // shard/: an adapter, but it imports no other adapter.
      ["shard/x.ts", "../action/main.js", false, true],
      ["shard/x.ts", "../verdict.js", false, false],
      // The entries are adapters too: nothing in the pipeline imports them, nor the other entry.
      ["proof/x.ts", "../cli/signals.js", false, true],
      ["index.ts", "./cli/signals.js", false, true],
      ["index.ts", "./process/signals.js", false, false],
      ["cli/x.ts", "../action/inputs.js", false, true],
      ["action/x.ts", "../shard/merge.js", false, false],
    ];
    for (const [file, spec, type, bad] of cases) {
      expect(caught(file, spec, type).length > 0, `${file} → ${spec}`).toBe(bad);
    }
  });

  it("control: a kind never imports another kind's folder; the shared readers and formats/ root are open", () => {
    expect(violations("formats/planner/x.ts", 'import { a } from "../workphase/y.js";\n')).toEqual([
      "formats/planner/x.ts → formats/workphase/y.ts",
    ]);
    expect(violations("formats/spec/x.ts", 'import { a } from "../evidence/index.js";\n')).toEqual([
      "formats/spec/x.ts → formats/evidence/index.ts",
    ]);
    for (const shared of [
      "json/scan",
      "markdown/read",
      "oracle-grammar/x",
      "kinds/index",
      "text",
    ]) {
      expect(violations("formats/planner/x.ts", `import { a } from "../${shared}.js";\n`)).toEqual(
        [],
      );
    }
    expect(violations("formats/index.ts", 'import { a } from "./spec/index.js";\n')).toEqual([]);
    expect(violations("formats/planner/x.ts", 'import { a } from "./y.js";\n')).toEqual([]);
  });

  it("control: an exception excuses its one arrow, not its file's others", () => {
    expect(violations("run/engine.ts", 'import { a } from "../verdict.js";\n')).toEqual([]);
    expect(violations("run/engine.ts", 'import { a } from "../report/order.js";\n')).toEqual([
      "run/engine.ts → report/order.ts",
    ]);
  });
});
