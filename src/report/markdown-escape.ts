/**
 * Text from contracts and command output goes into GitHub markdown (check
 * runs, PR comments, job summaries). None of it may mention people, inject
 * HTML, or break out of the code span or fence it is shown in.
 */

const WORD_JOINER = "\u2060";

/** Defuse @-mentions and team mentions: `@user` would notify someone. */
function defuseMentions(s: string): string {
  return s.replace(/@/g, `@${WORD_JOINER}`);
}

/** Inline text (paragraphs, table cells): no HTML, no markdown syntax, one line. */
export function escapeInline(s: string): string {
  const oneLine = s.replace(/\r?\n|\r/g, " ");
  const escaped = oneLine
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    // Markdown punctuation that could format, link, or end a table cell. Text
    // never starts a line here, so list and heading markers need no escape.
    .replace(/([\\`*_{}[\]#|~])/g, "\\$1");
  return defuseMentions(escaped);
}

/** A code span that no backtick in `s` can close early; newlines become spaces. */
export function codeSpan(s: string): string {
  const text = s.replace(/\r?\n|\r/g, " ");
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || text === "" ? " " : "";
  // A `|` would end a table cell even inside a code span (GFM tables split first).
  return `${fence}${pad}${defuseMentions(text.replace(/\|/g, "\\|"))}${pad}${fence}`;
}

/**
 * A fenced code block whose fence is longer than any backtick run inside, so
 * the content cannot close it. Content is shown verbatim (markdown and HTML are
 * not interpreted inside a fence, and mentions are not linked).
 */
export function codeBlock(s: string, info = "text"): string {
  const longest = Math.max(2, ...[...s.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip
  const clean = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
  // GitHub does not link mentions inside fences; defused anyway in case a renderer does.
  return `${fence}${info}\n${defuseMentions(clean.replace(/\n+$/, ""))}\n${fence}`;
}
