import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import {
  baseAndHead,
  PLAN_BASE,
  PLAN_CONTRACT_PATH,
  planContract,
} from "./helpers/integrity-repo.js";

/** `validate --base main --json` findings when the PR rewrites the generated contract. */
async function findingCodes(edit: (c: Record<string, unknown>) => void) {
  const root = baseAndHead({ [PLAN_CONTRACT_PATH]: planContract(PLAN_BASE, edit) });
  const { stdout } = await runCli(["validate", "--base", "main", "--json"], root);
  const json = JSON.parse(stdout || "{}");
  return ((json.integrity?.findings ?? []) as { code: string; message: string }[]).map(
    (f) => `${f.code}: ${f.message}`,
  );
}

describe('"$schema" in a generated phase contract', () => {
  it("adding it (editor support, docs/contracts.md) is no contract change", async () => {
    expect(
      await findingCodes((c) => {
        c.$schema =
          "https://raw.githubusercontent.com/contract-gate/contract-gate/v1/schema/phase-contract.schema.json";
      }),
    ).toEqual([]);
  });

  it("any other new top-level key is still an in-place edit (control)", async () => {
    const found = await findingCodes((c) => {
      c.why = "Because.";
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toContain("changed: why");
  });
});
