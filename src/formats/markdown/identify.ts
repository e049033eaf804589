import { atxText } from "./lines.js";
import { asRead } from "./normalize.js";

const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/**
 * Whether any heading of the file, at any level and wherever it is, starts
 * with one of `names` (case-insensitive, look-alike letters read as what
 * they show): the markdown kinds' identifying headings. Generous on purpose:
 * a file that shows any of them is read as the kind and told everything
 * that is wrong with it; only a file with none is `foreign-file`.
 */
export function hasIdentifyingHeading(lines: readonly string[], names: readonly string[]): boolean {
  for (const line of lines) {
    const read = asRead(line);
    if (!HEADING.test(read)) continue;
    const text = atxText(read.trimStart()).toUpperCase();
    if (names.some((n) => text.startsWith(n))) return true;
  }
  return false;
}
