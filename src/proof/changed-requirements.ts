import type { RequirementModel } from "../model/contract.js";

/**
 * The requirements a PR adds or changes: on a new spec (no base version)
 * every one; otherwise each whose id is new or whose statement differs from
 * the base's. The seed's `[ADDED]`/`[MODIFIED]` tags are shown but decide
 * nothing: a requirement tagged `[ADDED]` in an earlier PR is an invariant
 * now, and its test must pass at base as well as at head. Pure.
 */
export function changedRequirements(
  base: RequirementModel | undefined,
  head: RequirementModel,
): Set<string> {
  const before = new Map((base?.requirements ?? []).map((r) => [r.id, r.text]));
  return new Set(
    head.requirements
      .filter((r) => r.tag !== "REMOVED")
      .filter((r) => base === undefined || before.get(r.id) !== r.text)
      .map((r) => r.id),
  );
}
