import { z } from "zod";

/** Keys zod's message for unknown keys names; the rest are counted. */
const NAMED_KEYS = 10;

/**
 * `z.strictObject` whose own message for unknown keys names at most
 * NAMED_KEYS of them. zod's default joins every key, and a 1 MiB object
 * holds 10^5 keys: ~6 ms per MiB for a message the gate never shows (it
 * words unknown keys itself, one problem per key: zod-problems.ts). Only
 * that message differs from `z.strictObject`'s.
 */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, { error: unknownKeysMessage });
}

function unknownKeysMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "unrecognized_keys") return undefined;
  const keys = issue.keys as readonly string[];
  const named = keys
    .slice(0, NAMED_KEYS)
    .map((k) => `"${k}"`)
    .join(", ");
  const more = keys.length > NAMED_KEYS ? ` and ${keys.length - NAMED_KEYS} more` : "";
  return `Unrecognized key${keys.length > 1 ? "s" : ""}: ${named}${more}`;
}
