import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROOF_DOC_BLOCKS } from "../src/proof/tamper-docs.js";
import { MARKER_ROWS } from "../src/proof/tamper-tables.js";

const doc = readFileSync("docs/proof.md", "utf8");

describe("docs/proof.md", () => {
  it.each(Object.entries(PROOF_DOC_BLOCKS))(
    "carries the generated %s block (run `npx tsx scripts/docs.ts`)",
    (name, block) => {
      expect(doc).toContain(`<!-- ${name}:start -->\n${block()}\n<!-- ${name}:end -->`);
    },
  );

  it("shows every marker form the spec workflow's tamper list names", () => {
    const table = PROOF_DOC_BLOCKS["tamper-markers"]?.() ?? "";
    for (const form of [
      "it.skip",
      "describe.only",
      "xit",
      "test.todo",
      "test.only(",
      "{ skip: true }",
      "t.skip()",
      "@pytest.mark.skip",
      "pytest.skip(",
      "@unittest.skip",
      "t.Skip(",
      "#[ignore]",
      "@Disabled",
    ]) {
      expect(table, form).toContain(form);
    }
    expect(MARKER_ROWS.length).toBeGreaterThan(10);
  });
});
