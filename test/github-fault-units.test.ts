/** The pure parts of the GitHub fault handling: which rate limit, the API tuning, the signal exit codes. */
import { describe, expect, it } from "vitest";
import { failureClass } from "../src/github/errors.js";
import { clockTime, rateLimitOf } from "../src/github/rate-limit.js";
import { parseApiTuning } from "../src/github/tuning.js";

const NOW = Date.parse("2026-11-30T15:00:00Z");
const answer = (status: number, headers: Record<string, string>, message = "x") => ({
  status,
  message,
  response: { headers, data: { message } },
});

describe("rateLimitOf", () => {
  it("tells the limits apart and reads when they lift", () => {
    const secondary = rateLimitOf(
      answer(403, { "retry-after": "60" }, "You have exceeded a secondary rate limit."),
      NOW,
    );
    expect(secondary?.kind).toBe("secondary");
    expect(clockTime(secondary!.resetsAt!)).toBe("15:01:00 UTC");
    const primary = rateLimitOf(
      answer(403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(NOW / 1000 + 120) }),
      NOW,
    );
    expect(primary?.kind).toBe("primary");
    expect(clockTime(primary!.resetsAt!)).toBe("15:02:00 UTC");
    expect(rateLimitOf(answer(429, {}), NOW)).toEqual({ kind: "unnamed" });
  });

  it("a plain 403 or a 5xx is no rate limit (the control)", () => {
    expect(rateLimitOf(answer(403, {}, "Resource not accessible by integration"))).toBeUndefined();
    expect(rateLimitOf(answer(503, { "retry-after": "1" }))).toBeUndefined();
    expect(failureClass(answer(403, {}, "Resource not accessible by integration"))).toBe(
      "forbidden",
    );
    expect(failureClass(answer(429, {}))).toBe("rate-limit");
  });
});

describe("parseApiTuning", () => {
  it("takes bounded numbers and nothing else", () => {
    expect(parseApiTuning(undefined)).toEqual({ ok: true, tuning: {} });
    expect(parseApiTuning('{"requestTimeoutMs":200,"retryDelayMs":1}')).toEqual({
      ok: true,
      tuning: { requestTimeoutMs: 200, retryDelayMs: 1 },
    });
    expect(parseApiTuning("{")).toMatchObject({ ok: false });
    expect(parseApiTuning('{"requestTimeoutMs":0}')).toMatchObject({ ok: false });
    expect(parseApiTuning('{"baseUrl":"http://evil"}')).toMatchObject({ ok: false });
  });
});
