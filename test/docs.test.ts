import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { exampleReport } from "../scripts/example-report.js";
import { FINDING_CODES, findingCodesTable } from "../src/integrity/finding-codes.js";
import { harnessTable } from "../src/integrity/harness-table.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";
import { checkEnvTable } from "../src/report/problem-codes-table.js";
import { runReportJsonSchema } from "../src/report/run-json.js";

const read = (file: string) => readFileSync(file, "utf8");

describe("docs/integrity.md", () => {
  it("carries the generated harness resolution table (run `npm run docs` after changing the resolver)", () => {
    expect(read("docs/integrity.md")).toContain(
      `<!-- harness-resolution:start -->\n${harnessTable()}\n<!-- harness-resolution:end -->`,
    );
  });

  it("carries the generated integrity finding table (run `npm run docs` after changing codes)", () => {
    expect(read("docs/integrity.md")).toContain(
      `<!-- integrity-findings:start -->\n${findingCodesTable()}\n<!-- integrity-findings:end -->`,
    );
    for (const code of Object.keys(FINDING_CODES)) {
      expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(PROBLEM_CODES).not.toHaveProperty(code);
    }
  });
});

describe("docs/security.md", () => {
  it("lists every variable a command gets without a grant (run `npm run docs`)", () => {
    const doc = read("docs/security.md");
    expect(doc).toContain(`<!-- check-env:start -->\n${checkEnvTable()}\n<!-- check-env:end -->`);
    expect(doc).toContain("`DATABASE_URL`");
  });
});

describe("schema/run-report.schema.json", () => {
  it("is the JSON Schema generated from RunReportSchema (run `npm run docs`)", () => {
    const committed = JSON.parse(read("schema/run-report.schema.json"));
    expect(committed).toEqual(runReportJsonSchema());
    expect(committed.properties.schemaVersion.const).toBe(1);
  });
});

describe("docs/example-report.md", () => {
  it("is the demo's report as the action renders it, linked from the README (not embedded)", async () => {
    const example = await exampleReport();
    expect(read("docs/example-report.md")).toBe(example);
    expect(example).toContain("**8 blocking** of 18 criteria in 7 contracts");
    const readme = read("README.md");
    expect(readme).toContain("](docs/example-report.md)");
    expect(readme).not.toContain("8 blocking** of 18 criteria");
  });
});

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  let fence = false;
  const anchors = new Set<string>();
  for (const line of markdown.split("\n")) {
    if (/^(`{3,}|~{3,})/.test(line)) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (m) anchors.add(anchorOf(m[1]!.trim()));
  }
  return anchors;
}

/** Relative links `[text](target)` and images outside code, with their line. */
function linksOf(markdown: string): { line: number; target: string }[] {
  let fence = false;
  const out: { line: number; target: string }[] = [];
  markdown.split("\n").forEach((text, i) => {
    if (/^(`{3,}|~{3,})/.test(text)) fence = !fence;
    if (fence) return;
    for (const m of text.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:/.test(m[1]!)) out.push({ line: i + 1, target: m[1]! });
    }
  });
  return out;
}

describe("links in the README and docs/", () => {
  const files = [
    "README.md",
    "CONTRIBUTING.md",
    "SECURITY.md",
    "CHANGELOG.md",
    ...readdirSync("docs")
      .filter((f) => f.endsWith(".md"))
      .map((f) => join("docs", f)),
  ];

  it.each(files)("%s: every relative link reaches a file, and its #anchor a heading", (file) => {
    const broken: string[] = [];
    for (const { line, target } of linksOf(read(file))) {
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const to = path === "" ? file : normalize(join(dirname(file), path));
      if (!existsSync(to)) broken.push(`${file}:${line}: ${target} (no ${to})`);
      else if (anchor && to.endsWith(".md") && !anchorsOf(read(to)).has(anchor))
        broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${to})`);
    }
    expect(broken).toEqual([]);
  });

  it("catches a missing file and a missing heading (positive control)", () => {
    expect(anchorOf("JSON reports of `validate` and `status` (`--json`, `schemaVersion: 1`)")).toBe(
      "json-reports-of-validate-and-status---json-schemaversion-1",
    );
    expect(linksOf("see [a](docs/nope.md#x) and `[b](c.md)`")).toEqual([
      { line: 1, target: "docs/nope.md#x" },
    ]);
    expect(anchorsOf("# A\n```\n## Not a heading\n```\n## Re-running\n")).toEqual(
      new Set(["a", "re-running"]),
    );
  });
});

/**
 * Cross-references written as prose, where no link checker looks: "see
 * README, Your first contract", "the README's *Security model*", "docs/x.md#y".
 */
function proseRefs(text: string): { ref: string; file: string; anchor?: string }[] {
  const flat = text.replace(/\s+/g, " ");
  const out: { ref: string; file: string; anchor?: string }[] = [];
  for (const m of flat.matchAll(/README(?:'s|,) \*?([A-Z][A-Za-z -]*?[a-z])\*?(?=[).,;:])/g)) {
    out.push({ ref: m[0], file: "README.md", anchor: anchorOf(m[1]!) });
  }
  for (const m of flat.matchAll(/(?<![\w/.(])(docs\/[\w-]+\.md)(?:#([\w-]+))?/g)) {
    out.push({ ref: m[0], file: m[1]!, ...(m[2] ? { anchor: m[2] } : {}) });
  }
  return out;
}

function brokenRefs(where: string, text: string): string[] {
  return proseRefs(text).flatMap(({ ref, file, anchor }) => {
    if (!existsSync(file)) return [`${where}: ${ref} (no ${file})`];
    if (anchor && !anchorsOf(read(file)).has(anchor))
      return [`${where}: ${ref} (no heading #${anchor} in ${file})`];
    return [];
  });
}

describe("cross-references in CLI help, action.yml and the docs' prose", () => {
  it("every one names a real file and heading", async () => {
    const { COMMAND_HELP, MAIN_HELP } = await import("../src/cli/help.js");
    const texts: [string, string][] = [
      ["MAIN_HELP", MAIN_HELP],
      ...Object.entries(COMMAND_HELP).map(([c, t]): [string, string] => [`help ${c}`, t]),
      ["action.yml", read("action.yml")],
      ...["README.md", ...readdirSync("docs").map((f) => join("docs", f))]
        .filter((f) => f.endsWith(".md"))
        .map((f): [string, string] => [f, read(f)]),
    ];
    expect(texts.flatMap(([where, text]) => brokenRefs(where, text))).toEqual([]);
    // Each kind of reference is really found (else the check above passes vacuously).
    const all = texts.flatMap(([, t]) => proseRefs(t).map((r) => r.ref));
    expect(all.some((r) => r.startsWith("README, "))).toBe(true);
    expect(all.some((r) => r.startsWith("README's "))).toBe(true);
    expect(all.some((r) => r.startsWith("docs/"))).toBe(true);
  });

  it("catches the references that pointed nowhere (positive control)", () => {
    expect(brokenRefs("x", "(all of them: README, Default globs)")).toEqual([
      "x: README, Default globs (no heading #default-globs in README.md)",
    ]);
    expect(brokenRefs("x", "see the README's *Contract\n  integrity*).")).toHaveLength(1);
    expect(brokenRefs("x", "in docs/nope.md, or docs/cli.md#no-such")).toHaveLength(2);
    expect(brokenRefs("x", "the README's *Security model*. docs/cli.md")).toEqual([]);
  });
});
