import { findNodeAtLocation, type ParseError, parseTree } from "jsonc-parser";
import { planHash } from "./drift.js";

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
  const errors: ParseError[] = [];
  const tree = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false });
  if (!tree || errors.length > 0 || tree.type !== "object") {
    return {
      ok: false,
      message: "the contract is not a valid JSON object; run `contract-gate validate` on it",
    };
  }
  const keys = (tree.children ?? []).filter(
    (prop) => prop.children?.[0]?.value === "source_plan_hash",
  );
  if (keys.length > 1) {
    return { ok: false, message: "the contract has more than one source_plan_hash key; keep one" };
  }
  const node = findNodeAtLocation(tree, ["source_plan_hash"]);
  if (!node) {
    return {
      ok: false,
      message:
        'the contract has no "source_plan_hash" key; add `"source_plan_hash": ""` to it first',
    };
  }
  if (node.type !== "string") {
    return { ok: false, message: "source_plan_hash is not a string" };
  }
  const newHash = planHash(planBytes);
  const updated = `${bom}${body.slice(0, node.offset)}"${newHash}"${body.slice(node.offset + node.length)}`;
  return {
    ok: true,
    bytes: new TextEncoder().encode(updated),
    oldHash: String(node.value),
    newHash,
  };
}
