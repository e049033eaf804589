import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Git } from "../../git/index.js";
import { applyMutant, isPython, type Mutant, mutable, mutantsOf } from "../mutate/operators.js";
import { allLines, sampleMutants } from "../mutate/sample.js";
import { pythonMutantsOf } from "../python/mutants.js";
import { readPythonTrees } from "../python/tree.js";
import type { MutantTally, ProvedTest } from "../types.js";
import type { GradedEntry } from "./grade.js";
import { runSolo, type SideInput } from "./side.js";
import type { BaseContent } from "./view.js";

/** `requirement-proof`: mutation adequacy on top of fail-to-pass, fail-to-pass alone, or off. */
export type RequirementProofMode = "mutation" | "fail-to-pass" | "off";
export const DEFAULT_MUTANTS_PER_REQUIREMENT = 8;
export const DEFAULT_MUTATION_TIMEOUT_SECONDS = 300;

/** How many surviving mutants a row lists. */
const SHOWN = 5;

/**
 * Every mutant of the lines the pull request added or changed in the
 * non-test files the base view restores or leaves out (docs/proof.md,
 * "Mutation adequacy"): head text from the checkout; the changed lines from
 * the diff against the merge base (`Git.changedLines`), a file the base
 * lacks all changed. Python files are parsed by `python3` on `env`'s PATH.
 */
export async function mutantPool(opts: {
  checkout: string;
  content: BaseContent;
  git: Pick<Git, "changedLines">;
  base: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<Mutant[]> {
  const { checkout, content } = opts;
  const paths = [...new Set([...content.files.keys(), ...content.hide])].filter(mutable).sort();
  const heads = new Map<string, string>();
  for (const p of paths) {
    try {
      heads.set(p, readFileSync(join(checkout, p), "utf8"));
    } catch {
      // deleted by the pull request: nothing at head to mutate
    }
  }
  const modified = [...heads.keys()].filter((p) => content.files.has(p));
  const diff = await opts.git.changedLines(opts.base, modified);
  const python = [...heads.keys()].filter(isPython);
  const trees = await readPythonTrees(
    python.map((p) => join(checkout, p)),
    opts.env,
    opts.signal,
  );
  const out: Mutant[] = [];
  for (const [p, head] of heads) {
    const lines = content.files.has(p) ? (diff.get(p) ?? new Set<number>()) : allLines(head);
    out.push(
      ...(isPython(p)
        ? pythonMutantsOf(p, head, trees.get(join(checkout, p)), lines)
        : mutantsOf(p, head, lines)),
    );
  }
  return out;
}

/** One mutant's run: a private tree of the head with the mutated file in its layer. */
export type MutantSide = (
  name: string,
  m: Mutant,
  text: string,
) => Promise<{
  input: SideInput;
  close(): void;
}>;

/**
 * Runs each proven requirement's sampled mutants against its mapped tests,
 * each alone; a mutant is killed when one of them exits non-zero. Sequential,
 * bounded by `deadline` (epoch ms): a requirement not decided by then is
 * `undecided`. Keyed by requirement id.
 */
export async function runMutants(opts: {
  requirements: ReadonlyMap<string, GradedEntry[]>;
  pool: readonly Mutant[];
  perRequirement: number;
  deadline: number;
  side: MutantSide;
  checkout: string;
}): Promise<Map<string, MutantTally | "undecided">> {
  const out = new Map<string, MutantTally | "undecided">();
  let k = 0;
  const texts = new Map<string, string>();
  const textOf = (file: string) => {
    if (!texts.has(file)) texts.set(file, readFileSync(join(opts.checkout, file), "utf8"));
    return texts.get(file) as string;
  };
  for (const [requirement, tests] of [...opts.requirements].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const chosen = sampleMutants(opts.pool, opts.perRequirement, requirement);
    const survivors: Mutant[] = [];
    let killed = 0;
    let decided = true;
    for (const m of chosen) {
      if (Date.now() > opts.deadline) {
        decided = false;
        break;
      }
      k++;
      const side = await opts.side(`mutant-${k}`, m, applyMutant(textOf(m.file), m));
      let dead = false;
      try {
        for (const t of tests) {
          const one = await runSolo(side.input, t.file, t.name, `mutant-${k}-${t.file.length}`);
          const exit = one.run.exitCode;
          if (exit !== undefined && exit !== 0 && exit !== 126 && exit !== 127) {
            dead = true;
            break;
          }
        }
      } finally {
        side.close();
      }
      if (dead) killed++;
      else survivors.push(m);
    }
    out.set(
      requirement,
      decided
        ? {
            tried: killed + survivors.length,
            killed,
            survived: survivors.length,
            survivors: survivors.slice(0, SHOWN).map(describeMutant),
          }
        : "undecided",
    );
  }
  return out;
}

export function describeMutant(m: Mutant): string {
  return `${m.file}:${m.line} ${m.operator}: ${m.before} → ${m.after}`;
}

/**
 * The graded tests with mutation adequacy applied, pure: a requirement whose
 * tests are proven and killed no mutant is unmet ("proves nothing: no
 * mutant of the changed code makes these tests fail", with its survivors);
 * undecided by the deadline, an execution error; no mutant possible, as
 * graded. When mutants ran and none was killed by any requirement's tests,
 * every requirement of the spec is unmet with that reason.
 */
export function applyMutation(
  tests: readonly ProvedTest[],
  results: ReadonlyMap<string, MutantTally | "undecided">,
  poolSize: number,
): ProvedTest[] {
  const tallies = [...results.values()].filter((r): r is MutantTally => r !== "undecided");
  const noneKilled =
    tallies.length > 0 && tallies.some((t) => t.tried > 0) && tallies.every((t) => t.killed === 0);
  return tests.map((t) => {
    const r = results.get(t.requirement);
    if (t.verdict === "proven" && r === "undecided") {
      return {
        ...t,
        verdict: "execution-error",
        reason: `execution error: the mutation-timeout-seconds budget ran out before ${t.requirement}'s mutants were run`,
      };
    }
    const tally = r === "undecided" ? undefined : r;
    const withTally = tally ? { ...t, mutants: tally } : t;
    if (t.verdict === "proven" && tally && tally.tried > 0 && tally.killed === 0) {
      return {
        ...withTally,
        verdict: "survives-mutants",
        reason: `proves nothing: no mutant of the changed code makes these tests fail (${tally.tried} tried; surviving: ${tally.survivors.join("; ")})`,
      };
    }
    if (noneKilled && (t.verdict === "proven" || t.verdict === "invariant-holds")) {
      return {
        ...withTally,
        verdict: "survives-mutants",
        reason:
          "proves nothing: no mapped test of this spec makes any mutant of the changed code fail (a test or assertion library that cannot fail passes everything)",
      };
    }
    if (t.verdict === "proven" && poolSize === 0) {
      return { ...t, reason: `${t.reason} (the changed code admits no mutant)` };
    }
    return withTally;
  });
}
