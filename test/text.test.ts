import { describe, expect, it } from "vitest";
import { decodeContract, isProblem, LineIndex, MAX_CONTRACT_BYTES } from "../src/formats/text.js";

const enc = (s: string) => new TextEncoder().encode(s);

describe("decodeContract", () => {
  it("turns CRLF, CR and LF into the same lines", () => {
    const lf = decodeContract("a.md", enc("one\ntwo\nthree"));
    const crlf = decodeContract("a.md", enc("one\r\ntwo\r\nthree"));
    const cr = decodeContract("a.md", enc("one\rtwo\rthree"));
    expect(lf).toEqual({ text: "one\ntwo\nthree", lines: ["one", "two", "three"] });
    expect(crlf).toEqual(lf);
    expect(cr).toEqual(lf);
  });

  it("ignores a UTF-8 byte-order mark", () => {
    const out = decodeContract("a.md", new Uint8Array([0xef, 0xbb, 0xbf, ...enc("x: y")]));
    expect(out).toEqual({ text: "x: y", lines: ["x: y"] });
  });

  it("refuses invalid UTF-8 with the position of the first bad byte", () => {
    const out = decodeContract("a.md", new Uint8Array([...enc("ok\nab"), 0xc3, 0x28]));
    expect(isProblem(out) && out).toMatchObject({ code: "invalid-utf8", line: 2, column: 3 });
  });

  it("refuses overlong and surrogate encodings", () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
    ]) {
      const out = decodeContract("a.md", new Uint8Array(bad));
      expect(isProblem(out) && out.code).toBe("invalid-utf8");
    }
  });

  it("refuses NUL bytes with their position", () => {
    const out = decodeContract("a.md", new Uint8Array([...enc("a\r\nbc"), 0, ...enc("d")]));
    expect(isProblem(out) && out).toMatchObject({ code: "nul-byte", line: 2, column: 3 });
  });

  it("refuses files over 1 MiB without decoding them", () => {
    const out = decodeContract("a.md", new Uint8Array(MAX_CONTRACT_BYTES + 1).fill(0x61));
    expect(isProblem(out) && out.code).toBe("file-too-large");
    expect(isProblem(decodeContract("a.md", new Uint8Array(MAX_CONTRACT_BYTES).fill(0x61)))).toBe(
      false,
    );
  });
});

describe("LineIndex", () => {
  it("maps offsets to 1-based lines and columns", () => {
    const idx = new LineIndex("ab\ncd\n\nef");
    expect(idx.position(0)).toEqual({ line: 1, column: 1 });
    expect(idx.position(4)).toEqual({ line: 2, column: 2 });
    expect(idx.position(6)).toEqual({ line: 3, column: 1 });
    expect(idx.position(8)).toEqual({ line: 4, column: 2 });
  });
});
