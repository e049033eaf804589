import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import { openGit } from "../src/git/index.js";
import { finding } from "../src/integrity/types.js";
import type { Contract } from "../src/model/contract.js";
import { withProofFindings } from "../src/proof/findings.js";
import {
  DEFAULT_PROOF_OPTIONS,
  diskSide,
  gitSide,
  type ProofOptions,
  proveRequirements,
  type TestProver,
} from "../src/proof/index.js";
import type { TestProof } from "../src/proof/types.js";
import { unacknowledged } from "../src/verdict.js";
import { git } from "./helpers/git.js";
import { repo, SPEC, SPEC_PATH, TEST } from "./helpers/proof-repo.js";
import { writeTree } from "./helpers/tmp.js";

function specAt(root: string): Contract {
  const text = git(root, "show", `HEAD:${SPEC_PATH}`);
  return parseContract("spec", SPEC_PATH, new TextEncoder().encode(text));
}

async function prove(
  head: Record<string, string | null>,
  opts: Partial<ProofOptions> = {},
  prover?: TestProver,
  contracts?: (root: string) => Contract[],
) {
  const root = repo(head);
  const g = openGit(root);
  const base = await g.mergeBase("main", "HEAD");
  const result = await proveRequirements({
    contracts: contracts ? contracts(root) : [specAt(root)],
    diff: {
      base,
      changed: await g.changedBetween(base, "HEAD"),
      readBase: gitSide(g, base),
      readHead: gitSide(g, "HEAD"),
    },
    options: { ...DEFAULT_PROOF_OPTIONS, ...opts },
    ...(prover && { prover }),
    context: { root, git: g, env: {} },
  });
  const codes = result.findings.map(
    (f) => `${f.blocking ? "B" : "W"} ${f.code} ${f.path}:${f.line}`,
  );
  return { root, result, codes };
}

describe("proveRequirements: the diff readings, from a real repository's base → head", () => {
  it("an honest change (source and its tests) has no finding (the control)", async () => {
    const { codes, result } = await prove({
      "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
      "tests/trim.test.ts": `${TEST}it("trims tabs", () => { expect(trim("\\ta")).toBe("a"); });\n`,
    });
    expect(codes).toEqual([]);
    expect(result.specs).toHaveLength(1);
    expect(result.specs[0]!.guardrailRules.map((r) => `${r.rule} ${r.location.line}`)).toEqual([
      "no-new-dependencies 21",
      "protected-paths 23",
      "manual 24",
    ]);
  });

  it.each([
    [
      "a new .only",
      { "tests/trim.test.ts": TEST.replace('it("keeps', 'it.only("keeps') },
      "B test-marker-added tests/trim.test.ts:4",
    ],
    [
      "a deleted test file",
      { "tests/trim.test.ts": null },
      "B test-file-deleted tests/trim.test.ts:1",
    ],
    [
      "a test removed (its base line)",
      { "tests/trim.test.ts": TEST.replace(/it\("keeps[^\n]*\n/, "") },
      "B test-removed tests/trim.test.ts:4",
    ],
    [
      "an environment-sniffing branch",
      {
        "src/trim.ts": "export const trim = (s: string) => (process.env.VITEST ? s.trim() : s);\n",
      },
      "B test-environment-branch src/trim.ts:1",
    ],
    [
      "a forbidden dependency",
      {
        "package.json": `${JSON.stringify({ name: "x", dependencies: { "left-pad": "1" }, devDependencies: { vitest: "^4.0.0" } }, null, 2)}\n`,
      },
      "B guardrail-new-dependency package.json:4",
    ],
    [
      "a protected path",
      { "src/api/index.ts": "export const api = 2;\n" },
      "B guardrail-protected-path src/api/index.ts:1",
    ],
    [
      "a manifest broken so its packages cannot be read",
      { "package.json": '{ "name": "x", "dependencies": { "left-pad": "1" ' },
      "B guardrail-manifest-unreadable package.json",
    ],
  ] as const)("%s blocks, at its file and line", async (_what, head, expected) => {
    const { codes } = await prove(head);
    expect(codes.some((c) => c.startsWith(expected))).toBe(true);
    expect(codes.filter((c) => c.startsWith("B"))).toHaveLength(1);
  });

  it("moving a dependency between sections, or changing an unprotected file, is no finding (twins)", async () => {
    const { codes } = await prove({
      "package.json": `${JSON.stringify({ name: "x", dependencies: { vitest: "^4.0.0" } }, null, 2)}\n`,
      "src/other.ts": "export const o = 1;\n",
    });
    expect(codes).toEqual([]);
  });

  it("without a spec in scope the tamper reading runs only with test-tamper: on", async () => {
    const head = { "tests/trim.test.ts": null };
    const off = await prove(head, {}, undefined, () => []);
    expect(off.codes).toEqual([]);
    const on = await prove(head, { testTamper: true }, undefined, () => []);
    expect(on.codes).toEqual(["B test-file-deleted tests/trim.test.ts:1"]);
  });

  it("the guardrails that no diff decides become manual criteria showing their text", async () => {
    const { result } = await prove({
      "src/trim.ts": "export const trim = (s: string) => s.trim();\n",
    });
    const g = result.contracts[0]!.criteria.filter((c) => c.id.startsWith("G"));
    expect(g.map((c) => [c.id, c.title, c.settled?.status])).toEqual([
      ["G1", "guardrail: Keep the public names stable.", "manual"],
    ]);
  });
});

describe("proveRequirements: the injected test prover", () => {
  const proof: TestProof = {
    runs: [
      { side: "head", command: "vitest run", preset: "vitest", chosenBy: "input", durationMs: 5 },
    ],
    tests: [
      {
        requirement: "FR-001",
        file: "tests/trim.test.ts",
        name: "trims surrounding spaces",
        mapLocation: { path: SPEC_PATH, line: 36, column: 1 },
        changed: true,
        base: "failed",
        head: "passed",
        verdict: "proven",
        reason: "fails before the change, passes after",
      },
    ],
  };

  function fake(seen: { inputs?: unknown; ctx?: unknown }): TestProver {
    return {
      prove: async (inputs, ctx) => {
        seen.inputs = inputs;
        seen.ctx = ctx;
        return new Map([[SPEC_PATH, proof]]);
      },
      settle: (criteria) =>
        criteria.map((c) =>
          c.id === "FR-001"
            ? { ...c, settled: { status: "met", blocking: false, reason: "proven" } }
            : c,
        ),
    };
  }

  it("gets each spec's mapped tests, which requirements changed, and the options; its proof is the spec's", async () => {
    const seen: { inputs?: unknown; ctx?: unknown } = {};
    const edited = SPEC.replace("keep inner spaces.", "keep inner spaces exactly.");
    const { result } = await prove(
      { [SPEC_PATH]: edited, "src/trim.ts": "export const trim = (s: string) => s.trim();\n" },
      { testCommand: "vitest", testTimeoutSeconds: 30 },
      fake(seen),
    );
    const inputs = seen.inputs as { contract: string; changed: Set<string>; entries: unknown[] }[];
    expect(inputs.map((i) => [i.contract, [...i.changed], i.entries.length])).toEqual([
      [SPEC_PATH, ["FR-002"], 2],
    ]);
    expect(seen.ctx).toMatchObject({
      options: { testCommand: "vitest", testTimeoutSeconds: 30, requirementProof: true },
    });
    expect(result.specs[0]!.tests).toEqual(proof.tests);
    expect(result.specs[0]!.unproved).toBeUndefined();
    expect(result.contracts[0]!.criteria.find((c) => c.id === "FR-001")?.settled?.status).toBe(
      "met",
    );
  });

  it("requirement-proof: off never calls it, and the spec says why its requirements await proof", async () => {
    const seen: { inputs?: unknown } = {};
    const { result } = await prove({}, { requirementProof: false }, fake(seen));
    expect(seen.inputs).toBeUndefined();
    expect(result.specs[0]).toMatchObject({
      enabled: false,
      unproved: expect.stringMatching(/off/),
    });
    expect(result.contracts[0]!.criteria.find((c) => c.id === "FR-001")?.settled?.status).toBe(
      "awaiting-proof",
    );
  });

  it("the default prover runs nothing: mapped requirements stay awaiting proof, said so", async () => {
    const { result } = await prove({});
    expect(result.specs[0]!.unproved).toMatch(/no test run/);
    expect(result.contracts[0]!.criteria.find((c) => c.id === "FR-001")?.settled?.status).toBe(
      "awaiting-proof",
    );
  });

  it("a new spec: every requirement is changed", async () => {
    const seen: { inputs?: unknown } = {};
    const root = repo({});
    const g = openGit(root);
    git(root, "rm", "-q", SPEC_PATH);
    git(root, "commit", "-q", "-m", "no spec");
    git(root, "branch", "-f", "main", "HEAD");
    writeTree(root, { [SPEC_PATH]: SPEC });
    const base = await g.mergeBase("main", "HEAD");
    await proveRequirements({
      contracts: [parseContract("spec", SPEC_PATH, new TextEncoder().encode(SPEC))],
      diff: {
        base,
        changed: await g.worktreeChanges(base),
        readBase: gitSide(g, base),
        readHead: diskSide(root),
      },
      options: DEFAULT_PROOF_OPTIONS,
      prover: fake(seen),
      context: { root, git: g, env: {} },
    });
    const inputs = seen.inputs as { changed: Set<string> }[];
    expect([...inputs[0]!.changed]).toEqual(["FR-001", "FR-002"]);
  });
});

describe("withProofFindings: the proof's findings join the base comparison's approval rule", () => {
  const blocking = (code: "test-marker-added" | "assertions-fewer") =>
    finding({
      code,
      contract: "t.test.ts",
      kind: "pull-request",
      path: "t.test.ts",
      line: 3,
      subject: "tests",
      message: "m",
    });
  const report = { applies: true as const, base: "b".repeat(40), findings: [] };

  it("a blocking proof finding fails the gate until an approval is found; then it is acknowledged", async () => {
    const alone = await withProofFindings(report, [blocking("test-marker-added")]);
    expect(unacknowledged(alone).map((f) => f.code)).toEqual(["test-marker-added"]);
    let asked = 0;
    const approved = await withProofFindings(report, [blocking("test-marker-added")], async () => {
      asked++;
      return { approval: { login: "rev", reviewUrl: "https://example.com/r" }, note: "" };
    });
    expect(asked).toBe(1);
    expect(unacknowledged(approved)).toEqual([]);
    const none = await withProofFindings(report, [blocking("test-marker-added")], async () => ({
      note: "No approving review yet.",
    }));
    expect(none.applies && none.approvalNote).toBe("No approving review yet.");
    expect(unacknowledged(none)).toHaveLength(1);
  });

  it("an approval already decided stands (a shared head's note is never overridden); warnings ask nothing", async () => {
    const shared = { ...report, approvalNote: "No approval counts while …" };
    const r = await withProofFindings(shared, [blocking("test-marker-added")], async () => {
      throw new Error("must not be asked");
    });
    expect(unacknowledged(r)).toHaveLength(1);
    const w = await withProofFindings(report, [blocking("assertions-fewer")], async () => {
      throw new Error("must not be asked");
    });
    expect(unacknowledged(w)).toEqual([]);
  });
});

describe("a spec without a Requirement Map", () => {
  const unmapped = SPEC.replace(/## Requirement Map\n\n(- FR[^\n]*\n)+\n/, "");
  const contract = () => parseContract("spec", SPEC_PATH, new TextEncoder().encode(unmapped));
  const map = async (
    requirementMap: "optional" | "required",
    surface: "action" | "cli" = "action",
  ) =>
    (
      await proveRequirements({
        contracts: [contract()],
        options: { ...DEFAULT_PROOF_OPTIONS, requirementMap, surface },
        context: { root: "/nowhere", git: openGit("/nowhere"), env: {} },
      })
    ).contracts[0]!;

  it("is gated on everything else by default: its requirements show unmapped, nothing blocks for the map", async () => {
    expect(unmapped).not.toContain("## Requirement Map");
    expect(contract().problems.map((p) => p.code)).toContain("no-requirement-map");
    const gated = await map("optional");
    expect(gated.criteria.find((c) => c.id === "MAP")).toBeUndefined();
    const fr = gated.criteria.find((c) => c.id === "FR-001");
    expect(fr?.settled).toMatchObject({ status: "manual", blocking: false });
  });

  it("requirement-map: required blocks (criterion MAP), its hint in the spelling of the surface", async () => {
    const action = (await map("required")).criteria.find((c) => c.id === "MAP");
    expect(action?.settled).toMatchObject({ status: "unmet", blocking: true });
    expect(action?.settled?.reason).toContain("set requirement-map: optional");
    const cli = (await map("required", "cli")).criteria.find((c) => c.id === "MAP");
    expect(cli?.settled?.reason).toContain("leave out --requirement-map required");
    expect(cli?.settled?.reason).not.toContain("requirement-map:");
  });
});
