import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { baseAndHead } from "./helpers/integrity-repo.js";

/**
 * A Kiro spec against its base, through `validate --base main`: each
 * weakening blocks until approved, each with a control that changes the same
 * file without weakening anything.
 */
const HONEST = join(import.meta.dirname, "fixtures", "kiro", "honest");
const DIR = ".kiro/specs/export-reports";
const text = (name: string) => readFileSync(join(HONEST, DIR, name), "utf8");
const BASE: Record<string, string> = {
  [`${DIR}/requirements.md`]: text("requirements.md"),
  [`${DIR}/design.md`]: text("design.md"),
  [`${DIR}/tasks.md`]: text("tasks.md"),
  "src/export/csv.ts": "export {};\n",
};

function edit(name: string, from: string, to: string): Record<string, string> {
  const before = BASE[`${DIR}/${name}`]!;
  if (!before.includes(from)) throw new Error(`fixture lacks ${from}`);
  return { [`${DIR}/${name}`]: before.replace(from, to) };
}

async function findings(head: Record<string, string | null>) {
  const root = baseAndHead(head, BASE);
  const r = await runCli(["validate", "--base", "main", "--json"], root);
  const json = JSON.parse(r.stdout || "{}");
  const list = (json.integrity?.findings ?? []) as {
    code: string;
    blocking: boolean;
    path: string;
    line: number;
  }[];
  return { code: r.code, list, codes: list.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`) };
}

describe("kiro-spec against its base", () => {
  it("checking a task off and adding a criterion is no weakening (control)", async () => {
    const r = await findings({
      ...edit("tasks.md", "  - [ ] 2.2 Enforce", "  - [x] 2.2 Enforce"),
      ...edit(
        "requirements.md",
        "finish the file\n",
        "finish the file\n3. WHEN an export fails THEN the Exporter SHALL say why\n",
      ),
    });
    expect(r.codes).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("a SHALL softened to SHOULD blocks at the criterion's line; kept SHALL only warns", async () => {
    const soft = await findings(
      edit("requirements.md", "THE Exporter SHALL quote every", "THE Exporter SHOULD quote every"),
    );
    expect(soft.codes).toEqual(["B kiro-criterion-softened"]);
    expect(soft.code).toBe(1);
    expect(soft.list[0]).toMatchObject({
      path: `${DIR}/requirements.md`,
      line:
        text("requirements.md")
          .split("\n")
          .findIndex((l) => l.startsWith("3. THE Exporter")) + 1,
    });
    const reworded = await findings(
      edit("requirements.md", "quote every field", "quote each field"),
    );
    expect(reworded.codes).toEqual(["W kiro-criterion-reworded"]);
  });

  it("an acceptance criterion removed blocks", async () => {
    const r = await findings(
      edit(
        "requirements.md",
        "2. WHEN an export takes longer than 30 seconds, THE Exporter SHALL keep the connection alive and finish the file\n",
        "",
      ),
    );
    expect(r.codes).toContain("B kiro-criterion-removed");
  });

  it("a task done at base un-checked, a property dropped: each blocks, in its own file", async () => {
    const undone = await findings(edit("tasks.md", "  - [x] 2.1 Wire", "  - [ ] 2.1 Wire"));
    expect(undone.codes).toEqual(["B kiro-task-unchecked"]);
    expect(undone.list[0]!.path).toBe(`${DIR}/tasks.md`);
    const dropped = await findings(
      edit("design.md", "**Validates: Requirements 1.1, 1.3**", "**Validates: Requirements 1.1**"),
    );
    expect(dropped.codes).toEqual(["B kiro-property-removed"]);
    expect(dropped.list[0]!.path).toBe(`${DIR}/design.md`);
  });

  it("a task the PR checks naming a file that does not exist blocks; naming one that exists does not", async () => {
    const phantom = await findings(
      edit(
        "tasks.md",
        "  - [ ] 3.1 Switch the writer to row streaming behind the streaming flag",
        "  - [x] 3.1 Switch the writer to row streaming in `src/export/stream.ts`",
      ),
    );
    expect(phantom.codes).toEqual(["B kiro-task-phantom"]);
    const real = await findings({
      ...edit(
        "tasks.md",
        "  - [ ] 3.1 Switch the writer to row streaming behind the streaming flag",
        "  - [x] 3.1 Switch the writer to row streaming in `src/export/stream.ts`",
      ),
      "src/export/stream.ts": "export {};\n",
    });
    expect(real.codes).toEqual([]);
  });
});
