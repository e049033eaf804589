import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectChanged } from "../src/action/select.js";
import { DEFAULT_CONTRACT_GLOBS, kindOf } from "../src/formats/kinds/index.js";
import { auditDiscovery } from "../src/scope/discover-audit.js";
import { runCli } from "./helpers/cli.js";
import { copyTree, writeTree } from "./helpers/tmp.js";

/**
 * OpenSpec changes and main specs through the CLI: the honest twin (written
 * the way OpenSpec's templates and `openspec archive` write them; it passes
 * `openspec validate --strict`) is green, and each defect, one edit away
 * from it, blocks at its file and line.
 */
const TWIN = join(import.meta.dirname, "fixtures", "openspec", "twin");
const CHANGE = "openspec/changes/add-digest-emails";
const DELTA = `${CHANGE}/specs/notifications/spec.md`;
const TASKS = `${CHANGE}/tasks.md`;
const MAIN = "openspec/specs/notifications/spec.md";

const text = (rel: string) => readFileSync(join(TWIN, rel), "utf8");

/** The twin with `edits` (path → new text) written over it, validated. */
async function validate(edits: Record<string, string> = {}, args: string[] = []) {
  const root = copyTree(TWIN);
  writeTree(root, edits);
  const out = await runCli(["validate", "--root", root, ...args], root);
  return { ...out, root };
}

/** `path:line:col: error CODE` lines of the terminal output. */
function errors(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => / error /.test(l))
    .map((l) => l.replace(/: error (\S+) .*/, " $1"));
}

describe("OpenSpec: the honest twin", () => {
  it("is two valid contracts, the change and its main spec; the archive is not read", async () => {
    const { code, stdout } = await validate();
    expect(stdout).toContain("2 contracts checked: 2 valid, 0 invalid (0 errors, 0 warnings)");
    expect(code).toBe(0);
  });

  it("runs green: each ADDED/MODIFIED requirement is a criterion, not proved, not blocking", async () => {
    const root = copyTree(TWIN);
    const { code, stdout } = await runCli(["run", "--no-write", "--root", root], root);
    expect(stdout).toContain("notifications:Daily digest email");
    expect(stdout).toContain("notifications:Notification preferences");
    expect(stdout).toContain("2 criteria in 2 contracts (2 manual), 0 blocking — success");
    expect(code).toBe(0);
  });

  it("reads content in any language: the keywords are what counts", async () => {
    const delta = text(DELTA).replace(
      "The service SHALL send each owner who enabled the digest channel one email per day listing every build failure on their watched projects since the previous digest.",
      "Layanan SHALL mengirim satu email ringkasan per hari kepada setiap pemilik.",
    );
    const { code } = await validate({ [DELTA]: delta });
    expect(code).toBe(0);
  });
});

/** Each defect: the edit, and the `path:line:col CODE` it must produce. */
const DEFECTS: [string, () => Record<string, string>, string][] = [
  [
    "an ADDED requirement without SHALL or MUST",
    () => ({
      [DELTA]: text(DELTA).replace(
        "The service SHALL send each owner",
        "The service sends each owner",
      ),
    }),
    `${DELTA}:3:1 openspec-requirement-text`,
  ],
  [
    "a MODIFIED name the main spec does not have",
    () => ({
      [DELTA]: text(DELTA).replace(
        "### Requirement: Notification preferences",
        "### Requirement: Notification settings",
      ),
    }),
    `${DELTA}:17:1 openspec-base-mismatch`,
  ],
  [
    "a MODIFIED block without a scenario",
    () => ({
      [DELTA]: text(DELTA).replace(
        /(### Requirement: Notification preferences\n[^\n]*\n)[\s\S]*?(## REMOVED)/,
        "$1\n**Before:** two channels. **After:** three.\n\n$2",
      ),
    }),
    `${DELTA}:17:1 openspec-scenario`,
  ],
  [
    "a heading without `Requirement:` (SATU-DATA's defect)",
    () => ({
      [DELTA]: text(DELTA).replace("### Requirement: Daily digest email", "### Daily digest email"),
    }),
    `${DELTA}:3:1 openspec-requirement-header`,
  ],
  [
    "a delta spec without a delta header",
    () => ({
      [DELTA]: text(DELTA).replace(
        /^## (ADDED|MODIFIED|REMOVED|RENAMED) Requirements$/gm,
        "## Requirements",
      ),
    }),
    `${DELTA}:1:1 openspec-delta-section`,
  ],
  [
    "a delta section written with two spaces",
    () => ({ [DELTA]: text(DELTA).replace("## ADDED Requirements", "## ADDED  Requirements") }),
    `${DELTA}:1:1 openspec-delta-section`,
  ],
  [
    "a REMOVED name the main spec does not have",
    () => ({
      [DELTA]: text(DELTA).replace("### Requirement: SMS alerts", "### Requirement: SMS alert"),
    }),
    `${DELTA}:34:1 openspec-base-mismatch`,
  ],
  [
    "a RENAMED TO without its FROM",
    () => ({ [DELTA]: text(DELTA).replace("- FROM: `### Requirement: Email alerts`\n", "") }),
    `${DELTA}:41:1 openspec-renamed`,
  ],
  [
    "a name in both ADDED and MODIFIED",
    () => ({
      [DELTA]: text(DELTA).replace(
        "### Requirement: Daily digest email",
        "### Requirement: Notification preferences",
      ),
    }),
    `${DELTA}:17:1 openspec-conflict`,
  ],
  [
    "a MODIFIED block that drops a scenario the main spec has",
    () => ({
      [DELTA]: text(DELTA).replace(
        "#### Scenario: New account defaults",
        "#### Scenario: Fresh account defaults",
      ),
    }),
    `${DELTA}:17:1 openspec-base-mismatch`,
  ],
  ["a change with no delta spec", () => ({ [DELTA]: "" }), `${DELTA}:1:1 openspec-delta-section`],
  [
    "a task numbered for another group",
    () => ({ [TASKS]: text(TASKS).replace("- [ ] 2.2 Remove", "- [ ] 1.3 Remove") }),
    `${TASKS}:9:7 openspec-task`,
  ],
  [
    "a phantom completion: a done task naming a file that does not exist",
    () => ({ [TASKS]: text(TASKS).replace("`src/digest.ts`", "`src/digest-job.ts`") }),
    `${TASKS}:3:63 phantom-completion`,
  ],
  [
    "a main spec without ## Purpose",
    () => ({ [MAIN]: text(MAIN).replace("## Purpose", "## Intent") }),
    `${MAIN}:1:1 openspec-spec-section`,
  ],
  [
    "a main spec requirement without SHALL or MUST",
    () => ({
      [MAIN]: text(MAIN).replace(
        "The service MUST send a text message",
        "The service may send a text message",
      ),
    }),
    `${MAIN}:25:1 openspec-requirement-text`,
  ],
];

describe("OpenSpec: each defect blocks at its line", () => {
  for (const [name, edit, expected] of DEFECTS) {
    it(name, async () => {
      const { code, stdout } = await validate(edit());
      expect(errors(stdout), stdout).toContain(expected);
      expect(code).toBe(1);
    });
  }
});

describe("OpenSpec: which kind a path is", () => {
  it("every file of an active change is the change; a main spec is openspec-spec; archives and notes are none", () => {
    expect(kindOf(`${CHANGE}/proposal.md`)).toBe("openspec-change");
    expect(kindOf(TASKS)).toBe("openspec-change");
    expect(kindOf(DELTA)).toBe("openspec-change");
    expect(kindOf(MAIN)).toBe("openspec-spec");
    expect(kindOf("apps/web/openspec/specs/auth/login/spec.md")).toBe("openspec-spec");
    expect(kindOf("openspec/changes/archive/2026-01-05-add-sms/proposal.md")).toBeUndefined();
    // Control: outside OpenSpec trees the names keep their spec-kit kinds.
    expect(kindOf("specs/001-x/spec.md")).toBe("spec");
    expect(kindOf("specs/001-x/tasks.md")).toBe("speckit-tasks");
  });

  it("a change's tasks.md named explicitly is read as the change, never as a spec-kit task list", async () => {
    const { code, stdout } = await validate({}, [TASKS]);
    expect(stdout).toContain("1 contract checked: 1 valid");
    expect(stdout).not.toContain("foreign-file");
    expect(code).toBe(0);
  });

  it("an archived change named explicitly is refused with why", async () => {
    const { code, stderr } = await validate({}, [
      "openspec/changes/archive/2026-01-05-add-sms/specs/notifications/spec.md",
    ]);
    expect(stderr).toContain("archived OpenSpec change");
    expect(code).toBe(2);
  });

  it("the discovery audit names OpenSpec trees the globs leave out (the action's narrowed `contracts`)", async () => {
    const root = copyTree(TWIN);
    const audit = await auditDiscovery({ root, globs: ["specs/*/spec.md"], given: [], found: [] });
    const said = audit.errors.join("\n");
    expect(said).toContain(`${CHANGE}/proposal.md (an OpenSpec change by its place)`);
    expect(said).toContain(`${MAIN} (an OpenSpec main spec by its place)`);
    expect(said).not.toContain("archive/");
    // Control: with the default globs nothing is said.
    const all = await auditDiscovery({
      root,
      globs: DEFAULT_CONTRACT_GLOBS,
      given: [],
      found: [`${CHANGE}/proposal.md`, MAIN],
    });
    expect(all).toEqual({ warnings: [], errors: [] });
  });

  it("a change folder with no proposal.md is named, not silently skipped", async () => {
    const root = copyTree(TWIN);
    writeTree(root, { "openspec/changes/add-sms-opt-in/specs/notifications/spec.md": text(DELTA) });
    const { stderr } = await runCli(["validate", "--root", root], root);
    expect(stderr).toContain(
      "openspec/changes/add-sms-opt-in/ (an OpenSpec change with no proposal.md",
    );
  });

  it("a PR touching any file of the change folder selects the change; a change elsewhere does not", () => {
    const discovered = [`${CHANGE}/proposal.md`, MAIN];
    const pick = (path: string) =>
      selectChanged(discovered, [{ path, status: "modified" }], DEFAULT_CONTRACT_GLOBS, "");
    expect(pick(DELTA).selected).toEqual([`${CHANGE}/proposal.md`]);
    expect(pick(DELTA).by.get(`${CHANGE}/proposal.md`)).toBe(`${CHANGE}/`);
    expect(pick(`${CHANGE}/design.md`).selected).toEqual([`${CHANGE}/proposal.md`]);
    // Control: another change's file, and a file whose name only starts like the folder's.
    expect(pick("openspec/changes/add-digest-emails-2/tasks.md").selected).toEqual([]);
    expect(pick(MAIN).selected).toEqual([MAIN]);
  });
});
