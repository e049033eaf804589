/**
 * Why a contract-supplied path is not a safe repo-relative path, or `undefined`
 * when it is. Contracts name files the gate will read or run in; anything that
 * could point outside the checkout (absolute, drive letter, UNC, `..`) or be
 * read differently on another OS (backslashes, control characters) is refused
 * at validation time, before any check could act on it.
 */
export function unsafePathReason(value: string): string | undefined {
  if (value.length === 0) return "is empty";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(value)) return "contains a NUL or control character";
  if (value.startsWith("\\\\") || value.startsWith("//")) return "is a UNC or network path";
  if (/^[A-Za-z]:/.test(value)) return "starts with a drive letter";
  if (value.startsWith("/")) return "is absolute";
  if (value.startsWith("~")) return "starts with ~ (home directory)";
  if (value.includes("\\")) return "uses backslash separators (use /)";
  // The split only for a path that has ".." at all: contracts list 10^4 paths.
  if (value.includes("..") && value.split("/").includes("..")) return "contains a '..' segment";
  return undefined;
}

/** A segment that is empty (leading, trailing or doubled `/`, or no path at all) or `.`. */
const EMPTY_OR_DOT_SEGMENT = /(?:^|\/)\.?(?:\/|$)/;

/** Normalise a safe repo-relative path: drop `./` segments and duplicate or trailing slashes. */
export function normalizeRepoPath(value: string): string {
  // Most paths have no empty or `.` segment, and are their own normal form.
  if (!EMPTY_OR_DOT_SEGMENT.test(value)) return value;
  const parts = value.split("/").filter((s) => s !== "" && s !== ".");
  return parts.length === 0 ? "." : parts.join("/");
}
