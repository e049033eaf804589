/**
 * The sticky comment's text as posted: the gate's marker, the head sha it was
 * computed for, then the report, within GitHub's comment limit. Pure.
 */
import { fitBytes, GITHUB_LIMITS, TRUNCATION_NOTE, utf8Bytes } from "./limits.js";

/** The hidden marker recording the head sha a sticky comment was computed for. */
export function shaMarker(sha: string): string {
  return `<!-- contract-gate:sha:${sha} -->`;
}

const SHA_MARKER_RE = /<!-- contract-gate:sha:([0-9A-Za-z]+) -->\n?/g;

/** The head sha recorded in a sticky comment body, if any. */
export function recordedSha(body: string): string | undefined {
  const m = /<!-- contract-gate:sha:([0-9A-Za-z]+) -->/.exec(body);
  return m?.[1];
}

/**
 * The body as posted: `marker` first (once, even when the body starts with
 * it), the sha marker, then the body, cut to GitHub's comment limit.
 */
export function composeStickyBody(marker: string, headSha: string, body: string): string {
  let clean = body.replace(SHA_MARKER_RE, "");
  // The marker must open the body: that is how the gate knows its comment (see `mine`).
  if (clean.startsWith(marker)) clean = clean.slice(marker.length).replace(/^\n/, "");
  const head = `${marker}\n${shaMarker(headSha)}\n`;
  return head + fitBytes(clean, GITHUB_LIMITS.commentBody - utf8Bytes(head), TRUNCATION_NOTE);
}
