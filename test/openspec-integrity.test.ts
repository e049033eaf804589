import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { git } from "./helpers/git.js";
import { applyHead, baseAndHead } from "./helpers/integrity-repo.js";

/**
 * OpenSpec against the base (`validate --base main`): a main spec may change
 * only as a delta of the same PR says (the archive flow writes it from the
 * deltas); the same edit with no delta is a weakening that blocks until
 * approved. Closing a change with open tasks is a finding.
 */
const TWIN = join(import.meta.dirname, "fixtures", "openspec", "twin");
const CHANGE = "openspec/changes/add-digest-emails";
const ARCHIVED = "openspec/changes/archive/2026-03-09-add-digest-emails";
const MAIN = "openspec/specs/notifications/spec.md";

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else out[relative(TWIN, abs)] = readFileSync(abs, "utf8");
    }
  };
  walk(dir);
  return out;
}
const BASE = files(TWIN);
const main = BASE[MAIN]!;

interface JsonFinding {
  code: string;
  blocking: boolean;
  path: string;
  line: number;
}

async function findingsFor(head: Record<string, string | null>, moves: [string, string][] = []) {
  const root = baseAndHead({}, BASE);
  for (const [from, to] of moves) git(root, "mv", from, to);
  applyHead(root, head);
  const { code, stdout } = await runCli(["validate", "--base", "main", "--json"], root);
  const json = JSON.parse(stdout || "{}");
  const findings = (json.integrity?.findings ?? []) as JsonFinding[];
  return {
    code,
    findings,
    codes: findings.map((f) => `${f.blocking ? "B" : "W"} ${f.code} ${f.path}:${f.line}`),
  };
}

/** The main spec as `openspec archive` writes it from the twin's delta. */
const ARCHIVED_MAIN = readFileSync(
  join(import.meta.dirname, "fixtures/openspec/archived-main.md"),
  "utf8",
);

const allDone = (tasks: string) => tasks.replace(/- \[ \]/g, "- [x]");

describe("OpenSpec main specs against the base", () => {
  it("control: checking tasks off and editing the change is no finding", async () => {
    const r = await findingsFor({ [`${CHANGE}/tasks.md`]: allDone(BASE[`${CHANGE}/tasks.md`]!) });
    expect(r.codes).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("SHALL → SHOULD in a main spec with no delta saying so blocks", async () => {
    const r = await findingsFor({
      [MAIN]: main.replace(
        "The dashboard SHALL show a banner",
        "The dashboard SHOULD show a banner",
      ),
    });
    expect(r.codes).toEqual([`B openspec-requirement-softened ${MAIN}:32`]);
    expect(r.code).toBe(1);
  });

  it("a requirement dropped with no delta saying so blocks", async () => {
    const r = await findingsFor({
      [MAIN]: main.slice(0, main.indexOf("### Requirement: Weekly summary banner")),
    });
    expect(r.codes).toEqual([`B openspec-requirement-dropped ${MAIN}:1`]);
  });

  it("a scenario removed with no delta saying so blocks", async () => {
    const r = await findingsFor({
      [MAIN]: main.replace(/#### Scenario: New account defaults\n[^\n]*\n[^\n]*\n\n/, ""),
    });
    expect(r.codes).toEqual([`B openspec-scenario-dropped ${MAIN}:7`]);
  });

  it("the archive flow: the main spec rewritten as the archived delta says is no finding once the tasks are done", async () => {
    const moves: [string, string][] = [[CHANGE, ARCHIVED]];
    const done = await findingsFor(
      { [MAIN]: ARCHIVED_MAIN, [`${ARCHIVED}/tasks.md`]: allDone(BASE[`${CHANGE}/tasks.md`]!) },
      moves,
    );
    expect(done.codes).toEqual([]);
    expect(done.code).toBe(0);
    // Control: the same main spec with no delta in the PR is three weakenings.
    const bare = await findingsFor({ [MAIN]: ARCHIVED_MAIN });
    expect(bare.codes.sort()).toEqual([
      `B openspec-requirement-dropped ${MAIN}:1`,
      `B openspec-requirement-dropped ${MAIN}:1`,
      `B openspec-requirement-dropped ${MAIN}:1`,
    ]);
  });

  it("archiving a change with open tasks is a finding at the first open task", async () => {
    const r = await findingsFor({ [MAIN]: ARCHIVED_MAIN }, [[CHANGE, ARCHIVED]]);
    expect(r.codes).toEqual([`B openspec-change-closed-open ${ARCHIVED}/tasks.md:4`]);
    expect(r.code).toBe(1);
  });

  it("deleting a change whose tasks were open at base is a finding", async () => {
    const gone = Object.fromEntries(
      Object.keys(BASE)
        .filter((p) => p.startsWith(`${CHANGE}/`))
        .map((p) => [p, null]),
    );
    const r = await findingsFor(gone);
    expect(r.codes).toEqual([`B openspec-change-closed-open ${CHANGE}/tasks.md:4`]);
  });
});
