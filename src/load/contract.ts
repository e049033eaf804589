import { join } from "node:path";
import { checkDrift } from "../drift.js";
import { parseContract } from "../formats/index.js";
import type { Contract, ContractKind } from "../model.js";
import { problem, sortProblems } from "../problems.js";
import { readBoundedSync } from "./read.js";

/**
 * Read, parse and drift-check one contract in this thread. Synchronous, so a
 * worker can run a batch of them back to back; `loadContract` is the API.
 */
export function loadContractHere(root: string, relPath: string, kind: ContractKind): Contract {
  const read = readBoundedSync(join(root, relPath));
  if ("error" in read) {
    return {
      kind,
      path: relPath,
      header: emptyHeader(kind, relPath),
      criteria: [],
      problems: [
        problem(
          "file-unreadable",
          { path: relPath, line: 1, column: 1 },
          `${relPath} ${read.error}`,
        ),
      ],
    };
  }
  const contract = parseContract(kind, relPath, read.bytes);
  const header = contract.header;
  // Drift needs a well-formed hash field; a file that did not even parse as JSON has none.
  if (header.kind === "plan-contract" && !contract.problems.some((p) => p.code === "json-syntax")) {
    let planBytes: Uint8Array | undefined;
    if (header.planPath !== undefined) {
      const plan = readBoundedSync(join(root, header.planPath), Number.MAX_SAFE_INTEGER);
      planBytes = "bytes" in plan ? plan.bytes : undefined;
    }
    const drift = checkDrift(header, planBytes);
    contract.drift = drift.state;
    contract.problems = sortProblems([...contract.problems, ...drift.problems]);
  }
  return contract;
}

function emptyHeader(kind: ContractKind, path: string): Contract["header"] {
  return kind === "plan-contract"
    ? {
        kind,
        sourcePlanHashLocation: { path, line: 1, column: 1 },
        tasks: [],
        successCriteria: [],
      }
    : { kind };
}
