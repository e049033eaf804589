import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Git } from "../../git/index.js";
import { loadedFiles } from "../mutate/imports.js";
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
 * each alone (mutants of the files those tests load by the static import
 * graph first, so a kill is found early and the budget is not spent on
 * code the tests cannot see); a mutant is killed when one of them exits non-zero. One kill
 * proves the requirement, so its later mutants are not started once an
 * earlier one is killed. Up to `lanes` mutants run at once; the tally reads
 * each requirement's outcomes in sample order up to its first kill, so it is
 * the same whatever finished first. Bounded by `deadline` (epoch ms): a
 * requirement whose outcomes up to a kill (or all of them) are not in by
 * then is `undecided`. Keyed by requirement id.
 */
export async function runMutants(opts: {
  requirements: ReadonlyMap<string, GradedEntry[]>;
  pool: readonly Mutant[];
  perRequirement: number;
  deadline: number;
  side: MutantSide;
  checkout: string;
  lanes?: number;
}): Promise<Map<string, MutantTally | "undecided">> {
  const texts = new Map<string, string>();
  const textOf = (file: string) => {
    if (!texts.has(file)) texts.set(file, readFileSync(join(opts.checkout, file), "utf8"));
    return texts.get(file) as string;
  };
  // The checkout's files as the import graph reads them, each read once.
  const reads = new Map<string, string | undefined>();
  const read = (p: string) => {
    if (!reads.has(p)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(opts.checkout, p), "utf8");
      } catch {
        text = undefined;
      }
      reads.set(p, text);
    }
    return reads.get(p);
  };
  const plans = [...opts.requirements]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([requirement, tests]) => ({
      requirement,
      tests,
      chosen: sampleMutants(
        opts.pool,
        opts.perRequirement,
        requirement,
        loadedFiles([...new Set(tests.map((t) => t.file))], read),
      ),
      killed: [] as (boolean | undefined)[],
    }));
  const jobs = plans.flatMap((plan) => plan.chosen.map((m, index) => ({ plan, m, index })));
  let k = 0;
  const runOne = async (plan: (typeof plans)[number], m: Mutant): Promise<boolean> => {
    const n = ++k;
    const side = await opts.side(`mutant-${n}`, m, applyMutant(textOf(m.file), m));
    try {
      for (const t of plan.tests) {
        const one = await runSolo(side.input, t.file, t.name, `mutant-${n}-${t.file.length}`);
        const exit = one.run.exitCode;
        if (exit !== undefined && exit !== 0 && exit !== 126 && exit !== 127) return true;
      }
      return false;
    } finally {
      side.close();
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      // An earlier mutant of the same requirement already killed: this one cannot change the tally.
      if (job.plan.killed.slice(0, job.index).some((x) => x === true)) continue;
      if (Date.now() > opts.deadline) continue;
      job.plan.killed[job.index] = await runOne(job.plan, job.m);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.lanes ?? 1) }, lane));
  const out = new Map<string, MutantTally | "undecided">();
  for (const plan of plans) {
    const survivors: Mutant[] = [];
    let killed = 0;
    let decided = true;
    for (const [index, m] of plan.chosen.entries()) {
      const dead = plan.killed[index];
      if (dead === undefined) {
        decided = false;
        break;
      }
      if (dead) {
        killed = 1;
        break;
      }
      survivors.push(m);
    }
    out.set(
      plan.requirement,
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
