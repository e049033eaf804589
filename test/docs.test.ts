import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROBLEM_CODES } from "../src/problem-codes.js";
import { problemCodesTable } from "../src/report/problem-codes-table.js";

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
});
