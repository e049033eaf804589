import type { Contract } from "../model/contract.js";
import { refusal } from "../model/refusal.js";

/**
 * What the gate knows about the run a successor would take part in. Either
 * field unknown (the CLI knows no PR branch; a caller that did not choose a
 * scope) leaves that reason out: it is never guessed.
 */
export interface RunContext {
  /** The PR's head branch: a successor whose `branch:` names another one is bound elsewhere. */
  headBranch?: string;
  /** The contracts in this run's scope (paths like the contracts'); a successor outside it runs nothing here. */
  scope?: ReadonlySet<string>;
}

/**
 * Why a contract that supersedes another runs nothing, or undefined when it
 * runs: refused (invalid, drifted, aborted), bound by `branch:` to another
 * branch than the PR's, or outside the run's scope. A successor that runs
 * nothing keeps none of the criteria it took over (docs/integrity.md). Pure.
 */
export function whyNotRun(successor: Contract, ctx: RunContext = {}): string | undefined {
  const refused = refusal(successor);
  if (refused === "aborted")
    return "it is aborted (`status: aborted`): an aborted contract runs nothing";
  if (refused !== undefined)
    return `it is ${refused}: the gate refuses it and runs none of its checks`;
  const bound =
    successor.header.kind === "oracle-contract" ? successor.header.branch?.trim() : undefined;
  if (bound && ctx.headBranch !== undefined && ctx.headBranch !== "" && bound !== ctx.headBranch) {
    return `its \`branch: ${bound}\` binds it to another branch than the pull request's (${ctx.headBranch})`;
  }
  if (ctx.scope !== undefined && !ctx.scope.has(successor.path)) {
    return "it is outside this run's scope, so none of its checks runs";
  }
  return undefined;
}
