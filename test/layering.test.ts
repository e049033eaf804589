/**
 * ARCHITECTURE.md: data flows one way and no import runs back up the
 * pipeline. The pure layers (formats, integrity, verdict, report) import no
 * I/O and nothing downstream of them; this reads every import in src/ and says
 * which one breaks that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");

/** What a layer must never import: modules downstream of it, and the I/O the edges own. */
const IO = [
  "action/",
  "cli/",
  "cli.ts",
  "index.ts",
  "git/",
  "fs/",
  "process/",
  "sandbox/",
  "run/",
  "write-back/",
  "load.ts",
  "committed.ts",
  "discover.ts",
  "compare-with-base.ts",
  "node:fs",
  "node:fs/promises",
  "node:child_process",
  "@actions/core",
  "@actions/github",
  "@octokit/rest",
];
const RULES: {
  layer: string;
  forbidden: string[];
  typesMayCome?: string[];
  /** Pure modules of a forbidden layer this one may import values from, each named exactly. */
  pureMayCome?: string[];
}[] = [
  { layer: "formats/", forbidden: [...IO, "github/", "integrity/", "report/", "verdict.ts"] },
  { layer: "integrity/", forbidden: [...IO, "github/", "report/", "verdict.ts"] },
  { layer: "verdict.ts", forbidden: [...IO, "github/", "report/"] },
  // The renderers build what the adapter posts, so they may name its types, and they size it by
  // the same rules the adapter fits it with: github/limits.ts, pure (its own rule below).
  {
    layer: "report/",
    forbidden: [...IO, "github/"],
    typesMayCome: ["github/", "sandbox/"],
    pureMayCome: ["github/limits.ts"],
  },
  // GitHub's size rules: pure, so the renderers may use them; nothing else of github/ comes in.
  { layer: "github/limits.ts", forbidden: [...IO, "github/", "report/"] },
];

/** Data tables a generated docs table reads: no I/O, no way back up. */
const DATA: readonly string[] = ["report/problem-codes-table.ts → process/env.ts"];

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
  const rule = RULES.find((r) => file === r.layer || file.startsWith(r.layer));
  if (rule === undefined) return [];
  const out: string[] = [];
  for (const { spec, typeOnly } of importsOf(text)) {
    const to = target(file, spec);
    const hits = (p: string) => to === p || to.startsWith(p);
    if (!rule.forbidden.some(hits)) continue;
    if (typeOnly && rule.typesMayCome?.some(hits)) continue;
    if (rule.pureMayCome?.includes(to)) continue;
    if (DATA.includes(`${file} → ${to}`)) continue;
    out.push(`${file} → ${to}`);
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

describe("layering", () => {
  it("no pure layer imports I/O or anything downstream of it", () => {
    const found = sources(SRC).flatMap((f) => violations(f, readFileSync(join(SRC, f), "utf8")));
    expect(found).toEqual([]);
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
});
