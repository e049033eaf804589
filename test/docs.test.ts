import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { demoteHeadings, exampleReport } from "../scripts/example-report.js";
import { FINDING_CODES, findingCodesTable } from "../src/integrity/finding-codes.js";
import { PROBLEM_CODES } from "../src/problem-codes.js";
import { credentialRulesTable, problemCodesTable } from "../src/report/problem-codes-table.js";
import { runReportJsonSchema } from "../src/report/run-json.js";

describe("README", () => {
  const readme = readFileSync("README.md", "utf8");

  it("carries the generated problem-code table (run `npm run docs` after changing codes)", () => {
    expect(readme).toContain(
      `<!-- problem-codes:start -->\n${problemCodesTable()}\n<!-- problem-codes:end -->`,
    );
  });

  it("documents every problem code with a stable kebab-case name", () => {
    for (const code of Object.keys(PROBLEM_CODES)) {
      expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(readme).toContain(`\`${code}\``);
    }
  });

  it("carries the generated integrity finding table (run `npm run docs` after changing codes)", () => {
    expect(readme).toContain(
      `<!-- integrity-findings:start -->\n${findingCodesTable()}\n<!-- integrity-findings:end -->`,
    );
    for (const code of Object.keys(FINDING_CODES)) {
      expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(PROBLEM_CODES).not.toHaveProperty(code);
    }
  });

  it("lists every credential rule the process runner applies", () => {
    expect(readme).toContain(
      `<!-- credential-rules:start -->\n${credentialRulesTable()}\n<!-- credential-rules:end -->`,
    );
    expect(readme).toContain("`GITHUB_TOKEN`");
  });
});

describe("schema/run-report.schema.json", () => {
  it("is the JSON Schema generated from RunReportSchema (run `npm run docs`)", () => {
    const committed = JSON.parse(readFileSync("schema/run-report.schema.json", "utf8"));
    expect(committed).toEqual(runReportJsonSchema());
    expect(committed.properties.schemaVersion.const).toBe(1);
  });
});

describe("docs/example-report.md", () => {
  it("is the demo's report as the action renders it, and the README embeds it", async () => {
    const example = await exampleReport();
    expect(readFileSync("docs/example-report.md", "utf8")).toBe(example);
    expect(readFileSync("README.md", "utf8")).toContain(demoteHeadings(example).trimEnd());
    expect(example).toContain("**8 blocking** of 18 criteria in 7 contracts");
  });
});
