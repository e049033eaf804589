import type { Contract, ContractKind } from "../model.js";
import { parseOracleContract } from "./oracle-contract/index.js";
import { parsePlanContract } from "./plan-contract/index.js";

export { DEFAULT_CONTRACT_GLOBS, kindOf } from "./kinds.js";

/** Parse contract bytes of a known kind. Pure; never throws. */
export function parseContract(kind: ContractKind, path: string, bytes: Uint8Array): Contract {
  return kind === "plan-contract"
    ? parsePlanContract(path, bytes)
    : parseOracleContract(path, bytes);
}
