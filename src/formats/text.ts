import type { Problem } from "../model/contract.js";
import { problem } from "../model/problems.js";

/** Contracts larger than this are refused unread: no honest contract is this big. */
export const MAX_CONTRACT_BYTES = 1024 * 1024;

/**
 * The problem for a file over the cap. `size` is the file's real size: a
 * reader stops at one byte past the cap, so the caller passes what it stat'ed.
 */
export function fileTooLarge(path: string, size: number): Problem {
  return problem(
    "file-too-large",
    { path, line: 1, column: 1 },
    `file is ${size} bytes; contracts are limited to ${MAX_CONTRACT_BYTES} bytes (1 MiB)`,
    { hint: "split the contract, or check that this path really is a contract" },
  );
}

/** A contract's text after input hygiene, ready for a line-based or JSON parser. */
export interface ContractText {
  /** BOM removed, every line ending (CRLF, CR, LF) turned into LF. */
  text: string;
  /** `text` split on LF; `lines[0]` is line 1. */
  lines: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Turn raw bytes into text, or into exactly one problem when the bytes are not
 * a plausible contract (too large, NUL bytes, invalid UTF-8). Nothing else of
 * such a file is read, so a binary or truncated file cannot yield half a model.
 */
export function decodeContract(path: string, bytes: Uint8Array): ContractText | Problem {
  const text = decodeContractText(path, bytes);
  return typeof text === "string" ? { text, lines: text.split("\n") } : text;
}

/**
 * `decodeContract` without the split into lines, for parsers that read the
 * text as a whole (JSON): the same checks, the same text, the same problems.
 */
export function decodeContractText(path: string, bytes: Uint8Array): string | Problem {
  if (bytes.length > MAX_CONTRACT_BYTES) return fileTooLarge(path, bytes.length);
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    return problem("nul-byte", positionOfByte(bytes, nul, path), "file contains a NUL byte", {
      hint: "contracts are UTF-8 text; a NUL byte means a binary or corrupted file",
    });
  }
  let text: string;
  try {
    // TextDecoder strips a leading UTF-8 BOM (ignoreBOM: false).
    text = utf8.decode(bytes);
  } catch {
    return problem(
      "invalid-utf8",
      positionOfByte(bytes, firstInvalidUtf8(bytes), path),
      "file is not valid UTF-8",
      { hint: "re-save the file as UTF-8 (without a legacy code page)" },
    );
  }
  // Most files have no CR at all; skip the regex pass for them.
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

export function isProblem(x: ContractText | Problem): x is Problem {
  return (x as Problem).code !== undefined;
}

/** 1-based line and column (in bytes of the line) of a byte offset. */
function positionOfByte(bytes: Uint8Array, offset: number, path: string) {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const b = bytes[i];
    if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { path, line, column: offset - lineStart + 1 };
}

/** Offset of the first byte that breaks UTF-8 well-formedness. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/** Map string offsets of a decoded text to 1-based line/column. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    // indexOf is a native scan: far faster than a per-character loop on large files.
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
      this.starts.push(i + 1);
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}
