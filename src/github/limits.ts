/**
 * Every GitHub size limit the gate fits within, and the one way text is cut
 * to fit them. Pure: the renderers in report/ (which size what they build)
 * and the adapter (which fits whatever it is handed before posting) both call
 * it, so the two can never disagree about what fits.
 *
 * One unit for every limit: UTF-8 bytes. GitHub's documentation gives the
 * check run's `output.summary` and `output.text` as "65535 characters", but
 * the API refuses a longer one with "exceeds a maximum bytesize of 65535"
 * (github/rest-api-description#5399, github/docs#35252): in practice the
 * limit is in bytes. Other limits are documented in characters. A text's
 * UTF-8 length is never below its UTF-16 length nor its code-point count
 * (one code unit takes 1–3 bytes, a surrogate pair 4), so a text within N
 * bytes is within N by every count GitHub may apply. The price: a title in
 * a script of 3-byte characters is cut at 85 of them rather than 255.
 */

/** GitHub's size limits, in UTF-8 bytes (see above). */
export const GITHUB_LIMITS = {
  /** A check run's `output.summary` and `output.text` each (refused above 65,535 bytes). */
  checkRunOutput: 65_535,
  /** An issue comment's body (documented as 65,536 characters). */
  commentBody: 65_536,
  /** An annotation's `title` (documented as 255 characters). */
  annotationTitle: 255,
  /** An annotation's `message` and `raw_details` each (documented as 64 KB; kept one under, as the renderers always have). */
  annotationDetail: 64 * 1024 - 1,
  /** The job summary of one step (documented as 1 MiB). */
  jobSummary: 1024 * 1024,
} as const;

/** Annotations per create/update request: a count, not a size, but GitHub's limit all the same. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** The marker a cut report or comment ends with: a reader sees that something is missing. */
export const TRUNCATION_NOTE = "\n\n… (truncated to fit GitHub's size limit)";
/** The marker a cut annotation field ends with: a title has no room for a sentence. */
export const ELLIPSIS = "…";

/** The size GitHub's limits count: UTF-8 bytes (a lone surrogate counts 3, as it is sent as U+FFFD). */
export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/**
 * `s` unchanged when it fits `max` UTF-8 bytes; otherwise its longest prefix
 * that fits with `marker` appended, cut between characters (never inside a
 * surrogate pair, so never inside a UTF-8 sequence). The result always fits:
 * when even the marker does not, the prefix goes without it. Fitting twice
 * changes nothing.
 */
export function fitBytes(s: string, max: number, marker: string = TRUNCATION_NOTE): string {
  if (utf8Bytes(s) <= max) return s;
  const markerBytes = utf8Bytes(marker);
  if (markerBytes > max) return s.slice(0, prefixEnd(s, max));
  return s.slice(0, prefixEnd(s, max - markerBytes)) + marker;
}

/** The end (in code units) of the longest prefix of `s` within `budget` UTF-8 bytes, between characters. */
function prefixEnd(s: string, budget: number): number {
  let used = 0;
  let i = 0;
  while (i < s.length) {
    const unit = s.charCodeAt(i);
    const pair = isHigh(unit) && i + 1 < s.length && isLow(s.charCodeAt(i + 1));
    const bytes = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (used + bytes > budget) break;
    used += bytes;
    i += pair ? 2 : 1;
  }
  return i;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The text fields of an annotation, as both the renderers and the adapter build them. */
interface AnnotationText {
  title?: string;
  message: string;
  raw_details?: string;
}

/** `a` with its title, message and raw details fitted to GitHub's limits (other fields and key order kept). */
export function fitAnnotationText<T extends AnnotationText>(a: T): T {
  const out = { ...a, message: fitBytes(a.message, GITHUB_LIMITS.annotationDetail, ELLIPSIS) };
  if (a.title !== undefined) out.title = fitBytes(a.title, GITHUB_LIMITS.annotationTitle, ELLIPSIS);
  if (a.raw_details !== undefined) {
    out.raw_details = fitBytes(a.raw_details, GITHUB_LIMITS.annotationDetail, ELLIPSIS);
  }
  return out;
}
