import type { Contract, Criterion } from "./contract.js";

/**
 * The order a contract's criteria run in, as steps: the criteria of one step
 * run together, a step only after the one before has ended (issue 32). It is
 * each kind's own runner's order: a plan contract's waves in order (a wave's
 * tasks are declared independent, so they run together); every other kind
 * one criterion after another in declared order, as a ledger's `gates.sh`
 * runs its oracles in one loop. The engine runs by it, and the base
 * comparison reads it: what ran before a check is part of what it checks.
 */
export function runOrder(contract: Contract): Criterion[][] {
  if (contract.header.kind !== "plan-contract") return contract.criteria.map((k) => [k]);
  const waveOf = new Map(contract.header.tasks.map((t) => [t.id, t.wave]));
  const wave = (k: Criterion) => waveOf.get(k.group ?? "") ?? 0;
  const waves = [...new Set(contract.criteria.map(wave))].sort((a, b) => a - b);
  return waves.map((w) => contract.criteria.filter((k) => wave(k) === w));
}
