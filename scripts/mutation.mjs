#!/usr/bin/env node
/**
 * `npm run mutation [-- <module>…]`: Stryker over the trust-critical modules
 * of scripts/mutation-modules.mjs (all when none is named), one after the
 * other, then the score of each from its report. `npm run mutation -- --score`
 * prints the scores of the committed reports without running anything.
 * `--survivors` lists every surviving mutant (file:line, mutator, replacement);
 * `--force` re-tests every mutant instead of only those a change can affect.
 *
 * Score = (killed + timed out) / (killed + timed out + survived + no coverage):
 * Stryker's mutation score. Mutants listed as equivalent in
 * scripts/mutation-modules.mjs (each with its reason) count in none of these.
 * Exits 1 when a measured module scores under 90 %.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { MUTATION_MODULES, mutationModule, reportPath } from "./mutation-modules.mjs";

const THRESHOLD = 90;
const args = process.argv.slice(2);
const scoreOnly = args.includes("--score");
const survivors = args.includes("--survivors");
const names = args.filter((a) => !a.startsWith("--"));
const modules = names.length > 0 ? names.map(mutationModule) : MUTATION_MODULES;

if (!scoreOnly) {
  for (const mod of modules) {
    console.log(`\n=== ${mod.name}: ${mod.mutate.join(", ")} (${mod.tests.length} test files)`);
    const started = Date.now();
    // --force: re-test every mutant, not only those a change can affect. Needed after a new
    // test for a survivor in module-level code: Stryker's incremental mode keeps such
    // (static) mutants' old results.
    const force = args.includes("--force") ? ["--force"] : [];
    const run = spawnSync("npx", ["--no", "stryker", "run", "stryker.config.mjs", ...force], {
      stdio: "inherit",
      env: { ...process.env, MUTATION_MODULE: mod.name },
    });
    console.log(
      `=== ${mod.name}: ${Math.round((Date.now() - started) / 1000)} s, exit ${run.status}`,
    );
  }
}

/** The source text a mutant replaces, read from the file as it is now. */
function originalOf(lines, { start, end }) {
  if (start.line !== end.line) return undefined;
  return lines[start.line - 1]?.slice(start.column - 1, end.column - 1);
}

/**
 * Counts of a report's mutants by status, and the survivors. A survivor the
 * module lists as equivalent counts as ignored (Stryker's own status for a
 * mutant disabled by a comment).
 */
function tally(report, mod) {
  const count = {};
  const alive = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
    for (const m of mutants) {
      const equivalent = (mod.equivalent ?? []).some(
        (e) =>
          e.file === file &&
          e.mutator === m.mutatorName &&
          e.replacement === m.replacement &&
          e.original === originalOf(lines, m.location),
      );
      const status = equivalent && m.status === "Survived" ? "Ignored" : m.status;
      count[status] = (count[status] ?? 0) + 1;
      if (status === "Survived" || status === "NoCoverage") {
        alive.push(
          `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} → ${JSON.stringify(m.replacement ?? "")} (${m.status})`,
        );
      }
    }
  }
  return { count, alive };
}

let failed = false;
console.log("\nmodule            score   killed  survived  no-cov  ignored  (threshold 90 %)");
for (const mod of modules) {
  const path = reportPath(mod.name);
  if (!existsSync(path)) {
    console.log(
      `${mod.name.padEnd(17)} —       not measured yet (npm run mutation -- ${mod.name})`,
    );
    continue;
  }
  const { count, alive } = tally(JSON.parse(readFileSync(path, "utf8")), mod);
  const killed = (count.Killed ?? 0) + (count.Timeout ?? 0);
  const valid = killed + (count.Survived ?? 0) + (count.NoCoverage ?? 0);
  const score = valid === 0 ? 100 : (100 * killed) / valid;
  if (score < THRESHOLD) failed = true;
  console.log(
    `${mod.name.padEnd(17)} ${`${score.toFixed(1)} %`.padStart(7)}  ${String(killed).padStart(6)}  ${String(count.Survived ?? 0).padStart(8)}  ${String(count.NoCoverage ?? 0).padStart(6)}  ${String(count.Ignored ?? 0).padStart(7)}${score < THRESHOLD ? "  BELOW" : ""}`,
  );
  if (survivors) for (const line of alive) console.log(`    ${line}`);
}
process.exitCode = failed ? 1 : 0;
