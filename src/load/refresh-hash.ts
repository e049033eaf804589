import { MAX_JSON_DEPTH } from "../formats/json/document.js";
import { isObject } from "../formats/json/raw.js";
import {
  entryOffset,
  isStringEntry,
  keyEntries,
  keyText,
  scanJson,
  stringEntryEnd,
} from "../formats/json/scan.js";
import { planHash } from "../formats/plan-hash.js";

export type RefreshResult =
  | { ok: true; bytes: Uint8Array; oldHash: string; newHash: string }
  | { ok: false; message: string };

const BOM = "\uFEFF";

/**
 * Return the contract bytes with only the `source_plan_hash` string replaced by
 * the plan's hash. Works on the original text (BOM, CRLF, spacing, key order
 * kept), so every other byte is unchanged. Pure: the caller reads and writes.
 */
export function refreshPlanHash(contractBytes: Uint8Array, planBytes: Uint8Array): RefreshResult {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(contractBytes);
  } catch {
    return { ok: false, message: "the contract is not valid UTF-8" };
  }
  const bom = text.startsWith(BOM) ? BOM : "";
  const body = text.slice(bom.length);
  // The contract parser's JSON reader: JSON.parse for validity and the value,
  // one iterative scan for positions. Linear, and no recursion a file of
  // `[[[[…` could overflow (jsonc-parser's tree, used before, did).
  // The scan comes first and stops at too deep nesting (no v1 contract is
  // deeper than 7), before JSON.parse reads a whole 1 MiB of `[[[[…`.
  const scan = scanJson(body, MAX_JSON_DEPTH);
  let root: unknown;
  try {
    root = scan && JSON.parse(body);
  } catch {
    root = undefined;
  }
  if (scan === undefined || !isObject(root)) {
    return {
      ok: false,
      message: "the contract is not a valid JSON object; run `contract-gate validate` on it",
    };
  }
  const keys = keyEntries(scan.tape, 0).filter(
    (entry) => keyText(body, scan.tape, entry) === "source_plan_hash",
  );
  if (keys.length > 1) {
    return { ok: false, message: "the contract has more than one source_plan_hash key; keep one" };
  }
  const key = keys[0];
  if (key === undefined) {
    return {
      ok: false,
      message:
        'the contract has no "source_plan_hash" key; add `"source_plan_hash": ""` to it first',
    };
  }
  const value = key + 1;
  const oldHash = (root as Record<string, unknown>).source_plan_hash;
  if (typeof oldHash !== "string" || !isStringEntry(body, scan.tape, value)) {
    return { ok: false, message: "source_plan_hash is not a string" };
  }
  const start = entryOffset(scan.tape, value);
  const end = stringEntryEnd(body, scan.tape, value);
  const newHash = planHash(planBytes);
  const updated = `${bom}${body.slice(0, start)}"${newHash}"${body.slice(end)}`;
  return { ok: true, bytes: new TextEncoder().encode(updated), oldHash, newHash };
}
