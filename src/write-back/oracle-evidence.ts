/**
 * Rewrite EVIDENCE lines of a markdown contract in place, like the format's
 * reference runner: the value after `EVIDENCE:` becomes the new outcome, and
 * every other byte (indentation, list markers, CRLF or LF, BOM, other lines)
 * stays exactly as it was. Pure: bytes in, bytes out.
 */
export interface EvidenceUpdate {
  /** 1-based line of the EVIDENCE attribute (as the parser reported it). */
  line: number;
  /** The new value, one line. */
  text: string;
}

// As the parser reads an attribute line: `s`, since a value may hold U+2028/U+2029.
const EVIDENCE = /^([ \t]*(?:[-*+][ \t]+)?EVIDENCE:)([ \t]*)(.*)$/s;

export function rewriteEvidence(
  bytes: Uint8Array,
  updates: readonly EvidenceUpdate[],
): { ok: true; bytes: Uint8Array } | { ok: false; message: string } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, message: "not valid UTF-8" };
  }
  // Split keeping each line's own terminator, so mixed endings survive.
  const parts = text.split(/(\r\n|\r|\n)/);
  const byLine = new Map(updates.map((u) => [u.line, u.text]));
  for (const [line, value] of byLine) {
    const idx = (line - 1) * 2;
    let content = parts[idx];
    if (content === undefined) return { ok: false, message: `line ${line} does not exist` };
    const bom = idx === 0 && content.startsWith("\uFEFF") ? "\uFEFF" : "";
    content = content.slice(bom.length);
    const m = EVIDENCE.exec(content);
    if (!m) return { ok: false, message: `line ${line} is not an EVIDENCE line` };
    const single = value.replace(/[\r\n]+/g, " ");
    parts[idx] = `${bom}${m[1]}${m[2] || " "}${single}`;
  }
  return { ok: true, bytes: new TextEncoder().encode(parts.join("")) };
}
