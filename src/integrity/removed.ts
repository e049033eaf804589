import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/**
 * `contract-removed`, for every kind: a contract of the base is gone at head,
 * renamed out of the globs, or became another kind. `message` says which, in
 * the kind's words; `before` says what the author could have done instead.
 */
export function contractRemoved(base: ContractVersion, message: string, before?: string): Finding {
  return finding({
    code: "contract-removed",
    contract: base.path,
    kind: base.contract.kind,
    path: base.path,
    line: 1,
    subject: "contract",
    message,
    ...(before !== undefined && { before }),
  });
}
