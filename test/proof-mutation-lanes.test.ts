import { describe, expect, it } from "vitest";
import { openGit } from "../src/git/index.js";
import type { Mutant } from "../src/proof/mutate/operators.js";
import { sampleMutants } from "../src/proof/mutate/sample.js";
import type { GradedEntry } from "../src/proof/run/grade.js";
import { type MutantSide, mutantPool, runMutants } from "../src/proof/run/mutation.js";
import { PRESET_TEMPLATES } from "../src/proof/run/presets.js";
import { listTree, openViews, planBase } from "../src/proof/run/view.js";
import { cleanEnv, proofRepo } from "./helpers/proof-run-repo.js";

const SRC = [
  "export function clamp(x, lo, hi) {",
  "  if (x < lo) return lo;",
  "  if (x > hi) return hi;",
  "  return x;",
  "}",
  "export const scale = (x) => x * 2 + 1;",
  "",
].join("\n");

/** The pool for one real diff, read afresh: listing, base view, git diff, parsers. */
async function poolOf(root: string, base: string): Promise<Mutant[]> {
  const git = openGit(root);
  const views = openViews({ checkout: root, git, listing: await listTree(git) });
  try {
    const plan = planBase(await git.changedBetween(base, "HEAD"), (p) => p.startsWith("tests/"));
    const content = await views.readBase({ commit: base, plan });
    return await mutantPool({ checkout: root, content, git, base, env: cleanEnv() });
  } finally {
    views.close();
  }
}

describe("the mutants' choice and their lanes", () => {
  it("samples the same mutants on every run for the same diff", async () => {
    const { root, base } = proofRepo(
      {
        "src/clamp.mjs": "export const clamp = (x) => x;\n",
        "src/other.mjs": "export const y = 1;\n",
      },
      { "src/clamp.mjs": SRC, "src/new.py": "def f(x):\n    return x > 1 and x < 9\n" },
    );
    const one = await poolOf(root, base);
    const two = await poolOf(root, base);
    expect(two).toEqual(one);
    expect(new Set(one.map((m) => m.file))).toEqual(new Set(["src/clamp.mjs", "src/new.py"]));
    for (const id of ["FR-001", "FR-002"])
      expect(sampleMutants(two, 4, id)).toEqual(sampleMutants(one, 4, id));
  });

  it("gives the same tallies in one lane or several, whichever mutant finishes first", async () => {
    const { root } = proofRepo({}, { "src/clamp.mjs": SRC });
    const pool: Mutant[] = Array.from({ length: 12 }, (_, k) => ({
      file: "src/clamp.mjs",
      line: 2 + (k % 4),
      operator: "change-literal",
      before: "x",
      after: `y${k}`,
      start: 0,
      end: 1,
    }));
    let inFlight = 0;
    let most = 0;
    // A mutant is killed when its replacement's number is a multiple of 3; each run takes a varying time.
    const side: MutantSide = async (_name, m) => ({
      input: {
        side: "head",
        command: { preset: "vitest", template: PRESET_TEMPLATES.vitest, chosenBy: "test" },
        files: ["t.test.js"],
        tree: root,
        results: root,
        env: {},
        timeoutMs: 1000,
        signal: new AbortController().signal,
        run: async () => {
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setTimeout(r, (Number(m.after.slice(1)) * 7) % 5));
          inFlight--;
          const dead = Number(m.after.slice(1)) % 3 === 0;
          return {
            kind: "exited",
            exitCode: dead ? 1 : 0,
            signal: null,
            durationMs: 1,
            stdout: "",
            stdoutExceeded: false,
            combined: "",
            markerSeen: false,
            stdoutTail: "",
            combinedTail: "",
          } as never;
        },
      },
      close: () => {},
    });
    const entry = { file: "t.test.js", name: "t" } as GradedEntry;
    const requirements = new Map(["FR-001", "FR-002", "FR-003"].map((id) => [id, [entry]]));
    const run = (lanes: number) =>
      runMutants({
        requirements,
        pool,
        perRequirement: 6,
        deadline: Date.now() + 60_000,
        side,
        checkout: root,
        lanes,
      });
    const one = await run(1);
    expect(most).toBe(1);
    expect(await run(4)).toEqual(one);
    expect(most).toBeGreaterThan(1);
    expect([...one.values()].every((t) => t !== "undecided" && t.killed <= 1)).toBe(true);
  });
});
