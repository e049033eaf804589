import { describe, expect, it } from "vitest";
import { secretValues } from "../src/process/env.js";
import { codeBlock, escapeInline } from "../src/report/markdown-escape.js";
import { noRedaction, REDACTED, redactDeep, redactorFor } from "../src/report/redact.js";
import { TEN_SECRETS } from "./helpers/secrets.js";

const SECRET = TEN_SECRETS.DATABASE_URL!;
const redact = redactorFor([SECRET]);
const b64 = (s: string) => Buffer.from(s).toString("base64");

/** The forms a check prints a value in, each beside the text it sits in. */
const ATTACKS: Record<string, string> = {
  plain: `connecting to ${SECRET} failed`,
  "split across lines": `${SECRET.slice(0, 9)}\n${SECRET.slice(9, 20)}\r\n${SECRET.slice(20)}`,
  "URL-encoded": `url=${encodeURIComponent(SECRET)}&x=1`,
  "form-encoded": `q=${encodeURIComponent(`a ${SECRET}`).replace(/%20/g, "+")}`,
  base64: `token: ${b64(SECRET)}`,
  "base64 inside longer base64 (shift 1)": b64(`x${SECRET}yz`),
  "base64 inside longer base64 (shift 2)": b64(`xy${SECRET}z`),
  "base64 wrapped at 12": b64(SECRET).replace(/(.{12})/g, "$1\n"),
  base64url: Buffer.from(SECRET).toString("base64url"),
  "markdown-escaped": escapeInline(`the url is ${SECRET}`),
  "in a code block": codeBlock(`line\n${SECRET}\nline`),
  "JSON-escaped": JSON.stringify({ out: `${SECRET.slice(0, 10)}\n${SECRET.slice(10)}` }),
};

describe("redactorFor: nothing published carries a secret", () => {
  for (const [form, text] of Object.entries(ATTACKS)) {
    it(`redacts the value ${form}`, () => {
      // Control: without the redactor the value is there to decode.
      expect(recovers(noRedaction(text))).toBe(true);
      const out = redact(text);
      expect(out).toContain(REDACTED);
      expect(recovers(out)).toBe(false);
    });
  }

  it("leaves the text around the value as it was", () => {
    expect(redact(`before ${SECRET} after`)).toBe(`before ${REDACTED} after`);
    expect(redact("nothing secret here")).toBe("nothing secret here");
  });

  it("keeps a JSON document valid", () => {
    const doc = JSON.stringify({ a: `x ${SECRET} y`, b: [SECRET] });
    expect(JSON.parse(redact(doc))).toEqual({ a: `x ${REDACTED} y`, b: [REDACTED] });
  });

  it("ignores values shorter than 8 characters", () => {
    expect(redactorFor(["true", "main123"])).toBe(noRedaction);
  });

  it("redacts inside objects, keeping their shape", () => {
    expect(redactDeep({ a: [SECRET, 1, { b: `(${SECRET})` }], n: null }, redact)).toEqual({
      a: [REDACTED, 1, { b: `(${REDACTED})` }],
      n: null,
    });
  });

  it("redacts every one of the ten variables of issue 31 in every form", () => {
    const all = redactorFor(Object.values(TEN_SECRETS));
    for (const value of Object.values(TEN_SECRETS)) {
      for (const text of [
        value,
        `${value.slice(0, 5)}\n${value.slice(5)}`,
        encodeURIComponent(value),
        b64(value),
      ]) {
        const out = all(text);
        expect(out, text).not.toContain(value);
        expect(out, text).not.toContain(b64(value).slice(2, 10));
      }
    }
  });
});

describe("secretValues", () => {
  it("is every job value outside the table, 8 characters or more, but paths and the table's own values", () => {
    const values = secretValues({
      ...TEN_SECRETS,
      PATH: "/usr/bin:/bin",
      GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
      SOME_OTHER_SHA: "0123456789abcdef0123456789abcdef01234567",
      RUNNER_TEMP: "/home/runner/work/_temp",
      SHORT: "abc",
      GRANTED_OR_NOT: "value-of-length",
      INPUT_CONTRACTS: ".claude/tasks/contracts/**/*.md",
      "INPUT_GITHUB-TOKEN": "ghs_input_token_value",
    });
    expect(values.sort()).toEqual(
      [...Object.values(TEN_SECRETS), "value-of-length", "ghs_input_token_value"].sort(),
    );
  });
});

/** Whether any form of SECRET can still be read out of `text`. */
function recovers(text: string): boolean {
  const flat = text.replace(/[\r\n]|\\[nr]/g, "");
  const plain = flat
    .replace(/\\(.)/g, "$1")
    .replace(/&amp;/g, "&")
    .replace(/\u2060/g, "");
  const decoded = [plain, decodeURIComponent(plain.replace(/\+/g, " "))];
  for (const m of plain.matchAll(/[A-Za-z0-9+/_-]{16,}/g)) {
    for (const shift of ["", "A", "AA", "AAA"]) {
      decoded.push(Buffer.from(shift + m[0], "base64").toString("latin1"));
    }
  }
  return decoded.some((d) => d.includes(SECRET.slice(4, 30)));
}
