import type { Criterion, RequirementModel, SettledCriterion } from "../../model/contract.js";
import type { ProofVerdict, TestProof } from "../types.js";

type State = "met" | "unmet" | "error";

const STATE: Record<ProofVerdict, State> = {
  proven: "met",
  "invariant-holds": "met",
  "passes-at-base": "unmet",
  "survives-mutants": "unmet",
  "skipped-at-base": "unmet",
  "not-passing-at-head": "unmet",
  "invariant-broken": "unmet",
  "execution-error": "error",
};

/** Certain beats uncertain: one unmet requirement decides; an error only where nothing is unmet. */
const RANK: Record<State, number> = { met: 0, error: 1, unmet: 2 };

function settled(state: State, reason: string): SettledCriterion {
  return { status: state, blocking: state !== "met", reason };
}

/**
 * The spec's criteria with the proof's decision in place of `awaiting proof`
 * (docs/proof.md, "Grading"), pure: a requirement takes the worst state of
 * its mapped tests (proven or an invariant that holds: met; passes at base,
 * skipped at base, not passing at head, a broken invariant: unmet; an
 * execution error: error, blocking); an acceptance criterion no Verification
 * command proves takes the worst state of the requirements it names (unmet
 * before error). Every other criterion is returned as it was.
 */
export function settleWithProof(
  criteria: readonly Criterion[],
  model: RequirementModel,
  proof: TestProof,
): Criterion[] {
  const requirementIds = new Set(model.requirements.map((r) => r.id));
  const byRequirement = new Map<string, { state: State; reason: string }>();
  for (const id of requirementIds) {
    const tests = proof.tests.filter((t) => t.requirement === id);
    if (tests.length === 0) continue;
    let worst: { state: State; reason: string } | undefined;
    const reasons: string[] = [];
    for (const t of tests) {
      const state = STATE[t.verdict];
      reasons.push(
        `${t.file} > ${t.name}: ${t.reason}${t.warning ? ` (warning: ${t.warning})` : ""}`,
      );
      if (worst === undefined || RANK[state] > RANK[worst.state]) worst = { state, reason: "" };
    }
    byRequirement.set(id, { state: worst!.state, reason: reasons.join("; ") });
  }
  const acceptance = new Map(model.acceptance.map((a) => [a.id, a]));

  return criteria.map((c) => {
    if (c.settled?.status !== "awaiting-proof") return c;
    if (requirementIds.has(c.id)) {
      const r = byRequirement.get(c.id);
      return {
        ...c,
        settled: r
          ? settled(r.state, r.reason)
          : settled("error", `execution error: no proof ran for ${c.id}'s mapped test`),
      };
    }
    const a = acceptance.get(c.id);
    if (a === undefined) return c;
    const parts = a.refs.map((ref) => ({ id: ref.id, r: byRequirement.get(ref.id) }));
    let state: State = "met";
    for (const p of parts) {
      const s = p.r?.state ?? "error";
      if (RANK[s] > RANK[state]) state = s;
    }
    const said = parts
      .filter((p) => (p.r?.state ?? "error") === state)
      .map((p) => (p.r ? `${p.id} ${word(p.r.state)}` : `${p.id}: no proof ran`));
    return { ...c, settled: settled(state, `${state === "met" ? "met: " : ""}${said.join(", ")}`) };
  });
}

function word(s: State): string {
  return s === "met"
    ? "proven"
    : s === "unmet"
      ? "not proven"
      : "could not be proven (execution error)";
}
