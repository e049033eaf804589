/**
 * Redaction of the job's secret values from everything the gate publishes.
 * GitHub masks registered secrets in logs only, not in API payloads (check
 * runs, comments, job summaries), and a check prints what it likes. One pure
 * function over outgoing text, applied at every edge (docs/security.md, "Nothing
 * published carries a secret").
 */

/** What a redacted value becomes. */
export const REDACTED = "***";

/** Shorter values are left alone: `true`, `main`, a port number would be found everywhere. */
export const MIN_SECRET_LENGTH = 8;

/** `text` with every form of every secret replaced by `***`. Identity when there are no secrets. */
export type Redact = (text: string) => string;

/** The identity: no secret to look for. */
export const noRedaction: Redact = (text) => text;

/**
 * A redactor for `secrets` (values, each at least MIN_SECRET_LENGTH long).
 * It finds each value as it is, URL-encoded, and base64'd (standard and
 * URL-safe, at the three alignments a value has inside longer base64); in
 * each, line breaks are ignored (a value printed in pieces, base64 wrapped
 * at 76) and so is the escaping the surfaces add (markdown backslashes,
 * `&amp;`, `&lt;`, `&gt;`, a word joiner after `@`, JSON's `\"` and `\n`).
 */
export function redactorFor(secrets: readonly string[]): Redact {
  const needles = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    for (const form of formsOf(s)) {
      const canon = canonical(form).text;
      if (canon.length >= MIN_SECRET_LENGTH) needles.add(canon);
    }
  }
  if (needles.size === 0) return noRedaction;
  // Longest first: where forms overlap, the widest span is the one replaced.
  const list = [...needles].sort((a, b) => b.length - a.length);
  return (text) => redactText(text, list);
}

/** Every string inside `value` (a report object) redacted; the structure is kept. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (redact === noRedaction) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    // Plain objects only: anything else (a RegExp, a Date) holds no report text and is kept.
    if (v !== null && typeof v === "object" && isPlain(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Each chunk of a streamed document redacted (a value never spans two: chunks end between contracts). */
export function* redactChunks(chunks: Iterable<string>, redact: Redact): Generator<string> {
  for (const chunk of chunks) yield redact(chunk);
}

/** The forms a check can trivially print a value in. */
function formsOf(secret: string): string[] {
  const forms = [secret];
  const component = encodeURIComponent(secret);
  forms.push(component, component.replace(/%20/g, "+"), component.replace(/%2F/g, "/"));
  forms.push(encodeURI(secret));
  const bytes = Buffer.from(secret, "utf8");
  for (const shift of [0, 1, 2]) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const b64 = padded.toString("base64").replace(/=+$/, "");
    // Characters fully made of the value's own bits: after the shift's, before the last partial one.
    const from = Math.ceil((shift * 8) / 6);
    const to = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = b64.slice(from, to);
    forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...new Set(forms)];
}

const ENTITIES: readonly [string, string][] = [
  ["&amp;", "&"],
  ["&lt;", "<"],
  ["&gt;", ">"],
  ["&quot;", '"'],
  ["&#39;", "'"],
];

/**
 * The text with the surfaces' noise taken out, and where each remaining
 * character came from: line breaks (raw, or JSON's `\n`/`\r`) and word
 * joiners dropped, a backslash before punctuation dropped, an entity read as
 * its character.
 */
function canonical(text: string): { text: string; start: number[]; end: number[] } {
  const chars: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n" || c === "\r" || c === "\u2060") {
      i++;
      continue;
    }
    if (c === "\\") {
      const next = text[i + 1];
      if (next === "n" || next === "r") {
        i += 2;
        continue;
      }
      if (next !== undefined && /[!-/:-@[-`{-~]/.test(next)) {
        chars.push(next);
        start.push(i);
        end.push(i + 2);
        i += 2;
        continue;
      }
    }
    if (c === "&") {
      const entity = ENTITIES.find(([e]) => text.startsWith(e, i));
      if (entity) {
        chars.push(entity[1]);
        start.push(i);
        end.push(i + entity[0].length);
        i += entity[0].length;
        continue;
      }
    }
    chars.push(c);
    start.push(i);
    end.push(i + 1);
    i++;
  }
  return { text: chars.join(""), start, end };
}

function redactText(text: string, needles: readonly string[]): string {
  const canon = canonical(text);
  const spans: [number, number][] = [];
  for (const needle of needles) {
    let at = canon.text.indexOf(needle);
    while (at >= 0) {
      spans.push([canon.start[at]!, canon.end[at + needle.length - 1]!]);
      at = canon.text.indexOf(needle, at + needle.length);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let from = 0;
  for (const [s, e] of spans) {
    if (e <= from) continue;
    out += text.slice(from, Math.max(from, s)) + (s >= from ? REDACTED : "");
    from = e;
  }
  return out + text.slice(from);
}
