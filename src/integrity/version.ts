import type { Contract } from "../model.js";

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
