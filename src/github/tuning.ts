/**
 * `CONTRACT_GATE_API_TUNING`: JSON overriding the API client's timeouts and
 * waits, for the fault tests (which use milliseconds where GitHub needs
 * seconds). Values can only be numbers within bounds, so at worst a workflow
 * that sets it fails sooner; it can never make a failed write look posted.
 */
import { z } from "zod";
import type { CreateOctokitOptions } from "./client.js";

const ms = z.number().int().min(0).max(3_600_000);
const TuningSchema = z
  .object({
    retries: z.number().int().min(0).max(10),
    retryDelayMs: ms,
    rateLimitTimeUnitMs: ms,
    maxRateLimitWaitSeconds: z.number().int().min(0).max(3600),
    writeSpacingMs: ms,
    requestTimeoutMs: ms.min(1),
    slowRequestNoticeMs: ms,
    budgetMs: ms,
  })
  .partial()
  .strict();

export type ApiTuning = Partial<
  Pick<
    CreateOctokitOptions,
    | "retries"
    | "retryDelayMs"
    | "rateLimitTimeUnitMs"
    | "maxRateLimitWaitSeconds"
    | "writeSpacingMs"
    | "requestTimeoutMs"
    | "slowRequestNoticeMs"
    | "budgetMs"
  >
>;

/** The tuning in `text`; `{}` (the defaults) when unset, and an error naming what is wrong otherwise. */
export function parseApiTuning(
  text: string | undefined,
): { ok: true; tuning: ApiTuning } | { ok: false; error: string } {
  if (!text) return { ok: true, tuning: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: "CONTRACT_GATE_API_TUNING is not JSON" };
  }
  const parsed = TuningSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      error: `CONTRACT_GATE_API_TUNING: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
    };
  }
  return { ok: true, tuning: parsed.data as ApiTuning };
}
