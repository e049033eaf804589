import { createHash } from "node:crypto";
import type { Contract } from "../model/contract.js";
import { refusal } from "../verdict.js";

/** The most legs a matrix splits the gate into (GitHub caps a matrix at 256 jobs). */
export const MAX_SHARDS = 256;

/** One leg of the matrix: `index` of `total`, 1-based. */
export interface ShardSpec {
  index: number;
  total: number;
}

/** The form every shard complaint shows, so a user can copy it. */
export const SHARD_FORM = `i/n with whole numbers 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. \${{ matrix.shard }}/4`;

/**
 * `i/n` → the shard, or the sentence saying what is wrong with it. Strict:
 * digits only (no sign, space or exponent), no leading zero, so `01/4` and
 * `1/4` cannot name one leg twice.
 */
export function parseShard(
  raw: string,
): { ok: true; shard: ShardSpec } | { ok: false; error: string } {
  const m = /^([1-9]\d{0,2})\/([1-9]\d{0,2})$/.exec(raw);
  const bad = (why: string) => ({
    ok: false as const,
    error: `'${raw}' ${why}: write ${SHARD_FORM}`,
  });
  if (!m) return bad("is not a shard");
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total > MAX_SHARDS) return bad(`splits into more than ${MAX_SHARDS} shards`);
  if (index > total) return bad(`names shard ${index} of only ${total}`);
  return { ok: true, shard: { index, total } };
}

/** What running a check costs, relative to a file check: a process spawn and whatever it runs. */
const COMMAND_WEIGHT = 10;

/**
 * What a contract costs to run, in file-check units: a command check
 * (`command-exit`, oracle) weighs more than a file check; a criterion with no
 * check to run (manual, settled, abandoned) and a refused contract cost 1, so
 * every contract weighs something.
 */
export function contractWeight(contract: Contract): number {
  if (refusal(contract) !== undefined) return 1;
  let weight = 0;
  for (const c of contract.criteria) {
    if (c.settled || c.checks.length === 0) {
      weight += 1;
      continue;
    }
    for (const k of c.checks) {
      weight += k.type === "command-exit" || k.type === "oracle" ? COMMAND_WEIGHT : 1;
    }
  }
  return Math.max(1, weight);
}

/** One shard's share of the scope. */
export interface ShardShare {
  /** Its contracts, in scope order. */
  paths: string[];
  weight: number;
  criteria: number;
}

/**
 * Split the scope into `total` shares, a pure function of the contracts and
 * `total` so every leg computes the same split without talking to the others.
 * Whole contracts only (write-back, drift and waves are per contract), the
 * heaviest first into the lightest share (ties: the path, then the lower
 * shard), the greedy split that keeps the slowest leg within 4/3 of the best.
 */
export function assignShards(
  contracts: readonly Pick<Contract, "path" | "criteria" | "problems" | "header">[],
  total: number,
): ShardShare[] {
  const weighed = contracts.map((c) => ({
    path: c.path,
    weight: contractWeight(c as Contract),
    criteria: c.criteria.length,
  }));
  const order = [...weighed].sort(
    (a, b) => b.weight - a.weight || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const shares: ShardShare[] = Array.from({ length: total }, () => ({
    paths: [],
    weight: 0,
    criteria: 0,
  }));
  const home = new Map<string, number>();
  for (const c of order) {
    let lightest = 0;
    for (let i = 1; i < total; i++) if (shares[i]!.weight < shares[lightest]!.weight) lightest = i;
    const share = shares[lightest]!;
    share.weight += c.weight;
    share.criteria += c.criteria;
    home.set(c.path, lightest);
  }
  // Back in scope order: each leg runs (and reports) its contracts as an unsharded run would.
  for (const c of [...weighed].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    shares[home.get(c.path)!]!.paths.push(c.path);
  }
  return shares;
}

/**
 * `sha256:` of the whole ordered scope: the merge recomputes it from its own
 * checkout, so a shard that saw another scope (another commit, other inputs)
 * is caught even when its own contracts look right.
 */
export function scopeDigest(paths: readonly string[]): string {
  const sorted = [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `sha256:${createHash("sha256").update(JSON.stringify(sorted)).digest("hex")}`;
}
