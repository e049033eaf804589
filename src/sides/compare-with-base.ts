import { dirname } from "node:path/posix";
import { kindOf } from "../formats/index.js";
import { phaseFiles } from "../formats/kinds/phase-files.js";
import { type KiroFiles, kiroCompanions, kiroDir, linkKiroFiles } from "../formats/kiro/index.js";
import { planHash } from "../formats/plan-hash.js";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import { readRepoFile } from "../fs/repo-file.js";
import { commitPaths, diskPaths, type PathSource } from "../fs/repo-paths.js";
import type { Git } from "../git/index.js";
import { compareContracts, supersededPaths, type VersionPair } from "../integrity/compare.js";
import type { ProofCommand } from "../integrity/harness-diff.js";
import type { TouchedContract } from "../integrity/pairs.js";
import type { RunContext } from "../integrity/successor-runs.js";
import { comparedKind, type Finding } from "../integrity/types.js";
import { type ContractVersion, version } from "../integrity/version.js";
import type { HeadCitations } from "../integrity/workphase-diff.js";
import type { Contract, ContractKind } from "../model/contract.js";
import { harnessChanges } from "./harness-sides.js";
import { withOpenspecSides } from "./openspec-sides.js";

export interface CompareOptions {
  /** Git of the repository root (or the working directory inside it) the paths are relative to. */
  git: Git;
  /** The merge base: every base version is read there with `git`. */
  mergeBase: string;
  touched: readonly TouchedContract[];
  /** Every contract discovered at head: their `supersedes:` lines excuse deletions. */
  discovered: readonly string[];
  /**
   * Read the head versions at this commit instead of the working tree: the
   * action's PR head, so a checkout of GitHub's merge commit (which also
   * holds the base branch's later edits) compares only what the PR changed.
   */
  headCommit?: string;
  /** The paths the change touches (relative like the contracts): done tasks are checked against them. */
  changed?: ReadonlySet<string>;
  /** What decides whether a superseding contract runs (the PR's head branch, the run's scope). */
  run?: RunContext;
  /** The requirement proof's test command (absent: the proof is off); its harness is compared too. */
  proofCommand?: ProofCommand;
}

/**
 * Read each touched contract at the merge base (git) and at head (the
 * working tree, never through a symlink, or `headCommit`), then compare.
 * Throws `GitReadError` when git cannot read either commit.
 */
export async function compareWithBase(opts: CompareOptions): Promise<Finding[]> {
  return [...(await contractFindings(opts)), ...(await harnessChanges(opts))];
}

async function contractFindings(opts: CompareOptions): Promise<Finding[]> {
  const baseVersions = await versionsAtCommit(
    opts.git,
    opts.mergeBase,
    opts.touched.flatMap((t) => (t.basePath === undefined ? [] : [t.basePath])),
  );
  // Nothing at base and no research added: nothing to compare, so no head reads.
  // (The kind comes from the path, so this needs no read either.)
  const research = (path: string | undefined) =>
    path !== undefined && comparedKind(kindOf(path)) === "workphase-research";
  if (baseVersions.size === 0 && !opts.touched.some((t) => research(t.headPath))) return [];
  const headPaths = opts.touched.flatMap((t) => (t.headPath === undefined ? [] : [t.headPath]));
  const headVersions =
    opts.headCommit === undefined
      ? new Map(headPaths.flatMap((p) => versionEntry(p, headVersion(opts.git.root, p))))
      : await versionsAtCommit(opts.git, opts.headCommit, headPaths);
  // Kiro specs are compared with their design.md and tasks.md; at head, a done task's paths are looked up.
  await linkKiro(opts.git, opts.mergeBase, baseVersions);
  await linkKiro(
    opts.git,
    opts.headCommit,
    headVersions,
    opts.headCommit === undefined
      ? diskPaths(opts.git.root)
      : commitPaths(opts.git, opts.headCommit),
  );
  const pairs: VersionPair[] = opts.touched.map((t) => {
    const pair: VersionPair = t.movedTo === undefined ? {} : { movedTo: t.movedTo };
    const base = t.basePath === undefined ? undefined : baseVersions.get(t.basePath);
    if (base) pair.base = base;
    if (t.headPath !== undefined) {
      const head = headVersions.get(t.headPath);
      if (head) pair.head = head;
      else pair.unreadHead = t.headPath;
    }
    return pair;
  });
  if (!pairs.some((p) => p.base !== undefined || p.head?.contract.kind === "workphase-research")) {
    return [];
  }
  await withOpenspecSides(opts, pairs);
  // Their `supersedes:` lines excuse deletions: read where the head versions are read, so a
  // step before the gate cannot add one on disk to a contract the PR never touched.
  const oraclePaths = opts.discovered.filter((path) => kindOf(path) === "oracle-contract");
  const oracleHeads: Contract[] =
    opts.headCommit === undefined
      ? oraclePaths.flatMap((path) => headVersion(opts.git.root, path)?.contract ?? [])
      : [...(await versionsAtCommit(opts.git, opts.headCommit, oraclePaths)).values()].map(
          (v) => v.contract,
        );
  return compareContracts(
    pairs,
    supersededPaths(oracleHeads),
    await citingPlans(opts, pairs),
    new Map(oracleHeads.map((c) => [c.path, c])),
    opts.changed,
    opts.run,
  );
}

/**
 * Each Kiro spec among `versions` linked with the design.md and tasks.md
 * beside it, read at `commit` (the working tree when it is undefined), never
 * through a symlink. `paths` (head only) says whether a done task's paths exist.
 */
async function linkKiro(
  git: Git,
  commit: string | undefined,
  versions: Map<string, ContractVersion>,
  paths?: PathSource,
): Promise<void> {
  const specs = [...versions.values()].filter((v) => v.contract.kind === "kiro-spec");
  if (specs.length === 0) return;
  const wanted = specs.flatMap((v) => kiroCompanions(v.path).slice(1));
  const reads =
    commit === undefined
      ? new Map(wanted.map((p) => [p, readRepoFile(git.root, p, MAX_CONTRACT_BYTES)] as const))
      : await git.readAt(
          commit,
          wanted.map((path) => ({ path, limit: MAX_CONTRACT_BYTES })),
        );
  const exists = paths === undefined ? undefined : await paths.open();
  for (const v of specs) {
    const files: KiroFiles = {};
    if (exists) files.exists = (p) => exists.exists(p);
    for (const name of ["design", "tasks"] as const) {
      const path = `${kiroDir(v.path)}${name}.md`;
      const read = reads.get(path);
      if (read?.kind === "file" && read.size <= MAX_CONTRACT_BYTES) {
        files[name] = { path, bytes: read.bytes };
      }
    }
    v.contract = linkKiroFiles(v.contract, files);
  }
}

function versionEntry(path: string, v: ContractVersion | undefined): [string, ContractVersion][] {
  return v === undefined ? [] : [[path, v]];
}

/**
 * For each research file gone from its path at head, the plan beside it at
 * head (`.workphase/<name>/plan.json`) with the ids it still cites.
 */
async function citingPlans(
  opts: CompareOptions,
  pairs: readonly VersionPair[],
): Promise<Map<string, HeadCitations>> {
  const out = new Map<string, HeadCitations>();
  for (const { base, head } of pairs) {
    if (base?.contract.kind !== "workphase-research" || head?.path === base.path) continue;
    const planPath = `${dirname(base.path) === "." ? "" : `${dirname(base.path)}/`}plan.json`;
    if (kindOf(planPath) !== "workphase-plan") continue;
    const plan =
      opts.headCommit === undefined
        ? headVersion(opts.git.root, planPath)
        : (await versionsAtCommit(opts.git, opts.headCommit, [planPath])).get(planPath);
    const header = plan?.contract.header;
    const citations = header?.kind === "workphase-plan" ? (header.citations ?? []) : [];
    if (citations.length === 0) continue;
    out.set(base.path, {
      plan: planPath,
      ids: citations.map((c) => c.id),
      line: citations[0]?.location.line ?? 1,
    });
  }
  return out;
}

/**
 * The contracts at `paths` as they are at `commit`, keyed by path; a path that
 * is not a regular file there has no entry. One batch of git reads for the
 * contracts, one for the plans beside plan contracts.
 */
export async function versionsAtCommit(
  git: Git,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, ContractVersion>> {
  const out = new Map<string, ContractVersion>();
  const kinds = new Map<string, ContractKind>();
  for (const path of paths) {
    const kind = comparedKind(kindOf(path));
    if (kind !== undefined) kinds.set(path, kind);
  }
  const reads = await git.readAt(
    commit,
    [...kinds.keys()].map((path) => ({ path, limit: MAX_CONTRACT_BYTES })),
  );
  const planOf = new Map<string, string | undefined>();
  for (const [path, kind] of kinds) {
    // A symlink at base was refused by the gate there: there is nothing to protect
    // (and one at head gates nothing: the loader refuses it).
    if (kind === "plan-contract" && reads.get(path)?.kind === "file") {
      planOf.set(path, phaseFiles(path)?.plan);
    }
  }
  const plans = await git.readAt(
    commit,
    [...new Set(planOf.values())].flatMap((plan) =>
      plan === undefined ? [] : [{ path: plan, limit: Number.POSITIVE_INFINITY }],
    ),
  );
  for (const [path, kind] of kinds) {
    const read = reads.get(path);
    if (read?.kind !== "file") continue;
    let planDigest: string | null | undefined;
    if (kind === "plan-contract") {
      const plan = planOf.get(path);
      const p = plan === undefined ? undefined : plans.get(plan);
      planDigest = p?.kind === "file" ? planHash(p.bytes) : null;
    }
    out.set(path, version(kind, path, read.bytes, read.size, planDigest));
  }
  return out;
}

function headVersion(root: string, path: string): ContractVersion | undefined {
  const kind = comparedKind(kindOf(path));
  const read = readRepoFile(root, path, MAX_CONTRACT_BYTES);
  // Unreadable at head (a symlink, say): the loader blocks it; here it counts as gone.
  if (kind === undefined || read.kind !== "file") return undefined;
  let planDigest: string | null | undefined;
  if (kind === "plan-contract") {
    const plan = phaseFiles(path)?.plan;
    const p = plan === undefined ? undefined : readRepoFile(root, plan, Number.MAX_SAFE_INTEGER);
    planDigest = p?.kind === "file" ? planHash(p.bytes) : null;
  }
  return version(kind, path, read.bytes, read.size, planDigest);
}
