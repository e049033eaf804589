import { describe, expect, it } from "vitest";
import { reachedWorkflowFindings, workflowFindings } from "../src/integrity/workflow-diff.js";
import { type Reached, reachWorkflows } from "../src/integrity/workflow-reach.js";

// The files the invoking workflow reaches (issue 33, item 5), resolved over
// in-memory trees at base and head and compared whole: table rows over the
// pure resolver and the finding. The bundled action's runs (git, the
// GitHub stand-in, an approval) are in test/gate-config-e2e.test.ts.

type Files = Record<string, string>;
const CALLER = ".github/workflows/ci.yml";
const GATE = ".github/workflows/gate.yml";

/** The files reached from `entry` over `files` (every other path absent). */
function reach(entry: string, files: Files): Reached[] {
  const r = reachWorkflows(entry, (p) => files[p] ?? null);
  expect(r.needs).toEqual([]);
  return r.files;
}

/** As the edge does: the union of both sides' reach, each file compared. */
function findings(base: Files, head: Files, entry = CALLER) {
  const union = new Map<string, Reached>();
  for (const r of [...reach(entry, base), ...reach(entry, head)])
    if (!union.has(r.path)) union.set(r.path, r);
  return reachedWorkflowFindings(
    [...union.values()],
    (p) => base[p] ?? null,
    (p) => head[p] ?? null,
  );
}

const caller = (uses: string) =>
  [
    "on: pull_request",
    "jobs:",
    "  lint:",
    "    runs-on: ubuntu-latest",
    "    steps: [{ run: npm run lint }]",
    "  gate:",
    `    uses: ${uses}`,
    "    with:",
    "      strict: true",
    "",
  ].join("\n");
const reusable = (contracts: string) =>
  [
    "on:",
    "  workflow_call:",
    "    inputs:",
    "      strict: { type: boolean }",
    "jobs:",
    "  gate:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: contract-gate/contract-gate@v1",
    "        with:",
    `          contracts: ${contracts}`,
    "",
  ].join("\n");
const composite = (contracts: string, extra: string[] = []) =>
  [
    "name: gate",
    "runs:",
    "  using: composite",
    "  steps:",
    ...extra,
    "    - uses: contract-gate/contract-gate@v1",
    "      with:",
    `        contracts: ${contracts}`,
    "",
  ].join("\n");
const callerSteps = (...uses: string[]) =>
  [
    "on: pull_request",
    "jobs:",
    "  gate:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    ...uses.map((u) => `      - uses: ${u}`),
    "",
  ].join("\n");

const ALL = '"contracts/**/*.md"';
const STRICT_ONLY = '"contracts/lenient/**/*.md"';

describe("what the invoking workflow reaches", () => {
  it.each<[string, string, Files, string[]]>([
    [
      "a local reusable workflow",
      CALLER,
      { [CALLER]: caller(`./${GATE}`), [GATE]: reusable(ALL) },
      [CALLER, GATE],
    ],
    [
      "a local composite action, and the local action its steps use",
      CALLER,
      {
        [CALLER]: callerSteps("./.github/actions/gate"),
        ".github/actions/gate/action.yml": composite(ALL, ["    - uses: ./.github/actions/setup/"]),
        ".github/actions/setup/action.yaml": composite(ALL),
      },
      [
        CALLER,
        ".github/actions/gate/action.yml",
        ".github/actions/gate/action.yaml",
        ".github/actions/setup/action.yml",
        ".github/actions/setup/action.yaml",
      ],
    ],
    [
      "a local JavaScript action's main, pre and post files",
      CALLER,
      {
        [CALLER]: callerSteps("./tools/act"),
        "tools/act/action.yml":
          "runs:\n  using: node20\n  main: dist/index.js\n  pre: setup.js\n  post: ../../../outside.js\n",
      },
      [
        CALLER,
        "tools/act/action.yml",
        "tools/act/action.yaml",
        "tools/act/dist/index.js",
        "tools/act/setup.js",
      ],
    ],
    [
      "a local Docker action's Dockerfile, not a docker:// image",
      CALLER,
      {
        [CALLER]: callerSteps("./d1", "./d2"),
        "d1/action.yml": "runs:\n  using: docker\n  image: Dockerfile\n",
        "d2/action.yml": "runs:\n  using: docker\n  image: docker://alpine:3\n",
      },
      [
        CALLER,
        "d1/action.yml",
        "d1/action.yaml",
        "d2/action.yml",
        "d2/action.yaml",
        "d1/Dockerfile",
      ],
    ],
    [
      "not the root action (the gate itself in its own repository), not remote actions or workflows",
      CALLER,
      {
        [CALLER]: callerSteps("./", "actions/setup-node@v4", "docker://alpine:3", "./../escape"),
        "action.yml": "runs:\n  using: node20\n  main: dist/index.js\n",
      },
      [CALLER],
    ],
    [
      "a cycle ends",
      CALLER,
      { [CALLER]: caller(`./${GATE}`), [GATE]: caller(`./${CALLER}`) },
      [CALLER, GATE],
    ],
    [
      "a file that does not parse names nothing further",
      CALLER,
      { [CALLER]: "jobs: [\n" },
      [CALLER],
    ],
  ])("%s", (_, entry, files, expected) => {
    expect(reach(entry, files).map((r) => r.path)).toEqual(expected);
  });

  it("asks for what it has not read, one level at a time", () => {
    const files: Files = { [CALLER]: caller(`./${GATE}`), [GATE]: reusable(ALL) };
    const read = new Map<string, string | null>();
    const rounds: string[][] = [];
    for (;;) {
      const r = reachWorkflows(CALLER, (p) => read.get(p));
      if (r.needs.length === 0) break;
      rounds.push(r.needs);
      for (const p of r.needs) read.set(p, files[p] ?? null);
    }
    expect(rounds).toEqual([[CALLER], [GATE]]);
  });
});

describe("gate-config-changed over every reached file", () => {
  const base: Files = {
    [CALLER]: caller(`./${GATE}`),
    [GATE]: reusable(ALL),
    ".github/workflows/docs.yml": "on: push\njobs: {}\n",
  };

  it("the attack: the local reusable workflow narrows `contracts:`, the caller unchanged: a finding naming the file and the input", () => {
    const head = { ...base, [GATE]: reusable(STRICT_ONLY) };
    const out = findings(base, head);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      code: "gate-config-changed",
      blocking: true,
      path: GATE,
      line: 12,
    });
    expect(out[0]?.message).toContain(
      `the reusable workflow ${GATE}, which the gate's run reaches through ${CALLER}, changed in this pull request`,
    );
    expect(out[0]?.message).toContain(
      `\`contracts\`: \`${ALL.slice(1, -1)}\` → \`${STRICT_ONLY.slice(1, -1)}\``,
    );
  });

  it("the control: with only the caller compared (the rule before), the same PR is no finding", () => {
    const head: Files = { ...base, [GATE]: reusable(STRICT_ONLY) };
    expect(workflowFindings(CALLER, base[CALLER], head[CALLER])).toEqual([]);
  });

  it.each<[string, Files, string[]]>([
    [
      "the twin: a workflow the gate does not reach changes: no finding",
      { ".github/workflows/docs.yml": "on: push\njobs: { x: {} }\n" },
      [],
    ],
    ["nothing changes: no finding", {}, []],
    [
      "the caller points at a new local reusable workflow: the caller and the new file",
      {
        [CALLER]: caller("./.github/workflows/gate2.yml"),
        ".github/workflows/gate2.yml": reusable(STRICT_ONLY),
      },
      [CALLER, ".github/workflows/gate2.yml"],
    ],
    [
      "the reusable workflow is deleted: the caller still names it, a finding on it",
      { [GATE]: undefined as unknown as string },
      [GATE],
    ],
  ])("%s", (_, change, expected) => {
    const head = Object.fromEntries(
      Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined),
    );
    expect(findings(base, head).map((f) => f.path)).toEqual(expected);
  });

  it("a composite local action the workflow calls narrows its `with: contracts:`: a finding on the action, its twin (another local action, not called) passes", () => {
    const b: Files = {
      [CALLER]: callerSteps("./.github/actions/gate"),
      ".github/actions/gate/action.yml": composite(ALL),
      ".github/actions/other/action.yml": composite(ALL),
    };
    const attack = findings(b, { ...b, ".github/actions/gate/action.yml": composite(STRICT_ONLY) });
    expect(attack.map((f) => f.path)).toEqual([".github/actions/gate/action.yml"]);
    expect(attack[0]?.message).toContain(
      `the local action .github/actions/gate/action.yml, which the gate's run reaches through ${CALLER},`,
    );
    expect(attack[0]?.message).toContain("`contracts`");
    expect(
      findings(b, { ...b, ".github/actions/other/action.yml": composite(STRICT_ONLY) }),
    ).toEqual([]);
  });
});
