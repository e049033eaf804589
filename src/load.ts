import { kindOf } from "./formats/index.js";
import { loadContractHere } from "./load/contract.js";
import { loadPooled, poolEnabled } from "./load/pool.js";
import type { Contract, ContractKind } from "./model.js";

export { serveLoadWorkers } from "./load/pool.js";
export { readBounded } from "./load/read.js";

/**
 * Read, parse and drift-check one contract. `relPath` is relative to `root`
 * with forward slashes; it is the path every problem reports. When the entry
 * module has enabled load workers, calls made together are batched and a
 * large batch is spread over threads; the contracts are the same either way.
 */
export async function loadContract(
  root: string,
  relPath: string,
  kind: ContractKind = kindOf(relPath) ?? "oracle-contract",
): Promise<Contract> {
  if (poolEnabled()) return loadPooled({ root, path: relPath, kind });
  return loadContractHere(root, relPath, kind);
}
