import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { asWorkflow, workflowErrors, yamlSnippets } from "./helpers/workflow-lint.js";

const WORKFLOW_DIR = ".github/workflows";
const workflowFiles = readdirSync(WORKFLOW_DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => join(WORKFLOW_DIR, f));
const docFiles = [
  "README.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];
const snippets = docFiles.flatMap((f) => yamlSnippets(f, readFileSync(f, "utf8")));

describe("workflows GitHub would accept (@actions/workflow-parser)", () => {
  it("finds the workflows and the README's snippets", () => {
    expect(workflowFiles).toContain(join(WORKFLOW_DIR, "release.yml"));
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    // The sharded workflow users paste: a matrix job and the merge job, checked like the rest.
    const sharding = snippets.filter((s) => s.where.startsWith(join("docs", "sharding.md")));
    expect(sharding.map((s) => s.text).join()).toContain("merge-reports:");
    expect(sharding.map((s) => s.text).join()).toContain("merge-multiple: true");
  });

  it.each(workflowFiles)("%s parses without errors", async (file) => {
    expect(await workflowErrors(file, readFileSync(file, "utf8"))).toEqual([]);
  });

  it.each(snippets.map((s) => [s.where, s.text]))(
    "%s parses without errors",
    async (where, text) => {
      const workflow = asWorkflow(text);
      expect(workflow, `${where}: neither a workflow nor a list of steps`).toBeDefined();
      expect(await workflowErrors(where, workflow!)).toEqual([]);
    },
  );
});

describe("the check catches what GitHub rejects (positive controls)", () => {
  const good =
    "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n";

  it("accepts a minimal workflow", async () => {
    expect(await workflowErrors("good.yml", good)).toEqual([]);
  });

  it.each([
    [
      "an unknown step key",
      good.replace("- run: echo hi", "- run: echo hi\n        iff: always()"),
      "Unexpected value 'iff'",
    ],
    ["an unknown event", good.replace("on: push", "on: pushh"), "Unexpected value 'pushh'"],
    [
      "an unclosed expression",
      good.replace("echo hi", "echo ${{ github.sha"),
      "The expression is not closed",
    ],
    [
      "a need of a missing job",
      good.replace("runs-on:", "needs: nope\n    runs-on:"),
      "at least one job with no dependencies",
    ],
  ])("rejects %s", async (_what, broken, message) => {
    const errors = await workflowErrors("broken.yml", broken);
    expect(errors.join("\n")).toContain(message);
  });

  it("rejects a broken README-style steps fragment", async () => {
    const fragment =
      "# stage 1\n      - uses: actions/upload-artifact@v4\n        if: always()\n        whith: { name: x }\n";
    const [snippet] = yamlSnippets("X.md", `text\n\n\`\`\`yaml\n${fragment}\`\`\`\n`);
    expect(snippet!.where).toBe("X.md:3");
    expect((await workflowErrors(snippet!.where, asWorkflow(snippet!.text)!)).join()).toContain(
      "whith",
    );
    expect(await workflowErrors("ok", asWorkflow(fragment.replace("whith", "with"))!)).toEqual([]);
  });

  it("refuses a yaml block that is neither a workflow nor steps", () => {
    expect(asWorkflow("name: x\nruns:\n  using: node20\n")).toBeUndefined();
  });
});

/**
 * A PR's verdict depends on its base branch, so a workflow that gates on
 * `pull_request` must also run when the base changes (`edited`): otherwise a PR
 * opened into a branch where its contract changes pass, then re-targeted to
 * `main`, keeps that green check run. GitHub's default types leave `edited` out.
 */
function missesBaseChange(text: string): boolean {
  const workflow = parse(text) as { on?: unknown } | null;
  const on = workflow?.on;
  if (!text.includes("contract-gate/contract-gate@") && !text.includes("uses: ./")) return false;
  if (on === null || typeof on !== "object" || !("pull_request" in on)) return false;
  const types = (on.pull_request as { types?: unknown } | null)?.types;
  return !Array.isArray(types) || !types.includes("edited");
}

describe("gating workflows re-run when a PR's base branch changes", () => {
  const gating = [
    ...workflowFiles.map((f) => [f, readFileSync(f, "utf8")] as const),
    ...snippets.map((s) => [s.where, s.text] as const),
  ].filter(([, text]) => /^on:/m.test(text) && /contract-gate@|uses: \.\/\n/.test(text));

  it("finds the gating workflows (quick start, docs, this repository's)", () => {
    expect(
      gating.filter(([, t]) => /contract-gate@|uses: \.\//.test(t)).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it.each(gating.map(([where, text]) => [where, text]))("%s includes edited", (_where, text) => {
    expect(missesBaseChange(text)).toBe(false);
  });

  it("a pull_request trigger with GitHub's default types is caught (positive control)", () => {
    const plain =
      "on:\n  pull_request:\njobs:\n  g:\n    steps:\n      - uses: contract-gate/contract-gate@v1\n";
    expect(missesBaseChange(plain)).toBe(true);
    expect(
      missesBaseChange(plain.replace("pull_request:", "pull_request: { types: [opened] }")),
    ).toBe(true);
    expect(
      missesBaseChange(plain.replace("pull_request:", "pull_request: { types: [opened, edited] }")),
    ).toBe(false);
  });
});

/** `uses:` lines not pinned by a full commit SHA with the version in a comment. */
function unpinned(where: string, text: string): string[] {
  const out: string[] = [];
  text.split("\n").forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    if (!m) return;
    const [, ref, rest] = m as unknown as [string, string, string];
    // Local actions and workflows, and this action's own major tag (README: "Pinning `@v1`").
    if (ref.startsWith("./") || ref === "contract-gate/contract-gate@v1") return;
    if (!/@[0-9a-f]{40}$/.test(ref) || !/^\s+# v\d+(\.\d+)*\s*$/.test(rest))
      out.push(`${where}:${i + 1}: ${line.trim()}`);
  });
  return out;
}

describe("every action use is pinned by SHA with its version in a comment", () => {
  it("in every doc and workflow", () => {
    const files = [...docFiles, "CONTRIBUTING.md", ...workflowFiles];
    expect(files.flatMap((f) => unpinned(f, readFileSync(f, "utf8")))).toEqual([]);
    expect(snippets.some((s) => s.text.includes("actions/checkout@"))).toBe(true);
  });

  it("catches a tag, a short SHA and a missing version comment (positive control)", () => {
    const bad = [
      "      - uses: actions/upload-artifact@v4",
      "      - uses: actions/checkout@11bd719 # v4.2.2",
      "        uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683",
    ].join("\n");
    expect(unpinned("x", bad)).toHaveLength(3);
    expect(
      unpinned("x", "  - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"),
    ).toEqual([]);
  });
});

describe("the fork recipe's stage 2 follows the quick start's workflow", () => {
  it("by the name the quick start sets", () => {
    const readme = readFileSync("README.md", "utf8");
    const quick = snippets.find((s) => s.where.startsWith("README.md") && /^on:/m.test(s.text));
    const name = (parse(quick!.text) as { name?: string }).name;
    expect(name).toBe("contract-gate");
    const forks = readFileSync("docs/forks.md", "utf8");
    const stage2 = yamlSnippets("docs/forks.md", forks).find((s) =>
      s.text.includes("workflow_run:"),
    );
    const on = (parse(stage2!.text) as { on: { workflow_run: { workflows: string[] } } }).on;
    expect(on.workflow_run.workflows).toContain(name);
    expect(forks).toMatch(/stage 1 without that name never starts stage 2/);
    expect(readme).toContain("name: contract-gate");
  });
});
