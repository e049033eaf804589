import { createHash } from "node:crypto";

// Here, below every stage, because discovery (`--committed`), the loader's drift,
// the base comparison and write-back all hash a plan the same way.

export const HASH_FORMAT = /^sha256:[0-9a-f]{64}$/;

/** `sha256:` + hex SHA-256 of the exact bytes, the format of `source_plan_hash`. */
export function planHash(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}
