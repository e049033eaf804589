import type { Contract, ContractKind } from "../model/contract.js";
import { parseGatesLedger } from "./gates-ledger/index.js";
import { unnamedJsonMismatch } from "./json/kind-read.js";
import { parseKiroSpec } from "./kiro/index.js";
import { parseOpenspecChange, parseOpenspecSpec } from "./openspec/index.js";
import { parseOracleContract } from "./oracle-contract/index.js";
import { parsePlanContract } from "./plan-contract/index.js";
import { parsePlannerContext, parsePlannerPlan, parsePlannerQr } from "./planner/index.js";
import { parseSpec, parseSpeckitTasks } from "./spec/index.js";
import { parseWorkphasePlan, parseWorkphaseResearch } from "./workphase/index.js";

export { DEFAULT_CONTRACT_GLOBS, kindOf } from "./kinds/index.js";

const PARSERS: Readonly<Record<ContractKind, (path: string, bytes: Uint8Array) => Contract>> = {
  "plan-contract": parsePlanContract,
  "oracle-contract": parseOracleContract,
  "planner-plan": parsePlannerPlan,
  "planner-context": parsePlannerContext,
  "planner-qr": parsePlannerQr,
  "workphase-research": parseWorkphaseResearch,
  "workphase-plan": parseWorkphasePlan,
  "gates-ledger": parseGatesLedger,
  // One parser for both layouts: the first heading decides which.
  spec: parseSpec,
  "speckit-spec": parseSpec,
  "speckit-tasks": parseSpeckitTasks,
  "kiro-spec": parseKiroSpec,
  "openspec-change": parseOpenspecChange,
  "openspec-spec": parseOpenspecSpec,
};

/** Parse contract bytes of a known kind. Pure; never throws. */
export function parseContract(kind: ContractKind, path: string, bytes: Uint8Array): Contract {
  if (kind === "plan-contract")
    return unnamedJsonMismatch(path, bytes) ?? parsePlanContract(path, bytes);
  return PARSERS[kind](path, bytes);
}
