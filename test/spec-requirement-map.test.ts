/**
 * The requirement map is the gate's offer, not spec-kit's duty (issue 35): no
 * spec-kit template has a `## Requirement Map`, so a spec without one warns
 * once (with lines to paste from tasks.md's test tasks) and blocks only under
 * `--requirement-map required`. The CLI's hints speak its flags.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { runCli } from "./helpers/cli.js";
import { copyTree } from "./helpers/tmp.js";

const TWIN = join(import.meta.dirname, "fixtures", "specs", "phantom-completion", "twin");
const KIT = "specs/002-albums/spec.md";

/** The honest twin as spec-kit writes it: no `## Requirement Map` (contract-gate's own section). */
function asSpeckitWritesIt(): string {
  const root = copyTree(TWIN);
  const spec = readFileSync(join(root, KIT), "utf8");
  writeFileSync(join(root, KIT), spec.slice(0, spec.indexOf("## Requirement Map")));
  return root;
}

describe("a spec-kit spec without a Requirement Map", () => {
  it("warns once, suggesting map lines from tasks.md's test tasks and the stories they serve", async () => {
    const c = await loadContract(asSpeckitWritesIt(), KIT);
    const warned = c.problems.filter((p) => p.code === "no-requirement-map");
    expect(warned.map((p) => p.severity)).toEqual(["warning"]);
    expect(warned[0]!.message).toContain("--requirement-map required");
    expect(warned[0]!.hint).toContain("- FR-??? → tests/albums.test.ts > <test name> (US1, T004)");
  });

  it("run: green by default; --requirement-map required blocks with MAP, its hint in the CLI's spelling", async () => {
    const root = asSpeckitWritesIt();
    const args = ["run", "--json", "--no-write", "--sandbox", "off", "--requirement-proof", "off"];
    const optional = await runCli(args, root);
    const report = JSON.parse(optional.stdout) as {
      contracts: {
        criteria: { id: string; status: string; blocking: boolean; reason?: string }[];
      }[];
    };
    const criteria = report.contracts.flatMap((c) => c.criteria);
    expect(criteria.find((k) => k.id === "MAP")).toBeUndefined();
    expect(criteria.filter((k) => k.blocking)).toEqual([]);
    expect(optional.code, optional.stderr).toBe(0);
    const required = await runCli([...args, "--requirement-map", "required"], root);
    const map = (JSON.parse(required.stdout) as typeof report).contracts
      .flatMap((c) => c.criteria)
      .find((k) => k.id === "MAP");
    expect(map).toMatchObject({ status: "unmet", blocking: true });
    expect(map!.reason).toContain("leave out --requirement-map required");
    expect(required.code).toBe(1);
  });

  it("--requirement-map with another value is a usage error naming the two", async () => {
    const r = await runCli(["run", "--requirement-map", "yes"], copyTree(TWIN));
    expect(r.stderr).toContain("--requirement-map 'yes' is not one of optional, required");
    expect(r.code).toBe(2);
  });
});
