import { phaseFiles } from "../formats/kinds/phase-files.js";
import { readRepoFile } from "../fs/repo-file.js";
import type { Git } from "../git/index.js";
import {
  type CommandCheck,
  commandChecks,
  harnessFindings,
  proofChecks,
  resolveAll,
} from "../integrity/harness-diff.js";
import type { Finding } from "../integrity/types.js";
import { type CompareOptions, versionsAtCommit } from "./compare-with-base.js";

/** A harness file is read whole up to this size; a larger one counts as its size only. */
const HARNESS_LIMIT = 1024 * 1024;
/** Rounds of reads the resolution may ask for (a script calling a script calling a Makefile …). */
const MAX_ROUNDS = 8;

/**
 * What every base contract's checks run, resolved at the merge base, and the
 * entries the PR changes (`check-harness-changed`). Only when the PR changes
 * a file that is no contract: a PR of contracts alone changes no harness (its
 * contracts are compared by their own rules). Throws `GitReadError` when the
 * base cannot be read.
 */
export async function harnessChanges(opts: CompareOptions): Promise<Finding[]> {
  const changed = opts.changed;
  if (changed === undefined) return [];
  const contractPaths = new Set([
    ...opts.discovered,
    ...opts.touched.flatMap((t) => [t.basePath, t.headPath].filter((p) => p !== undefined)),
  ]);
  // A contract's plan and evidence beside it are read with it: no harness either.
  const companions = new Set(
    [...contractPaths].flatMap((p) => {
      const files = phaseFiles(p);
      return files ? [files.plan, files.evidence] : [];
    }),
  );
  if (![...changed].some((p) => !contractPaths.has(p) && !companions.has(p))) return [];
  const atBase = await versionsAtCommit(opts.git, opts.mergeBase, [...contractPaths]);
  const contracts = [...atBase.values()].map((v) => v.contract);
  const checks: CommandCheck[] = commandChecks(contracts);
  const base = new Map<string, string | null>();
  if (opts.proofCommand !== undefined) {
    // The proof's command is chosen at base, as the gate would have run it there.
    for (const [p, t] of await readTexts(opts.git, opts.mergeBase, opts.proofCommand.reads))
      base.set(p, t);
    checks.push(...proofChecks(contracts, opts.proofCommand, (p) => base.get(p) ?? undefined));
  }
  if (checks.length === 0) return [];
  const tree = (p: string) => base.get(p);
  const changedList = [...changed].sort();
  let resolved = resolveAll(checks, tree, changedList);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const needs = [...new Set(resolved.flatMap((r) => r.needs))].filter((p) => !base.has(p));
    if (needs.length === 0) break;
    for (const [p, t] of await readTexts(opts.git, opts.mergeBase, needs)) base.set(p, t);
    resolved = resolveAll(checks, tree, changedList);
  }
  const touchedParts = [
    ...new Set(resolved.flatMap((r) => r.parts.map((p) => p.file)).filter((f) => changed.has(f))),
  ];
  const head =
    opts.headCommit === undefined
      ? new Map(touchedParts.map((p) => [p, workingText(opts.git.root, p)] as const))
      : await readTexts(opts.git, opts.headCommit, touchedParts);
  return harnessFindings(checks, resolved, tree, (p) => head.get(p), changed);
}

/** The text of each path at `commit`; `null` for one that is no regular file there. */
async function readTexts(
  git: Git,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string | null>> {
  const reads = await git.readAt(
    commit,
    paths.map((path) => ({ path, limit: HARNESS_LIMIT })),
  );
  return new Map(
    paths.map((p) => {
      const r = reads.get(p);
      return [p, r?.kind === "file" ? Buffer.from(r.bytes).toString("utf8") : null] as const;
    }),
  );
}

function workingText(root: string, path: string): string | null {
  const r = readRepoFile(root, path, HARNESS_LIMIT);
  return r.kind === "file" ? Buffer.from(r.bytes).toString("utf8") : null;
}
