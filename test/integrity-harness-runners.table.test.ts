import { describe, expect, it } from "vitest";
import { entryName, entryText } from "../src/integrity/harness-entry.js";
import { resolveHarness, shellCheck } from "../src/integrity/harness-resolve.js";

// `just X`, `task X`, `nox -s X` (issue 33): the runner's file compared
// whole, the recipe's or task's own commands resolved in turn. Table rows
// over the pure resolver, as test/integrity-harness.table.test.ts.

type Files = Record<string, string>;
const resolve = (line: string, files: Files) =>
  resolveHarness(shellCheck(line), (p) => files[p] ?? null, Object.keys(files));
const named = (line: string, files: Files) =>
  resolve(line, files).parts.map((p) => `${p.file} ${entryName(p.entry)}`);
/** The parts whose entry differs between `before` and `after`: what a PR changing them is named for. */
const changes = (line: string, before: Files, after: Files) =>
  resolve(line, before)
    .parts.filter((p) => entryText(p.entry, before[p.file]) !== entryText(p.entry, after[p.file]))
    .map((p) => p.file);

const JUSTFILE =
  "set shell := ['bash', '-c']\n\ncheck: build\n  @./verify.sh\n\nbuild:\n  echo build\n\nother:\n  echo other\n";
const TASKFILE = [
  "version: '3'",
  "tasks:",
  "  check:",
  "    deps: [build]",
  "    cmds:",
  "      - sh scripts/verify.sh",
  "      - task: lint",
  "  build: echo build",
  "  lint:",
  "    dir: web",
  "    cmds: [npm run lint]",
  "  default:",
  "    cmds: [echo default]",
  "",
].join("\n");

describe("just, task, nox in the resolution table", () => {
  it.each<[string, Files, string[]]>([
    [
      "just check",
      { justfile: JUSTFILE, "verify.sh": "exit 1" },
      ["justfile the whole file", "verify.sh the whole file"],
    ],
    [
      "just",
      { Justfile: JUSTFILE, "verify.sh": "" },
      ["Justfile the whole file", "verify.sh the whole file"],
    ],
    [
      "cd sub && just check",
      { justfile: JUSTFILE, "verify.sh": "" },
      ["justfile the whole file", "verify.sh the whole file"],
    ],
    [
      "just -f ci.just check",
      { "ci.just": JUSTFILE, "verify.sh": "" },
      ["ci.just the whole file", "verify.sh the whole file"],
    ],
    [
      "just check",
      {
        justfile: `import 'ci/common.just'\n${JUSTFILE}`,
        "ci/common.just": "x := '1'\n",
        "verify.sh": "",
      },
      ["justfile the whole file", "ci/common.just the whole file", "verify.sh the whole file"],
    ],
    [
      "task check",
      {
        "Taskfile.yml": TASKFILE,
        "scripts/verify.sh": "",
        "web/package.json": '{"scripts":{"lint":"eslint ."}}',
      },
      [
        "Taskfile.yml the whole file",
        "scripts/verify.sh the whole file",
        "web/package.json scripts.prelint",
        "web/package.json scripts.lint",
        "web/package.json scripts.postlint",
      ],
    ],
    ["task", { "Taskfile.yaml": TASKFILE }, ["Taskfile.yaml the whole file"]],
    ["nox -s tests", { "noxfile.py": "import nox\n" }, ["noxfile.py the whole file"]],
  ])("`%s`", (line, files, expected) => {
    expect(named(line, files).filter((n) => !/\.npmrc|\.yarnrc|bunfig/.test(n))).toEqual(expected);
  });

  it.each<[string, Files, RegExp]>([
    ["just nope", { justfile: JUSTFILE }, /no recipe `nope` in justfile/],
    ["just check", {}, /no justfile where it runs/],
    ["just x", { justfile: "x:\n  echo {{ARG}}\n" }, /interpolates, not followed/],
    ["just x", { justfile: "x:\n  #!/usr/bin/env python3\n  print(1)\n" }, /a shebang recipe/],
    [
      "task ns:check",
      { "Taskfile.yml": TASKFILE },
      /a task of an included Taskfile is not followed/,
    ],
    ["nox -s tests", { "noxfile.py": "" }, /sessions of noxfile.py are Python/],
    ["nox -s tests", {}, /no noxfile.py where it runs/],
  ])("`%s` warns: %s", (line, files, why) => {
    expect(resolve(line, files).unresolved.join("\n")).toMatch(why);
  });

  it("the attack: the script a recipe runs, or the Taskfile, changed: a part changes; the twin: an unrelated script does not", () => {
    const base: Files = { justfile: JUSTFILE, "verify.sh": "exit 1", "unrelated.sh": "exit 1" };
    expect(changes("just check", base, { ...base, "verify.sh": "exit 0" })).toEqual(["verify.sh"]);
    expect(changes("just check", base, { ...base, "unrelated.sh": "exit 0" })).toEqual([]);
    const tbase: Files = { "Taskfile.yml": TASKFILE, "scripts/verify.sh": "exit 1" };
    const narrowed = TASKFILE.replace("sh scripts/verify.sh", "true");
    expect(changes("task check", tbase, { ...tbase, "Taskfile.yml": narrowed })).toEqual([
      "Taskfile.yml",
    ]);
  });

  it("a command named like an Object property is no task runner", () => {
    expect(resolve("constructor x", {}).unresolved.join("")).toMatch(
      /no command the gate's resolution table knows/,
    );
  });
});
