import { parseContract } from "../formats/index.js";
import { decodeContractText, fileTooLarge, MAX_CONTRACT_BYTES } from "../formats/text.js";
import { type Contract, type ContractKind, emptyHeader } from "../model/contract.js";

/**
 * One side (base or head) of a contract the PR touches: the parse the gate
 * itself uses, plus what the comparison needs that the model does not carry.
 */
export interface ContractVersion {
  path: string;
  contract: Contract;
  /** The decoded text (BOM and CRLF normalised); "" when it could not be decoded. */
  text: string;
  /** Plan contracts: the JSON value, `undefined` when the text is not JSON. */
  json?: unknown;
  /** Plan contracts: `sha256:` of the paired plan's bytes, `null` when there is none. */
  planDigest?: string | null;
}

/** The same parse the gate uses, plus the decoded text and (plan contracts) the JSON value. */
export function version(
  kind: ContractKind,
  path: string,
  bytes: Uint8Array,
  size: number,
  planDigest?: string | null,
): ContractVersion {
  if (size > MAX_CONTRACT_BYTES) {
    const contract: Contract = {
      kind,
      path,
      header: emptyHeader(kind, path),
      criteria: [],
      problems: [fileTooLarge(path, size)],
    };
    return { path, contract, text: "", ...(planDigest !== undefined ? { planDigest } : {}) };
  }
  const contract = parseContract(kind, path, bytes);
  const decoded = decodeContractText(path, bytes);
  const text = typeof decoded === "string" ? decoded : "";
  const out: ContractVersion = { path, contract, text };
  if (kind === "plan-contract") out.planDigest = planDigest ?? null;
  // JSON kinds keep the value: plan contracts and QR files are compared field by field.
  if (kind !== "oracle-contract") {
    try {
      out.json = JSON.parse(text);
    } catch {
      // Not JSON: plan contracts compare it as "cannot be listed" (planFindings), QR files not at all.
    }
  }
  return out;
}
