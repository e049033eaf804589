/**
 * How a line reads to a person, for catching keywords that look right on
 * the page but are not written exactly (`CHECK:` with a zero-width space, a
 * Cyrillic С, in lower case). Only used to find such near-misses: the grammar
 * itself stays exact ASCII, so a near-miss is an error, never a second spelling.
 */

// Letters from other scripts that render like the ASCII capitals (and digits)
// used by the grammar's keywords and markers. NFKC does not fold these.
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  "\u0410": "A",
  "\u0412": "B",
  "\u0421": "C",
  "\u0415": "E",
  "\u041D": "H",
  "\u0406": "I",
  "\u041A": "K",
  "\u041C": "M",
  "\u041E": "O",
  "\u0420": "P",
  "\u0405": "S",
  "\u0422": "T",
  "\u0425": "X",
  "\u0408": "J",
  "\u0500": "D",
  "\u051C": "W",
  "\u0430": "a",
  "\u0441": "c",
  "\u0435": "e",
  "\u0456": "i",
  "\u043E": "o",
  "\u0440": "p",
  "\u0455": "s",
  "\u0445": "x",
  "\u0501": "d",
  // Greek
  "\u0391": "A",
  "\u0392": "B",
  "\u0395": "E",
  "\u0397": "H",
  "\u0399": "I",
  "\u039A": "K",
  "\u039C": "M",
  "\u039D": "N",
  "\u039F": "O",
  "\u03A1": "P",
  "\u03A4": "T",
  "\u03A7": "X",
  "\u03BF": "o",
  // Colons and dots that read as `:` and `.`
  "\u2236": ":",
  "\uA789": ":",
  "\u02D0": ":",
  "\u0589": ":",
  "\u05C3": ":",
  "\u2024": ".",
};

const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "gu");
// Format characters (zero-width, bidi controls, soft hyphen, BOM), the
// blank letters that render as nothing, and control characters other than
// tab: a vertical tab or form feed shows as nothing, yet unlazy's `\s+`
// reads one as the indentation of an attribute.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const INVISIBLE = /[\p{Cf}\x00-\x08\x0B-\x1F\x7F-\x9F\u115F\u1160\u3164\uFFA0\u2800]/gu;
const INVISIBLE_CHAR = new RegExp(INVISIBLE.source, "u");
const ASCII = /^[\x20-\x7E\t]*$/;
// Spaces NFKC leaves alone that still read as blank (and that unlazy's `\s` matches).
const SPACES_NFKC_KEEPS = /[\u1680\u2028\u2029]/g;

/** The line as it reads: invisible characters removed, NFKC, look-alike letters folded. */
export function asRead(line: string): string {
  if (ASCII.test(line)) return line;
  return line
    .replace(INVISIBLE, "")
    .normalize("NFKC")
    .replace(SPACES_NFKC_KEEPS, " ")
    .replace(CONFUSABLE, (c) => CONFUSABLES[c]!);
}

/** What makes `written` differ from the exact ASCII form it reads as, for a message. */
export function difference(written: string): string {
  for (const c of written) {
    if (INVISIBLE_CHAR.test(c)) return `contains an invisible character (${codePoint(c)})`;
    if (!ASCII.test(c)) return `contains the non-ASCII character "${c}" (${codePoint(c)})`;
  }
  return `is written "${written}"`;
}

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}
