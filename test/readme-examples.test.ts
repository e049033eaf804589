// The README's "Your first contract" is what a newcomer copies: its code blocks must be the
// example files byte for byte, each example must pass the built CLI, and the output the README
// shows must be what the CLI prints.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONTRACT_GLOBS } from "../src/formats/kinds/index.js";
import { copyTree } from "./helpers/tmp.js";
import { yamlSnippets } from "./helpers/workflow-lint.js";

const REPO = join(import.meta.dirname, "..");
const EXAMPLES = "examples/first-contract";
const KINDS = ["plan-contract", "oracle-contract", "planner-plan", "workphase"] as const;
const README = readFileSync(join(REPO, "README.md"), "utf8");
const CLI = join(REPO, "bin/contract-gate.js");
const { version: VERSION } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  version: string;
};

interface Block {
  /** What the marker names: an example file, or the example directory whose output follows. */
  target: string;
  /** The fenced block's text after the marker, with its final newline. */
  body: string;
}

/** Every fenced block announced by `<!-- example: FILE -->` or `<!-- output: DIR -->`. */
function markedBlocks(markdown: string, marker: "example" | "output"): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = new RegExp(`^<!-- ${marker}: (\\S+) -->$`).exec(lines[i]!);
    if (!m) continue;
    const fence = /^(`{3,})\w*$/.exec(lines[i + 1] ?? "");
    if (!fence)
      throw new Error(`README.md:${i + 1}: the ${marker} marker is not followed by a fence`);
    const body: string[] = [];
    for (i += 2; i < lines.length && lines[i] !== fence[1]; i++) body.push(lines[i]!);
    blocks.push({ target: m[1]!, body: `${body.join("\n")}\n` });
  }
  return blocks;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(REPO, join(e.parentPath, e.name)))
    .sort();
}

async function runExample(root: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [CLI, "run", "--no-write", "--root", root],
      { cwd: REPO, env: { ...process.env, NO_COLOR: "1" } },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

describe("README.md", () => {
  it("stays short enough to read: at most 450 lines, the rest in docs/", () => {
    expect(README.split("\n").length - 1).toBeLessThanOrEqual(450);
  });

  it("starts with a quick start of at most 15 lines, pinned to @v1, with the documented triggers", () => {
    const [quick] = yamlSnippets("README.md", README);
    const lines = quick!.text.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(15);
    expect(quick!.text).toContain("uses: contract-gate/contract-gate@v1\n");
    expect(lines).toContain("  pull_request: { types: [opened, synchronize, reopened, edited] }");
    expect(lines.some((l) => l.startsWith("  pull_request_review:"))).toBe(true);
    expect(lines.some((l) => /^\s*# merge_group:/.test(l))).toBe(true);
    for (const p of ["contents: read", "checks: write", "pull-requests: write"]) {
      expect(README, `explains ${p}`).toContain(`\`${p}\` —`);
    }
  });

  it("lists every default glob discovery uses in its table of kinds", () => {
    const section = README.split("## Your first contract")[1]!;
    const table = section.split("\n").filter((l) => l.startsWith("| `"));
    expect(table.length).toBeGreaterThanOrEqual(7);
    for (const glob of DEFAULT_CONTRACT_GLOBS) {
      expect(
        table.some((row) => row.includes(`\`${glob}\``)),
        glob,
      ).toBe(true);
    }
  });

  it("pins the CLI to the package's version", () => {
    const pinned = [...README.matchAll(/contract-gate@(\d[\w.-]*)/g)].map((m) => m[1]);
    expect(pinned.length).toBeGreaterThan(0);
    expect(new Set(pinned)).toEqual(new Set([VERSION]));
  });
});

describe("Your first contract: the README's blocks are the example files", () => {
  const shown = markedBlocks(README, "example");

  it("shows every file of every example (src/hello.js once: the copies are identical)", () => {
    const hello = KINDS.map((k) => readFileSync(join(REPO, EXAMPLES, k, "src/hello.js"), "utf8"));
    expect(new Set(hello).size).toBe(1);
    const files = KINDS.flatMap((k) => filesUnder(join(REPO, EXAMPLES, k))).filter(
      (f) => !f.endsWith("src/hello.js"),
    );
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(shown.map((b) => b.target).sort()).toEqual(
      [...files, `${EXAMPLES}/plan-contract/src/hello.js`].sort(),
    );
  });

  it.each(shown.map((b) => [b.target, b.body]))("%s is byte-identical", (target, body) => {
    expect(body).toBe(readFileSync(join(REPO, target), "utf8"));
  });

  it("the extraction sees a one-byte change (positive control)", () => {
    const [first] = shown;
    const changed = README.replace(first!.body, first!.body.replace(/\w/, "Z"));
    const [again] = markedBlocks(changed, "example");
    expect(again!.target).toBe(first!.target);
    expect(again!.body).not.toBe(readFileSync(join(REPO, first!.target), "utf8"));
  });
});

describe("Your first contract: each example passes the built CLI as the README shows", () => {
  const outputs = new Map(markedBlocks(README, "output").map((b) => [b.target, b.body]));

  it.each(KINDS)("%s: run exits 0 and prints the README's output", async (kind) => {
    const dir = `${EXAMPLES}/${kind}`;
    const shown = outputs.get(dir);
    expect(shown, `README.md has an output block for ${dir}`).toBeDefined();
    const r = await runExample(dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(`$ npx contract-gate@${VERSION} run\n${r.stdout}`).toBe(shown);
  });

  /** One honest mistake per kind, each of which must turn the example red. */
  const BREAK: Record<(typeof KINDS)[number], (root: string) => void> = {
    "plan-contract": (root) => writeFileSync(join(root, "src/hello.js"), 'console.log("Hi");\n'),
    "oracle-contract": (root) => writeFileSync(join(root, "src/hello.js"), 'console.log("Hi");\n'),
    "planner-plan": (root) => rmSync(join(root, "src/hello.js")),
    workphase: (root) => {
      const plan = join(root, ".workphase/hello/plan.json");
      writeFileSync(plan, readFileSync(plan, "utf8").replace("research:no-entry", "research:nope"));
    },
  };

  it.each(KINDS)("%s: a broken copy fails (positive control)", async (kind) => {
    const copy = copyTree(join(REPO, EXAMPLES, kind));
    expect((await runExample(copy)).code).toBe(0);
    BREAK[kind](copy);
    const r = await runExample(copy);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/blocking — failure/);
  });
});

describe("README.md for a newcomer", () => {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
    version: string;
    scripts: Record<string, string>;
  };

  it("has both set-up commands near the top, each one pasteable line, and the scripts exist", () => {
    const top = README.split("\n").slice(0, 40);
    for (const command of ["npm ci && npm run demo", "npm ci && npm test"]) {
      expect(
        top.some((l) => l === command || l.startsWith(`${command} `)),
        command,
      ).toBe(true);
    }
    expect(pkg.scripts.demo).toBeTruthy();
    expect(pkg.scripts.test).toBeTruthy();
  });

  it("shows what the demo prints in a three-line 'See it in 30 seconds'", () => {
    const section = README.split("## See it in 30 seconds\n\n")[1]!.split("\n\n")[0]!;
    expect(section.split("\n")).toHaveLength(3);
    expect(section).toContain("npm ci && npm run demo");
    // What it says the demo prints is the demo's real summary line (test/golden/terminal/demo.txt).
    const demo = readFileSync("test/golden/terminal/demo.txt", "utf8").trimEnd().split("\n").pop()!;
    const quoted = /`(18 criteria[^`]*)`/.exec(section)![1]!;
    const pattern = new RegExp(
      `^${quoted.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("…", ".*")}$`,
    );
    expect(demo).toMatch(pattern);
  });

  /** The two spec families' examples, each with the one defect the issue names for its kind. */
  const SPEC_FAMILIES: Record<string, { file: string; from: string; to: string; error: RegExp }> = {
    "kiro-spec": {
      file: ".kiro/specs/hello/tasks.md",
      from: "_Requirements: 1.1, 1.2_",
      to: "_Requirements: 1.1, 6.7_",
      error: /tasks\.md:\d+:\d+: error .*6\.7/,
    },
    openspec: {
      file: "openspec/changes/add-hello/specs/greeting/spec.md",
      from: "The command SHALL print `Hello",
      to: "The command prints `Hello",
      error: /spec\.md:\d+:\d+: error .*(SHALL|MUST)/,
    },
  };

  it.each(Object.keys(SPEC_FAMILIES))(
    "links the %s example, which passes as it stands and fails with its defect",
    async (kind) => {
      expect(README).toContain(`](${EXAMPLES}/${kind}/`);
      const r = await runExample(join(REPO, EXAMPLES, kind));
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain("0 blocking — success");
      // Positive control: the same example with its kind's defect turns red.
      const { file, from, to, error } = SPEC_FAMILIES[kind]!;
      const copy = copyTree(join(REPO, EXAMPLES, kind));
      const text = readFileSync(join(copy, file), "utf8");
      expect(text).toContain(from);
      writeFileSync(join(copy, file), text.replace(from, to));
      const broken = await runExample(copy);
      expect(broken.code, broken.stdout).toBe(1);
      expect(broken.stdout).toMatch(error);
      expect(broken.stdout).toMatch(/blocking — failure/);
    },
  );

  it("defines the contract kinds and the report's words", () => {
    const glossary = README.split("## Words the report uses")[1]!.split("\n## ")[0]!;
    for (const word of [
      "plan contract",
      "oracle contract",
      "planner",
      "QR",
      "workphase",
      "oracle",
      "drift",
      "manual",
      "blocking",
      "abandoned",
      "evidence-missing",
      "Kiro",
      "OpenSpec",
    ]) {
      expect(glossary, word).toContain(word);
    }
  });

  it("names only the package's own version in its install lines, and says how to install before a release", () => {
    const versions = [...README.matchAll(/contract-gate[@-](\d+\.\d+\.\d+)/g)].map((m) => m[1]);
    expect(versions.length).toBeGreaterThan(3);
    expect(new Set(versions)).toEqual(new Set([pkg.version]));
    const majors = [...README.matchAll(/contract-gate\/contract-gate@v(\d+)\b/g)].map((m) => m[1]);
    expect(new Set(majors)).toEqual(new Set([pkg.version.split(".")[0]]));
    const install = README.split("### Install")[1]!.split("\n### ")[0]!;
    expect(install).toContain("npm pack");
    expect(install).toMatch(/Until a release exists/);
    expect(install).toMatch(/commit SHA/);
  });
});
